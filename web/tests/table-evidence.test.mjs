// The player's clock as evidence (docs/spec.md §20.7), in Brazilian
// Portuguese, against a real `fairseed-server`: the page keeps what the table
// signs for its own seat, per hand, and offers each hand's items as a file.
// (a) Honest hands: the file the page offers is the one `fairseed verify
// RECORD --evidence FILE` holds to the service's record of the hand, and it
// finds nothing wrong. (b) The socket is altered on its way so that the
// record the page gets at a hand's end times the page's own seat out 20 s
// before the deadline the table signed for that turn: the page raises the
// early-timeout alarm, with its numbers, on the felt and on the hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_TABLES, cargoBin, serviceFixture, shot } from './harness.mjs';
import { SIZES, openPage, openTable, playUntil, withPolicy, recordTexts } from './table-play.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;

/** What the page keeps of table `id` in localStorage. */
function keptOf(page, id) {
  return page.evaluate((table) => JSON.parse(localStorage.getItem(`fairseed.table_evidence.${table}`)), id);
}

/** A Unix time in ms as a pt-BR page says it: the time of day to the millisecond. */
const clock = (ms) => new Intl.DateTimeFormat('pt-BR', {
  hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false,
}).format(new Date(ms));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message's JSON with its whole numbers beyond 2^53 (a hand's 63-bit seed)
 * kept digit for digit through a change: `change` gets the parsed message and
 * returns whether it changed it; the message's text, changed or as it was.
 */
function alteredText(text, change) {
  const msg = JSON.parse(text.replace(/:(\d{16,})(?=[,}\]])/g, ':"__big$1"'));
  if (!change(msg)) return text;
  return JSON.stringify(msg).replace(/"__big(\d+)"/g, '$1');
}

test('pt-BR: honest hands: the table\'s signed items are kept, offered as a file, and `fairseed verify --evidence` finds nothing wrong', { skip, timeout: 180_000 }, async () => {
  const page = await openPage(fx, 'pt', SIZES[0]);
  await withPolicy(page, { ais: [1], seats: 2 });
  const id = await openTable(page);
  // A listed hand the player acted in: its turn notices and the round's acknowledgements are kept for it.
  // (In a hand the AI folds before the player's first turn, only the acknowledgements are.)
  let n = null;
  await playUntil(page, async () => {
    const kept = await keptOf(page, id);
    const listed = await page.$$eval('#tb-hands li[data-hand] button[data-evidence]', (bs) => bs.map((b) => Number(b.dataset.evidence)));
    n = listed.find((h) => (kept?.hands?.[String(h)] || []).some((x) => x.type === 'turn' && x.seat === 0)) ?? null;
    return n !== null;
  }, 'pt: a listed hand with a turn of the player', 90_000);
  const item = `#tb-hands li[data-hand="${n}"]`;
  assert.equal(await page.textContent(`${item} button[data-evidence]`), 'Baixar prova');

  const kept = await keptOf(page, id);
  const items = kept.hands[String(n)];
  assert.match(kept.key, /^[0-9a-f]{64}$/);
  assert.ok(items.length >= 3, `hand ${n}: ${JSON.stringify(items)}`);
  // The seat's commit and reveal, acknowledged, and at least one turn of its own.
  assert.deepEqual([...new Set(items.filter((x) => x.type === 'ack').map((x) => x.kind))].sort(), ['commit', 'reveal']);
  assert.ok(items.some((x) => x.type === 'turn' && x.seat === 0 && x.hand === n && x.table === id), JSON.stringify(items));
  assert.ok(items.every((x) => x.hand === n && x.seat === 0 && /^[0-9a-f]{128}$/.test(x.sig)), JSON.stringify(items));

  // The file the hand offers: what was kept, under the table's key.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${item} button[data-evidence]`)]);
  assert.equal(download.suggestedFilename(), `evidence-${id}-hand-${n}.json`);
  const dir = mkdtempSync(join(tmpdir(), 'fairseed-evidence-'));
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const evidence = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(evidence, { scheme: 'holdem_evidence_v1', key: kept.key, items });

  // The service's record of the hand names the same key, and the real CLI holds the file to it.
  const record = (await recordTexts(page, id)).find((x) => JSON.parse(x).hand === n);
  assert.ok(record, `hand ${n}'s record`);
  assert.equal(JSON.parse(record).evidence_key, kept.key);
  const recordFile = join(dir, `hand-${n}.json`);
  writeFileSync(recordFile, record);
  const cli = process.env.FAIRSEED_BIN || cargoBin('fairseed-cli', 'fairseed');
  const run = spawnSync(cli, ['verify', recordFile, '--evidence', file, '--json'], { encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const found = JSON.parse(run.stdout);
  assert.deepEqual({ hand: found.hand, table: found.table, checked: found.checked, alarms: found.alarms },
    { hand: n, table: id, checked: items.length, alarms: [] });

  // Nothing wrong: no alarm on the felt or on any hand.
  assert.equal(await page.isHidden('#tb-alarm'), true);
  assert.equal(await page.$$eval('#tb-hands [data-alarm]', (l) => l.length), 0);
  await page.$eval(item, (e) => e.scrollIntoView({ block: 'start' }));
  await shot(page, 'evidence-pt-download', { fullPage: false });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('pt-BR: a record that times the page\'s seat out before the deadline the table signed: the alarm, on the felt and on the hand', { skip, timeout: 180_000 }, async () => {
  const page = await openPage(fx, 'pt', SIZES[1]);
  await withPolicy(page, { ais: [1], seats: 2 });
  /** hand → the turn notices the table signed for the page's seat */
  const turns = new Map();
  let altered = null;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((text) => server.send(text));
    server.onMessage((text) => {
      const msg = JSON.parse(String(text));
      if (msg.type === 'evidence' && msg.item.type === 'turn') {
        turns.set(msg.item.hand, [...(turns.get(msg.item.hand) || []), msg.item]);
      }
      if (msg.type === 'hand_end' && altered === null) {
        // The page's own action on a turn the table signed for it: timed out 20 s before that turn's deadline.
        ws.send(alteredText(String(text), (end) => {
          const turn = (turns.get(end.number) || []).find((x) => end.record.actions[x.actions]?.seat === x.seat);
          if (!turn) return false;
          const at = turn.deadline_ms - 20_000;
          end.record.actions[turn.actions].timed_out = true;
          end.record.actions[turn.actions].at = at;
          altered = { hand: end.number, action: turn.actions, at, deadline: turn.deadline_ms, signed: turn.server_ms };
          return true;
        }));
        return;
      }
      ws.send(text);
    });
  });
  await openTable(page);
  await playUntil(page, '#tb-alarm:not([hidden])', 'pt: the alarm', 90_000);
  const { hand: n, action, at, deadline, signed } = altered;
  const words = new RegExp(`^⚠ ${escape(`Mão ${n}: o registro da mesa diz que o seu tempo acabou (lugar 0, ação ${action}) às ${clock(at)}, 20.000 ms antes do prazo de ${clock(deadline)} que a mesa assinou para esta página às ${clock(signed)}: mais do que os 1.000 ms que os relógios da mesa podem diferir.`)}`);
  assert.match(await page.textContent('#tb-alarm [data-alarm="early_timeout"]'), words);
  const item = `#tb-hands li[data-hand="${n}"]`;
  await page.waitForSelector(`${item} .tb-alarm[data-alarm="early_timeout"]`);
  assert.match(await page.textContent(`${item} .tb-alarm[data-alarm="early_timeout"]`), words);
  // One alarm, on that hand only; its evidence is there to take away. The deal itself checks out.
  assert.equal(await page.$$eval('#tb-hands [data-alarm]', (l) => l.length), 1);
  assert.deepEqual(await page.$$eval(`${item} .poker-problems li`, (l) => l.map((x) => x.textContent)), []);
  assert.equal(await page.textContent(`${item} button[data-evidence]`), 'Baixar prova');
  await page.$eval('#tb-alarm', (e) => e.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(300);
  await shot(page, 'evidence-pt-alarm-felt', { fullPage: false });
  await page.$eval(item, (e) => e.scrollIntoView({ block: 'start' }));
  await shot(page, 'evidence-pt-alarm-hand', { fullPage: false });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A seat that withheld its per-hand value, in Brazilian Portuguese, against
// a real `fairseed-server`: three seats (the player, an AI, a second
// person). The page's value for the first hand's round the second person
// takes part in never reaches the table, yet the page is
// told the table took it (the socket is altered on its way): the table deals
// that hand without the player and records seat 0 as having withheld, and the
// page, which knows it sent its value, raises the alarm on the felt and on
// the hand. Once the table closes, the verifier's warning on that hand is a
// warning — neither a passing check nor a failure — in the hand list and on
// the Verify tab, in the player's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, serviceFixture, shot } from './harness.mjs';
import { SIZES, openPage, openTable, playUntil, withPolicy, leave, recordTexts } from './table-play.mjs';
import { startOpponent } from './opponent.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;

/** The alarm on hand `n`, in Brazilian Portuguese. */
const alarm = (n) => new RegExp(`^⚠ Mão ${n}: o registro da mesa diz que você reteve o seu valor, mas esta página o enviou e a mesa confirmou o recebimento\\. A mesa distribuiu esta mão sem você\\.`);
/** The verifier's warning on hand `n`, in Brazilian Portuguese. */
const warning = (n) => new RegExp(`^Mão ${n}: lugar 0 enviou a impressão digital do seu valor, depois reteve o valor e ficou fora desta mão\\. As regras permitem`);

test('pt-BR: the record names this page\'s seat as withholding a value the page sent: an alarm, then a warning', { skip, timeout: 180_000 }, async () => {
  const page = await openPage(fx, 'pt', SIZES[0]);
  await withPolicy(page, { ais: [1], seats: 3, action_ms: 3000, public: true });
  // The page's value for the first round the second person (seat 2) is in goes nowhere,
  // and the page hears back that the table took it.
  let dropped = null;
  const roundSeats = new Map();
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((text) => {
      const msg = JSON.parse(String(text));
      if (msg.type === 'hand_reveal' && dropped === null && (roundSeats.get(msg.hand) || []).includes(2)) {
        dropped = msg;
        ws.send(JSON.stringify({ type: 'ack', id: msg.id }));
        return;
      }
      server.send(text);
    });
    server.onMessage((text) => {
      const msg = JSON.parse(String(text));
      if (msg.type === 'state' && msg.table.round) roundSeats.set(msg.table.round.hand, msg.table.round.seats);
      ws.send(text);
    });
  });
  const id = await openTable(page);
  const opponent = await startOpponent(fx.browser, fx.service.base, id, 2);

  // The alarm, on the felt and on that hand of the list.
  await playUntil(page, '#tb-alarm:not([hidden])', 'pt: the alarm', 90_000);
  const n = dropped.hand;
  const item = `#tb-hands li[data-hand="${n}"]`;
  assert.match(await page.textContent('#tb-alarm'), alarm(n));
  await page.waitForSelector(`${item} .tb-alarm`);
  assert.match(await page.textContent(`${item} .tb-alarm`), alarm(n));
  await page.$eval('#tb-alarm', (e) => e.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(300);
  await shot(page, 'warnings-pt-alarm', { fullPage: false });

  // The record: seat 0 withheld, dealt out of hand 1.
  const record = JSON.parse((await recordTexts(page, id)).find((x) => JSON.parse(x).hand === n));
  assert.deepEqual(record.deal.withheld, [0]);
  assert.ok(!record.seats.some((s) => s.seat === 0), `seat 0 was dealt out of hand ${n}`);

  // Both people leave: the table closes, its secret is out, and hand 1 is verified whole.
  await leave(page, 'pt');
  await opponent.leave();
  await page.waitForSelector(`${item} .tb-warnings li[data-warning="withheld"]`, { timeout: 60_000 });
  const listed = await page.$eval(item, (li) => ({
    checks: [...li.querySelectorAll('.tb-checks li')].map((c) => ({ name: c.dataset.check, ok: c.dataset.ok === 'true' })),
    warnings: [...li.querySelectorAll('.tb-warnings li')].map((w) => w.textContent.replace(/^⚠ aviso: /, '')),
  }));
  // Every check passes; `withheld` is not among them (a seat did withhold): it is the warning.
  assert.deepEqual(listed.checks.filter((c) => !c.ok), []);
  assert.ok(!listed.checks.some((c) => c.name === 'withheld'), JSON.stringify(listed.checks));
  assert.equal(listed.warnings.length, 1);
  // Dealt out of the hand, the player gave it no seed: nothing of this page's own checks is a problem either.
  assert.deepEqual(await page.$$eval(`${item} .poker-problems li`, (l) => l.map((x) => x.textContent)), []);
  assert.match(listed.warnings[0], warning(n));
  await page.$eval(item, (e) => e.scrollIntoView({ block: 'start' }));
  await shot(page, 'warnings-pt-hand-list', { fullPage: false });

  // The same record on the Verify tab, with the table's secret now in it: valid, and the warning as a warning.
  const closed = (await recordTexts(page, id)).find((x) => JSON.parse(x).hand === n);
  assert.ok(closed, `hand ${n}'s record`);
  await page.click('#tab-verify');
  await page.fill('#v-records', closed);
  await page.click('#v-records-go');
  await page.waitForSelector('#records-detail .verdict');
  const card = await page.$eval('#records-detail .verdict', (v) => ({
    valid: v.dataset.valid,
    warn: [...v.querySelectorAll('.sentences li.warn')].map((li) => li.textContent.replace(/^⚠aviso: /, '')),
    bad: v.querySelectorAll('.sentences li.bad').length,
    details: [...v.querySelectorAll('.checks li.warn')].map((li) => li.dataset.warning),
  }));
  assert.equal(card.valid, 'true');
  assert.equal(card.bad, 0);
  assert.equal(card.warn.length, 1, JSON.stringify(card));
  assert.match(card.warn[0], warning(n));
  assert.deepEqual(card.details, ['withheld']);
  assert.equal(await page.$$eval('#records-withheld li', (l) => l.length), 0, 'one withheld value: no count');
  await page.$eval('#records-detail .verdict', (e) => e.scrollIntoView({ block: 'start' }));
  await shot(page, 'warnings-pt-verify', { fullPage: false });
  // The record twice over, as `fairseed verify` would count it: the seat, and in how many hands.
  await page.fill('#v-records', `${closed}\n${closed}`);
  await page.click('#v-records-go');
  await page.waitForSelector('#records-withheld li');
  assert.deepEqual(await page.$$eval('#records-withheld li', (l) => l.map((x) => x.textContent)),
    [`⚠ Nesta mesa (${id}), lugar 0 reteve o seu valor em 2 mãos.`]);
  await opponent.close();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

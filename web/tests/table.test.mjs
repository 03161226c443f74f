// The Table tab against a real `fairseed-server`: whole hands played against
// five AIs (check or call, by button and by keyboard), the coach answering
// from the player's own view, the verifiable-deal badge turning to verified
// after each hand (commitment seen before, seed, deck rebuilt, record
// replayed), a finished hand replayed step by step, no other seat's hole card
// in the page while a hand is played, and axe-core finding nothing at desktop
// and phone width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, serviceFixture, violations } from './harness.mjs';
import { topUpIfBusted } from './table-play.mjs';

const fx = serviceFixture();
const { skip } = fx;
/** A hand against five AIs: their turns (~0.7 s each), the showdown and the pause before the next. */
const HAND_MS = 90_000;

/**
 * Watches the page: every time it changes while a hand is being played, no
 * seat but the player's may show a card face. Returns what it saw.
 */
async function watchHoleCards(page) {
  await page.evaluate(() => {
    const seen = { checks: 0, leaks: [] };
    globalThis.holeWatch = seen;
    const look = () => {
      const felt = document.querySelector('#tb-table .felt');
      if (!felt || !felt.dataset.hand) return;
      seen.checks += 1;
      for (const c of felt.querySelectorAll('.seat:not(.mine) [data-card]')) seen.leaks.push(`hand ${felt.dataset.hand}: seat ${c.closest('.seat').dataset.seat} shows ${c.dataset.card}`);
      // Nowhere else on the Table tab either: the coach and the history show only the player's own and finished hands.
      const mine = new Set([...felt.querySelectorAll('.seat.mine [data-card], .board [data-card]')].map((x) => x.dataset.card));
      for (const c of document.querySelectorAll('#tb-coach [data-card]')) if (!mine.has(c.dataset.card)) seen.leaks.push(`coach shows ${c.dataset.card}`);
    };
    new MutationObserver(look).observe(document.querySelector('#panel-table'), { childList: true, subtree: true });
  });
}

/**
 * Plays until hand `n` has ended: check or call on every turn, by key when `keys`; with `raise`, R on the first turn;
 * a top-up when a hand took every chip.
 */
async function playHand(page, n, { keys, raise = false }) {
  const deadline = Date.now() + HAND_MS;
  let turns = 0;
  let raised = false;
  while (Date.now() < deadline) {
    if (await page.$(`#tb-hands li[data-hand="${n}"]`)) return { turns, raised };
    if (await page.isEnabled('#tb-call').catch(() => false)) {
      // The coach answers on the player's turn, from the player's view.
      await page.waitForSelector('#tb-suggest');
      assert.match(await page.textContent('#tb-equity'), /\d/);
      if (keys) {
        await page.focus('body');
        const r = raise && turns === 0 && await page.isEnabled('#tb-raise');
        await page.keyboard.press(r ? 'r' : 'c');
        raised ||= r;
      } else {
        await page.click('#tb-call');
      }
      turns += 1;
      await page.waitForFunction(() => document.querySelector('#tb-call').disabled || !document.querySelector('#tb-actions [data-my-turn="true"]'), null, { timeout: 10_000 }).catch(() => {});
    } else {
      await topUpIfBusted(page);
    }
    await page.waitForTimeout(150);
  }
  throw new Error(`hand ${n} did not end within ${HAND_MS} ms`);
}

test('hands against five AIs: the coach answers, each deal is verified, hands replay', { skip, timeout: 6 * HAND_MS }, async () => {
  const page = await newPage(fx.browser, { width: 1280, height: 800 });
  await page.goto(`${fx.service.base}/#table`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.check('#tb-coach-on');
  await watchHoleCards(page);
  await page.click('#tb-open');
  // Seated in seat 0 among five AIs, each with its permanent badge.
  await page.waitForSelector('#tb-table .seat.mine[data-seat="0"]');
  const badges = await page.$$eval('#tb-table .ai-badge', (els) => els.map((e) => e.textContent).sort());
  assert.deepEqual(badges, ['AI · level 1', 'AI · level 1', 'AI · level 2', 'AI · level 2', 'AI · level 3']);
  // The commitment is on the badge (hover or focus) while the hand is played.
  await page.waitForSelector('#tb-deal .deal-badge');
  await page.focus('#tb-deal .deal-badge');
  assert.equal(await page.isVisible('#tb-deal .badge-pop'), true);
  assert.match(await page.textContent('#tb-deal .badge-pop'), /[0-9a-f]{64}/);

  const first = await playHand(page, 1, { keys: false });
  await page.waitForSelector('#tb-hands li[data-hand="1"] .deal-badge[data-state="ok"]');
  const second = await playHand(page, 2, { keys: true, raise: true });
  await page.waitForSelector('#tb-hands li[data-hand="2"] .deal-badge[data-state="ok"]');
  assert.ok(first.turns + second.turns > 0, 'the player acted at least once');
  assert.equal(await page.$$eval('#tb-hands .poker-problems', (els) => els.length), 0);

  // The Tables tab lists the same hands, verified.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.hands')).filter((x) => x.scheme === 'selfpoker').map((x) => Boolean(x.seed)));
  assert.ok(stored.length >= 2 && stored.every(Boolean), JSON.stringify(stored));

  // The service's records of both hands: the player's actions are in them, the R key's raise among them.
  const records = await page.evaluate(async () => {
    const { parseExact } = await import('/js/json.js');
    const table = JSON.parse(localStorage.getItem('fairseed.table'));
    const token = JSON.parse(localStorage.getItem('fairseed.token'));
    const res = await fetch(`/v1/holdem/tables/${table}/hands`, { headers: { Authorization: `Bearer ${token}` } });
    return parseExact(await res.text()).hands.map((h) => ({ hand: h.hand, mine: h.actions.filter((a) => a.seat === 0).map((a) => a.action.kind) }));
  });
  assert.deepEqual(records.map((r) => r.hand).slice(0, 2), [1, 2]);
  if (second.raised) assert.ok(records[1].mine.includes('raise_to'), JSON.stringify(records));

  // The checks behind the badge fail when anything differs from what this browser saw.
  const checks = await page.evaluate(async () => {
    const { checkEnd, replayOf } = await import('/js/table-history.js');
    const { parseExact } = await import('/js/json.js');
    const { loadWasm } = await import('/js/wasm.js');
    const wasm = await loadWasm();
    const table = JSON.parse(localStorage.getItem('fairseed.table'));
    const token = JSON.parse(localStorage.getItem('fairseed.token'));
    const res = await fetch(`/v1/holdem/tables/${table}/hands`, { headers: { Authorization: `Bearer ${token}` } });
    const record = parseExact(await res.text()).hands[0];
    // The hand replayed as the page does while the session secret is not out.
    const replay = (r) => replayOf(wasm, r);
    const honest = replay(record);
    const hole = honest.deal.holes.find(([seat]) => seat === 0)[1];
    const entry = { commitment: record.commit, seat: 0, hole, board: honest.deal.board.slice(0, 3) };
    const fairplay = { commit: record.commit, seed: String(record.seed) };
    const other = honest.deal.holes.find(([seat]) => seat === 1)[1];
    const richer = { ...record, results: { ...record.results, stacks: record.results.stacks.map(([s, c]) => [s, s === 0 ? c + 100 : c]) } };
    return {
      honest: checkEnd(wasm, entry, fairplay, record, honest, null).length,
      otherHole: checkEnd(wasm, { ...entry, hole: other }, fairplay, record, honest, null),
      otherCommit: checkEnd(wasm, { ...entry, commitment: 'ab'.repeat(32) }, fairplay, record, honest, null).length,
      richer: checkEnd(wasm, entry, fairplay, richer, replay(richer), null),
      v2: checkEnd(wasm, entry, { ...fairplay, client_seeds: { 0: 'not mine' } }, record, honest, 'mine'),
    };
  });
  assert.equal(checks.honest, 0);
  assert.deepEqual(checks.otherHole, ['The deck rebuilt from the seed does not deal the cards you were shown.']);
  assert.equal(checks.otherCommit, 2);
  assert.equal(checks.richer.length, 1);
  assert.equal(checks.richer[0], 'The record does not replay under the rules to its own results.');
  assert.deepEqual(checks.v2, ['The seed was not derived with the client seed this browser chose.']);

  // Hand 1 step by step: the blinds, then every action, to the end.
  await page.click('#tb-hands [data-replay="1"]');
  await page.waitForSelector('#tb-replay .replay-step[data-step="0"]');
  assert.match(await page.textContent('#tb-replay'), /replays under the rules/);
  let steps = 1;
  while (await page.isEnabled('#tb-next')) {
    await page.click('#tb-next');
    steps += 1;
  }
  assert.ok(steps >= 3, `${steps} steps`);
  assert.match(await page.textContent('#tb-replay .step-title'), new RegExp(`Step ${steps} of ${steps}`));
  assert.match(await page.textContent('#tb-replay .replay-step'), /took [\d,]+ from the pot/);
  await shot(page, 'table-replay-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'table-replay-phone');

  const watch = await page.evaluate(() => globalThis.holeWatch);
  assert.ok(watch.checks > 10, `${watch.checks} looks`);
  assert.deepEqual(watch.leaks, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('axe-core: no violation on the Table tab at 1280×800 and 390×844, mid-hand with the coach on', { skip, timeout: 4 * HAND_MS }, async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const page = await newPage(fx.browser, { width, height });
    await page.goto(`${fx.service.base}/#table`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    await page.check('#tb-coach-on');
    await page.click('#tb-open');
    // The player's turn: the buttons live, the clock running, the coach answering.
    await page.waitForSelector('#tb-actions [data-my-turn="true"]', { timeout: HAND_MS });
    await page.waitForSelector('#tb-suggest');
    assert.deepEqual(await violations(page), [], `${width}×${height}`);
    await shot(page, `table-${width}`);
    await shot(page, `table-${width}-screen`, { fullPage: false });
    // Nothing is wider than the screen.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

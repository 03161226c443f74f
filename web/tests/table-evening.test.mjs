// A long evening at the table, in Portuguese on a desktop, against a real
// `fairseed-server` whose AIs act at once: 200 hands over three tables from
// one page load — the first with a timeout (then sitting back in) and a
// service restart (the page reconnects by itself), the second heads-up
// against a second person until the player is out of chips (then a top-up),
// the third to make up the 200. After each table is left, every hand it
// dealt is listed with every check the verifier makes, each passing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, serviceFixture, shot } from './harness.mjs';
import { openPage, openTable, leave, seatShown } from './table-play.mjs';
import { startOpponent } from './opponent.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;
const HANDS = 200;

/** The number of hands the list shows. */
const listed = (page) => page.$$eval('#tb-hands li[data-hand]', (items) => items.length);

/**
 * Plays (`key` on each of the player's turns: c to check or call, f to fold, null to let the clock run)
 * until `done()`; comes back by keyboard (Enter on the seat's main control)
 * when the seat is out in one of the `comeBack` states (all of them when true).
 */
async function playOn(page, done, what, { key = 'c', comeBack = true, ms = 240_000 } = {}) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    assert.ok(Date.now() < deadline, `${what}: not within ${ms} ms`);
    const seat = await seatShown(page);
    const out = comeBack === true ? ['busted', 'sat_out', 'timed_out', 'missed_round'] : comeBack || [];
    if (out.includes(seat)) {
      await page.focus('#tb-seat [data-main]').catch(() => {});
      await page.keyboard.press('Enter');
    } else if (key && await page.isEnabled('#tb-call').catch(() => false)) {
      await page.keyboard.press(key);
    }
    await page.waitForTimeout(25);
  }
}

/** Leaves, and checks every hand listed: every check there, each passing. Returns how many. */
async function leaveAndCheck(page, table) {
  await leave(page, 'pt');
  const n = await listed(page);
  await page.waitForFunction((count) => document.querySelectorAll('#tb-hands li[data-hand] .tb-checks').length === count, n, { timeout: 60_000 });
  const bad = await page.$$eval('#tb-hands li[data-hand]', (items) => items.flatMap((li) => [...li.querySelectorAll('.tb-checks li[data-ok="false"]')]
    .map((c) => `hand ${li.dataset.hand}: ${c.textContent}`)));
  assert.deepEqual(bad, [], `${table}: failed checks`);
  const fewest = await page.$$eval('#tb-hands .tb-checks', (lists) => Math.min(...lists.map((l) => l.children.length)));
  assert.ok(fewest >= 7, `${table}: a hand shows only ${fewest} checks`);
  await shot(page, `evening-${table}`, { fullPage: false });
  return n;
}

test(`a long evening: ${HANDS} hands over three tables, a timeout, a bust and a restart, every hand checked`, { skip, timeout: 900_000 }, async () => {
  const page = await openPage(fx, 'pt', { width: 1280, height: 800 });
  const policy = { action_ms: 3000 };
  await page.route('**/v1/holdem/tables', (route) => (route.request().method() === 'POST'
    ? route.continue({ postData: JSON.stringify({ ...JSON.parse(route.request().postData() || '{}'), ...policy }) })
    : route.continue()));
  let played = 0;

  // Table 1: AIs; a timeout, then sitting back in; a restart of the service, then on.
  await openTable(page);
  await playOn(page, async () => (await listed(page)) >= 10, 'table 1, 10 hands');
  await playOn(page, async () => (await seatShown(page)) === 'timed_out', 'table 1, a timeout', { key: null, comeBack: ['busted'], ms: 60_000 });
  await playOn(page, async () => (await listed(page)) >= 40, 'table 1, 40 hands');
  await fx.service.restart();
  await playOn(page, async () => (await listed(page)) >= 90, 'table 1, 90 hands');
  played += await leaveAndCheck(page, 'table-1');

  // Table 2: heads-up against a person who raises every hand; folding runs the player out of chips.
  Object.assign(policy, { ais: [], seats: 2, starting_stack: 150, action_ms: 30000, public: true });
  const id = await openTable(page);
  const opponent = await startOpponent(fx.browser, fx.service.base, id);
  await playOn(page, async () => (await seatShown(page)) === 'busted', 'table 2, out of chips', { key: 'f', comeBack: false, ms: 60_000 });
  await playOn(page, async () => (await listed(page)) >= 20, 'table 2, 20 hands after a top-up', { key: 'f' });
  // Both people leave: the table closes with the last one and reveals its secret.
  await opponent.leave();
  played += await leaveAndCheck(page, 'table-2');
  await opponent.close();

  // Table 3: AIs, to make up the evening.
  for (const k of ['ais', 'seats', 'starting_stack']) delete policy[k];
  policy.action_ms = 30000;
  await openTable(page);
  const need = HANDS - played;
  await playOn(page, async () => (await listed(page)) >= need, `table 3, ${need} hands`);
  played += await leaveAndCheck(page, 'table-3');
  assert.ok(played >= HANDS, `${played} hands`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

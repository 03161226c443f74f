// Poker hands in the Tables tab against a real `fairseed-server`: the page
// stores each hand's commitments before the cards, shows the player's own
// cards, then — after the player leaves and the table empties — verifies the
// proof records and the session record in the browser and compares them with
// what it stored: matching hands turn "verified", a hand whose stored
// commitment differs from the reveal is flagged with both values.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { callApi, launch, newPage, shot, startService, REPO } from './harness.mjs';

const HAVE_SERVER = existsSync(join(REPO, 'crates/server/Cargo.toml'));
const skip = !HAVE_SERVER && 'crates/server is not in this tree';

let service;
let browser;
before(async () => {
  if (!HAVE_SERVER) return;
  service = await startService();
  browser = await launch();
});
after(async () => { await browser?.close(); await service?.close(); });

/** Runs the page's poker watch until the server's latest state is in. */
async function poll(page) {
  await page.evaluate(async () => { await globalThis.fairseedTables.poll(); await globalThis.fairseedTables.poll(); });
}

test('poker hands: commitments stored before the cards, proofs and session record checked after', { skip }, async () => {
  const { base, operatorKey: op } = service;
  const page = await newPage(browser, { width: 1280, height: 900 });
  await page.goto(`${base}/#tables`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.token')));
  assert.match(token, /^[0-9a-f]{64}$/);

  // The game client sits the page's player and another one.
  const table = await callApi(base, 'POST', '/v1/poker/tables', op, { table_id: 'web1' });
  const other = (await callApi(base, 'POST', '/v1/players', '', {})).token;
  await callApi(base, 'POST', '/v1/poker/tables/web1/seats', token, { seat: 1, client_seed: 'page player', commitment: table.commitment });
  await callApi(base, 'POST', '/v1/poker/tables/web1/seats', other, { seat: 4, client_seed: 'other player', commitment: table.commitment });

  // Hand 1: before any street, the page stores its commitments and shows our cards.
  const hand1 = await callApi(base, 'POST', '/v1/poker/tables/web1/hands', op, {});
  await poll(page);
  const id1 = 'poker_hmac_v1:web1/s1#1';
  const badge1 = `[data-hand="${id1}"] .deal-badge`;
  assert.equal(await page.getAttribute(badge1, 'data-state'), 'wait');
  assert.match(await page.getAttribute(badge1, 'title'), new RegExp(hand1.hand_commitment));
  const view1 = await callApi(base, 'GET', '/v1/poker/tables/web1/hands/1', token);
  const shown = await page.$$eval(`[data-hand="${id1}"] .poker-hand .card`, (els) => els.map((e) => e.dataset.card));
  assert.equal(shown.length, 2);
  const stored = await page.evaluate((id) => JSON.parse(localStorage.getItem('fairseed.hands')).find((x) => x.id === id), id1);
  assert.deepEqual([stored.commitment, stored.deck_root, stored.session_commitment, stored.hole, stored.seen_street],
    [hand1.hand_commitment, hand1.deck_root, table.commitment, view1.hole, 0]);
  for (let s = 0; s < 3; s++) await callApi(base, 'POST', '/v1/poker/tables/web1/hands/1/street', op, {});

  // Hand 2, seen before its cards too; then this browser's stored commitment
  // is altered, standing for a server that publishes another one at the reveal.
  const hand2 = await callApi(base, 'POST', '/v1/poker/tables/web1/hands', op, {});
  await poll(page);
  const id2 = 'poker_hmac_v1:web1/s1#2';
  const forged = 'ab'.repeat(32);
  await page.evaluate(({ id, forged }) => {
    const hands = JSON.parse(localStorage.getItem('fairseed.hands'));
    hands.find((x) => x.id === id).commitment = forged;
    localStorage.setItem('fairseed.hands', JSON.stringify(hands));
  }, { id: id2, forged });
  await shot(page, 'tables-poker-committed-desktop');

  // The page's player leaves: a proof per hand, checked against the stored roots.
  const left = await callApi(base, 'POST', '/v1/poker/tables/web1/leave', token, {});
  assert.equal(left.records.length, 2);
  await poll(page);
  assert.equal(await page.getAttribute(badge1, 'data-state'), 'wait');
  assert.match(await page.textContent(badge1), /proven/);
  assert.equal(await page.getAttribute(`[data-hand="${id1}"] .poker-steps li:nth-child(2)`, 'data-done'), 'true');

  // The table empties: the session rotates and its record reveals the seed.
  await callApi(base, 'POST', '/v1/poker/tables/web1/leave', other, {});
  await poll(page);
  assert.equal(await page.getAttribute(badge1, 'data-state'), 'ok');
  assert.equal(await page.getAttribute(`[data-hand="${id1}"] .poker-steps li:nth-child(3)`, 'data-done'), 'true');
  const badge2 = `[data-hand="${id2}"] .deal-badge`;
  assert.equal(await page.getAttribute(badge2, 'data-state'), 'bad');
  const problem = await page.textContent(`[data-hand="${id2}"] .poker-problems`);
  assert.ok(problem.includes(forged) && problem.includes(hand2.hand_commitment), problem);
  await shot(page, 'tables-poker-checked-desktop');

  // Kept in this browser: the verdicts survive a reload.
  await page.reload();
  await page.waitForSelector(`${badge1}.ok`);
  await page.waitForSelector(`${badge2}.bad`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('phone width: the poker hands fit', { skip }, async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${service.base}/#tables`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${overflow}px wider than the phone`);
  await shot(page, 'tables-poker-phone');
  await page.close();
});

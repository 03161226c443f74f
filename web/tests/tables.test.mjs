// The Tables tab's "verifiable deal" badge: a commitment stored before the hand
// and the seed after it are checked automatically, and a reveal that does not
// match is flagged. Values come from the reference vectors (selfpoker made by
// NumPy's own code; poker hand values and commitments by the seeds' Node code).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStatic, launch, newPage, shot, vectorLines } from './harness.mjs';

let server;
let browser;
before(async () => { server = await startStatic(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('verifiable deal badges check selfpoker and poker reveals', async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await page.goto(`${server.url}/#tables`);
  await page.waitForFunction(() => globalThis.fairseedTables);
  const self = JSON.parse(vectorLines('selfpoker.jsonl')[2]);
  const poker = JSON.parse(vectorLines('poker_hmac_v1.jsonl')[0]);
  const hand = poker.outcome.hands[0];
  const states = await page.evaluate(({ self, poker, hand }) => {
    const t = globalThis.fairseedTables;
    t.seen({ scheme: 'selfpoker', label: 'hand 1', commitment: self.commit });
    const waiting = document.querySelector('[data-hand="selfpoker:hand 1"] .deal-badge').dataset.state;
    const good = t.revealed({ scheme: 'selfpoker', label: 'hand 1', seed: String(self.seed) });
    t.seen({ scheme: 'selfpoker', label: 'hand 2', commitment: self.commit });
    const bad = t.revealed({ scheme: 'selfpoker', label: 'hand 2', seed: String(BigInt(self.seed) + 1n) });
    t.seen({ scheme: 'poker_hmac_v1', label: 'table hand 1', commitment: poker.hands[0].hand_commitment });
    const pokerState = t.revealed({ scheme: 'poker_hmac_v1', label: 'table hand 1', seed: hand.hand_value });
    return { waiting, good, bad, pokerState };
  }, { self, poker, hand });
  assert.deepEqual(states, { waiting: 'wait', good: 'ok', bad: 'bad', pokerState: 'ok' });
  // The commitment shows on keyboard focus as on hover.
  await page.focus('[data-hand="selfpoker:hand 1"] .deal-badge');
  assert.equal(await page.isVisible('[data-hand="selfpoker:hand 1"] .badge-pop'), true);
  assert.match(await page.textContent('[data-hand="selfpoker:hand 1"] .badge-pop'), new RegExp(self.commit));
  await shot(page, 'tables-badges-desktop');
  // Stored in the browser: still there after a reload.
  await page.reload();
  await page.waitForSelector('[data-hand="selfpoker:hand 2"] .deal-badge.bad');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the offline verifier is downloadable from the Verify tab', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/#verify`);
  const href = await page.getAttribute('#v-offline', 'href');
  const res = await page.request.get(new URL(href, server.url).href);
  assert.equal(res.status(), 200);
  assert.match(await res.text(), /FAIRSEED_WASM_BASE64 = "AGFzbQ/);
  await page.close();
});

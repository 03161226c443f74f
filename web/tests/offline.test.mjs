// The offline verifier opened from file:// in a real Chromium: it verifies a
// poker Merkle proof and a selfpoker deck, and makes no request but its own
// document — counted by the browser, and forbidden by its CSP besides.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, newPage, shot, vectorLines, WEB } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const FILE = pathToFileURL(join(WEB, 'fairseed-verifier.html')).href;

async function verify(page, text) {
  await page.fill('#v-records', text);
  await page.click('#v-records-go');
  return page.$$eval('#records-verify-out .verdict', (els) => els.map((e) => ({
    valid: e.dataset.valid === 'true', cards: [...e.querySelectorAll('.card')].map((c) => c.dataset.card), text: e.textContent,
  })));
}

test('offline file verifies a poker proof and a selfpoker deck with no request', async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(FILE);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const before = requests.length;

  const proof = vectorLines('poker_hmac_v1_proof.jsonl')[0];
  const [p] = await verify(page, proof);
  assert.equal(p.valid, true, p.text.slice(0, 300));
  assert.equal(p.cards.length, JSON.parse(proof).leaves.length, 'one proven card per leaf');
  assert.match(p.text, /Merkle path/);
  await shot(page, 'offline-poker-proof-phone');

  const self = vectorLines('selfpoker.jsonl')[1];
  const [s] = await verify(page, self);
  assert.equal(s.valid, true, s.text.slice(0, 300));
  const rec = JSON.parse(self);
  // Every card of the deck rebuilt, holes and board shown too.
  assert.equal(s.cards.length, 52 + rec.players * 2 + 5);
  await shot(page, 'offline-selfpoker-phone');

  // Every other scheme too, from the same file.
  for (const scheme of ['match_seed_v2', 'match_seed_v1', 'chess_colour_v1', 'poker_hmac_v1', 'dice_v1']) {
    const lines = vectorLines(`${scheme}.jsonl`).slice(0, 10);
    const verdicts = await verify(page, lines.join('\n'));
    assert.equal(verdicts.length, lines.length);
    assert.ok(verdicts.every((v) => v.valid), `${scheme} verifies offline`);
  }
  assert.deepEqual(requests.slice(before), [], 'no request while verifying');
  assert.deepEqual(requests, [FILE], 'the only request is the file itself');
  assert.deepEqual(page.errors, []);
  await page.close();
});

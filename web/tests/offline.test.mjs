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

/** Verifies `text`; resolves with the summary's counts and the first record's card. */
async function verify(page, text) {
  await page.fill('#v-records', text);
  await page.click('#v-records-go');
  await page.waitForFunction(() => document.querySelector('#records-summary').dataset.done === 'true'
    && document.querySelector('#records-detail .verdict'));
  const counts = await page.$eval('#records-summary', (e) => ({ total: Number(e.dataset.total), valid: Number(e.dataset.valid) }));
  const first = await page.$eval('#records-detail .verdict', (e) => ({
    valid: e.dataset.valid === 'true', cards: [...e.querySelectorAll('.card')].map((c) => c.dataset.card), text: e.textContent,
  }));
  return { counts, first };
}

test('offline file verifies a poker proof and a selfpoker deck with no request', async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(FILE);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const before = requests.length;

  const proof = vectorLines('poker_hmac_v1_proof.jsonl')[0];
  const { first: p } = await verify(page, proof);
  assert.equal(p.valid, true, p.text.slice(0, 300));
  assert.equal(p.cards.length, JSON.parse(proof).leaves.length, 'one proven card per leaf');
  assert.match(p.text, /Merkle path/);
  await shot(page, 'offline-poker-proof-phone');

  const self = vectorLines('selfpoker.jsonl')[1];
  const { first: s } = await verify(page, self);
  assert.equal(s.valid, true, s.text.slice(0, 300));
  const rec = JSON.parse(self);
  // Every card of the deck rebuilt, holes and board shown too.
  assert.equal(s.cards.length, 52 + rec.players * 2 + 5);
  await shot(page, 'offline-selfpoker-phone');

  // Every other scheme too, from the same file.
  for (const scheme of ['match_seed_v2', 'match_seed_v1', 'chess_colour_v1', 'poker_hmac_v1', 'dice_v1']) {
    const lines = vectorLines(`${scheme}.jsonl`).slice(0, 10);
    const { counts } = await verify(page, lines.join('\n'));
    assert.deepEqual(counts, { total: lines.length, valid: lines.length }, `${scheme} verifies offline`);
  }
  // A bigger file runs through the same bulk verifier on the page (no worker can start here).
  const many = Array.from({ length: 30 }, () => vectorLines('dice_v1.jsonl')).flat();
  await page.setInputFiles('#v-file', { name: 'many.jsonl', mimeType: 'application/json', buffer: Buffer.from(many.join('\n')) });
  await page.waitForFunction((n) => document.querySelector('#records-summary').dataset.done === 'true'
    && document.querySelector('#records-summary').dataset.total === String(n), many.length);
  assert.equal(await page.$eval('#records-summary', (e) => Number(e.dataset.valid)), many.length);
  assert.deepEqual(requests.slice(before), [], 'no request while verifying');
  assert.deepEqual(requests, [FILE], 'the only request is the file itself');
  // In Portuguese too, from the switch, kept across a reload.
  await page.selectOption('#lang', 'pt');
  await page.waitForFunction(() => document.body.dataset.ready === 'true' && document.documentElement.lang === 'pt');
  assert.equal(await page.textContent('#v-records-go'), 'Verificar');
  const again = await verify(page, vectorLines('dice_v1.jsonl')[0]);
  assert.match(again.first.text, /Resultado \d{1,2},\d\d — confere|Válido/);
  // Core's errors in Portuguese, from their code and field.
  const bad = await verify(page, '{"scheme":"dice_v1","commitment":"00","server_seed":"zz"}');
  assert.match(bad.first.text, /Não dá para usar: (semente do servidor|hash da semente do servidor)|Falta: /);
  const notJson = await verify(page, '{"scheme": "dice_v1",');
  assert.match(notJson.first.text, /não é JSON/);
  assert.deepEqual(requests, [FILE, FILE], 'the reload asks for the file again, and nothing else');
  await shot(page, 'offline-pt-phone');
  assert.deepEqual(page.errors, []);
  await page.close();
});

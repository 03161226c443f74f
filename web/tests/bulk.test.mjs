// Verify with a big file, in a real Chromium: 200,000 dice records made here
// with Node's crypto following the dice site's reference code (independent of
// core), one roll tampered with and one line that is not JSON. The page must
// show the counts, go to the first problem, list rows without drawing them
// all, and never block its main thread for more than 100 ms (a long-task
// observer watches the whole run). The 1,000,000-record run is
// bench/verify-1m.mjs (docs/performance.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStatic, launch, newPage, shot, ARTIFACTS } from './harness.mjs';

const RECORDS = Number(process.env.FAIRSEED_BULK_RECORDS || 200_000);
const BAD_ROLL_AT = Math.floor(RECORDS * 0.6);
const GARBAGE_AT = Math.floor(RECORDS * 0.9);

/** The dice site's reference roll: HMAC-SHA512, 5-hex windows, reject >= 1e6. */
function roll(seed, client, nonce) {
  const hex = createHmac('sha512', seed).update(`${client}-${nonce}`).digest('hex');
  for (let i = 0; i * 5 + 5 <= hex.length; i++) {
    const lucky = parseInt(hex.slice(i * 5, i * 5 + 5), 16);
    if (lucky < 1_000_000) return lucky % 10000;
  }
  return 9999;
}

/** Writes the file; returns its path. Pairs change every 1000 bets. */
export function writeDiceFile(path, n, { badRollAt = -1, garbageAt = -1 } = {}) {
  const lines = [];
  let seed;
  let commitment;
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 0) {
      seed = createHash('sha256').update(`web-bulk-${i / 1000}`).digest('hex');
      commitment = createHash('sha256').update(seed).digest('hex');
    }
    if (i === garbageAt) {
      lines.push('{"scheme":"dice_v1", this line is cut');
      continue;
    }
    const nonce = i % 1000;
    let r = roll(seed, 'web-bulk-client', nonce);
    if (i === badRollAt) r = (r + 1) % 10000;
    lines.push(`{"scheme":"dice_v1","commitment":"${commitment}","server_seed":"${seed}","client_seed":"web-bulk-client","nonce":${nonce},"outcome":{"roll":${r}}}`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

let server;
let browser;
const dir = join(ARTIFACTS, 'bulk');
before(async () => {
  mkdirSync(dir, { recursive: true });
  server = await startStatic();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test(`a file of ${RECORDS} records: counts, first problem, a short list, no long task`, async () => {
  const file = writeDiceFile(join(dir, 'dice.jsonl'), RECORDS, { badRollAt: BAD_ROLL_AT, garbageAt: GARBAGE_AT });
  const page = await newPage(browser);
  await page.goto(`${server.url}/#verify`);
  await page.waitForSelector('#v-file');
  await page.evaluate(() => {
    globalThis.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: false });
  });
  const started = Date.now();
  await page.setInputFiles('#v-file', file);
  await page.waitForFunction(() => document.querySelector('#records-summary').dataset.done === 'true', null, { timeout: 120_000 });
  const seconds = (Date.now() - started) / 1000;
  const summary = await page.$eval('#records-summary', (e) => ({ ...e.dataset }));
  assert.deepEqual([summary.total, summary.valid, summary.invalid, summary.unreadable].map(Number), [RECORDS, RECORDS - 2, 1, 1]);
  // The first problem is selected and shown: the tampered roll, in the game's unit.
  await page.waitForSelector(`#records-detail .verdict[data-index="${BAD_ROLL_AT}"]`);
  assert.match(await page.textContent('#records-detail .sentences li.bad'), /Roll should be \d{1,2}\.\d\d, the record says \d{1,2}\.\d\d/);
  // Only the problems: two rows; the second is the line that is not JSON.
  await page.check('#records-only-problems');
  await page.waitForFunction(() => document.querySelectorAll('#records-list .row').length === 2);
  await page.click(`#records-list .row[data-index="${GARBAGE_AT}"]`);
  await page.waitForSelector(`#records-detail .verdict.error[data-index="${GARBAGE_AT}"]`);
  await page.uncheck('#records-only-problems');
  await page.click('#records-first-problem');
  await page.waitForSelector(`#records-detail .verdict[data-index="${BAD_ROLL_AT}"]`);
  // The list draws the rows on screen, not the file.
  const rows = await page.$$eval('#records-list .row', (r) => r.length);
  assert.ok(rows > 0 && rows < 60, `${rows} rows drawn`);
  // The last record can be scrolled to (the list is taller than a browser lets a box be).
  // One check in the page, retried until a deadline: the list may redraw its
  // rows between two separate look-ups.
  await page.$eval('#records-list', (list) => { list.scrollTop = list.scrollHeight; });
  await page.waitForFunction((last) => {
    const list = document.querySelector('#records-list');
    const row = list?.querySelector(`.row[data-index="${last}"]`);
    if (!row) return false;
    const box = row.getBoundingClientRect();
    const shown = list.getBoundingClientRect();
    return box.top >= shown.top - 1 && box.bottom <= shown.bottom + 1;
  }, RECORDS - 1, { timeout: 10_000 });
  const longTasks = await page.evaluate(() => globalThis.longTasks);
  const longest = Math.max(0, ...longTasks);
  console.log(`# ${RECORDS} records (${Math.round(summary.total)}): counts after ${seconds.toFixed(2)} s; ${longTasks.length} long tasks, longest ${Math.round(longest)} ms`);
  assert.ok(longest <= 100, `main thread blocked for ${Math.round(longest)} ms`);
  await shot(page, 'verify-bulk-desktop', { fullPage: false });
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Benchmark (not a test): a JSON Lines file of 1,000,000 dice_v1 records
// (≈ 334 MB, written by `crates/cli/examples/gen_dice.rs`) dropped into
// Verify in headless Chromium. Prints the time until the counts are shown,
// the longest main-thread task meanwhile (a long-task observer) and the
// page's JavaScript heap after the run.
//
//   cargo build --release -p fairseed-cli --example gen_dice
//   node bench/verify-1m.mjs [records]        (from web/, after `npm ci`)
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startStatic, launch, newPage, ARTIFACTS, REPO } from '../tests/harness.mjs';

const RECORDS = Number(process.argv[2] || 1_000_000);
const gen = join(process.env.CARGO_TARGET_DIR || join(REPO, 'target'), 'release/examples/gen_dice');
if (!existsSync(gen)) {
  console.error(`no ${gen}: cargo build --release -p fairseed-cli --example gen_dice`);
  process.exit(2);
}
const dir = join(ARTIFACTS, 'bench');
mkdirSync(dir, { recursive: true });
const file = join(dir, `dice-${RECORDS}.jsonl`);
let t = performance.now();
const made = spawnSync(gen, [String(RECORDS), file], { stdio: 'inherit' });
if (made.status !== 0) process.exit(2);
console.log(`wrote ${RECORDS} records, ${(statSync(file).size / 1e6).toFixed(0)} MB, in ${Math.round(performance.now() - t)} ms`);

const server = await startStatic();
const browser = await launch();
const page = await newPage(browser);
await page.goto(`${server.url}/#verify`);
await page.waitForSelector('#v-file');
await page.evaluate(() => {
  globalThis.longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: false });
});
t = performance.now();
await page.setInputFiles('#v-file', file);
await page.waitForFunction(() => document.querySelector('#records-summary').dataset.done === 'true', null, { timeout: 600_000 });
const wall = performance.now() - t;
// The last of a million rows can be scrolled to.
await page.$eval('#records-list', (list) => { list.scrollTop = list.scrollHeight; });
await page.waitForSelector(`#records-list .row[data-index="${RECORDS - 1}"]`);
const result = await page.evaluate(() => ({
  summary: { ...document.querySelector('#records-summary').dataset },
  text: document.querySelector('#records-summary').textContent,
  longTasks: globalThis.longTasks.length,
  longest: Math.max(0, ...globalThis.longTasks),
  heapMB: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null,
}));
console.log(JSON.stringify({ records: RECORDS, wallMs: Math.round(wall), ...result }));
console.log(`${result.summary.total} records (${result.summary.valid} valid): counts shown ${(wall / 1000).toFixed(2)} s after the file was given; `
  + `${result.longTasks} long tasks, longest ${Math.round(result.longest)} ms; JS heap ${result.heapMB?.toFixed(0)} MB`);
await browser.close();
await server.close();
rmSync(file, { force: true });
if (Number(result.summary.total) !== RECORDS || Number(result.summary.valid) !== RECORDS || result.longest > 100) process.exit(1);

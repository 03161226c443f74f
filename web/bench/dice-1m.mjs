// Benchmark (not a test): a revealed seed pair with 1,000,000 bets re-rolled and
// compared in the page's Web Worker, in headless Chromium.
//
//   node bench/dice-1m.mjs [bets]        (from web/, after `npm ci`)
//
// The bets are made here with Node's own crypto, following the dice seed's
// reference code literally (HMAC-SHA512, 5-hex windows, reject >= 1e6), so the
// browser's core is checked against an independent implementation while timed.
// Prints the worker time (bets already in the page) and the longest gap between
// animation frames on the main thread meanwhile (the page must not freeze).
import { createHmac, createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startStatic, launch, newPage, ARTIFACTS } from '../tests/harness.mjs';

const BETS = Number(process.argv[2] || 1_000_000);
const CHUNK = 50_000;
const serverSeed = createHash('sha256').update('fairseed web benchmark').digest('hex');
const clientSeed = 'bench-client-seed';

// The seed's reference roll (002_a8d10173013b09ab.txt), verbatim in substance.
function roll(seed, client, nonce) {
  const hex = createHmac('sha512', seed).update(`${client}-${nonce}`).digest('hex');
  for (let i = 0; i * 5 + 5 <= hex.length; i++) {
    const lucky = parseInt(hex.slice(i * 5, i * 5 + 5), 16);
    if (lucky < 1_000_000) return lucky % 10000;
  }
  return 9999;
}

const dir = join(ARTIFACTS, 'bench');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
let t = performance.now();
const files = [];
for (let start = 0; start < BETS; start += CHUNK) {
  const rows = [];
  for (let nonce = start; nonce < Math.min(BETS, start + CHUNK); nonce++) {
    const r = roll(serverSeed, clientSeed, nonce);
    const win = r < 4950;
    rows.push(`{"nonce":${nonce},"amount":100,"condition":"under","target":4950,"roll":${r},"win":${win},"payout":${win ? (100n * 9900n / 4950n) : 0}}`);
  }
  const name = `chunk-${files.length}.json`;
  writeFileSync(join(dir, name), `[${rows.join(',')}]`);
  files.push(`/test-artifacts/bench/${name}`);
}
console.log(`generated ${BETS} bets with node:crypto in ${Math.round(performance.now() - t)} ms`);

const server = await startStatic();
const browser = await launch();
const page = await newPage(browser);
await page.goto(`${server.url}/#verify`);
await page.waitForSelector('#v-records');
const results = [];
for (const workers of [1, 2]) {
const result = await page.evaluate(async ({ files, serverSeed, clientSeed, bets, workers }) => {
  const { runWorkers } = await import('/js/revealed.js');
  const fetched = performance.now();
  const buffers = await Promise.all(files.map((f) => fetch(f).then((r) => r.arrayBuffer())));
  const fetchMs = performance.now() - fetched;
  let frames = 0;
  let maxGap = 0;
  let last = performance.now();
  let running = true;
  const tick = (now) => {
    frames++;
    maxGap = Math.max(maxGap, now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const started = performance.now();
  const report = await runWorkers({ server_seed: serverSeed, client_seed: clientSeed, buffers, total: bets }, workers);
  const wall = performance.now() - started;
  running = false;
  return { workers, wall, workerMs: report.ms, checked: report.checked, mismatched: report.mismatched, fetchMs, frames, maxGap };
}, { files, serverSeed, clientSeed, bets: BETS, workers });
results.push(result);
console.log(JSON.stringify(result));
console.log(`${workers} worker(s): ${result.checked} bets re-rolled and compared in ${Math.round(result.wall)} ms wall `
  + `(slowest worker ${Math.round(result.workerMs)} ms incl. its wasm start; loading the bets beforehand: ${Math.round(result.fetchMs)} ms), `
  + `${result.mismatched} mismatches; main thread meanwhile: ${result.frames} frames, longest gap ${Math.round(result.maxGap)} ms`);
}
await browser.close();
await server.close();
rmSync(dir, { recursive: true, force: true });
if (results.some((r) => r.checked !== BETS || r.mismatched !== 0)) process.exit(1);

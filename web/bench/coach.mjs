// Benchmark (not a test): the coach's answer time in headless Chromium, on the
// spots the criterion bench measures natively (crates/holdem/benches/coach.rs).
// The Table tab asks the coach once per change of the player's view; each
// answer must take under 50 ms.
//
//   node bench/coach.mjs [runs]        (from web/, after `npm ci`)
//
// Prints, per spot, the median and the slowest of `runs` answers (wasm
// `coach`, JSON in and out, as the page calls it), and the method used.
import { startStatic, launch, newPage } from '../tests/harness.mjs';

const RUNS = Number(process.argv[2] || 50);
const server = await startStatic();
const browser = await launch();
const page = await newPage(browser);
await page.goto(`${server.url}/`);
const rows = await page.evaluate(async (runs) => {
  const { loadWasm } = await import('/js/wasm.js');
  const wasm = await loadWasm();
  const seats = (n) => Array.from({ length: n }, (_, seat) => ({ seat, stack: 9000, street_bet: 100, total: 300, folded: false }));
  const spot = (street, board, n) => JSON.stringify({ seat: 0, hole: [51, 46], board, street, button: 1, big_blind: 100, seats: seats(n), actions: [], to_call: 0, raise: [200, 9100] });
  const spots = [
    ['preflop, 6 players (sampled)', spot('preflop', [], 6)],
    ['flop, 3 players (sampled)', spot('flop', [0, 20, 40], 3)],
    ['flop, heads-up (sampled)', spot('flop', [0, 20, 40], 2)],
    ['turn, heads-up (exact)', spot('turn', [0, 20, 40, 33], 2)],
    ['river, heads-up (exact)', spot('river', [0, 20, 40, 33, 9], 2)],
    ['river, 3 players (sampled)', spot('river', [0, 20, 40, 33, 9], 3)],
  ];
  wasm.coach(spots[0][1], 0); // the evaluator's tables are built on first use
  return spots.map(([name, view]) => {
    const times = [];
    let advice;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      advice = JSON.parse(wasm.coach(view, i));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { name, median: times[Math.floor(runs / 2)], max: times[runs - 1], method: advice.method.kind };
  });
}, RUNS);
console.log(`coach answers in headless Chromium, ${RUNS} runs each`);
for (const r of rows) console.log(`${r.name.padEnd(32)} median ${r.median.toFixed(2).padStart(6)} ms   slowest ${r.max.toFixed(2).padStart(6)} ms   ${r.method}`);
await browser.close();
await server.close();

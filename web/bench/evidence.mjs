// Benchmark (not a test): a whole session's evidence held to its hand
// records in headless Chromium, as the page would check a table's history
// (docs/spec.md §20.7, docs/performance.md).
//
//   node bench/evidence.mjs [hands]     (from web/, after `npm ci`; default 10000)
//
// The records come from `fairseed table simulate` (FAIRSEED, default
// ../target/release/fairseed): six seats, seat 0 a person. The evidence is
// what the table would have signed for seat 0, signed here with Node's own
// Ed25519: a turn notice for each of seat 0's actions and the
// acknowledgements of its commit and reveal. Prints the time of one
// `holdem_evidence_check_session` call over every hand (median of 5), and
// the time of verifying every item's signature one by one, for comparison.
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startStatic, launch, newPage } from '../tests/harness.mjs';

const HANDS = Number(process.argv[2] || 10000);
const bin = process.env.FAIRSEED || fileURLToPath(new URL('../../target/release/fairseed', import.meta.url));
const lines = execFileSync(bin, ['table', 'simulate', '--seats', '6', '--hands', String(HANDS), '--seed', '7', '--client-seed', '0=me'],
  { maxBuffer: 1 << 30 }).toString().trim().split('\n');

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const key = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
const message = (n) => n.type === 'turn'
  ? `fairseed_evidence_v1:turn:${Buffer.byteLength(n.table)}:${n.table}:${n.hand}:${n.seat}:${n.actions}:${n.deadline_ms}:${n.server_ms}`
  : `fairseed_evidence_v1:ack:${Buffer.byteLength(n.table)}:${n.table}:${n.hand}:${n.seat}:${n.kind}:${n.value_hash}:${n.server_ms}`;
const signed = (n) => ({ ...n, sig: sign(null, Buffer.from(message(n)), privateKey).toString('hex') });

const items = [];
let t = 1_700_000_000_000;
for (const line of lines) {
  const r = JSON.parse(line);
  const table = r.deal.table_id;
  const commit = r.deal.hand_commits['0'];
  if (commit) {
    for (const kind of ['commit', 'reveal']) items.push(signed({ type: 'ack', table, hand: r.hand, seat: 0, kind, value_hash: commit, server_ms: t++ }));
  }
  r.actions.forEach((a, i) => {
    if (a.seat === 0) items.push(signed({ type: 'turn', table, hand: r.hand, seat: 0, actions: i, deadline_ms: t + 30_000, server_ms: t++ }));
  });
}
const records = `[${lines.join(',')}]`;
const evidence = JSON.stringify({ scheme: 'holdem_evidence_v1', key, items });

const server = await startStatic();
const browser = await launch();
const page = await newPage(browser);
await page.goto(`${server.url}/`);
const out = await page.evaluate(async ({ records, evidence, key }) => {
  const { loadWasm } = await import('/js/wasm.js');
  const wasm = await loadWasm();
  const times = [];
  let found = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    found = JSON.parse(wasm.holdem_evidence_check_session(records, evidence, key));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const all = JSON.parse(evidence).items;
  const t0 = performance.now();
  const few = all.slice(0, 2000);
  for (const item of few) wasm.holdem_evidence_item(key, JSON.stringify(item));
  const perItem = (performance.now() - t0) / few.length;
  return { median: times[2], hands: found.length, alarms: found.reduce((n, f) => n + f.alarms.length, 0), perItem, items: all.length };
}, { records, evidence, key });
console.log(`${out.hands} hands, ${out.items} signed items, ${out.alarms} alarms`);
console.log(`holdem_evidence_check_session: median ${out.median.toFixed(0)} ms of 5`);
console.log(`one item's signature alone: ${(out.perItem * 1000).toFixed(0)} µs (every item: ${(out.perItem * out.items / 1000).toFixed(1)} s)`);
await browser.close();
await server.close();

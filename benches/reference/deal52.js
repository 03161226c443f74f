// 52-card deals per second (match_seed_v2, bridge) with the seed's own reference
// code (seeds/000_48cb60ff5288ee4e.txt, "Verifique por si mesmo"), copied literally;
// only the inputs and the timing loop around it are new.
// Usage: node deal52.js [N]
const { createHash, createHmac } = require('crypto');
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
const word = (key, msg) => BigInt('0x' + createHmac('sha256', key).update(msg).digest('hex').slice(0, 13));

// The same inputs as crates/core/benches (bench_inputs.rs).
const serverSeed = "5f2a8f0d0c6a4e2b9d7c1e3f5a7b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b";
const game = 'bridge';
const matchId = 'bench-match';
const clientSeeds = ['north', 'east', 'south', 'west'];

// ---- copied from seeds/000_48cb60ff5288ee4e.txt ----
let k = 0;                                                  // 2. the draw stream: one counter per match
const seeds = clientSeeds.map((s, i) => i + '=' + s).join(',');
const next = () => word(serverSeed, 'pf2:' + game + ':' + matchId + ':' + seeds + ':' + (k++));
const SPAN = 1n << 52n;
function int(n) {                                           // 3. whole number below n, no modulo bias
  const N = BigInt(n), limit = SPAN - (SPAN % N);
  for (;;) { const w = next(); if (w < limit) return Number(w % N); }
}
const die = () => int(6) + 1;
function shuffle(a) {                                       // 4. Fisher–Yates from the top
  a = a.slice();
  for (let i = a.length - 1; i > 0; i--) { const j = int(i + 1); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}
// ---- end of copy ----

const n = Number(process.argv[2] || 20000);
const fresh = [...Array(52).keys()];
shuffle([0, 1, 2, 3]);                                      // the seat order comes first
let checksum = 0;
const t0 = process.hrtime.bigint();
for (let d = 0; d < n; d++) checksum += shuffle(fresh)[0];
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ what: "52-card deals (node reference)", n, secs, per_sec: n / secs, checksum }));

// Dice rolls per second with the seed's own reference code (seeds/002, "Código del motor"),
// copied literally; only the timing loop around it is new.
// Usage: node dice.js [N]
const { createHmac } = require("crypto");

// ---- copied from seeds/002_a8d10173013b09ab.txt ----
const WINDOW = 5;          // caracteres hex por ventana: 20 bits, 0..1048575
const REJECT = 1_000_000;  // el mayor múltiplo de 10000 que cabe en una ventana

function roll(serverSeed, clientSeed, nonce) {
  const hex = createHmac("sha512", serverSeed)
    .update(`${clientSeed}-${nonce}`)
    .digest("hex");                        // 128 caracteres

  // ventanas de 5 caracteres hex seguidos: 0-4, 5-9, ... 120-124
  for (let i = 0; i * WINDOW + WINDOW <= hex.length; i++) {
    const lucky = parseInt(hex.slice(i * WINDOW, i * WINDOW + WINDOW), 16);
    if (lucky < REJECT) return lucky % 10000;   // 0..9999
  }
  // se han descartado las 25 ventanas (probabilidad ~1e-33)
  return 9999;
}
// ---- end of copy ----

// The same inputs as crates/core/benches (bench_inputs.rs).
const serverSeed = "5f2a8f0d0c6a4e2b9d7c1e3f5a7b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b";
const clientSeed = "bench-client";
const n = Number(process.argv[2] || 1000000);
let sum = 0;
const t0 = process.hrtime.bigint();
for (let nonce = 0; nonce < n; nonce++) sum += roll(serverSeed, clientSeed, nonce);
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ what: "dice rolls (node reference)", n, secs, per_sec: n / secs, checksum: sum }));

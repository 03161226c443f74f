#!/usr/bin/env node
// fairseed test vectors from the source sites' own reference code.
//
// Runs the Node.js functions published by the table-games site (table games, poker,
// chess; reference/table-games.txt) and the dice site (reference/dice.txt), copied as
// literally as possible, over varied inputs, and writes records (docs/spec.md §10) and
// primitive vectors under tests/vectors/. Whatever the sites leave open is filled from
// docs/spec.md and marked with its section below.
//
// Node 20, no dependencies beyond `crypto`. Deterministic: every seed and choice comes
// from a fixed SHA-256 chain (class Det), so a rerun writes byte-identical files.
// Run `python3 tests/vectors/selfpoker.py` FIRST: the invalid-record section reads
// records/selfpoker.jsonl to tamper with it.
'use strict';

const fs = require('fs');
const path = require('path');

// ===== BEGIN copied verbatim from reference/table-games.txt =====
const { createHash, createHmac } = require('crypto');
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
const word = (key, msg) => BigInt('0x' + createHmac('sha256', key).update(msg).digest('hex').slice(0, 13));
// ===== END copied =====

// The site's int/die/shuffle close over one global `next`; to run many streams the
// verbatim lines are wrapped in a factory that receives the stream's `next`.
function drawsOver(next) {
  // ===== BEGIN copied verbatim from reference/table-games.txt =====
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
  // ===== END copied =====
  return { int, die, shuffle };
}

// match_seed_v2 stream: the site's own lines, with its globals turned into arguments.
function matchStreamV2(serverSeed, game, matchId, clientSeeds) {
  // ===== BEGIN copied verbatim from reference/table-games.txt =====
  let k = 0;                                                  // 2. the draw stream: one counter per match
  const seeds = clientSeeds.map((s, i) => i + '=' + s).join(',');
  const next = () => word(serverSeed, 'pf2:' + game + ':' + matchId + ':' + seeds + ':' + (k++));
  // ===== END copied =====
  return { ...drawsOver(next), counter: () => k };
}

// match_seed_v1: the site names it but gives no formula; docs/spec.md §5.9.
function matchStreamV1(serverSeed, game, matchId) {
  let k = 0;
  const next = () => word(serverSeed, 'pf1:' + game + ':' + matchId + ':' + (k++));
  return { ...drawsOver(next), counter: () => k };
}

// A bare stream `word(key, prefix + k)` (docs/spec.md §3.2) for the primitive vectors.
function bareStream(key, prefix, k0 = 0) {
  let k = k0;
  const next = () => word(key, prefix + (k++));
  return { ...drawsOver(next), counter: () => k };
}

// chess_colour_v1.
function chessWhite(seedA, commitA, clientA, seedB, commitB, clientB) {
  // ===== BEGIN copied verbatim from reference/table-games.txt =====
  const m = (k) => 'cc1:' + commitA + ':' + (commitB || '-') + ':0=' + clientA + ',1=' + clientB + ':' + k;
  // w = word(seedA, m(k)) XOR word(seedB, m(k)); int(2) over w as above → 0 means A plays White
  // ===== END copied =====
  // The site's comment above, as code; a bot "adds no seed" (docs/spec.md §6: w = word(seed_a, m(k)) alone).
  let k = 0;
  const next = () => {
    const kk = k++;
    return seedB === undefined ? word(seedA, m(kk)) : word(seedA, m(kk)) ^ word(seedB, m(kk));
  };
  return drawsOver(next).int(2) === 0 ? 'A' : 'B';
}

// poker_hmac_v1: one hand. `seatsMap` is {seat: clientSeed}.
function pokerHand(serverSeed, T, S, n, seatsMap) {
  // ===== BEGIN copied verbatim from reference/table-games.txt =====
  const handValue = createHmac('sha256', serverSeed).update('pk1:hand:' + T + ':' + S + ':' + n).digest('hex');
  // ===== END copied =====
  const handCommitment = sha256(handValue);                   // site: sha256(handValue) === handCommitment
  // Site comment: "deck = shuffle([0..51]); key = handValue; message = pk1:T:S:n:{seat}={seed},…:{k}; seats ↑"
  // written out per docs/spec.md §7.3 (seats in numeric ascending order).
  const seatNums = Object.keys(seatsMap).map(Number).sort((a, b) => a - b);
  const seats = seatNums.map((s) => s + '=' + seatsMap[s]).join(',');
  let k = 0;
  const next = () => word(handValue, 'pk1:' + T + ':' + S + ':' + n + ':' + seats + ':' + (k++));
  const deck = drawsOver(next).shuffle([...Array(52).keys()]);
  const tree = merkle(handValue, deck);
  // docs/spec.md §7.5 dealing: player j (seat ascending) gets deck[2j], deck[2j+1]; board deck[2p..2p+4].
  const holes = {};
  seatNums.forEach((s, j) => { holes[s] = [deck[2 * j], deck[2 * j + 1]]; });
  const p = seatNums.length;
  const board = deck.slice(2 * p, 2 * p + 5);
  return { handValue, handCommitment, deck, tree, holes, board, seatNums, streamCounter: k };
}

// Site comment, as code: "salt_i = HMAC(handValue, 'pk1:salt:' + i); leaf_i = sha256('pk1:leaf:' + i + ':' + card_i + ':' + salt_i)
// 64 leaves (52..63 = sha256('pk1:pad')), parent = sha256('pk1:node:' + left + right) → root".
// HMAC is HMAC-SHA256 (docs/spec.md §7.4 salt_i = hmac256).
function merkle(handValue, deck) {
  const salts = deck.map((_, i) => createHmac('sha256', handValue).update('pk1:salt:' + i).digest('hex'));
  const leaves = [];
  for (let i = 0; i < 64; i++) {
    leaves.push(i < 52 ? sha256('pk1:leaf:' + i + ':' + deck[i] + ':' + salts[i]) : sha256('pk1:pad'));
  }
  const levels = [leaves];
  while (levels[levels.length - 1].length > 1) {
    const lv = levels[levels.length - 1], up = [];
    for (let i = 0; i < lv.length; i += 2) up.push(sha256('pk1:node:' + lv[i] + lv[i + 1]));
    levels.push(up);
  }
  const root = levels[levels.length - 1][0];
  const proof = (i) => {
    const pathHashes = [];
    let idx = i;
    for (let l = 0; l < 6; l++) { pathHashes.push(levels[l][idx ^ 1]); idx >>= 1; }
    return { i, card: deck[i], salt: salts[i], path: pathHashes };
  };
  return { salts, leaves, levels, root, proof };
}

// Independent check of a proof (leaf level first), used as a self-test of the output.
function checkProof(root, leaf) {
  let h = sha256('pk1:leaf:' + leaf.i + ':' + leaf.card + ':' + leaf.salt), idx = leaf.i;
  for (const sib of leaf.path) {
    h = (idx & 1) === 0 ? sha256('pk1:node:' + h + sib) : sha256('pk1:node:' + sib + h);
    idx >>= 1;
  }
  return h === root;
}

// ===== BEGIN copied verbatim from reference/dice.txt =====
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

// pago: comisión del 1%, redondeo hacia abajo
const payout = (amount, chanceUnits) => amount * 9900n / BigInt(chanceUnits);
// ===== END copied =====

// For the primitive vectors only: the HMAC hex and the index of the first accepted window
// (25 when all are rejected). Cross-checked against roll() above on every use.
function rollDetail(serverSeed, clientSeed, nonce) {
  const hex = createHmac('sha512', serverSeed).update(`${clientSeed}-${nonce}`).digest('hex');
  let window = 25;
  for (let i = 0; i < 25; i++) {
    if (parseInt(hex.slice(i * WINDOW, i * WINDOW + WINDOW), 16) < REJECT) { window = i; break; }
  }
  const r = roll(serverSeed, clientSeed, nonce);
  const expect = window === 25 ? 9999 : parseInt(hex.slice(window * 5, window * 5 + 5), 16) % 10000;
  if (r !== expect) throw new Error('rollDetail disagrees with roll');
  return { hex, roll: r, window };
}

// docs/spec.md §8.3: chance and settlement around the site's roll() and payout().
function chanceOf(bet) { return bet.condition === 'under' ? bet.target : 9999 - bet.target; }
function settle(bet, r) {
  const chance = chanceOf(bet);
  if (!(chance >= 1 && chance <= 9800)) throw new Error('bet refused: chance ' + chance);
  const win = bet.condition === 'under' ? r < bet.target : r > bet.target;
  return { win, payout: win ? payout(BigInt(bet.amount), chance) : 0n };
}

// ---------------------------------------------------------------------------
// Deterministic choices: a SHA-256 chain per label.
class Det {
  constructor(label) { this.label = label; this.i = 0; }
  hex() { return sha256('fairseed-vectors:' + this.label + ':' + (this.i++)); }
  seed() { return this.hex(); }                       // 64 lowercase hex, a server seed
  below(n) { return Number(BigInt('0x' + this.hex()) % BigInt(n)); }
  range(a, b) { return a + this.below(b - a + 1); }   // a..b inclusive
  pick(arr) { return arr[this.below(arr.length)]; }
  sample(arr, m) { const a = arr.slice(); const out = []; while (out.length < m) out.push(a.splice(this.below(a.length), 1)[0]); return out; }
}

const utf8len = (s) => Buffer.byteLength(s, 'utf8');

// A 64-byte client seed mixing 2-byte letters with ',', '=' and ':'.
const SEED64 = 'ação,=:' + 'z'.repeat(55);
// Client seeds: unicode, CJK, commas, '=' and ':' inside, exactly 64 bytes, 1 byte, JSON escapes.
const CLIENT_SEEDS = [
  'ção🎲', '日本語のシード', '雀', '한국어', 'a,b,c', ',', 'x=1:y=2', '=', ':', '0=a,1=b', ':0=x,1=y:',
  'a'.repeat(64), '🎲'.repeat(16), 'é'.repeat(32), SEED64, 'x', '7', 'Z',
  'hello world', 'ñandú-🐧', 'quote"back\\slash', 'tab\there', '-', '1-2-3', 'seed-0', 'Ωμέγα', 'مرحبا',
];
for (const s of CLIENT_SEEDS) {
  const b = utf8len(s);
  if (b < 1 || b > 64) throw new Error('client seed out of range: ' + s);
}
if (utf8len(SEED64) !== 64) throw new Error('64-byte seed miscounted');
const IDENTS = [
  'm1', 'match-2024.11_30', 'a', 'Z', '0', 'x.y-z_w', 'A'.repeat(64),
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.', '...', '-_-', 'table.9',
];
for (const id of IDENTS) if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) throw new Error('bad ident ' + id);

function clientSeed(det) {
  // Mostly the hand-picked ones; sometimes a browser-style random hex proposal.
  return det.below(4) === 0 ? det.hex().slice(0, det.range(1, 64)) : det.pick(CLIENT_SEEDS);
}

// ---------------------------------------------------------------------------
// JSON: insertion-ordered keys, no spaces, BigInt as exact digits, every number an integer.
function ser(v) {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error('unsafe number ' + v);
    return String(v);
  }
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(ser).join(',') + ']';
  if (v && typeof v === 'object' && '__raw' in v) return v.__raw;   // literal JSON text (malformed inputs)
  return '{' + Object.keys(v).filter((k) => v[k] !== undefined).map((k) => JSON.stringify(k) + ':' + ser(v[k])).join(',') + '}';
}
// Pretty for primitives: top-level keys on their own lines, each array element on one line.
function pretty(obj) {
  const parts = Object.keys(obj).map((k) => {
    const v = obj[k];
    if (Array.isArray(v)) return '  ' + JSON.stringify(k) + ': [\n' + v.map((e) => '    ' + ser(e)).join(',\n') + '\n  ]';
    return '  ' + JSON.stringify(k) + ': ' + ser(v);
  });
  return '{\n' + parts.join(',\n') + '\n}\n';
}

const prettyArray = (arr) => '[\n' + arr.map((e) => '  ' + ser(e)).join(',\n') + '\n]\n';

const OUT = __dirname;
function writeFile(rel, text) {
  const p = path.join(OUT, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}
const jsonl = (recs) => recs.map(ser).join('\n') + '\n';

// ---------------------------------------------------------------------------
// match_seed_v2 / v1 (docs/spec.md §5, §10.2)
const GAMES = ['backgammon', 'checkers', 'xiangqi', 'tarneeb', 'trix', 'bridge', 'baloot', 'mahjong'];
const PLAYERS = { backgammon: 2, checkers: 2, xiangqi: 2, tarneeb: 4, trix: 4, bridge: 4, baloot: 4, mahjong: 4 };
const range = (n) => [...Array(n).keys()];

function matchOutcome(s, game, play, tiles) {
  const n = PLAYERS[game];
  const out = { seat_order: s.shuffle(range(n)) };
  if (game === 'backgammon') {
    out.games = play.games.map((moves) => {
      const opening = [];
      for (;;) { const r = [s.die(), s.die()]; opening.push(r); if (r[0] !== r[1]) break; }
      const rolls = range(moves).map(() => [s.die(), s.die()]);
      return { opening, rolls };
    });
  } else if (game === 'tarneeb' || game === 'trix' || game === 'bridge') {
    out.deals = range(play.deals).map(() => {
      const deck = s.shuffle(range(52));
      return range(4).map((i) => deck.slice(13 * i, 13 * i + 13));
    });
  } else if (game === 'baloot') {
    out.hands = play.hands.map(({ buyer }) => {
      const deck = s.shuffle(range(32));
      const first = range(4).map((i) => deck.slice(5 * i, 5 * i + 5));
      const face_up = deck[20];
      let second = null;
      if (buyer !== null) {
        const rest = s.shuffle(deck.slice(21, 32));
        let at = 0;
        second = range(4).map((seat) => { const c = seat === buyer ? 2 : 3; const r = rest.slice(at, at + c); at += c; return r; });
      }
      return { first, face_up, second };
    });
  } else if (game === 'mahjong') {
    out.hands = play.hands.map((draws) => {
      const wall = range(tiles);
      if (draws > wall.length) throw new Error('more draws than tiles');
      return range(draws).map(() => wall.splice(s.int(wall.length), 1)[0]);
    });
  }
  return out;
}

function matchRecord(version, serverSeed, game, matchId, clientSeeds, play, tilesField) {
  const tiles = tilesField === undefined ? 144 : tilesField;
  const s = version === 2 ? matchStreamV2(serverSeed, game, matchId, clientSeeds) : matchStreamV1(serverSeed, game, matchId);
  const outcome = matchOutcome(s, game, play, tiles);
  return {
    scheme: version === 2 ? 'match_seed_v2' : 'match_seed_v1',
    game, match_id: matchId, commitment: sha256(serverSeed), server_seed: serverSeed,
    client_seeds: version === 2 ? clientSeeds : undefined,
    play, tiles: tilesField, outcome,
  };
}

function randomPlay(det, game) {
  switch (game) {
    case 'backgammon': return { games: range(det.range(1, 4)).map(() => det.pick([0, 1, 2, 5, 17, 40])) };
    case 'tarneeb': case 'trix': case 'bridge': return { deals: det.range(1, 5) };
    case 'baloot': return { hands: range(det.range(1, 4)).map(() => ({ buyer: det.pick([null, 0, 1, 2, 3]) })) };
    case 'mahjong': return { hands: range(det.range(1, 3)).map(() => det.pick([0, 1, 13, 14, 60])) };
    default: return {};
  }
}

function genMatches() {
  const v2 = [], v1 = [];
  const det = new Det('match');
  const seedsFor = (game) => range(PLAYERS[game]).map(() => clientSeed(det));
  for (const game of GAMES) {
    const count = { backgammon: 6, checkers: 6, xiangqi: 6, tarneeb: 6, trix: 6, bridge: 6, baloot: 5, mahjong: 4 }[game];
    for (let r = 0; r < count; r++) {
      v2.push(matchRecord(2, det.seed(), game, det.pick(IDENTS), seedsFor(game), randomPlay(det, game)));
    }
  }
  // Backgammon: search seeds until the first game's opening ties once, twice, three times;
  // and a match whose later game opens with a tie.
  for (const ties of [1, 2, 3]) {
    const sd = new Det('bg-tie-' + ties);
    for (;;) {
      const rec = matchRecord(2, sd.seed(), 'backgammon', 'bg-tie-' + ties, ['ção🎲', 'x=1:y=2'], { games: [3, 0, 2] });
      if (rec.outcome.games[0].opening.length === ties + 1) { v2.push(rec); break; }
    }
  }
  {
    const sd = new Det('bg-tie-later');
    for (;;) {
      const rec = matchRecord(2, sd.seed(), 'backgammon', 'bg-later', ['a,b,c', '日本語のシード'], { games: [1, 4, 0, 2] });
      if (rec.outcome.games[0].opening.length === 1 && rec.outcome.games.slice(1).some((g) => g.opening.length > 1)) { v2.push(rec); break; }
    }
  }
  // Bridge/tarneeb/trix with several deals, including a long session.
  v2.push(matchRecord(2, det.seed(), 'bridge', 'bridge-long', seedsFor('bridge'), { deals: 12 }));
  v2.push(matchRecord(2, det.seed(), 'tarneeb', 'A'.repeat(64), seedsFor('tarneeb'), { deals: 8 }));
  v2.push(matchRecord(2, det.seed(), 'trix', 'trix.kingdom-4', seedsFor('trix'), { deals: 20 }));
  // Baloot: a buyer at each seat, nobody buying, and all mixed in one match.
  for (const buyer of [0, 1, 2, 3, null]) {
    v2.push(matchRecord(2, det.seed(), 'baloot', 'baloot-buyer-' + buyer, seedsFor('baloot'), { hands: [{ buyer }] }));
  }
  v2.push(matchRecord(2, det.seed(), 'baloot', 'baloot-mixed', seedsFor('baloot'), { hands: [0, null, 1, 2, null, 3, null].map((buyer) => ({ buyer })) }));
  v2.push(matchRecord(2, det.seed(), 'baloot', 'baloot-none', seedsFor('baloot'), { hands: [{ buyer: null }, { buyer: null }, { buyer: null }] }));
  // Mahjong: 144 (field absent or explicit) and 136 tiles, draw counts 0 .. full wall.
  v2.push(matchRecord(2, det.seed(), 'mahjong', 'mj-144-full', seedsFor('mahjong'), { hands: [144] }));
  v2.push(matchRecord(2, det.seed(), 'mahjong', 'mj-144-explicit', seedsFor('mahjong'), { hands: [0, 144, 53] }, 144));
  v2.push(matchRecord(2, det.seed(), 'mahjong', 'mj-136-full', seedsFor('mahjong'), { hands: [136] }, 136));
  v2.push(matchRecord(2, det.seed(), 'mahjong', 'mj-136-mixed', seedsFor('mahjong'), { hands: [0, 1, 135, 136, 52, 0] }, 136));
  v2.push(matchRecord(2, det.seed(), 'mahjong', 'mj-136-zero', seedsFor('mahjong'), { hands: [0] }, 136));
  v2.push(matchRecord(2, det.seed(), 'mahjong', 'mj-empty', seedsFor('mahjong'), { hands: [] }));
  // Edge plays: zero hands/deals/games.
  v2.push(matchRecord(2, det.seed(), 'bridge', 'bridge-zero', seedsFor('bridge'), { deals: 0 }));
  v2.push(matchRecord(2, det.seed(), 'backgammon', 'bg-none', seedsFor('backgammon'), { games: [] }));
  v2.push(matchRecord(2, det.seed(), 'baloot', 'baloot-zero', seedsFor('baloot'), { hands: [] }));
  // Client seeds at the byte limits, side by side.
  v2.push(matchRecord(2, det.seed(), 'checkers', 'limits', ['🎲'.repeat(16), 'x'], {}));
  v2.push(matchRecord(2, det.seed(), 'xiangqi', 'limits', ['a'.repeat(64), SEED64], {}));

  // match_seed_v1 for every game.
  const d1 = new Det('match-v1');
  for (const game of GAMES) {
    for (let r = 0; r < 3; r++) v1.push(matchRecord(1, d1.seed(), game, d1.pick(IDENTS), undefined, randomPlay(d1, game)));
  }
  v1.push(matchRecord(1, d1.seed(), 'mahjong', 'v1-mj-136', undefined, { hands: [136, 0, 20] }, 136));
  v1.push(matchRecord(1, d1.seed(), 'mahjong', 'v1-mj-144', undefined, { hands: [144] }, 144));
  v1.push(matchRecord(1, d1.seed(), 'baloot', 'v1-baloot', undefined, { hands: [0, 1, 2, 3, null].map((buyer) => ({ buyer })) }));
  v1.push(matchRecord(1, d1.seed(), 'bridge', 'v1-bridge', undefined, { deals: 6 }));
  {
    const sd = new Det('v1-bg-tie');
    for (;;) {
      const rec = matchRecord(1, sd.seed(), 'backgammon', 'v1-bg-tie', undefined, { games: [2, 2] });
      if (rec.outcome.games[0].opening.length >= 2) { v1.push(rec); break; }
    }
  }
  return { v2, v1 };
}

// ---------------------------------------------------------------------------
// chess_colour_v1 (docs/spec.md §6)
function chessRecord(seedA, clientA, seedB, clientB) {
  const commitA = sha256(seedA);
  const bot = seedB === undefined;
  const commitB = bot ? '-' : sha256(seedB);
  const cb = bot ? '' : clientB;
  const white = chessWhite(seedA, commitA, clientA, seedB, commitB, cb);
  return { scheme: 'chess_colour_v1', seed_a: seedA, commit_a: commitA, client_a: clientA, seed_b: seedB, commit_b: commitB, client_b: cb, outcome: { white } };
}
function genChess() {
  const det = new Det('chess');
  const recs = [];
  for (let i = 0; i < 24; i++) recs.push(chessRecord(det.seed(), clientSeed(det), det.seed(), clientSeed(det)));
  for (let i = 0; i < 12; i++) recs.push(chessRecord(det.seed(), clientSeed(det)));
  // Same seeds, A and B exchanged.
  const a = det.seed(), b = det.seed();
  recs.push(chessRecord(a, 'ção🎲', b, ',1='));
  recs.push(chessRecord(b, ',1=', a, 'ção🎲'));
  return recs;
}

// ---------------------------------------------------------------------------
// poker_hmac_v1 and poker_hmac_v1_proof (docs/spec.md §7, §10.4, §10.6)
function pokerRecord(serverSeed, T, S, handsIn) {
  const hands = [], outHands = [], dealt = [];
  for (const { n, seats } of handsIn) {
    const h = pokerHand(serverSeed, T, S, n, seats);
    const seatsObj = {};
    for (const s of h.seatNums) seatsObj[String(s)] = seats[s];
    const holes = {};
    for (const s of h.seatNums) holes[String(s)] = h.holes[s];
    hands.push({ n, seats: seatsObj, hand_commitment: h.handCommitment, deck_root: h.tree.root });
    outHands.push({ n, hand_value: h.handValue, deck: h.deck, deck_root: h.tree.root, holes, board: h.board });
    dealt.push(h);
  }
  const rec = { scheme: 'poker_hmac_v1', table: T, session: S, commitment: sha256(serverSeed), server_seed: serverSeed, hands, outcome: { hands: outHands } };
  return { rec, dealt };
}
function proofRecord(h, seat) {
  // A leaving player's own two positions, then the board's five (docs/spec.md §7.7).
  const j = h.seatNums.indexOf(seat);
  const p = h.seatNums.length;
  const positions = [2 * j, 2 * j + 1, ...range(5).map((x) => 2 * p + x)];
  const leaves = positions.map((i) => h.tree.proof(i));
  for (const l of leaves) if (!checkProof(h.tree.root, l)) throw new Error('proof self-check failed');
  return { scheme: 'poker_hmac_v1_proof', deck_root: h.tree.root, leaves, outcome: { cards: leaves.map((l) => ({ i: l.i, card: l.card })) } };
}
function genPoker() {
  const det = new Det('poker');
  const sessions = [], proofs = [];
  const seatsOf = (p) => {
    const nums = det.sample(range(10), p).sort((a, b) => a - b);
    const m = {};
    for (const s of nums) m[s] = clientSeed(det);
    return m;
  };
  const push = (serverSeed, T, S, handsIn, proofSeats) => {
    const { rec, dealt } = pokerRecord(serverSeed, T, S, handsIn);
    sessions.push(rec);
    dealt.forEach((h, hi) => {
      for (const seat of proofSeats(h, hi)) proofs.push(proofRecord(h, seat));
    });
  };
  // Random sessions, 2..10 players, 1..5 hands, the seated players changing between hands.
  for (let i = 0; i < 27; i++) {
    const nh = det.range(1, 5);
    let seats = seatsOf(2 + (i % 9));
    const handsIn = [];
    for (let n = 1; n <= nh; n++) {
      if (n > 1 && det.below(3) === 0) seats = seatsOf(det.range(2, 10));
      handsIn.push({ n, seats });
    }
    push(det.seed(), det.pick(IDENTS), det.pick(IDENTS), handsIn,
      (h, hi) => (i % 3 === 0 ? [h.seatNums[0]] : i % 3 === 1 && hi === 0 ? [h.seatNums[h.seatNums.length - 1]] : []));
  }
  // Named sparse seat sets.
  const fixed = [
    { 0: 'ção🎲', 3: 'a,b,c', 7: 'x=1:y=2', 9: '🎲'.repeat(16) },
    { 9: 'x', 0: '日本語のシード' },
    Object.fromEntries(range(10).map((s) => [s, CLIENT_SEEDS[s]])),
    { 2: ':', 5: '=', 8: ',' },
    { 1: 'a'.repeat(64), 4: SEED64, 6: 'é'.repeat(32) },
  ];
  fixed.forEach((seats, fi) => {
    push(det.seed(), 'T'.repeat(64 - fi), 'S' + fi, [1, 2, 3].map((n) => ({ n, seats })),
      (h, hi) => (hi === 1 ? h.seatNums : []));   // every player of hand 2 leaves
  });
  // A record holding a later slice of a session (hands need not start at 1).
  push(det.seed(), 'table.9', 'session-late', [{ n: 499, seats: fixed[0] }, { n: 500, seats: fixed[0] }], (h) => [h.seatNums[h.seatNums.length - 1]]);
  return { sessions, proofs };
}

// ---------------------------------------------------------------------------
// dice_v1 (docs/spec.md §8)
const MAX_SAFE = 2 ** 53 - 1;
function diceRecord(serverSeed, clientSeedS, nonce, bet) {
  const r = roll(serverSeed, clientSeedS, nonce);
  const outcome = { roll: r };
  if (bet) { const st = settle(bet, r); outcome.win = st.win; outcome.payout = st.payout; }
  return { scheme: 'dice_v1', commitment: sha256(serverSeed), server_seed: serverSeed, client_seed: clientSeedS, nonce, bet, outcome };
}
function randomBet(det) {
  const condition = det.pick(['under', 'over']);
  // target so that chance is 1..9800
  const target = condition === 'under' ? det.range(1, 9800) : det.range(199, 9998);
  const amount = det.pick([1, 2, 10, 100, 12345, 1000000, MAX_SAFE, det.range(1, 1e9)]);
  return { amount, condition, target };
}
function genDice(diceRoll) {
  const det = new Det('dice');
  const recs = [];
  // 1. Seed pairs played in sequence, nonce 0.., some rolls without a bet.
  for (let pair = 0; pair < 45; pair++) {
    const ss = det.seed(), cs = clientSeed(det);
    for (let nonce = 0; nonce < 40; nonce++) recs.push(diceRecord(ss, cs, nonce, det.below(5) === 0 ? undefined : randomBet(det)));
  }
  // 2. Chance edges 1 and 9800, both conditions, max amount; searched to win and to lose.
  const ss = det.seed();
  const edges = [
    { condition: 'under', target: 1 }, { condition: 'over', target: 9998 },
    { condition: 'under', target: 9800 }, { condition: 'over', target: 199 },
  ];
  for (const e of edges) {
    for (const want of [true, false]) {
      for (const amount of [1, MAX_SAFE, 3]) {
        const cs = 'edge-' + e.condition + e.target + '-' + amount;
        for (let nonce = 0; ; nonce++) {
          const r = roll(ss, cs, nonce);
          const win = e.condition === 'under' ? r < e.target : r > e.target;
          if (win === want) { recs.push(diceRecord(ss, cs, nonce, { amount, condition: e.condition, target: e.target })); break; }
        }
      }
    }
  }
  // 3. roll == target (a tie loses, both conditions); target 0 over and 9999 under.
  for (let i = 0; i < 10; i++) {
    const s2 = det.seed(), cs = clientSeed(det), nonce = det.range(0, 1000);
    const r = roll(s2, cs, nonce);
    for (const condition of ['under', 'over']) {
      const chance = chanceOf({ condition, target: r });
      if (chance >= 1 && chance <= 9800) recs.push(diceRecord(s2, cs, nonce, { amount: det.range(1, 5000), condition, target: r }));
    }
  }
  // 4. Large nonces up to 2^53-1.
  for (const nonce of [MAX_SAFE, MAX_SAFE - 1, 2 ** 32, 2 ** 32 - 1, 2 ** 31, 1e15, 123456789012345]) {
    recs.push(diceRecord(det.seed(), clientSeed(det), nonce, randomBet(det)));
    recs.push(diceRecord(det.seed(), clientSeed(det), nonce));
  }
  // 5. Every client seed in the list.
  for (const cs of CLIENT_SEEDS) recs.push(diceRecord(det.seed(), cs, det.range(0, 99), randomBet(det)));
  // 6. Rolls that hit rejected windows (first window >= 1000000), found by searching nonces.
  for (const c of diceRoll) if (c.window >= 1) {
    recs.push(diceRecord(c.server_seed, c.client_seed, c.nonce, det.below(2) ? randomBet(det) : undefined));
  }
  return recs;
}

// The dice_roll.json primitive cases, shared with genDice's rejected-window records.
function genDiceRoll() {
  const det = new Det('dice-roll');
  const cases = [];
  for (let i = 0; i < 40; i++) {
    const ss = det.seed(), cs = clientSeed(det), nonce = det.pick([0, 1, det.range(0, 1e6), MAX_SAFE]);
    cases.push({ server_seed: ss, client_seed: cs, nonce, ...rollDetail(ss, cs, nonce) });
  }
  // Search nonces for rejected windows: 1 (several), 2 (several), 3 and 4 if found in budget.
  const want = { 1: 30, 2: 12, 3: 4, 4: 1 };
  const got = { 1: 0, 2: 0, 3: 0, 4: 0 };
  const searches = [
    { ss: det.seed(), cs: 'reject-search', budget: 300000 },
    { ss: det.seed(), cs: 'ção🎲', budget: 40000 },
  ];
  for (const { ss, cs, budget } of searches) {
    for (let nonce = 0; nonce < budget; nonce++) {
      const hex = createHmac('sha512', ss).update(`${cs}-${nonce}`).digest('hex');
      if (parseInt(hex.slice(0, 5), 16) < REJECT) continue;
      const d = rollDetail(ss, cs, nonce);
      const bucket = Math.min(d.window, 4);
      if (got[bucket] < want[bucket]) { got[bucket]++; cases.push({ server_seed: ss, client_seed: cs, nonce, ...d }); }
      if (Object.keys(want).every((b) => got[b] >= want[b])) break;
    }
  }
  return { cases, got };
}

// ---------------------------------------------------------------------------
// Primitives: stream.json and merkle.json
function genStream() {
  const det = new Det('stream');
  const KEYS = [det.seed(), det.seed(), 'ção🎲', '', 'key with spaces'];
  const words = [];
  const msgs = ['', 'pf2:bridge:m1:0=a,1=b,2=c,3=d:0', 'pk1:T:S:1:0=x,3=y:51', 'cc1:-:-:0=,1=:0', '日本語', 'x'.repeat(200)];
  for (const key of KEYS) for (const msg of msgs) {
    const hmac = createHmac('sha256', key).update(msg).digest('hex');
    words.push({ key, msg, hmac, word: word(key, msg) });
  }
  // int(n): result and counters consumed, including rejections.
  const ints = [];
  const intCase = (key, prefix, k0, n) => {
    const s = bareStream(key, prefix, k0);
    const result = s.int(n);
    const words = range(s.counter() - k0).map((x) => word(key, prefix + (k0 + x)));
    return { key, prefix, k0, n, result, k_after: s.counter(), rejected: s.counter() - k0 - 1, words };
  };
  const key = KEYS[0];
  for (const n of [1, 2, 3, 6, 10, 13, 32, 52, 144, 136, 1000000, 2 ** 31, 2 ** 32 + 1, 2 ** 51, 2 ** 52 - 1, 2 ** 52]) {
    ints.push(intCase(key, 'int:' + n + ':', 0, n));
    ints.push(intCase(key, 'int:' + n + ':', 7, n));
  }
  // Forced rejections: n = 2^51+1 (limit 2^51+1, ~1/2 rejected) and 3*2^50 (limit 3*2^50, 1/4 rejected).
  for (const n of [2 ** 51 + 1, 3 * 2 ** 50, 2 ** 51 + 12345]) {
    for (const wantRej of [0, 1, 2, 3, 4]) {
      for (let t = 0; ; t++) {
        const c = intCase(key, 'rej:' + n + ':' + t + ':', 0, n);
        if (c.rejected === wantRej) { ints.push(c); break; }
      }
    }
  }
  // die sequences
  const dice = [];
  for (const [i, k] of KEYS.entries()) {
    const s = bareStream(k, 'die:' + i + ':');
    const seq = range(30).map(() => s.die());
    dice.push({ key: k, prefix: 'die:' + i + ':', k0: 0, dice: seq, k_after: s.counter() });
  }
  // shuffles of 0..51 and 0..31 (and small sizes)
  const shuffles = [];
  for (const [i, k] of KEYS.entries()) {
    for (const len of [52, 32, 11, 2, 1, 0]) {
      const s = bareStream(k, 'shuffle:' + i + ':' + len + ':');
      const input = range(len);
      shuffles.push({ key: k, prefix: 'shuffle:' + i + ':' + len + ':', k0: 0, input, output: s.shuffle(input), k_after: s.counter() });
    }
  }
  return { words, ints, dice, shuffles };
}

function genMerkle() {
  const det = new Det('merkle');
  const hands = [];
  for (let i = 0; i < 3; i++) {
    const seats = { 0: 'ção🎲', 3: 'a,b,c', 7: clientSeed(det) };
    const serverSeed = det.seed();
    const h = pokerHand(serverSeed, 'table-' + i, 'session-' + i, i + 1, seats);
    hands.push({
      server_seed: serverSeed, table: 'table-' + i, session: 'session-' + i, n: i + 1,
      seats: Object.fromEntries(h.seatNums.map((s) => [String(s), seats[s]])),
      hand_value: h.handValue, hand_commitment: h.handCommitment, deck: h.deck,
      salts: h.tree.salts, leaves: h.tree.leaves, levels: h.tree.levels.slice(1, 6), root: h.tree.root,
      proofs: [0, 1, 25, 51, 52].filter((x) => x < 52).map((x) => h.tree.proof(x)),
    });
  }
  return { pad_leaf: sha256('pk1:pad'), hands };
}

// ---------------------------------------------------------------------------
// Invalid (must verify as invalid, exit 1) and malformed (input errors, exit 2) records.
const flipHex = (h, at = 0) => h.slice(0, at) + (h[at] === '0' ? '1' : '0') + h.slice(at + 1);
const clone = (x) => structuredClone(x);
// An input tampering must really change the recomputed outcome.
function mustDiffer(tampered, recomputed) {
  if (ser(tampered.outcome) === ser(recomputed.outcome)) throw new Error('tampering left the outcome valid');
}

function genInvalid(all, selfpokerLines) {
  const out = [], expect = [];
  const add = (rec, why, field) => { out.push(ser(rec)); expect.push({ line: out.length - 1, scheme: rec.scheme, expect: why, field }); };
  const addRaw = (line, scheme, why, field) => { out.push(line); expect.push({ line: out.length - 1, scheme, expect: why, field }); };
  const find = (pred) => { const r = all.find(pred); if (!r) throw new Error('no base record'); return clone(r); };

  let r;
  r = find((x) => x.scheme === 'dice_v1' && x.bet && x.outcome.win);
  r.commitment = flipHex(r.commitment); add(r, 'wrong commitment: sha256(server_seed) differs from commitment', 'commitment');
  r = find((x) => x.scheme === 'dice_v1' && x.bet && x.outcome.win);
  r.outcome.payout += 1n; add(r, 'wrong payout (one chip more)', 'outcome.payout');
  r = find((x) => x.scheme === 'dice_v1' && x.bet && !x.outcome.win);
  r.outcome.payout = 1n; add(r, 'wrong payout: a losing bet pays 0', 'outcome.payout');
  r = find((x) => x.scheme === 'dice_v1' && x.bet && x.outcome.win && x.bet.amount === MAX_SAFE && x.bet.target === 1);
  r.outcome.payout -= 1n; add(r, 'wrong payout: off by one below an exact value > 2^64', 'outcome.payout');
  r = find((x) => x.scheme === 'dice_v1' && x.bet);
  r.outcome.win = !r.outcome.win; add(r, 'tampered outcome: win flipped', 'outcome.win');
  r = find((x) => x.scheme === 'dice_v1');
  r.outcome.roll = (r.outcome.roll + 1) % 10000; add(r, 'tampered outcome: roll changed', 'outcome.roll');
  r = find((x) => x.scheme === 'dice_v1' && !x.bet);
  r.outcome.win = false; add(r, 'outcome has a key the scheme does not produce (win without a bet)', 'outcome.win');
  r = find((x) => x.scheme === 'dice_v1' && x.nonce === 3);
  r.nonce = 4; mustDiffer(r, diceRecord(r.server_seed, r.client_seed, r.nonce, r.bet));
  add(r, 'tampered input: nonce changed, outcome no longer matches', 'outcome.roll');

  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge' && x.play.deals >= 2);
  [r.outcome.deals[1][2][5], r.outcome.deals[1][3][0]] = [r.outcome.deals[1][3][0], r.outcome.deals[1][2][5]];
  add(r, 'tampered outcome element: deal 1, seat 2 card 5 swapped with seat 3 card 0', 'outcome.deals');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'tarneeb');
  r.outcome.seat_order.reverse(); add(r, 'swapped seat: seat_order reversed', 'outcome.seat_order');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'checkers');
  r.outcome.seat_order.reverse(); add(r, 'swapped seat: checkers seat_order reversed', 'outcome.seat_order');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'backgammon' && x.outcome.games.some((g) => g.rolls.length > 0));
  { const g = r.outcome.games.find((gg) => gg.rolls.length > 0); g.rolls[0][1] = g.rolls[0][1] % 6 + 1; }
  add(r, 'tampered outcome element: a backgammon die changed', 'outcome.games');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'backgammon' && x.outcome.games[0].opening.length >= 2);
  r.outcome.games[0].opening.shift(); add(r, 'tampered outcome: tied opening roll dropped', 'outcome.games');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'baloot' && x.outcome.hands.some((h) => h.second));
  { const h = r.outcome.hands.find((hh) => hh.second); h.face_up = (h.face_up + 1) % 32; }
  add(r, 'tampered outcome element: baloot face-up card', 'outcome.hands');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'baloot' && x.outcome.hands.some((h) => h.second === null));
  { const h = r.outcome.hands.find((hh) => hh.second === null); h.second = [[], [], [], []]; }
  add(r, 'tampered outcome: second distribution where nobody bought', 'outcome.hands');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'mahjong' && x.tiles === 136);
  { const h = r.outcome.hands.find((hh) => hh.length > 1); [h[0], h[1]] = [h[1], h[0]]; }
  add(r, 'tampered outcome: two mahjong draws exchanged', 'outcome.hands');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'xiangqi');
  r.server_seed = flipHex(r.server_seed, 63); add(r, 'wrong commitment: server seed altered', 'commitment');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge' && x.play.deals >= 1);
  r.client_seeds = [r.client_seeds[1], r.client_seeds[0], r.client_seeds[2], r.client_seeds[3]];
  mustDiffer(r, matchRecord(2, r.server_seed, r.game, r.match_id, r.client_seeds, r.play));
  add(r, 'client seeds swapped between players 0 and 1: outcome no longer matches', 'outcome.deals');
  r = find((x) => x.scheme === 'match_seed_v1' && x.game === 'bridge');
  r.scheme = 'match_seed_v2'; r.client_seeds = ['a', 'b', 'c', 'd'];
  mustDiffer(r, matchRecord(2, r.server_seed, r.game, r.match_id, r.client_seeds, r.play));
  add(r, 'a v1 record relabelled as v2: outcome no longer matches', 'outcome.deals');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'trix');
  r.outcome.extra = 1; add(r, 'outcome has a key the scheme does not produce', 'outcome.extra');

  r = find((x) => x.scheme === 'chess_colour_v1' && x.seed_b);
  r.outcome.white = r.outcome.white === 'A' ? 'B' : 'A'; add(r, 'tampered outcome: white flipped', 'outcome.white');
  r = find((x) => x.scheme === 'chess_colour_v1' && !x.seed_b);
  r.outcome.white = r.outcome.white === 'A' ? 'B' : 'A'; add(r, 'tampered outcome: white flipped (bot game)', 'outcome.white');
  r = find((x) => x.scheme === 'chess_colour_v1' && x.seed_b);
  r.commit_b = flipHex(r.commit_b); add(r, 'wrong commitment: commit_b', 'commit_b');

  r = find((x) => x.scheme === 'poker_hmac_v1' && x.hands.length >= 2);
  r.hands[1].hand_commitment = flipHex(r.hands[1].hand_commitment, 10); add(r, 'wrong hand_commitment in hand index 1', 'hands[1].hand_commitment');
  r = find((x) => x.scheme === 'poker_hmac_v1');
  r.hands[0].deck_root = flipHex(r.hands[0].deck_root, 63); add(r, 'wrong deck_root in hand index 0', 'hands[0].deck_root');
  r = find((x) => x.scheme === 'poker_hmac_v1' && Object.keys(x.outcome.hands[0].holes).length >= 3);
  { const ho = r.outcome.hands[0].holes, ks = Object.keys(ho); [ho[ks[0]], ho[ks[2]]] = [ho[ks[2]], ho[ks[0]]]; }
  add(r, 'swapped seat: holes of two seats exchanged in hand index 0', 'outcome.hands[0].holes');
  r = find((x) => x.scheme === 'poker_hmac_v1');
  { const b = r.outcome.hands[0].board; [b[0], b[4]] = [b[4], b[0]]; }
  add(r, 'tampered outcome: board cards reordered', 'outcome.hands[0].board');
  r = find((x) => x.scheme === 'poker_hmac_v1');
  r.commitment = flipHex(r.commitment, 5); add(r, 'wrong commitment (session)', 'commitment');
  r = find((x) => x.scheme === 'poker_hmac_v1' && Object.keys(x.hands[0].seats).length >= 2);
  { const s = r.hands[0].seats, ks = Object.keys(s); if (s[ks[0]] === s[ks[1]]) s[ks[0]] = s[ks[1]] === 'x' ? 'y' : 'x'; else [s[ks[0]], s[ks[1]]] = [s[ks[1]], s[ks[0]]]; }
  if (pokerHand(r.server_seed, r.table, r.session, r.hands[0].n, r.hands[0].seats).tree.root === r.hands[0].deck_root) throw new Error('seat swap did not change the root');
  add(r, 'swapped seat: client seeds of two seats exchanged, deck and deck_root no longer match', 'hands[0].deck_root');
  r = find((x) => x.scheme === 'poker_hmac_v1');
  r.outcome.hands[0].hand_value = flipHex(r.outcome.hands[0].hand_value, 1); add(r, 'tampered outcome: hand_value', 'outcome.hands[0].hand_value');

  r = find((x) => x.scheme === 'poker_hmac_v1_proof');
  r.leaves[0].path[3] = flipHex(r.leaves[0].path[3], 17); add(r, 'altered proof byte: leaves[0].path[3]', 'leaves[0].path');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof');
  r.leaves[2].salt = flipHex(r.leaves[2].salt, 0); add(r, 'altered proof byte: leaves[2].salt', 'leaves[2].salt');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof');
  r.leaves[6].card = (r.leaves[6].card + 1) % 52; r.outcome.cards[6].card = r.leaves[6].card;
  add(r, 'altered proof: leaves[6].card changed (outcome follows it)', 'leaves[6].card');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof');
  r.deck_root = flipHex(r.deck_root, 30); add(r, 'wrong deck_root for the proofs', 'deck_root');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof');
  r.leaves[1].i = r.leaves[1].i ^ 1; r.outcome.cards[1].i = r.leaves[1].i;
  add(r, 'altered proof: leaves[1].i points at the sibling position', 'leaves[1].i');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof');
  r.outcome.cards[0].card = (r.outcome.cards[0].card + 5) % 52; add(r, 'tampered outcome: cards[0].card differs from the proven leaf', 'outcome.cards');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof');
  [r.leaves[0].path[0], r.leaves[0].path[1]] = [r.leaves[0].path[1], r.leaves[0].path[0]];
  add(r, 'altered proof: path levels 0 and 1 exchanged', 'leaves[0].path');

  // selfpoker: tamper with the Python output (parsed only where JSON.parse is exact).
  const safe = selfpokerLines.map((l) => JSON.parse(l)).filter((x) => typeof x.seed === 'string' || Number.isSafeInteger(x.seed));
  if (safe.length < 3) throw new Error('need records/selfpoker.jsonl: run python3 tests/vectors/selfpoker.py first');
  r = clone(safe[0]); r.commit = flipHex(r.commit, 3); add(r, 'wrong commit', 'commit');
  r = clone(safe[1]); { const d = r.outcome.deck; [d[10], d[11]] = [d[11], d[10]]; } add(r, 'tampered outcome: deck[10] and deck[11] exchanged', 'outcome.deck');
  r = clone(safe[2]); [r.outcome.holes[0], r.outcome.holes[1]] = [r.outcome.holes[1], r.outcome.holes[0]];
  add(r, 'swapped seat: holes of players 0 and 1 exchanged', 'outcome.holes');
  // The 2^63-1 seed line, tampered at text level so its seed keeps every digit.
  const big = selfpokerLines.find((l) => l.includes('"seed":9223372036854775807,'));
  if (!big) throw new Error('selfpoker seed 2^63-1 line not found');
  addRaw(big.replace(/"board":\[(\d+)/, (m, a) => '"board":[' + ((Number(a) + 1) % 52)), 'selfpoker', 'tampered outcome: board[0] changed (seed 2^63-1)', 'outcome.board');
  return { lines: out, expect };
}

function genMalformed(all) {
  const out = [], expect = [];
  const add = (rec, field, why) => { out.push(typeof rec === 'string' ? rec : ser(rec)); expect.push({ line: out.length - 1, field, why }); };
  const find = (pred) => { const r = all.find(pred); if (!r) throw new Error('no base record'); return clone(r); };
  const dice = () => find((x) => x.scheme === 'dice_v1' && x.bet && x.bet.condition === 'under');
  let r;
  r = dice(); r.scheme = 'dice_v2'; add(r, 'scheme', 'unknown scheme');
  r = dice(); delete r.scheme; add(r, 'scheme', 'missing scheme');
  r = dice(); r.scheme = 7; add(r, 'scheme', 'scheme is not a string');
  r = dice(); r.server_seed = r.server_seed.toUpperCase(); add(r, 'server_seed', 'seed not lowercase hex');
  r = dice(); r.server_seed = r.server_seed.slice(0, 63); add(r, 'server_seed', 'seed of 63 hex characters');
  r = dice(); r.server_seed = r.server_seed + '0'; add(r, 'server_seed', 'seed of 65 hex characters');
  r = dice(); r.server_seed = 'g' + r.server_seed.slice(1); add(r, 'server_seed', 'seed with a non-hex character');
  r = dice(); r.commitment = r.commitment.slice(2); add(r, 'commitment', 'commitment not 64 hex');
  r = dice(); r.nonce = -1; add(r, 'nonce', 'negative nonce');
  r = dice(); r.nonce = 2n ** 53n; add(r, 'nonce', 'nonce above 2^53-1');
  r = dice(); r.nonce = '5'; add(r, 'nonce', 'nonce is a string');
  r = dice(); r.nonce = { __raw: '1.5' }; add(r, 'nonce', 'nonce is not an integer');
  r = dice(); delete r.nonce; add(r, 'nonce', 'missing nonce');
  r = dice(); r.bet.target = 0; add(r, 'bet.target', 'chance 0 (under, target 0)');
  r = dice(); r.bet.condition = 'over'; r.bet.target = 198; add(r, 'bet.target', 'chance 9801 (over, target 198)');
  r = dice(); r.bet.target = 9801; add(r, 'bet.target', 'chance 9801 (under, target 9801)');
  r = dice(); r.bet.condition = 'over'; r.bet.target = 9999; add(r, 'bet.target', 'chance 0 (over, target 9999)');
  r = dice(); r.bet.target = 10000; add(r, 'bet.target', 'target above 9999');
  r = dice(); r.bet.target = -1; add(r, 'bet.target', 'negative target');
  r = dice(); r.bet.condition = 'between'; add(r, 'bet.condition', 'unknown condition');
  r = dice(); r.bet.amount = 0; add(r, 'bet.amount', 'amount 0');
  r = dice(); r.bet.amount = 2n ** 53n; add(r, 'bet.amount', 'amount above 2^53-1');
  r = dice(); r.bet.amount = '100'; add(r, 'bet.amount', 'amount is a string');
  r = dice(); r.client_seed = ''; add(r, 'client_seed', 'empty client seed');
  r = dice(); r.client_seed = 'a'.repeat(65); add(r, 'client_seed', 'client seed of 65 bytes');
  r = dice(); r.client_seed = '🎲'.repeat(16) + 'x'; add(r, 'client_seed', 'client seed of 65 bytes (unicode)');
  r = dice(); r.client_seed = 12; add(r, 'client_seed', 'client seed is a number');
  r = dice(); r.bet = 'yes'; add(r, 'bet', 'bet is not an object');

  r = find((x) => x.scheme === 'selfpoker' && x.players === 10); r.players = 11; add(r, 'players', '11 selfpoker players');
  r = find((x) => x.scheme === 'selfpoker' && x.players === 2); r.players = 1; add(r, 'players', '1 selfpoker player');
  r = find((x) => x.scheme === 'selfpoker'); r.players = '4'; add(r, 'players', 'players is a string');
  r = find((x) => x.scheme === 'selfpoker'); r.seed = '9223372036854775808'; add(r, 'seed', 'seed 2^63 (string)');
  r = find((x) => x.scheme === 'selfpoker'); r.seed = 2n ** 63n; add(r, 'seed', 'seed 2^63 (integer)');
  r = find((x) => x.scheme === 'selfpoker'); r.seed = -1; add(r, 'seed', 'negative seed');
  r = find((x) => x.scheme === 'selfpoker'); r.seed = '12a'; add(r, 'seed', 'seed string not decimal');
  r = find((x) => x.scheme === 'selfpoker'); delete r.commit; add(r, 'commit', 'missing commit');

  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge'); r.game = 'poker'; add(r, 'game', 'unknown game');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge'); r.match_id = 'has space'; add(r, 'match_id', 'match id with a space');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge'); r.match_id = 'A'.repeat(65); add(r, 'match_id', 'match id of 65 characters');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge'); r.match_id = ''; add(r, 'match_id', 'empty match id');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge'); r.client_seeds = r.client_seeds.slice(0, 3); add(r, 'client_seeds', 'three client seeds for a four-player game');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'checkers'); delete r.client_seeds; add(r, 'client_seeds', 'missing client_seeds in v2');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge'); r.play = { deals: '3' }; add(r, 'play.deals', 'deals is a string');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'bridge'); r.play = { deals: -1 }; add(r, 'play.deals', 'negative deals');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'baloot' && x.play.hands.length > 0); r.play.hands[0].buyer = 4; add(r, 'play.hands[0].buyer', 'buyer seat 4');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'mahjong' && x.tiles === 136); r.play.hands[0] = 137; add(r, 'play.hands[0]', 'more draws than tiles (137 of 136)');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'mahjong'); r.tiles = 100; add(r, 'tiles', 'tiles neither 144 nor 136');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'backgammon'); r.play = { games: [1, 'two'] }; add(r, 'play.games[1]', 'moves count is a string');
  r = find((x) => x.scheme === 'match_seed_v2' && x.game === 'backgammon'); delete r.play; add(r, 'play', 'missing play');

  r = find((x) => x.scheme === 'chess_colour_v1' && x.seed_b); r.client_a = ''; add(r, 'client_a', 'empty client seed for a human player');
  r = find((x) => x.scheme === 'chess_colour_v1' && x.seed_b); r.seed_b = r.seed_b.slice(1); add(r, 'seed_b', 'seed_b not 64 hex');

  r = find((x) => x.scheme === 'poker_hmac_v1'); r.hands[0].seats = { 10: 'x', 0: 'y' }; add(r, 'hands[0].seats', 'seat 10');
  r = find((x) => x.scheme === 'poker_hmac_v1'); r.hands[0].seats = ['x', 'y']; add(r, 'hands[0].seats', 'seats is an array');
  r = find((x) => x.scheme === 'poker_hmac_v1'); r.hands[0].n = 0; add(r, 'hands[0].n', 'hand number 0');
  r = find((x) => x.scheme === 'poker_hmac_v1'); r.table = 'tab/le'; add(r, 'table', 'table with a slash');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof'); r.leaves[0].path = r.leaves[0].path.slice(0, 5); add(r, 'leaves[0].path', 'path of 5 hashes');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof'); r.leaves[0].i = 52; add(r, 'leaves[0].i', 'position 52 (padding)');
  r = find((x) => x.scheme === 'poker_hmac_v1_proof'); r.leaves[0].card = 52; add(r, 'leaves[0].card', 'card id 52');

  add('{"scheme":"dice_v1","nonce":1', null, 'bad JSON (truncated object)');
  add('[1,2,3]', null, 'not an object');
  return { lines: out, expect };
}

// ---------------------------------------------------------------------------
function main() {
  const t0 = Date.now();
  const { v2, v1 } = genMatches();
  const chess = genChess();
  const { sessions, proofs } = genPoker();
  const diceRoll = genDiceRoll();
  const dice = genDice(diceRoll.cases);
  const selfpokerPath = path.join(OUT, 'records', 'selfpoker.jsonl');
  if (!fs.existsSync(selfpokerPath)) throw new Error('run python3 tests/vectors/selfpoker.py first');
  const selfpokerLines = fs.readFileSync(selfpokerPath, 'utf8').split('\n').filter((l) => l.length > 0);
  const selfpokerSafe = selfpokerLines.map((l) => JSON.parse(l)).filter((x) => typeof x.seed === 'string' || Number.isSafeInteger(x.seed));

  const files = {
    'records/match_seed_v2.jsonl': v2,
    'records/match_seed_v1.jsonl': v1,
    'records/chess_colour_v1.jsonl': chess,
    'records/poker_hmac_v1.jsonl': sessions,
    'records/poker_hmac_v1_proof.jsonl': proofs,
    'records/dice_v1.jsonl': dice,
  };
  for (const [rel, recs] of Object.entries(files)) writeFile(rel, jsonl(recs));

  const all = [...v2, ...v1, ...chess, ...sessions, ...proofs, ...dice, ...selfpokerSafe];
  const inv = genInvalid(all, selfpokerLines);
  writeFile('records/invalid.jsonl', inv.lines.join('\n') + '\n');
  writeFile('records/invalid.expect.json', prettyArray(inv.expect));
  const mal = genMalformed(all);
  writeFile('records/malformed.jsonl', mal.lines.join('\n') + '\n');
  writeFile('records/malformed.expect.json', prettyArray(mal.expect));

  const st = genStream();
  writeFile('primitives/stream.json', pretty(st));
  writeFile('primitives/dice_roll.json', pretty({ cases: diceRoll.cases }));
  writeFile('primitives/merkle.json', pretty(genMerkle()));

  const counts = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.length]));
  counts['records/invalid.jsonl'] = inv.lines.length;
  counts['records/malformed.jsonl'] = mal.lines.length;
  counts['primitives/dice_roll.json rejected windows (1,2,3,4+)'] = diceRoll.got;
  process.stderr.write(JSON.stringify(counts, null, 1) + '\n' + (Date.now() - t0) + ' ms\n');
}

main();

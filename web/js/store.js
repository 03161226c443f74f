// What this browser remembers, in localStorage — the one place the page reads
// and writes it: the player's token, their own client seed, every commitment
// seen before bets or hands, the reveals, what a table signed for the
// player's seat (table-evidence.js), and each tab's own settings (the
// language, the coach, the table, the log's pinned key and witnesses).
// The point of keeping commitments here is that a later check compares the
// revealed seed with what *this browser* saw, not with what the server says now.
//
// Storage may be off or full: a read then gives the fallback and a write is
// dropped; the page still works, it only forgets.

const PREFIX = 'fairseed.';

/**
 * The JSON value kept under `fairseed.<key>`, or `fallback` (none, unreadable, storage off).
 * What was kept is whatever JSON an earlier page wrote: the caller checks its shape.
 * @param {string} key
 * @param {unknown} fallback
 * @returns {any}
 */
export function readValue(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    if (raw === null) return fallback;
    const value = JSON.parse(raw);
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

/**
 * Keeps `value` as JSON under `fairseed.<key>`.
 * @param {string} key
 * @param {unknown} value
 */
export function writeValue(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the page still works, it only forgets.
  }
}

/**
 * The text kept as is under `fairseed.<key>` (a log key or a signed note), or null.
 * @param {string} key
 * @returns {string | null}
 */
export function readText(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/**
 * Keeps `text` as is under `fairseed.<key>`.
 * @param {string} key
 * @param {string} text
 */
export function writeText(key, text) {
  try {
    localStorage.setItem(PREFIX + key, text);
  } catch {
    // Storage full or disabled: the page only forgets.
  }
}

/**
 * Forgets what is kept under `fairseed.<key>`.
 * @param {string} key
 */
export function removeValue(key) {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch {
    // Storage disabled: nothing was kept.
  }
}

const read = readValue;
const write = writeValue;

export const store = {
  token: () => read('token', null),
  setToken: (token) => write('token', token),
  /** Accounts this browser used before a login link or a restore replaced them (their tokens). */
  previousTokens: () => read('previous_tokens', []),
  /** Makes `token` this browser's account, keeping the one it replaces. */
  switchToken(token) {
    const old = read('token', null);
    if (old && old !== token) write('previous_tokens', [...read('previous_tokens', []).filter((x) => x !== old && x !== token), old]);
    write('token', token);
  },
  ownClientSeed: () => read('own_client_seed', null),
  setOwnClientSeed: (seed) => write('own_client_seed', seed),
  /** Commitments seen per dice pair: {pair_id: commitment}. */
  seenCommitments: () => read('seen_commitments', {}),
  rememberCommitment(pairId, commitment) {
    const all = read('seen_commitments', {});
    if (!all[pairId]) {
      all[pairId] = commitment;
      write('seen_commitments', all);
    }
  },
  /** Revealed dice pairs: {pair_id: {commitment, server_seed, client_seed}}. */
  revealedPairs: () => read('revealed_pairs', {}),
  rememberReveal(pair) {
    const all = read('revealed_pairs', {});
    all[pair.pair_id] = { commitment: pair.commitment, server_seed: pair.server_seed, client_seed: pair.client_seed };
    write('revealed_pairs', all);
  },
  /** Pairs whose client seed this browser chose: {pair_id: client_seed}. */
  chosenSeeds: () => read('chosen_seeds', {}),
  rememberChosenSeed(pairId, seed) {
    const all = read('chosen_seeds', {});
    all[pairId] = seed;
    write('chosen_seeds', all);
  },
  currentCommitment: () => read('current_commitment', null),
  setCurrentCommitment: (c) => write('current_commitment', c),
  /** Poker and selfpoker hands: [{id, scheme, label, commitment, seed, seen_at, …}] (poker: see poker.js). */
  hands: () => read('hands', []),
  saveHands: (hands) => write('hands', hands),
  /** The newest record id the poker watch has read (null: not started). */
  pokerCursor: () => read('poker_cursor', null),
  setPokerCursor: (id) => write('poker_cursor', id),
};

/** The pair ids this browser knows, oldest first: the player's own numbering of pairs. */
function pairIds() {
  return [...new Set([...Object.keys(store.seenCommitments()), ...Object.keys(store.revealedPairs())].map(Number))].sort((a, b) => a - b);
}

/** Pair `id` by the player's own numbering (1 is the first pair this browser saw). */
export function pairNumber(id) {
  const ids = pairIds();
  const i = ids.indexOf(Number(id));
  return i >= 0 ? i + 1 : ids.length + 1;
}

/** Whether pair `id` is the one being played (its seed not revealed yet). */
export function isCurrentPair(id) {
  const current = store.currentCommitment();
  return !store.revealedPairs()[id] && (current === null || store.seenCommitments()[id] === current);
}

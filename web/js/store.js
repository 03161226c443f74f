// What this browser remembers, in localStorage: the player's token, their own
// client seed, every commitment seen before bets or hands, and the reveals.
// The point of keeping commitments here is that a later check compares the
// revealed seed with what *this browser* saw, not with what the server says now.
import { t } from './i18n.js';

const PREFIX = 'fairseed.';

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the page still works, it only forgets.
  }
}

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

/** Every value the browser knows, labelled, for the wrong-value hint. */
export function knownValues() {
  const known = [];
  const current = store.currentCommitment();
  // Pairs named by the player's own numbering (oldest first), not the service's ids.
  const ids = [...new Set([...Object.keys(store.seenCommitments()), ...Object.keys(store.revealedPairs())].map(Number))].sort((a, b) => a - b);
  const number = (id) => ids.indexOf(Number(id)) + 1;
  if (current) known.push({ label: 'current', display: t('known.current'), value: current, kind: 'current' });
  for (const [pair, c] of Object.entries(store.seenCommitments())) {
    if (c !== current) known.push({ label: `pair ${pair} hash`, display: t('known.pair_hash', { pair: number(pair) }), value: c, kind: 'commitment' });
  }
  for (const [pair, p] of Object.entries(store.revealedPairs())) {
    known.push({ label: `pair ${pair} seed`, display: t('known.pair_seed', { pair: number(pair) }), value: p.server_seed, kind: 'seed' });
  }
  return known;
}

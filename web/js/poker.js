// Poker tables (poker_hmac_v1) the player sits at, watched from this browser.
// Before the cards, the page stores each hand's hand_commitment and deck_root
// (GET /v1/poker/hands) with the session's commitment and the player's own
// hole cards. After the player leaves and the session rotates, the proof
// records and the session record arrive in GET /v1/records: the core (wasm)
// verifies each, and the page compares them with exactly what it stored — a
// proof must be for the deck root seen before the hand and prove the cards
// the player was shown; the session record must reveal the seed of the
// commitment seen before the hands, with the same hand commitments and roots.
// Any difference is named on the hand's badge.
import { api } from './api.js';
import { store } from './store.js';
import { t } from './i18n.js';
import { sentences } from './words.js';
import { coreErrorText } from './errors.js';

export const POKER = 'poker_hmac_v1';
const PROOF = 'poker_hmac_v1_proof';

export function handId(table, session, n) {
  return `${POKER}:${table}/${session}#${n}`;
}

/** Adds the listed hands this browser has not stored yet; returns how many. */
export function rememberListed(listed) {
  const hands = store.hands();
  let added = 0;
  for (const x of listed) {
    const id = handId(x.table, x.session, x.n);
    if (hands.some((hand) => hand.id === id)) continue;
    hands.push({
      id, scheme: POKER, label: t('poker.label', { table: x.table, session: x.session, n: x.n }),
      commitment: x.hand_commitment, deck_root: x.deck_root, session_commitment: x.session_commitment,
      table: x.table, session: x.session, n: x.n, seat: x.seat, seen_street: x.street,
      hole: null, seed: null, proven: false, problems: [], seen_at: Date.now(),
    });
    added += 1;
  }
  if (added) store.saveHands(hands);
  return added;
}

function verdictOf(wasm, record) {
  return JSON.parse(wasm.verify(JSON.stringify(record))).verdicts[0];
}

/** What failed, in the player's words. */
function failures(wasm, verdict, record) {
  if (verdict.error) return [coreErrorText(verdict.error)];
  return sentences(wasm, verdict, record).filter((s) => !s.ok).map((s) => s.text);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Checks one record from GET /v1/records against the stored hands (changed
 * in place). Returns whether a stored hand was concerned.
 */
export function checkRecord(wasm, hands, record) {
  if (record.scheme === PROOF) return checkProof(wasm, hands, record);
  if (record.scheme === POKER) return checkSession(wasm, hands, record);
  return false;
}

function checkProof(wasm, hands, proof) {
  const mine = hands.filter((hand) => hand.scheme === POKER && hand.deck_root === proof.deck_root && !hand.proof_checked);
  if (!mine.length) return false;
  const verdict = verdictOf(wasm, proof);
  const proven = new Set(verdict.valid ? ((verdict.outcome && verdict.outcome.cards) || []).map((c) => c.card) : []);
  for (const hand of mine) {
    hand.proof_checked = true;
    if (!verdict.valid) {
      hand.problems.push(...failures(wasm, verdict, proof).map((detail) => t('poker.proof_failed', { detail })));
      continue;
    }
    const missing = (hand.hole || []).filter((c) => !proven.has(c));
    for (const c of missing) hand.problems.push(t('poker.hole_not_proven', { card: wasm.card_name('52', c) }));
    hand.proven = missing.length === 0;
  }
  return true;
}

function checkSession(wasm, hands, record) {
  const listed = (record.hands || []).map((rh, k) => [rh, k, hands.find((hand) => hand.id === handId(record.table, record.session, rh.n))]);
  const mine = listed.filter(([, , hand]) => hand && !hand.session_checked);
  if (!mine.length) return false;
  const verdict = verdictOf(wasm, record);
  for (const [rh, k, hand] of mine) {
    hand.session_checked = true;
    if (!verdict.valid) {
      hand.problems.push(...failures(wasm, verdict, record).map((detail) => t('poker.session_failed', { detail })));
      continue;
    }
    const differs = (what, seen, found) => hand.problems.push(t('poker.differs', { what, seen, found }));
    if (record.commitment !== hand.session_commitment) differs(t('poker.session_commitment'), hand.session_commitment, record.commitment);
    if (rh.hand_commitment !== hand.commitment) differs(t('poker.hand_commitment'), hand.commitment, rh.hand_commitment);
    if (rh.deck_root !== hand.deck_root) differs(t('poker.deck_root'), hand.deck_root, rh.deck_root);
    const dealt = verdict.outcome.hands[k];
    const hole = dealt.holes[String(hand.seat)];
    if (hand.hole && !same(hole, hand.hole)) {
      differs(t('poker.hole'), hand.hole.map((c) => wasm.card_name('52', c)).join(' '), (hole || []).map((c) => wasm.card_name('52', c)).join(' '));
    }
    // The hand's value: the badge checks sha256(value) against the stored commitment.
    hand.seed = dealt.hand_value;
  }
  return true;
}

/** Whether a stored poker hand still waits for a proof or the session record. */
function pending(hand) {
  return hand.scheme === POKER && hand.table && !(hand.session_checked && hand.proof_checked);
}

/**
 * One round of watching: stores new hands (and their hole cards), then reads
 * the records newer than the last one read and checks the poker ones.
 * Returns whether anything changed. Does nothing without an account.
 */
export async function pollPoker(wasm) {
  if (!store.token()) return false;
  // Records before the first watch cannot concern a hand seen after it.
  if (store.pokerCursor() === null) {
    const first = await api.records(null, 1);
    store.setPokerCursor(first.records.length ? first.records[0].id : 0);
  }
  let changed = rememberListed((await api.pokerHands()).hands) > 0;
  const hands = store.hands();
  for (const hand of hands.filter((x) => x.scheme === POKER && x.table && x.hole === null && !x.session_checked)) {
    try {
      hand.hole = (await api.pokerHand(hand.table, hand.n)).hole;
      changed = true;
    } catch {
      hand.hole = undefined; // the session moved on: the proof and the record still say which cards were dealt
    }
  }
  if (hands.some(pending)) {
    const cursor = store.pokerCursor();
    let newest = cursor;
    let before = null;
    for (;;) {
      const page = await api.records(before);
      for (const row of page.records) {
        if (row.id <= cursor) break;
        newest = Math.max(newest, row.id);
        if (checkRecord(wasm, hands, row.record)) changed = true;
      }
      const last = page.records[page.records.length - 1];
      if (!page.next_before || !last || last.id <= cursor) break;
      before = page.next_before;
    }
    store.setPokerCursor(newest);
  }
  if (changed) store.saveHands(hands);
  return changed;
}

// The page's part of the round before each hand at a `selfpoker_v3` table
// (docs/spec.md §20.2), as a pure book the table shell asks what to send.
//
// A per-hand value belongs to one round of one table, not to a hand number:
// hand 1 of a second table is another hand than hand 1 of the first, and a
// round that ended without a hand (`no_hand`: too few commits or reveals) is
// opened again for the same number, which needs a fresh value — re-using the
// first one would let whoever saw it reveal predict this hand's deck. So the
// book forgets every value when the table changes, and a hand's value when a
// `no_hand` or a new `opened` notice for that hand arrives after the value
// was drawn (the notice's `seq` says which came first: the table sends the
// notices before the `state` that includes them).
//
// Drawing the value is the caller's (`draw`, the browser's CSPRNG); the book
// has no I/O, no clock and no randomness of its own.

/**
 * @typedef {object} RoundValue
 * @property {string} value 64 lowercase hex digits, never sent before the reveal
 * @property {number} since the `seq` of the state the value was drawn at
 * @property {boolean} committed its commit was sent (or is on its way)
 * @property {boolean} revealed the value was sent
 * @property {boolean} [confirmed] the table acknowledged the value
 */

/**
 * @typedef {object} RoundStep
 * @property {'hand_commit' | 'hand_reveal'} type
 * @property {number} hand
 * @property {string} value the per-hand value (the caller sends its sha256 for a commit)
 */

/** @typedef {import('./types.js').RoundView} RoundView */

/** @param {() => string} draw a fresh per-hand value */
export function createRoundBook(draw) {
  /** @type {string | null} */
  let table = null;
  /** @type {Map<number, RoundValue>} */
  const values = new Map();

  return {
    /** The table the page is at; another table starts with no value held. */
    table(/** @type {string} */ id) {
      if (id !== table) values.clear();
      table = id;
    },

    /**
     * A `round` notice at `seq`: after `no_hand`, or a new `opened` of a hand
     * whose value was drawn before it, that hand's value is spent.
     * @param {{kind: string, hand: number}} notice
     * @param {number} seq
     */
    notice(notice, seq) {
      if (notice.kind !== 'no_hand' && notice.kind !== 'opened') return;
      const held = values.get(notice.hand);
      if (held && seq > held.since) values.delete(notice.hand);
    },

    /**
     * What seat `you` owes the round `round` (from the state at `seq`), once:
     * a commit while the round takes commits and this seat's is not in, the
     * value once it takes values and this seat's commit is. Null: nothing.
     * @param {RoundView | null | undefined} round
     * @param {number | null} you
     * @param {number} seq
     * @returns {RoundStep | null}
     */
    due(round, you, seq) {
      if (!round || you === null || !round.seats.includes(you)) return null;
      const hand = round.hand;
      const mine = round.commits[String(you)];
      if (round.phase === 'commit' && !mine) {
        let held = values.get(hand);
        if (!held) {
          held = { value: draw(), since: seq, committed: false, revealed: false };
          values.set(hand, held);
        }
        if (held.committed) return null;
        held.committed = true;
        return { type: 'hand_commit', hand, value: held.value };
      }
      const held = values.get(hand);
      if (round.phase === 'reveal' && mine && held && held.committed && !held.revealed && !round.revealed.includes(you)) {
        held.revealed = true;
        return { type: 'hand_reveal', hand, value: held.value };
      }
      return null;
    },

    /**
     * Whether the round holds a commit of seat `you` this page has no value
     * for (the page was reloaded after committing): it cannot reveal, and the
     * table will deal without this seat and sit it out.
     * @param {RoundView | null | undefined} round
     * @param {number | null} you
     */
    lost(round, you) {
      if (!round || you === null || round.phase !== 'reveal') return false;
      return Boolean(round.commits[String(you)]) && !values.get(round.hand)?.committed && !round.revealed.includes(you);
    },

    /** A step could not be sent (no connection): it is owed again. */
    failed(/** @type {RoundStep} */ step) {
      const held = values.get(step.hand);
      if (!held || held.value !== step.value) return;
      if (step.type === 'hand_commit') held.committed = false;
      else held.revealed = false;
    },

    /** The table acknowledged the value sent for `step`'s round. */
    confirmed(/** @type {RoundStep} */ step) {
      const held = values.get(step.hand);
      if (held && held.value === step.value && step.type === 'hand_reveal') held.confirmed = true;
    },

    /** Whether the table acknowledged this page's value for the round `hand` was last dealt from. */
    revealedTo: (/** @type {number} */ hand) => Boolean(values.get(hand)?.confirmed),

    /** The value held for `hand` (for tests and the reveal check). */
    held: (/** @type {number} */ hand) => values.get(hand) || null,
  };
}

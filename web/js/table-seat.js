// Where the player's seat stands, and what the page does next for a player
// who asked to leave: pure functions of the table view (docs/api.md, "Live
// hold'em table") and of what the page itself knows (the player asked to
// leave; why the table sat them out — the clock acted for them, or their
// part of a hand's round did not arrive in time).
//
// The table refuses every seat change (`sit_out`, `sit_in`, `top_up`,
// `leave`) while a hand's round is open (`round_open`), and `leave` and
// `top_up` while the seat is dealt into the hand being played (`in_hand`):
// so the page asks for a change only when the table will take it, and until
// then says what it is waiting for.

/**
 * @typedef {'watching' | 'playing' | 'sat_out' | 'timed_out' | 'missed_round' | 'busted' | 'leaving'} SeatState
 * @typedef {'clock' | 'round' | null} OutReason why the table sat the player out, when the page saw it
 * @typedef {import('./types.js').TableView} TableView
 * @typedef {import('./types.js').SeatView} SeatView
 */

/** @param {TableView} table @returns {SeatView | null} the player's own seat */
export function mySeat(table) {
  return table.you !== null && table.you !== undefined ? table.seats[table.you] ?? null : null;
}

/** Whether a hand's round is open: the table takes commits and values, no seat change. */
export function roundOpen(/** @type {TableView} */ table) {
  return Boolean(table.round && table.round.phase !== 'dealt');
}

/** Whether the player is dealt into the hand being played (folded or not). */
export function inHand(/** @type {TableView} */ table) {
  const mine = mySeat(table);
  return Boolean(table.hand && mine && mine.in_hand);
}

/**
 * The seat's state, for its controls: `leaving` once asked, `busted` with no
 * chips between hands, `timed_out` when the clock sat the player out,
 * `missed_round` when the round did, `sat_out` otherwise (once out of the
 * hand being played), else `playing`.
 * @param {TableView} table
 * @param {{leaving?: boolean, outReason?: OutReason}} known
 * @returns {SeatState}
 */
export function seatState(table, { leaving = false, outReason = null } = {}) {
  const mine = mySeat(table);
  if (!mine) return 'watching';
  if (leaving) return 'leaving';
  if (mine.stack === 0 && !inHand(table)) return 'busted';
  if (mine.sitting_out) {
    if (outReason === 'clock') return 'timed_out';
    if (outReason === 'round') return 'missed_round';
    // Asked to sit out during a hand: still playing it.
    return inHand(table) && !mine.folded ? 'playing' : 'sat_out';
  }
  return 'playing';
}

/**
 * What a leaving player's page does now: `fold` on the player's turn (leaving
 * gives the hand up, at once, not after the clock), `sit_out` while still
 * dealt into the hand (so no next hand is dealt to them), `leave` once the
 * table takes it, else `wait` (a round is open, or the hand goes on).
 * @param {TableView} table
 * @returns {'fold' | 'sit_out' | 'leave' | 'wait'}
 */
export function leaveStep(table) {
  const mine = mySeat(table);
  if (!mine) return 'wait';
  if (inHand(table)) {
    if (table.hand && table.hand.to_act === table.you && table.hand.legal && !mine.folded) return 'fold';
    return mine.sitting_out || roundOpen(table) ? 'wait' : 'sit_out';
  }
  return roundOpen(table) ? 'wait' : 'leave';
}

/**
 * The seat change a sat-out or busted player asked for, as the messages to
 * send in order: chips first when there are none, then sitting in.
 * @param {TableView} table
 * @returns {('top_up' | 'sit_in')[]}
 */
export function comeBack(table) {
  const mine = mySeat(table);
  if (!mine) return [];
  /** @type {('top_up' | 'sit_in')[]} */
  const steps = [];
  if (mine.stack === 0) steps.push('top_up');
  if (mine.sitting_out) steps.push('sit_in');
  return steps;
}

// A verdict's withheld warning in words, and the count per table session and
// seat the page shows when a session has several (as `fairseed verify`
// counts them: crates/cli/src/tally.rs), from the hand-record module alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdemWarning, withheldCounts } from '../js/holdem-words.js';

const SESSION = 'c'.repeat(64);
/** A `selfpoker_v3` hand record's parts the count reads. */
const hand = (n, withheld, table = 't1', session = SESSION) => ({
  scheme: 'holdem_hand_v1', hand: n, seats: [], deal: { scheme: 'selfpoker_v3', table_id: table, session_commit: session, withheld },
});

test('a withheld warning names the hand and the seat, and says what it allows', () => {
  const detail = 'hand 4: seat 2 committed to a per-hand value and withheld it, so it was dealt out of this hand; the policy allows it, but each is a choice between two decks the house could have made';
  assert.equal(holdemWarning(hand(4, [2]), { name: 'withheld', detail }),
    'Hand 4: seat 2 sent the fingerprint of its value, then held the value back, and was dealt out of this hand. The rules allow it, but each time it happens the cards could have been one of two decks.');
  assert.equal(holdemWarning(hand(4, [2]), { name: 'something_new', detail: '' }), 'Hand 4: the check passed with a warning the page does not know how to say.');
});

test('withheld values are counted per table session and seat, only where a session has several', () => {
  assert.deepEqual(withheldCounts([hand(1, [0])]), []);
  assert.deepEqual(withheldCounts([hand(1, [0]), hand(2, [0, 3]), hand(3, []), hand(1, [2], 't2'), hand(5, [0], 't1', 'd'.repeat(64))]), [
    'At this table (t1), seat 0 held back its value in 2 hands.',
    'At this table (t1), seat 3 held back its value in 1 hand.',
  ]);
  // Not hand records of a round (plain selfpoker, selfpoker_v2, or unreadable): nothing to count.
  assert.deepEqual(withheldCounts([null, { scheme: 'holdem_hand_v1', hand: 1, deal: { scheme: 'selfpoker_v2', withheld: [0] } }, hand(1, [0]), hand(2, [0])]),
    ['At this table (t1), seat 0 held back its value in 2 hands.']);
});

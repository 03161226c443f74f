// A verdict's withheld warning in words, and the count per table session and
// seat the page shows when a session has several (as `fairseed verify`
// counts them: crates/cli/src/tally.rs), the house's seat as a warning, and
// who may sit and the chips carried between hands in words, from the
// hand-record module alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdemSentence, holdemWarning, withheldCounts } from '../js/holdem-words.js';

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

/** A hand record of a table with a person at seat 0, an AI at seat 1 and a person at seat 2. */
const seated = (n, policy) => ({
  scheme: 'holdem_hand_v1', hand: n, policy,
  seats: [{ seat: 0, stack: 10000, came: 'opener' }, { seat: 1, stack: 10000, player: { kind: 'ai', level: 2 } }, { seat: 2, stack: 10000, came: 'house' }],
});

test('the house\'s seat is a warning that says how it sat down: with the opener\'s invitation, or at a public table', () => {
  const how = (public_) => `hand 4: seat 2 is the house's: a player the operator created sat down ${public_ ? 'at a public table, where anyone may sit' : 'with the invitation of the table\'s opener'}; the house knows every card dealt, so this seat may play knowing them`;
  assert.equal(holdemWarning(seated(4, { ais: [2] }), { name: 'house', detail: how(false) }),
    'Hand 4: seat 2 is the house\'s: a player the operator created sat down with the invitation of the table\'s opener. The house knows every card dealt, so this seat may play knowing them.');
  assert.equal(holdemWarning(seated(4, { ais: [2], public: true }), { name: 'house', detail: how(true) }),
    'Hand 4: seat 2 is the house\'s: a player the operator created sat down at this public table. The house knows every card dealt, so this seat may play knowing them.');
});

test('who may sit and the chips between hands, in words: the policy\'s public words, a stranger, carried', () => {
  const say = (name, ok, detail, policy = {}) => holdemSentence(null, seated(5, policy), { name, ok, detail });
  const held = 'every seat, AI level and engine, the blinds, the clock, the starting stack and every top-up are the table\'s policy (sha256 ab), committed at open';
  assert.deepEqual(say('policy', true, held), { ok: true, text: 'Hand 5: every seat, AI level, blind, clock and starting stack is the one the table committed to when it opened.' });
  assert.deepEqual(say('policy', true, `${held}; a public table: anyone, the house included, may sit here`, { public: true }),
    { ok: true, text: 'Hand 5: every seat, AI level, blind, clock and starting stack is the one the table committed to when it opened; a public table: anyone, the house included, may sit here.' });
  assert.deepEqual(say('policy', false, 'hand 5: seat 2 sat down without an invitation, as at a public table; the table\'s policy, committed at open, keeps the table private'),
    { ok: false, text: 'Hand 5: seat 2 sat down without an invitation, as at a public table, but the rules the table committed to when it opened keep it private.' });
  assert.deepEqual(say('policy', false, 'hand 5: seat 2 sat down with 12,000 chips; the table\'s policy, committed at open, seats every player with 10,000'),
    { ok: false, text: 'Hand 5: seat 2 sat down with 12,000 chips, but the rules the table committed to when it opened give every player 10,000.' });
  assert.deepEqual(say('carried', true, 'every seat dealt into hand 4 too starts with the chips it ended that hand with, plus the top-ups the record names'),
    { ok: true, text: 'Hand 5: every seat also in hand 4 starts with the chips it ended that hand with, plus the chips the record says it added.' });
  assert.deepEqual(say('carried', false, 'hand 5: seat 0 starts with 10,000 chips; it ended hand 4 with 3,400 and the record names no top-up'),
    { ok: false, text: 'Hand 5: seat 0 starts with 10,000 chips, but it ended hand 4 with 3,400 and the record names no chips added.' });
  assert.deepEqual(say('carried', false, 'hand 5: seat 0 starts with 10,000 chips; it ended hand 4 with 3,400 and the record names a top-up of 6,500'),
    { ok: false, text: 'Hand 5: seat 0 starts with 10,000 chips, but it ended hand 4 with 3,400 and the record names chips added: 6,500.' });
});

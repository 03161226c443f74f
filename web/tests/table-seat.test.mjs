// The seat's state and a leaving player's next step (web/js/table-seat.js),
// from table views written out by hand after docs/api.md's `TableView`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seatState, leaveStep, comeBack } from '../js/table-seat.js';

const seat = (over = {}) => ({ seat: 0, player: { kind: 'human', name: 'p' }, badge: null, stack: 1000, sitting_out: false, in_hand: false, folded: false, street_bet: 0, total: 0, hole: null, ...over });
const view = ({ mine = {}, hand = null, round = null } = {}) => ({
  table_id: 't', config: { seats: 2, small_blind: 50, big_blind: 100, starting_stack: 1000, action_ms: 30000 },
  you: 0, seats: [seat(mine), seat({ seat: 1, player: { kind: 'ai', level: 1 } })], button: 0, hands_played: 0,
  hand, last_hand: null, session: { scheme: 'selfpoker_v3', commit: null, secret: null }, round, closed: false,
});
const hand = (over = {}) => ({ number: 1, commit: 'c', scheme: 'selfpoker_v3', street: 'preflop', board: [], pot: 150, to_act: 1, deadline_ms: 0, legal: null, actions: [], ...over });
const open = { hand: 2, phase: 'commit', seats: [0], commits: {}, revealed: [], deadline_ms: 0 };

test('each seat state, from the view and what the page knows', () => {
  assert.equal(seatState({ ...view(), you: null }), 'watching');
  assert.equal(seatState(view()), 'playing');
  assert.equal(seatState(view({ mine: { sitting_out: true } })), 'sat_out');
  assert.equal(seatState(view({ mine: { sitting_out: true } }), { outReason: 'clock' }), 'timed_out');
  assert.equal(seatState(view({ mine: { sitting_out: true } }), { outReason: 'round' }), 'missed_round');
  assert.equal(seatState(view({ mine: { stack: 0 } })), 'busted');
  // All in during a hand is not out of chips.
  assert.equal(seatState(view({ mine: { stack: 0, in_hand: true }, hand: hand() })), 'playing');
  assert.equal(seatState(view({ mine: { stack: 0 } }), { leaving: true }), 'leaving');
});

test('a leaving player folds on their turn, sits out while dealt in, waits out a round, then leaves', () => {
  const myTurn = hand({ to_act: 0, legal: { to_call: 100, raise: [200, 1000] } });
  assert.equal(leaveStep(view({ mine: { in_hand: true }, hand: myTurn })), 'fold');
  assert.equal(leaveStep(view({ mine: { in_hand: true }, hand: hand() })), 'sit_out');
  assert.equal(leaveStep(view({ mine: { in_hand: true, sitting_out: true }, hand: hand() })), 'wait');
  assert.equal(leaveStep(view({ mine: { in_hand: true, folded: true }, hand: hand() })), 'sit_out');
  assert.equal(leaveStep(view({ round: open })), 'wait');
  assert.equal(leaveStep(view()), 'leave');
  assert.equal(leaveStep({ ...view(), you: null }), 'wait');
});

test('coming back: chips first when there are none, then sitting in', () => {
  assert.deepEqual(comeBack(view({ mine: { sitting_out: true } })), ['sit_in']);
  assert.deepEqual(comeBack(view({ mine: { stack: 0 } })), ['top_up']);
  assert.deepEqual(comeBack(view({ mine: { stack: 0, sitting_out: true } })), ['top_up', 'sit_in']);
  assert.deepEqual(comeBack(view()), []);
});

test('sitting out asked during a hand: still playing it until it ends', () => {
  assert.equal(seatState(view({ mine: { sitting_out: true, in_hand: true }, hand: hand() })), 'playing');
  assert.equal(seatState(view({ mine: { sitting_out: true, in_hand: true, folded: true }, hand: hand() })), 'sat_out');
  assert.equal(seatState(view({ mine: { sitting_out: true, in_hand: true }, hand: hand() }), { outReason: 'clock' }), 'timed_out');
});

// The page's round code (web/js/table-round.js) on its own, with values
// drawn by a counter so each test knows which value is which: a second and a
// third table each get a fresh value for their hand 1; a round run again for
// the same hand after `no_hand` gets a fresh value; a notice the state already
// included does not throw away a value committed to; each step is owed once,
// and again only after it could not be sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRoundBook } from '../js/table-round.js';

/** A book whose values are "v1", "v2", … in the order drawn. */
function book() {
  let n = 0;
  return createRoundBook(() => `v${++n}`);
}

const round = (hand, phase, commits = {}, revealed = []) => ({ hand, phase, seats: [0], commits, revealed, deadline_ms: 0 });

/** Plays one round through: the commit, then the reveal once the state holds the commit. */
function playThrough(b, hand, seq) {
  const commit = b.due(round(hand, 'commit'), 0, seq);
  const reveal = b.due(round(hand, 'reveal', { 0: `sha(${commit.value})` }), 0, seq + 2);
  return { commit, reveal };
}

test('a second and a third table each commit to a fresh value for hand 1', () => {
  const b = book();
  const seen = [];
  for (const table of ['t1', 't2', 't3']) {
    b.table(table);
    const { commit, reveal } = playThrough(b, 1, 10);
    assert.equal(commit.type, 'hand_commit');
    assert.equal(reveal.type, 'hand_reveal');
    assert.equal(reveal.value, commit.value, `${table}: the value revealed is the one committed to`);
    seen.push(commit.value);
  }
  assert.deepEqual(seen, ['v1', 'v2', 'v3']);
});

test('the same table again keeps its value (a reconnect is not a table change)', () => {
  const b = book();
  b.table('t1');
  const commit = b.due(round(1, 'commit'), 0, 5);
  b.table('t1');
  const reveal = b.due(round(1, 'reveal', { 0: 'c' }), 0, 7);
  assert.equal(reveal.value, commit.value);
});

test('a round run again after no_hand draws a fresh value, each time', () => {
  const b = book();
  b.table('t1');
  const first = b.due(round(4, 'commit'), 0, 20);
  assert.equal(first.value, 'v1');
  // The round ended without a hand (the value was withheld), and was opened again for hand 4.
  b.notice({ kind: 'no_hand', hand: 4 }, 23);
  b.notice({ kind: 'opened', hand: 4 }, 24);
  const second = b.due(round(4, 'commit'), 0, 24);
  assert.equal(second.value, 'v2');
  // An `opened` alone (the `no_hand` before it missed, e.g. skipped by a backlog) says the same.
  b.notice({ kind: 'opened', hand: 4 }, 40);
  const third = b.due(round(4, 'commit'), 0, 40);
  assert.equal(third.value, 'v3');
  assert.equal(b.due(round(4, 'reveal', { 0: 'c' }), 0, 42).value, 'v3');
});

test('a notice the state already included keeps the value committed to', () => {
  const b = book();
  b.table('t1');
  const commit = b.due(round(2, 'commit'), 0, 30);
  // The `opened` at seq 29 came before the state at 30 that showed the round.
  b.notice({ kind: 'opened', hand: 2 }, 29);
  assert.equal(b.due(round(2, 'commit'), 0, 31), null, 'committed once');
  assert.equal(b.due(round(2, 'reveal', { 0: 'c' }), 0, 32).value, commit.value);
});

test('each step is owed once; a step that could not be sent is owed again', () => {
  const b = book();
  b.table('t1');
  const commit = b.due(round(1, 'commit'), 0, 1);
  assert.equal(b.due(round(1, 'commit'), 0, 2), null);
  b.failed(commit);
  assert.deepEqual(b.due(round(1, 'commit'), 0, 3), commit);
  const reveal = b.due(round(1, 'reveal', { 0: 'c' }), 0, 4);
  assert.equal(b.due(round(1, 'reveal', { 0: 'c' }), 0, 5), null);
  b.failed(reveal);
  assert.deepEqual(b.due(round(1, 'reveal', { 0: 'c' }), 0, 6), reveal);
  // Revealed (the state says so): nothing more.
  assert.equal(b.due(round(1, 'reveal', { 0: 'c' }, [0]), 0, 7), null);
});

test('nothing is owed by a seat outside the round, or to no round', () => {
  const b = book();
  b.table('t1');
  assert.equal(b.due(null, 0, 1), null);
  assert.equal(b.due({ ...round(1, 'commit'), seats: [2] }, 0, 1), null);
  assert.equal(b.due(round(1, 'commit'), null, 1), null);
  assert.equal(b.held(1), null, 'no value drawn for a round the seat is not in');
});

test('a commit the page holds no value for (a reload after committing) is named as lost', () => {
  const b = book();
  b.table('t1');
  assert.equal(b.lost(round(3, 'reveal', { 0: 'c' }), 0), true);
  assert.equal(b.due(round(3, 'reveal', { 0: 'c' }), 0, 9), null, 'no value to reveal');
  const fresh = book();
  fresh.table('t1');
  fresh.due(round(3, 'commit'), 0, 8);
  assert.equal(fresh.lost(round(3, 'reveal', { 0: 'c' }), 0), false);
});

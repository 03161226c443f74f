// A table's link and who may sit, from the module alone (docs/spec.md
// §19.4): the link the opener shares and what the page reads back from it,
// the seat a person joining takes, and a refused invitation in words naming
// what was wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inviteOf, inviteLink, freeSeat, refusalText, cameText } from '../js/table-invite.js';
import { newTableAsk, AI_LEVELS } from '../js/table.js';

const CODE = '0123456789abcdef0123456789abcdef';

test('the link the opener shares opens that table with its invitation, and nothing else does', () => {
  const link = inviteLink('https://play.example/?x=1#tables', 'h0123456789abcdef', CODE);
  assert.equal(link, `https://play.example/?x=1#table=h0123456789abcdef&invite=${CODE}`);
  assert.deepEqual(inviteOf(new URL(link).hash), { table: 'h0123456789abcdef', invite: CODE });
  // A public table's link carries no invitation.
  assert.equal(inviteLink('https://play.example/', 'h1', null), 'https://play.example/#table=h1');
  assert.deepEqual(inviteOf('#table=h1'), { table: 'h1', invite: null });
  assert.deepEqual(inviteOf('table=h1&invite='), { table: 'h1', invite: null });
  // Not a table's link: another tab, a shared check, an empty or an overlong id or invitation.
  for (const hash of ['', '#table', '#verify?server_seed=ab', '#login=abc', '#table=', `#table=${'h'.repeat(129)}`, `#table=h1&invite=${'a'.repeat(129)}`]) {
    assert.equal(inviteOf(hash), null, hash);
  }
});

test('a person joining takes the first free seat; none when every seat is taken', () => {
  const table = (/** @type {(object | null)[]} */ seats) => /** @type {import('../js/types.js').TableView} */ (/** @type {unknown} */ ({ seats }));
  assert.equal(freeSeat(table([{}, null, {}, null])), 1);
  assert.equal(freeSeat(table([{}, {}])), null);
});

test('a refused invitation says what was wrong: none given, or not this table\'s', () => {
  assert.match(refusalText('invitation_refused', false), /^The table did not let you sit: you came without an invitation\. This table is private/);
  assert.match(refusalText('invitation_refused', true), /^The table did not let you sit: this invitation is not this table's\. An invitation opens only the table it was made for/);
  assert.equal(refusalText('table_closed', true), 'This table has closed.');
  assert.equal(refusalText('no_such_code', false), 'The table refused that.');
  const seat = (/** @type {string | null} */ came) => /** @type {import('../js/types.js').SeatView} */ (/** @type {unknown} */ ({ came }));
  assert.deepEqual(['opener', 'invited', 'public', 'house', null].map((c) => cameText(seat(c))),
    ['opened the table', 'invited', 'no invitation (public table)', 'the house\'s', null]);
});

test('opening a table: seats kept free for people take AIs away, and public only when asked', () => {
  assert.deepEqual(newTableAsk(0, false), { ais: AI_LEVELS, scheme: 'selfpoker_v3' });
  assert.deepEqual(newTableAsk(2, true), { ais: AI_LEVELS.slice(0, 3), scheme: 'selfpoker_v3', public: true });
  // At least one AI stays, however many free seats are asked for.
  assert.deepEqual(newTableAsk(9, false).ais, AI_LEVELS.slice(0, 1));
});

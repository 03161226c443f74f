// The page's hold'em WebSocket traffic matches the messages' JSON Schema
// (every other test's frames are checked too, when its fixture ends): a
// table opened and played to its first deal, each frame validated; and the
// validator itself refuses messages the server would refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, serviceFixture, socketFrames } from './harness.mjs';
import { mismatch, mismatches } from './socket-schema.mjs';

const fx = serviceFixture();
const { skip } = fx;

test('the validator refuses what is not a table message', () => {
  const sent = (m) => mismatch({ dir: 'sent', payload: JSON.stringify(m) });
  const received = (m) => mismatch({ dir: 'received', payload: JSON.stringify(m) });
  assert.equal(sent({ type: 'sit', seat: 2, client_seed: 'abc' }), null);
  assert.match(sent({ type: 'sit', seat: 'two', client_seed: 'abc' }), /seat/);
  assert.match(sent({ type: 'sit', seat: -1, client_seed: 'abc' }), /sent/);
  assert.match(sent({ type: 'shout' }), /sent/);
  assert.match(received({ type: 'state', seq: 1 }), /received/);
  assert.equal(received({ type: 'ack', id: 'm1' }), null);
  assert.match(mismatch({ dir: 'received', payload: 'not json' }), /not JSON/);
});

test('a table opened from the page: every frame is a schema message', { skip, timeout: 120_000 }, async () => {
  const page = await newPage(fx.browser);
  await page.goto(`${fx.service.base}/#table`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.click('#tb-open');
  await page.waitForSelector('#tb-table .felt[data-hand="1"]', { timeout: 90_000 });
  const types = (dir) => new Set(socketFrames.filter((f) => f.dir === dir).map((f) => JSON.parse(f.payload).type));
  for (const t of ['hello', 'sit']) assert.ok(types('sent').has(t), `the page sent no ${t}: ${[...types('sent')]}`);
  for (const t of ['state', 'ack']) assert.ok(types('received').has(t), `the page received no ${t}: ${[...types('received')]}`);
  assert.deepEqual(mismatches(socketFrames), []);
  assert.deepEqual(page.errors, []);
});

// The hold'em AIs decide alike in the page and on the server: the wasm build
// the page runs and the native `fairseed` binary play the same six engine-v1
// AIs from one seed, and their first 100,000 decisions agree line for line
// (docs/spec.md §18.2). A decision that differed between builds would make
// the page flag an honest hand, or pass a dishonest one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cargoBin, WEB } from './harness.mjs';
import { initSync, holdem_ai_decisions } from '../pkg/fairseed_wasm.js';

const COUNT = 100_000;

test('native and wasm AIs make the same 100,000 decisions', () => {
  initSync({ module: readFileSync(join(WEB, 'pkg/fairseed_wasm_bg.wasm')) });
  const fairseed = cargoBin('fairseed-cli', 'fairseed');
  for (const seed of [7, 4_000_000_000]) {
    const native = spawnSync(fairseed, ['table', 'decisions', '--seed', String(seed), '--count', String(COUNT)],
      { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(native.status, 0, native.stderr);
    const wasm = holdem_ai_decisions(seed, COUNT);
    const a = native.stdout.split('\n');
    const b = wasm.split('\n');
    assert.equal(a.length, COUNT + 1, `native printed ${a.length - 1} decisions`);
    const first = a.findIndex((line, i) => line !== b[i]);
    assert.equal(first, -1, `seed ${seed}: decision ${first} is '${a[first]}' natively, '${b[first]}' in wasm`);
    // Not a table of folds: every kind of action is among them.
    for (const kind of ['fold', 'check', 'call', 'raise to']) {
      assert.ok(a.some((line) => line.startsWith(kind)), `seed ${seed}: no '${kind}' among ${COUNT} decisions`);
    }
  }
});

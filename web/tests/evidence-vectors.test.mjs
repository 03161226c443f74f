// The player's clock as evidence (docs/spec.md §20.7) in the wasm build the
// page runs: every signed item of the vectors, written by an independent
// Python script (tests/vectors/holdem_evidence.py, hashlib and the
// `cryptography` package), gives the vector's message and verifies under
// the table's key exactly when the vector says it does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initSync, holdem_evidence_item } from '../pkg/fairseed_wasm.js';

// No browser here: the paths are this file's, not the browser harness's.
const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(WEB, '..');

test('the evidence vectors verify in wasm exactly when they should', () => {
  initSync({ module: readFileSync(join(WEB, 'pkg/fairseed_wasm_bg.wasm')) });
  const vectors = JSON.parse(readFileSync(join(REPO, 'tests/vectors/primitives/holdem_evidence.json'), 'utf8'));
  let valid = 0;
  let refused = 0;
  for (const [i, c] of vectors.cases.entries()) {
    const item = JSON.stringify(c.item);
    if (c.valid) {
      assert.equal(holdem_evidence_item(vectors.key, item), c.message, `case ${i}`);
      valid += 1;
    } else {
      assert.throws(() => holdem_evidence_item(vectors.key, item), /item\.sig: not the table's evidence key's signature/, `case ${i}`);
      refused += 1;
    }
  }
  assert.ok(valid >= 13 && refused >= 3, `${valid} valid, ${refused} refused`);
  assert.throws(() => holdem_evidence_item(vectors.other_key.slice(2), JSON.stringify(vectors.cases[0].item)), /key: expected 64 hex characters/);
});

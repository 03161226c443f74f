// Every language file has every key of English, no key English lacks, and the
// same placeholders in each string (a missing {roll} would show a blank).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { en } from '../i18n/en.js';
import { pt } from '../i18n/pt.js';
import { es } from '../i18n/es.js';

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

for (const [name, lang] of [['pt', pt], ['es', es]]) {
  test(`${name}: the same keys and placeholders as en`, () => {
    assert.deepEqual(Object.keys(lang).sort(), Object.keys(en).sort());
    for (const key of Object.keys(en)) {
      assert.deepEqual(placeholders(lang[key]), placeholders(en[key]), `${name} ${key}`);
    }
  });
}

test('every key the page uses exists in en', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const dir = new URL('../js/', import.meta.url);
  const used = new Set();
  for (const file of readdirSync(dir)) {
    for (const m of readFileSync(new URL(file, dir), 'utf8').matchAll(/\btn?\('([a-z_]+\.[\w.-]+)'/g)) used.add(m[1]);
  }
  assert.deepEqual([...used].filter((k) => !(k in en)), []);
});

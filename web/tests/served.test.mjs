// `fairseed-server` with no flag serves the page compiled into it at `/`,
// with the types browsers require, and nothing else of web/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService, REPO, WEB } from './harness.mjs';

const HAVE_SERVER = existsSync(join(REPO, 'crates/server/Cargo.toml'));
let service;
before(async () => { if (HAVE_SERVER) service = await startService(); });
after(() => service?.close());

test('the embedded page and only the page', { skip: !HAVE_SERVER && 'crates/server is not in this tree' }, async () => {
  const get = (path) => fetch(`${service.base}${path}`);
  for (const [path, type, file] of [
    ['/', 'text/html; charset=utf-8', 'index.html'],
    ['/js/app.js', 'text/javascript; charset=utf-8', 'js/app.js'],
    ['/js/poker.js', 'text/javascript; charset=utf-8', 'js/poker.js'],
    ['/js/bulk-worker.js', 'text/javascript; charset=utf-8', 'js/bulk-worker.js'],
    ['/i18n/pt.js', 'text/javascript; charset=utf-8', 'i18n/pt.js'],
    ['/favicon.ico', 'image/x-icon', 'favicon.ico'],
    ['/i18n/en.js', 'text/javascript; charset=utf-8', 'i18n/en.js'],
    ['/pkg/fairseed_wasm_bg.wasm', 'application/wasm', 'pkg/fairseed_wasm_bg.wasm'],
    ['/fairseed-verifier.html', 'text/html; charset=utf-8', 'fairseed-verifier.html'],
  ]) {
    const res = await get(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), type, path);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(WEB, file))), `${path} is web/${file}`);
  }
  for (const path of ['/test.sh', '/package.json', '/node_modules/playwright-core/package.json', '/tests/harness.mjs',
    '/bench/dice-1m.mjs', '/tools/offline.mjs', '/pkg/BUILD-INFO', '/test-artifacts/dice-desktop.png']) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.equal((await res.json()).code, 'not_found', path);
  }
});

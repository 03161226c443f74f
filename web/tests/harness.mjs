// Shared test plumbing: a static server for web/ that counts every request
// (and can forward /v1 to a running `fairseed serve`), the system Chromium
// driven by playwright-core, and screenshots into web/test-artifacts/.
import { createServer, request as httpRequest } from 'node:http';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { mismatches, recordSocketFrames } from './socket-schema.mjs';

export const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO = resolve(WEB, '..');
export const ARTIFACTS = join(WEB, 'test-artifacts');
export const VECTORS = join(REPO, 'tests/vectors/records');

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

/** Serves web/ on 127.0.0.1; `requests` lists every path asked for. */
export function startStatic({ proxy } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    requests.push(req.url);
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (proxy && (path.startsWith('/v1/') || path === '/healthz')) {
      const target = new URL(req.url, proxy);
      const fwd = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
        res.writeHead(up.statusCode, up.headers);
        up.pipe(res);
      });
      fwd.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
      req.pipe(fwd);
      return;
    }
    const file = normalize(join(WEB, path === '/' ? 'index.html' : path));
    if (!file.startsWith(WEB) || file.includes('node_modules')) {
      res.writeHead(403); res.end(); return;
    }
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' });
      res.end(readFileSync(file));
    } catch {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"code":"not_found","message":"no such file"}');
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    done({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((c) => server.close(c)) });
  }));
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Every hold'em WebSocket frame a test page sent or received, checked
 * against the messages' JSON Schema when a service fixture ends.
 */
export const socketFrames = [];

/** A page whose console errors and uncaught exceptions fail the caller's checks. */
export async function newPage(browser, { width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  recordSocketFrames(page, socketFrames);
  return page;
}

export async function shot(page, name, { fullPage = true } = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

export function vectorLines(file) {
  return readFileSync(join(VECTORS, file), 'utf8').split('\n').filter((l) => l.trim());
}

/** Builds `bin` of cargo package `pkg` (quick when CI's cargo test built it) and returns its path. */
export function cargoBin(pkg, bin) {
  const build = spawnSync('cargo', ['build', '-q', '-p', pkg, '--bin', bin, '--message-format=json'],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (build.status !== 0) throw new Error(`cargo build -p ${pkg} failed:\n${build.stderr}`);
  const exe = build.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))
    .find((m) => m.reason === 'compiler-artifact' && m.target?.name === bin && m.executable)?.executable;
  if (!exe) throw new Error(`cargo did not report the ${bin} executable`);
  return exe;
}

function freePort() {
  return new Promise((done) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

/** Flags for a table that plays at once: AIs act with no pause, the next hand is dealt with none. */
export const FAST_TABLES = ['--holdem-ai-delay-ms', '0', '--holdem-next-hand-ms', '0'];

async function untilUp(base) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service at ${base} did not start`);
}

/**
 * Starts a real `fairseed-server` (built with cargo, or FAIRSEED_SERVER_BIN)
 * on a free port with a fresh data directory: the page is the one compiled
 * into the binary, or with `webDir` the files of that directory; `args` are
 * more flags. Returns {base, operatorKey, dataDir, stop, restart, close}:
 * `stop` ends the process (SIGTERM), `restart` stops it if running and
 * starts it again on the same port and data, with `more` flags if given.
 */
export async function startService({ webDir, args = [] } = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'fairseed-web-'));
  const operatorKey = 'web-tests-operator-key-0123456789';
  const bin = process.env.FAIRSEED_SERVER_BIN || cargoBin('fairseed-server', 'fairseed-server');
  const web = webDir ? ['--web-dir', webDir] : [];
  const run = (more = []) => spawn(bin, ['--listen', `127.0.0.1:${port}`, '--data-dir', dataDir, '--rate-limit', '0', '--operator-key', operatorKey, ...web, ...args, ...more],
    { stdio: ['ignore', 'ignore', 'ignore'] });
  let proc = run();
  const base = `http://127.0.0.1:${port}`;
  await untilUp(base);
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((done) => proc.once('exit', done));
    proc.kill('SIGTERM');
    await exited;
  };
  return {
    base,
    operatorKey,
    dataDir,
    stop,
    async restart(more = []) {
      await stop();
      proc = run(more);
      await untilUp(base);
    },
    async close() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One JSON call to the service; throws on a non-2xx answer. */
export async function callApi(base, method, path, token, body) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** axe-core's violations on the page as it is now (injected by evaluate, which
 * a page's Content-Security-Policy does not block). */
export async function violations(page) {
  if (!(await page.evaluate(() => Boolean(globalThis.axe)))) {
    await page.evaluate(readFileSync(join(WEB, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  }
  return page.evaluate(async () => (await globalThis.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`));
}

/**
 * Registers a test file's before/after hooks: the browser, and `fairseed
 * serve` with this tree's page files (so a test sees exactly what is
 * committed here), with more flags `args`. `skip` says why not, with a SKIPPED line, when
 * crates/server is not in the tree.
 */
export function serviceFixture({ args = [] } = {}) {
  const fx = {
    browser: null,
    service: null,
    skip: existsSync(join(REPO, 'crates/server/Cargo.toml')) ? false : 'crates/server is not in this tree',
  };
  if (fx.skip) console.log(`SKIPPED: ${fx.skip}`);
  before(async () => {
    fx.browser = await launch();
    if (!fx.skip) fx.service = await startService({ webDir: WEB, args });
  });
  after(async () => {
    await fx.browser?.close();
    await fx.service?.close();
    const wrong = mismatches(socketFrames);
    if (wrong.length) throw new Error(`WebSocket frames outside holdem_ws.schema.json:\n${wrong.join('\n')}`);
  });
  return fx;
}

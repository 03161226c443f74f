// The whole player flow against a real `fairseed-server` serving web/ at `/`:
// play bets, rotate the seed pair, re-roll every bet in Revealed (in the Web
// Worker), verify one revealed bet in Verify, keyboard through the tabs, and
// screenshots of every screen at phone and desktop width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cargoBin, launch, newPage, shot, REPO } from './harness.mjs';

const HAVE_SERVER = existsSync(join(REPO, 'crates/server/Cargo.toml'));

function freePort() {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

function serverBinary() {
  return process.env.FAIRSEED_SERVER_BIN || cargoBin('fairseed-server', 'fairseed-server');
}

let proc;
let base;
let dataDir;
let browser;

before(async () => {
  if (!HAVE_SERVER) return;
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'fairseed-web-'));
  proc = spawn(serverBinary(), ['--listen', `127.0.0.1:${port}`, '--data-dir', dataDir, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stderr.on('data', () => {});
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  // The service gone before its data directory is: it may still be writing there as it stops.
  if (proc && proc.exitCode === null) {
    const exited = new Promise((done) => proc.once('exit', done));
    proc.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('play, rotate, re-roll in Revealed, verify in Verify', { skip: !HAVE_SERVER && 'crates/server is not in this tree' }, async () => {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.waitForFunction(() => /\d/.test(document.querySelector('#balance').textContent));
  await shot(page, 'dice-desktop');

  // Five bets: under 50.00 then over 20.00.
  const nonces = [];
  const shownRolls = [];
  for (let i = 0; i < 5; i++) {
    if (i === 3) await page.check('input[name=d-cond][value=over]', { force: true });
    await page.click('#d-roll');
    await page.waitForFunction((n) => document.querySelectorAll('#d-history tr[data-nonce]').length === n, i + 1);
    nonces.push(Number(await page.getAttribute('#d-result [data-nonce]', 'data-nonce')));
    // The roll exactly as the page shows it to the player.
    shownRolls.push(/Rolled (\d{1,2}\.\d\d)/.exec(await page.textContent('#d-result'))[1]);
  }
  assert.deepEqual(nonces, [0, 1, 2, 3, 4]);
  await shot(page, 'dice-after-bets-desktop');

  // Seeds: the commitment shown is remembered; a chosen client seed is refused after bets.
  await page.click('#tab-seeds');
  await page.waitForFunction(() => /^[0-9a-f]{64}$/.test(document.querySelector('#s-commitment').textContent));
  const commitment = await page.textContent('#s-commitment');
  // Five bets made: the next is bet 6 of the pair.
  await page.waitForFunction(() => document.querySelector('#s-nonce').textContent === '6');
  await shot(page, 'seeds-desktop');
  await page.click('#s-rotate');
  await page.waitForSelector('#s-reveal .reveal.ok');
  const seed = await page.textContent('#s-revealed-seed');
  assert.match(seed, /^[0-9a-f]{64}$/);
  assert.notEqual(await page.textContent('#s-commitment'), commitment, 'a new pair is committed');
  // Choose our own client seed for the new pair (before its first bet).
  await page.click('#s-random');
  const mine = await page.inputValue('#s-client');
  assert.match(mine, /^[0-9a-f]{32}$/);
  await page.click('#s-save');
  await page.waitForSelector('#s-message.ok-text');
  await shot(page, 'seeds-rotated-desktop');

  // Revealed: the SHA-256 check and all five bets re-rolled in the worker.
  await page.click('#tab-revealed');
  await page.waitForSelector('.revealed-pair .verify-bets');
  assert.match(await page.textContent('.revealed-pair .sha'), /✓/);
  await page.click('.revealed-pair .verify-bets');
  await page.waitForSelector('.revealed-pair .status.ok');
  assert.match(await page.textContent('.revealed-pair .status'), /All 5 bets/);
  await shot(page, 'revealed-desktop');
  // The big-pair path: the same pair re-rolled from one streamed export.
  const viaExport = await page.evaluate(async () => {
    const { runWorker } = await import('/js/revealed.js');
    const token = JSON.parse(localStorage.getItem('fairseed.token'));
    const pair = (await (await fetch('/v1/seeds/revealed', { headers: { Authorization: `Bearer ${token}` } })).json()).pairs[0];
    return runWorker({ ...pair, token, base: location.origin, total: pair.bets, via: 'export' });
  });
  assert.equal(viaExport.checked, 5);
  assert.equal(viaExport.mismatched, 0);

  // Pairs are numbered per player: this player's first pair is "Pair 1".
  assert.match(await page.textContent('.revealed-pair h2'), /^Pair 1$/);
  // Verify: one revealed bet by hand, typing the roll exactly as Dice showed it.
  const firstRoll = shownRolls[0];
  const client = await page.textContent('.revealed-pair code:not(.hex)');
  // The pair's client seed is the one this browser chose before the first bet,
  // not a default the server picked.
  const chosen = await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.chosen_seeds')));
  const pairId = await page.getAttribute('.revealed-pair', 'data-pair');
  assert.equal(chosen[pairId], client);
  assert.match(client, /^[0-9a-f]{32}$/);
  await page.click('#tab-verify');
  await page.fill('#v-server-seed', seed);
  await page.fill('#v-commitment', commitment);
  await page.fill('#v-client-seed', client);
  // The first bet of the pair is bet 1 (its record's nonce is 0).
  await page.fill('#v-nonce', '1');
  await page.fill('#v-roll', firstRoll);
  await page.click('#verify-dice button[type=submit]');
  await page.waitForSelector('#dice-verify-out .verdict.valid');
  assert.match(await page.textContent('#dice-verify-out .sentences'), new RegExp(`Roll ${firstRoll.replace('.', '\\.')} — matches`));
  // The correct revealed seed brings no warning.
  assert.equal(await page.locator('#dice-verify-out .hint').count(), 0);
  await shot(page, 'verify-typed-roll-desktop');

  // One click from a bet to its proof: from Dice's history, and from Revealed's bets.
  await page.click('#tab-dice');
  await page.click('#d-history tr[data-nonce="2"] button.proof');
  await page.waitForFunction(() => !document.querySelector('#panel-verify').hidden);
  await page.waitForSelector('#dice-verify-out .verdict.valid');
  assert.equal(await page.inputValue('#v-server-seed'), seed);
  assert.equal(await page.inputValue('#v-roll'), shownRolls[2]);
  // A shareable link with only public values, which opens the same check.
  await page.click('#v-share');
  const link = await page.textContent('#v-share-link');
  assert.deepEqual([...new URL(link.replace('#verify?', '?')).searchParams.keys()].sort(), ['client_seed', 'commitment', 'nonce', 'roll', 'server_seed']);
  const shared = await newPage(browser, { width: 1280, height: 900 });
  await shared.goto(link);
  await shared.waitForSelector('#dice-verify-out .verdict.valid');
  // The link carries the record's nonce (2); the form shows the bet's number, 3.
  assert.equal(await shared.inputValue('#v-nonce'), '3');
  await shared.close();
  await page.click('#tab-revealed');
  await page.click('.revealed-pair .show-bets');
  await page.click('.revealed-pair tr[data-nonce="4"] button.proof');
  await page.waitForSelector('#dice-verify-out .verdict.valid');
  assert.equal(await page.inputValue('#v-roll'), shownRolls[4]);
  await page.click('#tab-verify');
  // The new pair's hash pasted as the seed: the hint says it is the current pair's.
  const current = await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.current_commitment')));
  await page.fill('#v-server-seed', current);
  await page.click('#verify-dice button[type=submit]');
  await page.waitForFunction(() => /current seed pair/.test(document.querySelector('#dice-verify-out').textContent));
  await shot(page, 'verify-current-hash-hint-desktop');

  // Keyboard: arrows, Home and End move between tabs, focus follows.
  await page.focus('#tab-verify');
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-dice');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-table');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-tables');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-verify');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-tables');
  assert.equal(await page.isVisible('#panel-tables'), true);
  // A live selfpoker hand: commitment before the cards, seed after, checked here.
  await page.selectOption('#t-players', '3');
  await page.click('#t-deal');
  await page.waitForSelector('#t-play .deal-badge[data-state="wait"]');
  await shot(page, 'tables-hand-committed-desktop');
  for (let i = 0; i < 5; i++) await page.click('#t-next');
  await page.waitForSelector('#t-play .deal-badge[data-state="ok"]');
  await page.waitForSelector('#t-play .verdict.valid');
  assert.equal(await page.locator('#t-play .verdict .card').count(), 52 + 3 * 2 + 5);
  await shot(page, 'tables-desktop');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('phone width: every tab fits without horizontal scrolling', { skip: !HAVE_SERVER && 'crates/server is not in this tree' }, async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  // Something on every screen: a bet, a rotation, a re-roll, a hand.
  await page.click('#d-roll');
  await page.waitForSelector('#d-result [data-nonce]');
  await page.click('#tab-seeds');
  await page.click('#s-rotate');
  await page.waitForSelector('#s-reveal .reveal.ok');
  await page.click('#tab-revealed');
  await page.click('.revealed-pair .verify-bets');
  await page.waitForSelector('.revealed-pair .status.ok');
  await page.click('#tab-tables');
  await page.click('#t-deal');
  await page.waitForSelector('#t-play .deal-badge');
  const tabsFit = await page.evaluate(() => { const n = document.querySelector('#tabs'); return n.scrollWidth <= n.clientWidth; });
  assert.ok(tabsFit, 'all six tabs fit at phone width');
  for (const tab of ['dice', 'seeds', 'revealed', 'verify', 'tables', 'table']) {
    await page.click(`#tab-${tab}`);
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${tab}: ${overflow}px wider than the phone`);
    await shot(page, `${tab}-phone`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

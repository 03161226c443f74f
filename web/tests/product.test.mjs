// The page as a player meets it, against a real `fairseed-server`: errors
// shown where the action was, no quote for an amount that cannot be bet, the
// account backed up and restored with its recovery code, a login link taken
// and cleared from the address bar, the records download verified in Verify,
// three languages, and axe-core finding nothing on any tab at desktop and
// phone width, nor on the offline verifier.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callApi, launch, newPage, shot, startService, vectorLines, REPO, WEB, violations } from './harness.mjs';

const vectorLine = (file, i) => vectorLines(file)[i];

const HAVE_SERVER = existsSync(join(REPO, 'crates/server/Cargo.toml'));
const skip = !HAVE_SERVER && 'crates/server is not in this tree';
const TABS = ['dice', 'seeds', 'revealed', 'verify', 'tables'];

let service;
let browser;
before(async () => {
  browser = await launch();
  if (HAVE_SERVER) service = await startService();
});
after(async () => {
  await browser?.close();
  await service?.close();
});

async function open(page, path = '/') {
  await page.goto(`${service.base}${path}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.waitForFunction(() => /\d/.test(document.querySelector('#balance').textContent));
}

test('errors show where the action was; no quote for an amount that cannot be bet', { skip }, async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await open(page);
  for (const bad of ['0', '-5', '1.5', '']) {
    await page.fill('#d-amount', bad);
    assert.equal(await page.textContent('#d-win'), '—', `amount ${JSON.stringify(bad)}: no quote`);
    assert.equal(await page.textContent('#d-mult'), '—');
    assert.equal(await page.isDisabled('#d-roll'), true);
    assert.match(await page.textContent('#d-amount-error'), /whole number of chips/);
  }
  // A whole number above the largest bet: core's refusal, in words, and still no quote.
  await page.fill('#d-amount', '99999999999999999999');
  assert.equal(await page.textContent('#d-win'), '—');
  assert.match(await page.textContent('#d-amount-error'), /^The amount cannot be used/);
  await page.fill('#d-amount', '100');
  assert.match(await page.textContent('#d-win'), /^200 chips$/);
  assert.equal(await page.textContent('#d-amount-error'), '');
  // A bet above the balance: the service's 409, in words, stays under the button.
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.token')));
  const { balance } = await callApi(service.base, 'GET', '/v1/me', token);
  await page.fill('#d-amount', String(BigInt(balance) + 1n));
  await page.click('#d-roll');
  await page.waitForFunction(() => document.querySelector('#d-error').textContent.length > 0);
  assert.equal(await page.textContent('#d-error'), 'Your balance is too low for this bet.');
  await page.waitForTimeout(0);
  assert.equal(await page.textContent('#d-error'), 'Your balance is too low for this bet.', 'the message is not cleared by the redraw');
  // Thousands separators on the balance.
  assert.match(await page.textContent('#balance'), /^\d{1,3}(,\d{3})+ chips$/);
  await shot(page, 'dice-error-desktop', { fullPage: false });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('recovery code, restore elsewhere, login link, records download', { skip }, async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await open(page);
  await page.click('#d-roll');
  await page.waitForSelector('#d-result [data-nonce]');
  await page.click('#tab-seeds');
  await page.click('#s-rotate');
  await page.waitForSelector('#s-reveal .reveal.ok');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.token')));
  await page.click('#a-show');
  const code = await page.textContent('#a-code');
  assert.match(code, /^FS1(-[0-9a-f]{8}){8}$/);
  assert.equal(code.replace(/^FS1|-/g, ''), token);
  await shot(page, 'seeds-account-phone');

  // Records: the download is the export, and Verify accepts it as it is.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#a-download')]);
  const text = readFileSync(await download.path(), 'utf8');
  const lines = text.split('\n').filter(Boolean);
  assert.ok(lines.length >= 1 && lines.every((l) => typeof JSON.parse(l).scheme === 'string'), 'JSON Lines of records');
  await page.click('#tab-verify');
  await page.setInputFiles('#v-file', { name: 'mine.jsonl', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction((n) => document.querySelector('#records-summary').dataset.done === 'true'
    && document.querySelector('#records-summary').dataset.total === String(n), lines.length);
  assert.equal(await page.$eval('#records-summary', (e) => Number(e.dataset.valid)), lines.length);

  // Another browser: restore from the code (spaced and upper-cased, as typed by hand).
  const other = await newPage(browser, { width: 1280, height: 800 });
  await open(other, '/#seeds');
  const fresh = await other.evaluate(() => JSON.parse(localStorage.getItem('fairseed.token')));
  assert.notEqual(fresh, token);
  await other.fill('#a-restore', 'not a code');
  await other.click('#a-restore-form button[type=submit]');
  await other.waitForSelector('#a-message.error-text');
  await other.fill('#a-restore', ` ${code.toUpperCase().replace(/-/g, ' ')} `);
  await other.click('#a-restore-form button[type=submit]');
  await other.waitForFunction(() => document.body.dataset.ready === 'true' && performance.getEntriesByType('navigation')[0].type === 'reload');
  assert.equal(await other.evaluate(() => JSON.parse(localStorage.getItem('fairseed.token'))), token);
  await other.click('#tab-revealed');
  await other.waitForSelector('.revealed-pair');
  // The account it had before is kept, with its own recovery code.
  await other.click('#tab-seeds');
  await other.click('#a-previous .previous-code');
  assert.equal((await other.textContent('#a-code')).replace(/^FS1|-/g, ''), fresh);
  await other.close();

  // An operator's login link (POST /v1/operator/players gives it): the token is
  // taken, the fragment leaves the address bar, the page plays as that player.
  const created = await callApi(service.base, 'POST', '/v1/operator/players', service.operatorKey, { external_id: 'web-login-link' });
  assert.match(created.login_url, /^\/#login=/);
  const linked = await newPage(browser, { width: 1280, height: 800 });
  await linked.goto(`${service.base}${created.login_url}`);
  await linked.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.equal(await linked.evaluate(() => location.hash), '');
  assert.ok(!(await linked.evaluate(() => location.href)).includes(created.token), 'the token is not in the address bar');
  const linkedToken = await linked.evaluate(() => JSON.parse(localStorage.getItem('fairseed.token')));
  assert.equal((await callApi(service.base, 'GET', '/v1/me', linkedToken)).player_id, created.player_id);
  assert.match(await linked.textContent('#notice'), /Signed in with the link you opened/);
  await linked.waitForFunction(() => /\d/.test(document.querySelector('#balance').textContent));
  assert.deepEqual([...page.errors, ...linked.errors], []);
  await linked.close();
  await page.close();
});

test('English, Portuguese and Spanish: from the browser, a switch that stays', { skip }, async () => {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await open(page);
  assert.equal(await page.textContent('#tab-seeds'), 'Semillas');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  assert.match(await page.textContent('#balance'), /^\d{1,3}(\.\d{3})+ fichas$/);
  await page.selectOption('#lang', 'pt');
  await page.waitForFunction(() => document.documentElement.lang === 'pt' && document.body.dataset.ready === 'true');
  assert.equal(await page.textContent('#tab-seeds'), 'Sementes');
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.equal(await page.textContent('#tab-verify'), 'Verificar');
  assert.equal(await page.textContent('#tab-revealed'), 'Reveladas');
  // The roll as Portuguese writes it, and accepted back as typed.
  await page.click('#d-roll');
  await page.waitForSelector('#d-result [data-nonce]');
  assert.match(await page.textContent('#d-result'), /^Saiu \d{1,2},\d\d/);
  await page.click('#tab-seeds');
  await shot(page, 'seeds-pt-desktop');
  // A service error in Portuguese: a client seed after the first bet.
  await page.fill('#s-client', 'abc');
  await page.click('#s-save');
  await page.waitForSelector('#s-message.error-text');
  assert.match(await page.textContent('#s-message'), /só muda antes da primeira aposta/);
  await context.close();
});

test('axe-core: no violation on any tab at 1280×800 and 390×844, nor on the offline verifier', { skip }, async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const page = await newPage(browser, { width, height });
    await open(page);
    // Something on every tab first: a bet, a reveal, a verdict, a hand.
    await page.click('#d-roll');
    await page.waitForSelector('#d-result [data-nonce]');
    await page.click('#tab-seeds');
    await page.click('#s-rotate');
    await page.waitForSelector('#s-reveal .reveal.ok');
    await page.click('#a-show');
    await page.click('#tab-revealed');
    await page.click('.revealed-pair .verify-bets');
    await page.waitForSelector('.revealed-pair .status.ok');
    await page.click('.revealed-pair .show-bets');
    await page.click('.revealed-pair tr[data-nonce="0"] button.proof');
    await page.waitForSelector('#dice-verify-out .verdict.valid');
    await page.click('#tab-tables');
    await page.click('#t-deal');
    await page.waitForSelector('#t-play .deal-badge');
    for (const tab of TABS) {
      await page.click(`#tab-${tab}`);
      if (tab === 'verify') {
        // A file with a problem in it: the summary, the filter, the list and a failed verdict are all on screen.
        const records = [vectorLine('invalid.jsonl', 8), ...vectorLines('dice_v1.jsonl').slice(0, 40)].join('\n');
        await page.setInputFiles('#v-file', { name: 'some.jsonl', mimeType: 'application/json', buffer: Buffer.from(records) });
        await page.waitForSelector('#records-detail .verdict.invalid');
      }
      assert.deepEqual(await violations(page), [], `${tab} at ${width}×${height}`);
      await shot(page, `${tab}-${width}x${height}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  const offline = await newPage(browser, { width: 390, height: 844 });
  await offline.goto(pathToFileURL(join(WEB, 'fairseed-verifier.html')).href);
  await offline.waitForFunction(() => document.body.dataset.ready === 'true');
  await offline.setInputFiles('#v-file', { name: 'selfpoker.jsonl', mimeType: 'application/json', buffer: Buffer.from(vectorLines('selfpoker.jsonl').join('\n')) });
  await offline.waitForSelector('#records-detail .verdict');
  assert.deepEqual(await violations(offline), [], 'offline verifier');
  await offline.close();
});

test('the favicon is served', { skip }, async () => {
  const res = await fetch(`${service.base}/favicon.ico`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/x-icon');
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
});

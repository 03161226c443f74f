// The page in the player's words: in Portuguese and in Spanish,
// every string a player sees — every tab, after a roll, a rotation and a
// re-check, errors, a verdict's "Details" opened, the hold'em table with the
// coach, and the offline file built from this tree — is made of the words of
// that language's file, and none holds a term web/i18n/glossary.md keeps
// technical (those live only in tooltips, in code-type identifiers, and in
// the verifier's own English report behind a second "Details").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serviceFixture, shot, vectorLines, WEB } from './harness.mjs';
import { pt } from '../i18n/pt.js';
import { es } from '../i18n/es.js';
import { en } from '../i18n/en.js';
import { technicalPatterns, SAME_AS_EN, LANGS, look } from './glossary-words.mjs';

const fx = serviceFixture();
const { skip } = fx;

for (const [name, lang] of [['pt', pt], ['es', es]]) {
  test(`${name}: no string left as the English one`, () => {
    assert.deepEqual(Object.keys(en).filter((k) => lang[k] === en[k] && !SAME_AS_EN.has(k)), []);
  });
}

/** Opens every "Details" of the verdicts shown (not the verifier's own English report inside). */
async function openDetails(page) {
  await page.$$eval('details.more:not(.raw)', (ds) => ds.forEach((d) => { d.open = true; }));
  await page.$$eval('.log-badge', (ds) => ds.forEach((d) => { d.open = true; }));
}

for (const lang of ['pt', 'es']) {
  test(`glossary, ${lang}: every tab and state in the language file's words, no technical term`, { skip, timeout: 240_000 }, async () => {
    const patterns = technicalPatterns();
    const found = [];
    const context = await fx.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: LANGS[lang].locale });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${fx.service.base}/`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    await page.waitForFunction(() => /\d/.test(document.querySelector('#balance').textContent));
    await look(page, lang, patterns, 'dice', found);
    // An amount that cannot be bet: the error under it.
    await page.fill('#d-amount', '');
    await look(page, lang, patterns, 'dice, no amount', found);
    await page.fill('#d-amount', '100');
    for (let i = 0; i < 2; i++) {
      await page.click('#d-roll');
      await page.waitForFunction((n) => document.querySelectorAll('#d-history tr[data-nonce]').length === n && !document.querySelector('#d-roll').disabled, i + 1);
    }
    await openDetails(page);
    await look(page, lang, patterns, 'dice after two rolls', found);
    // A bet of the pair in play, checked: not revealed yet.
    await page.click('#d-history tr[data-nonce] button.proof');
    await page.waitForSelector('#v-not-revealed');
    await look(page, lang, patterns, 'verify, not revealed', found);
    await page.click('#tab-seeds');
    await page.waitForSelector('#s-rotate');
    await openDetails(page);
    await look(page, lang, patterns, 'seeds', found);
    await page.click('#s-rotate');
    await page.waitForFunction(() => document.querySelector('#s-reveal').textContent.length > 0);
    await look(page, lang, patterns, 'seeds after a rotation', found);
    await page.click('#tab-revealed');
    await page.waitForSelector('#panel-revealed .verify-bets');
    await page.click('#panel-revealed .verify-bets');
    await page.waitForFunction(() => document.querySelector('#panel-revealed .status.ok, #panel-revealed .status.bad'));
    await page.click('#panel-revealed .show-bets');
    await page.waitForSelector('#panel-revealed button.proof');
    await look(page, lang, patterns, 'revealed, re-checked', found);
    // A revealed bet in Verify, its "Details" open.
    await page.click('#panel-revealed button.proof');
    await page.waitForSelector('#dice-verify-out .verdict.valid');
    await openDetails(page);
    await look(page, lang, patterns, 'verify, a valid bet with details', found);
    // A wrong seed: invalid, details open.
    await page.fill('#v-server-seed', '0'.repeat(64));
    await page.click('#v-dice-go');
    await page.waitForSelector('#dice-verify-out .verdict.invalid');
    await openDetails(page);
    await look(page, lang, patterns, 'verify, a wrong seed with details', found);
    // Records of every scheme, a tampered one and an unreadable one.
    for (const [file, state] of [['selfpoker.jsonl', 'a selfpoker hand'], ['poker_hmac_v1.jsonl', 'a poker session'], ['match_seed_v2.jsonl', 'a match']]) {
      await page.fill('#v-records', vectorLines(file)[0]);
      await page.click('#v-records-go');
      await page.waitForSelector('#records-detail .verdict');
      await openDetails(page);
      await look(page, lang, patterns, `verify, ${state} with details`, found);
    }
    await page.fill('#v-records', '{"scheme": "dice_v1", "oops"');
    await page.click('#v-records-go');
    await page.waitForSelector('#records-detail .verdict.error');
    await look(page, lang, patterns, 'verify, unreadable', found);
    await page.click('#tab-tables');
    await look(page, lang, patterns, 'tables', found);
    // The hold'em table, seated, the coach on, on the player's turn.
    await page.click('#tab-table');
    await page.waitForSelector('#tb-open');
    await look(page, lang, patterns, 'table, before opening', found);
    await page.click('#tb-coach-on');
    await page.click('#tb-open');
    await page.waitForSelector('#tb-table .seat.mine');
    await page.waitForFunction(() => !document.querySelector('#tb-call').disabled, null, { timeout: 60_000 });
    await page.waitForSelector('#tb-suggest');
    await page.focus('#tb-deal .deal-badge');
    await look(page, lang, patterns, 'table, your turn with the coach', found);
    await shot(page, `glossary-${lang}-table`);
    assert.deepEqual(errors, []);
    await context.close();

    // The offline file, built from this tree, opened from disk.
    const dir = mkdtempSync(join(tmpdir(), 'fairseed-offline-'));
    try {
      const file = join(dir, 'fairseed-verifier.html');
      const built = spawnSync(process.execPath, [join(WEB, 'tools/offline.mjs'), file], { encoding: 'utf8' });
      assert.equal(built.status, 0, built.stderr);
      const offline = await fx.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: LANGS[lang].locale });
      const off = await offline.newPage();
      await off.goto(pathToFileURL(file).href);
      await off.waitForFunction(() => document.body.dataset.ready === 'true');
      await look(off, lang, patterns, 'offline file', found);
      await off.fill('#v-records', vectorLines('dice_v1.jsonl')[0]);
      await off.click('#v-records-go');
      await off.waitForSelector('#records-detail .verdict');
      await openDetails(off);
      await look(off, lang, patterns, 'offline file, a record with details', found);
      await offline.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(found, []);
  });
}

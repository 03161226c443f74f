// The glossary test of the hold'em table on a phone (390×844), in Portuguese
// and in Spanish, in every state the player's seat can be in: playing with
// the coach, sat out, timed out, sat out by a round the page's value missed,
// out of chips, leaving, left, and the hand list after leaving with every
// check and how a hand was dealt (and the help on what the house can and
// cannot do, opened). Every string a player sees is made of the
// words of that language's file, and none holds a term web/i18n/glossary.md
// keeps technical; in each state out of the hand, the seat's own button is in
// sight, not under the action bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, serviceFixture, shot } from './harness.mjs';
import { LOCALES, openTable, playUntil, seatShown } from './table-play.mjs';
import { startOpponent } from './opponent.mjs';
import { technicalPatterns, look } from './glossary-words.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;
const PHONE = { width: 390, height: 844 };

/** Waits for seat state `want`, acting (check or call) meanwhile when `play`. */
async function untilSeat(page, want, play) {
  const deadline = Date.now() + 30_000;
  while ((await seatShown(page)) !== want) {
    assert.ok(Date.now() < deadline, `the seat never showed ${want}`);
    if (play && await page.isEnabled('#tb-call').catch(() => false)) await page.keyboard.press(play);
    await page.waitForTimeout(50);
  }
}

/**
 * Whether the seat's main button, scrolled into sight as focus scrolls it,
 * is not under the action bar. (Scrolled again here: the test's mouse
 * pointer may hover a badge whose reasons open in the flow and move it.)
 */
async function mainInSight(page) {
  return page.evaluate(() => {
    const main = document.querySelector('#tb-seat [data-main]');
    if (!main) return 'no main button';
    main.scrollIntoView({ block: 'nearest' });
    const r = main.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit === main || main.contains(hit) ? true : `covered by ${hit ? hit.id || hit.className || hit.tagName : 'nothing (off screen)'}`;
  });
}

for (const lang of ['pt', 'es']) {
  test(`glossary, ${lang}: the table on a phone in every seat state`, { skip, timeout: 240_000 }, async () => {
    const patterns = technicalPatterns();
    const found = [];
    const context = await fx.browser.newContext({ viewport: PHONE, locale: LOCALES[lang] });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // What the tables this page opens get (a short clock; later two seats and a small stack), and
    // whether the page's first value for a round is kept from the table.
    const policy = { action_ms: 3000 };
    let dropReveal = false;
    await page.route('**/v1/holdem/tables', (route) => (route.request().method() === 'POST'
      ? route.continue({ postData: JSON.stringify({ ...JSON.parse(route.request().postData() || '{}'), ...policy }) })
      : route.continue()));
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((text) => {
        if (dropReveal && JSON.parse(String(text)).type === 'hand_reveal') { dropReveal = false; return; }
        server.send(text);
      });
      server.onMessage((text) => ws.send(text));
    });
    await page.goto(`${fx.service.base}/#table`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    const at = async (where) => {
      await look(page, lang, patterns, `phone, ${where}`, found);
      await shot(page, `glossary-${lang}-phone-${where.replace(/\W+/g, '-')}`, { fullPage: false });
    };

    await page.check('#tb-coach-on');
    await openTable(page);
    await page.waitForFunction(() => !document.querySelector('#tb-call').disabled, null, { timeout: 30_000 });
    await page.waitForSelector('#tb-suggest');
    await at('your turn with the coach');
    // A private table's words and its invitation; what the house can and cannot do, opened.
    await page.$eval('#tb-trust', (d) => { d.open = true; });
    await at('the house\'s part, opened');
    await page.click('#tb-sit-out');
    await untilSeat(page, 'sat_out', 'f');
    await at('sat out');
    assert.equal(await mainInSight(page), true, 'sat out: the seat\'s button');
    await page.keyboard.press('Enter');
    await untilSeat(page, 'timed_out', null);
    await at('timed out');
    assert.equal(await mainInSight(page), true, 'timed out: the seat\'s button');
    await page.keyboard.press('Enter');
    await playUntil(page, '#tb-call:not([disabled])', `${lang}: a turn`);
    await page.$eval('#tb-leave', (b) => b.click());
    await at('leaving');
    await page.waitForSelector('#tb-open:not([hidden])', { timeout: 30_000 });
    await page.waitForSelector('#tb-hands li[data-hand] .tb-checks', { timeout: 30_000 });
    await page.$$eval('#tb-hands details.tb-dealt', (ds) => ds.forEach((d) => { d.open = true; }));
    await at('left, the hand list with its checks');

    // A round the page's value did not reach.
    dropReveal = true;
    await openTable(page);
    await untilSeat(page, 'missed_round', null);
    await at('missed round');
    assert.equal(await mainInSight(page), true, 'missed round: the seat\'s button');
    await page.$eval('#tb-leave', (b) => b.click());
    await page.waitForSelector('#tb-open:not([hidden])', { timeout: 30_000 });

    // Out of chips, heads-up against a second person.
    Object.assign(policy, { ais: [], seats: 2, starting_stack: 150, action_ms: 30000, public: true });
    const id = await openTable(page);
    const opponent = await startOpponent(fx.browser, fx.service.base, id);
    await untilSeat(page, 'busted', 'f');
    await at('out of chips');
    assert.equal(await mainInSight(page), true, 'out of chips: the seat\'s button');
    await opponent.close();
    assert.deepEqual(errors, []);
    assert.deepEqual(found, []);
    await context.close();
  });
}

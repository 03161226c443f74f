// The table in the player's words and on a phone, in Portuguese and in
// Spanish, at desktop and phone sizes, against a real `fairseed-server`: a
// table's refusal is said in the page's words by its code, never the
// service's English; after a raise by Enter the keys F, C and R work on the
// next turn; on a phone the player's own cards are above the action bar at
// their turn, the keys' line is not shown, a badge's reasons open in the flow
// and a replay opens in sight; the coach's time is written as the language
// writes decimals; no record-kind identifier is in the badge's words; and a
// file given to Verify replaces the text pasted before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, serviceFixture, shot, VECTORS } from './harness.mjs';
import { join } from 'node:path';
import { SIZES, openPage, openTable, playUntil } from './table-play.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;
const ROUND_OPEN = {
  pt: 'As cartas da próxima mão estão sendo definidas; tente de novo quando ela começar.',
  es: 'Se están fijando las cartas de la próxima mano; inténtalo de nuevo cuando empiece.',
};
const OTHER = { pt: 'A mesa recusou isso.', es: 'La mesa rechazó eso.' };

/** Both rectangles, and whether `a` ends above where `b` begins. */
const above = (page, a, b) => page.evaluate(([x, y]) => {
  const r = document.querySelector(x).getBoundingClientRect();
  const s = document.querySelector(y).getBoundingClientRect();
  return { ok: r.bottom <= s.top + 1, a: r.bottom, b: s.top };
}, [a, b]);

/** Whether the element is wholly in the viewport. */
const inView = (page, sel) => page.evaluate((x) => {
  const r = document.querySelector(x).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
}, sel);

for (const lang of ['pt', 'es']) {
  for (const size of SIZES) {
    const name = `${lang}-${size.width}`;
    const phone = size.width < 600;
    test(`words and phone in ${lang} at ${size.width}×${size.height}`, { skip, timeout: 120_000 }, async () => {
      const page = await openPage(fx, lang, size);
      // Finding 5: refusals by code, in the page's words.
      const said = await page.evaluate(async () => {
        const { tableError } = await import('/js/table.js');
        return [tableError('round_open'), tableError('a_code_this_page_does_not_know')];
      });
      assert.deepEqual(said, [ROUND_OPEN[lang], OTHER[lang]]);

      // The actions the page sends, as the service receives them (AIs act at once: the player's
      // next turn may come before a disabled button could be seen).
      const acts = [];
      const seen = { seq: 0, otherTurn: 0, hand: null };
      page.on('websocket', (ws) => {
        ws.on('framesent', (f) => {
          const msg = JSON.parse(String(f.payload));
          if (msg.type === 'act') acts.push(msg.action.kind);
        });
        ws.on('framereceived', (f) => {
          const msg = JSON.parse(String(f.payload));
          if (msg.type !== 'state') return;
          seen.seq = msg.seq;
          seen.hand = msg.table.hand ? msg.table.hand.number : null;
          if (!msg.table.hand || msg.table.hand.to_act !== msg.table.you) seen.otherTurn = msg.seq;
        });
      });
      const waitFor = async (done, what) => {
        const until = Date.now() + 10_000;
        while (!(await done())) {
          assert.ok(Date.now() < until, what);
          await page.waitForTimeout(20);
        }
      };
      await page.check('#tb-coach-on');
      await openTable(page);
      // Finding 7: a raise by Enter in the amount, then C on the next turn.
      let raised = false;
      let afterRaise = false;
      let phoneChecked = false;
      const deadline = Date.now() + 60_000;
      while (!afterRaise) {
        assert.ok(Date.now() < deadline, `${name}: no turn after a raise by Enter`);
        if (!(await page.isEnabled('#tb-call').catch(() => false))) { await page.waitForTimeout(50); continue; }
        if (phone && !phoneChecked) {
          // Finding 8: the player's own cards above the sticky action bar at their turn.
          phoneChecked = true;
          const where = await above(page, '#tb-table .seat.mine .cards', '#tb-actions');
          assert.ok(where.ok, `${name}: own cards end at ${where.a}, the bar begins at ${where.b}`);
          assert.equal(await page.isVisible('#tb-keys'), false, `${name}: the keys' line on a phone`);
          await shot(page, `words-${name}-my-turn`, { fullPage: false });
        }
        // Finding 9: the coach's time with the language's decimal comma.
        await page.waitForSelector('#tb-coach-ms');
        assert.match(await page.textContent('#tb-coach-ms'), /^\D*\d+,\d \bms\b/);
        if (!raised && await page.isEnabled('#tb-amount')) {
          raised = true;
          await page.focus('#tb-amount');
          const sent = acts.length;
          await page.keyboard.press('Enter');
          await waitFor(() => acts.length > sent && acts.at(-1) === 'raise_to', `${name}: a raise by Enter`);
          // Past this turn (the table showed someone else to act, or the raise
          // ended the hand and the next one began, the player first to act),
          // so the next is a turn of its own.
          const at = seen.seq;
          const hand = seen.hand;
          await waitFor(() => seen.otherTurn > at || (seen.seq > at && seen.hand !== hand), `${name}: the turn after the raise`);
          continue;
        }
        if (raised) {
          // The keyboard is where the page left it (the amount, or the bar): C acts from there.
          const sent = acts.length;
          await page.keyboard.press('c');
          await waitFor(() => acts.length > sent && ['call', 'check'].includes(acts.at(-1)), `${name}: C after a raise by Enter`);
          afterRaise = true;
          continue;
        }
        await page.click('#tb-call');
        await page.waitForTimeout(50);
      }
      await playUntil(page, '#tb-hands li[data-hand="1"] .deal-badge', `${name}: hand 1 listed`);
      // Finding 9: the badge's words hold no record-kind identifier.
      const pop = await page.textContent('#tb-hands li[data-hand="1"] .badge-pop');
      assert.doesNotMatch(pop, /selfpoker/);
      if (phone) {
        // Finding 8: the badge's reasons in the flow (the next hand's line is pushed down, not covered).
        await page.focus('#tb-hands li[data-hand="1"] .deal-badge');
        assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#tb-hands li[data-hand="1"] .badge-pop')).position), 'static');
      }
      // Finding 8: the replay opens under its hand, in sight.
      // (Clicked on the element itself: with AIs acting at once, new hands keep shifting the list.)
      await page.$eval('#tb-hands li[data-hand="1"] [data-replay]', (b) => b.click());
      await page.waitForSelector('#tb-hands li[data-hand="1"] #tb-replay .replay-step');
      assert.ok(await inView(page, '#tb-replay-title'), `${name}: the replay's title is in sight`);
      await shot(page, `words-${name}-replay`, { fullPage: false });

      // Finding 10: a file replaces the text pasted before.
      await page.click('#tab-verify');
      await page.fill('#v-records', '{"scheme": "dice_v1", "stale": true}');
      await page.setInputFiles('#v-file', join(VECTORS, 'dice_v1.jsonl'));
      await page.waitForSelector('#records-detail .verdict, #records-summary, .verdict');
      assert.equal(await page.inputValue('#v-records'), '', `${name}: the pasted text is gone`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

// The page reloaded at the table, in Portuguese and in Spanish, on a desktop
// and on a phone, against a real `fairseed-server` whose AIs act at once:
// once in the middle of a hand (the page comes back to the same table and
// the hand goes on) and once in the middle of a hand's round, after its hash
// was sent and before its value was (the value went with the old page: the
// table deals without the player, who sits in again). The page rejoins each
// time, the table goes on, every later hand is dealt with a fresh value of
// this browser's, and once the table closes every check of every hand passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, serviceFixture, shot } from './harness.mjs';
import { SIZES, openTable, playUntil, leave, records, seatShown } from './table-play.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;

/** Every check the verifier makes of a `selfpoker_v3` hand with AIs (table-checks.test.mjs). */
const CHECKS = ['session_secret', 'derivation', 'reveals', 'withheld', 'commitment', 'actions', 'results', 'ai', 'policy'];
/** The checks of hand `hand` of a list holding `hands`: with the hand before it, the chips carried between them too. */
const checksOf = (hand, hands) => (hands.includes(hand - 1) ? [...CHECKS, 'carried'] : CHECKS);
const LOCALES = { pt: 'pt-BR', es: 'es-ES' };

/** The number of the hand the felt shows, or 0. */
const feltHand = (page) => page.evaluate(() => Number(document.querySelector('#tb-table .felt')?.dataset.hand || 0));

for (const lang of ['pt', 'es']) {
  for (const size of SIZES) {
    const name = `${lang}-${size.width}`;
    test(`reload in ${lang} at ${size.width}×${size.height}: mid-hand and mid-round, the page rejoins and the table goes on`, { skip, timeout: 180_000 }, async () => {
      const context = await fx.browser.newContext({ viewport: size, locale: LOCALES[lang] });
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(String(e)));
      // What the page sends, on its way (the watch stays through reloads): while `hold`, its value is held back
      // there, so the page is reloaded in the middle of the round, its hash sent and its value not.
      let hold = false;
      let held = null;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((text) => {
          const msg = JSON.parse(String(text));
          if (hold && msg.type === 'hand_reveal' && held === null) { held = msg; return; }
          server.send(text);
        });
        server.onMessage((text) => ws.send(text));
      });
      await page.goto(`${fx.service.base}/#table`);
      await page.waitForFunction(() => document.body.dataset.ready === 'true');
      const id = await openTable(page);
      const ready = () => page.waitForFunction(() => document.body.dataset.ready === 'true');

      // Mid-hand: the player's cards are on the felt and the hand is not over.
      await playUntil(page, async () => (await feltHand(page)) >= 2 && (await page.$$('#tb-table .seat.mine [data-card]')).length === 2
        && !(await page.$('#tb-hands li[data-hand="2"]')), `${name}: hand 2 under way`);
      const during = await feltHand(page);
      await page.reload();
      await ready();
      // The same table, the same seat, the hand goes on and ends.
      await page.waitForSelector('#tb-table .seat.mine[data-seat="0"]', { timeout: 30_000 });
      assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.table'))), id);
      await playUntil(page, `#tb-hands li[data-hand="${during}"]`, `${name}: hand ${during} after the reload`);
      await shot(page, `reload-${name}-mid-hand`, { fullPage: false });

      // Mid-round: the page's hash for the next hand is sent, its value not yet.
      hold = true;
      await playUntil(page, async () => held !== null, `${name}: a value on its way`);
      const round = held.hand;
      await page.reload();
      hold = false;
      await ready();
      await page.waitForSelector('#tb-table .seat.mine[data-seat="0"]', { timeout: 30_000 });
      // The table deals without the player (or deals no hand) and sits them out; they sit in again.
      const deadline = Date.now() + 60_000;
      while (!['sat_out', 'missed_round'].includes(await seatShown(page))) {
        assert.ok(Date.now() < deadline, `${name}: the seat shows ${await seatShown(page)}, not sat out, after the lost round`);
        await page.waitForTimeout(50);
      }
      await shot(page, `reload-${name}-mid-round`, { fullPage: false });
      await page.click('#tb-seat [data-main]');
      await playUntil(page, async () => (await records(page, id)).some((r) => r.hand > round && r.seats.some((s) => s.seat === 0)),
        `${name}: a hand dealt to the player after the lost round`);
      const last = Math.max(...(await records(page, id)).map((r) => r.hand));
      await playUntil(page, `#tb-hands li[data-hand="${last}"]`, `${name}: hand ${last} listed`);

      // Every value of this browser's is fresh: none used twice, across the reloads.
      const kept = await records(page, id);
      const mine = kept.map((r) => r.deal.hand_values && r.deal.hand_values['0']).filter(Boolean);
      assert.ok(mine.length >= 3, `${name}: ${mine.length} hands with this browser's value`);
      assert.equal(new Set(mine).size, mine.length, `${name}: a value used twice`);
      assert.ok(kept.some((r) => r.hand > round && r.deal.hand_values['0']), `${name}: no hand after the lost round with this browser's value`);

      // The table closes as the player leaves: every hand listed, every check passing.
      await leave(page, lang);
      await page.waitForFunction((n) => document.querySelectorAll('#tb-hands li[data-hand] .tb-checks').length >= n, kept.length, { timeout: 60_000 });
      const listed = await page.$$eval('#tb-hands li[data-hand]', (items) => items.map((li) => ({
        hand: Number(li.dataset.hand),
        checks: [...li.querySelectorAll('.tb-checks li')].map((c) => ({ name: c.dataset.check, ok: c.dataset.ok === 'true' })),
        problems: [...li.querySelectorAll('.poker-problems li')].map((p) => p.textContent),
      })));
      for (const { hand, checks, problems } of listed) {
        assert.deepEqual(checks.map((c) => c.name).sort(), [...checksOf(hand, listed.map((l) => l.hand))].sort(), `${name} hand ${hand}`);
        assert.deepEqual(checks.filter((c) => !c.ok), [], `${name} hand ${hand}`);
        assert.deepEqual(problems, [], `${name} hand ${hand}`);
      }
      assert.deepEqual(page.errors, []);
      await context.close();
    });
  }
}

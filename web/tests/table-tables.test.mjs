// Two and three tables in a row from one page load, in Portuguese and in
// Spanish, on a desktop and on a phone, against a real `fairseed-server`
// whose AIs act at once: each new table starts empty (no board, badge or hand
// of the last one), commits a fresh per-hand value, and deals and verifies
// its hand 1; leaving says what happens at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, serviceFixture, shot } from './harness.mjs';
import { SIZES, openPage, openTable, playUntil, leave } from './table-play.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;

for (const lang of ['pt', 'es']) {
  for (const size of SIZES) {
    const name = `${lang}-${size.width}`;
    test(`three tables in a row in ${lang} at ${size.width}×${size.height}: each deals and verifies its hands`, { skip, timeout: 180_000 }, async () => {
      const page = await openPage(fx, lang, size);
      const ids = [];
      for (let k = 1; k <= 3; k++) {
        // Nothing of the last table: its hands leave the list when the new table opens (seen as it happens).
        await page.evaluate(() => {
          globalThis.listEmptied = false;
          const list = document.querySelector('#tb-hands');
          new MutationObserver(() => { if (!list.querySelector('li[data-hand]')) globalThis.listEmptied = true; }).observe(list, { childList: true });
        });
        const id = await openTable(page);
        ids.push(id);
        await playUntil(page, '#tb-hands li[data-hand="1"] .deal-badge[data-state="ok"]', `${name} table ${k}: hand 1 verified`);
        if (k > 1) assert.equal(await page.evaluate(() => globalThis.listEmptied), true, `${name} table ${k}: the last table's hands were never cleared`);
        if (k === 2) await shot(page, `tables-${name}-second`, { fullPage: false });
        await leave(page, lang);
        assert.equal(await page.isVisible('#tb-open'), true, `${name}: the open button is back after leaving`);
      }
      assert.equal(new Set(ids).size, 3, `${name}: three different tables ${ids}`);
      // Each table's records: hand 1 dealt with this page's commit and value, fresh each time.
      const values = await page.evaluate(async (tables) => {
        const token = JSON.parse(localStorage.getItem('fairseed.token'));
        const out = [];
        for (const id of tables) {
          const res = await fetch(`/v1/holdem/tables/${id}/hands`, { headers: { Authorization: `Bearer ${token}` } });
          const first = (await res.json()).hands.find((r) => r.hand === 1);
          out.push(first && first.deal.hand_values ? first.deal.hand_values['0'] : null);
        }
        return out;
      }, ids);
      assert.ok(values.every((v) => /^[0-9a-f]{64}$/.test(v)), `${name}: ${values}`);
      assert.equal(new Set(values).size, 3, `${name}: a fresh value per table`);
      await shot(page, `tables-${name}-third-left`, { fullPage: false });
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

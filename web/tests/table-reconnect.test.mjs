// A service restart in the middle of a hand's round, in Portuguese and in
// Spanish, on a desktop and on a phone: the page's value for hand 2 is on its
// way when the service stops; the page says it lost the connection, comes
// back to the same table by itself, sends the same value again (a reconnect
// is not a new round) and the hand is dealt and verified.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, serviceFixture, shot } from './harness.mjs';
import { SIZES, openPage, openTable, playUntil, records } from './table-play.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;

for (const lang of ['pt', 'es']) {
  for (const size of SIZES) {
    const name = `${lang}-${size.width}`;
    test(`restart mid-round in ${lang} at ${size.width}×${size.height}: the page reconnects and the hand is dealt`, { skip, timeout: 120_000 }, async () => {
      const page = await openPage(fx, lang, size);
      let held = null;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((text) => {
          const msg = JSON.parse(String(text));
          // Hand 2's value never arrives on this connection: the service stops while it is on its way.
          if (msg.type === 'hand_reveal' && msg.hand === 2 && held === null) { held = msg; return; }
          server.send(text);
        });
        server.onMessage((text) => ws.send(text));
      });
      const id = await openTable(page);
      // Played on (and topped up when hand 1 took every chip) until hand 2's value is held.
      await playUntil(page, async () => held !== null, `${name}: hand 2's value`);
      await fx.service.restart();
      await page.waitForFunction(() => /\S/.test(document.querySelector('#tb-status').textContent), null);
      await shot(page, `reconnect-${name}-restarted`, { fullPage: false });
      await playUntil(page, '#tb-hands li[data-hand="2"] .deal-badge[data-state="ok"]', `${name}: hand 2 after the restart`);
      const second = (await records(page, id)).find((r) => r.hand === 2);
      assert.equal(second.deal.hand_values['0'], held.value, `${name}: the same value, sent again`);
      assert.equal(await page.textContent('#tb-error'), '', `${name}: no error left on the felt`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

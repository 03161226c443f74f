// The dice side of the page in the player's words, played as a new player would in Portuguese and in
// Spanish, on a desktop (1280×800) and on a phone (390×844, then 360 wide):
// every tab in sight on a phone, the keyboard kept on "Roll" after a roll, the
// history saying which seed pair each bet belongs to and telling wins from
// losses, nothing clipped at 360 px, a bet of the pair in play checked in
// Verify told as "not revealed yet" (not as an error), re-checking named as
// checking, and a record's "Details" in the player's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shot, serviceFixture, violations } from './harness.mjs';

const fx = serviceFixture();
const { skip } = fx;

/** What the player should read, per language (the page's words, written here by hand). */
const SAY = {
  pt: {
    locale: 'pt-BR', roll: 'Rolar', tabs: ['Dados', 'Sementes', 'Reveladas', 'Verificar', 'Distribuições', 'Pôquer'],
    pairCurrent: /^Par \d+ — em jogo/, pairEarlier: /^Par \d+ \(anterior\)$/, notRevealed: /Ainda não revelada — não há nada errado/,
    recheck: /^Recalcular e conferir/, details: /semente|Resultado|registro/i,
  },
  es: {
    locale: 'es-ES', roll: 'Tirar', tabs: ['Dados', 'Semillas', 'Reveladas', 'Verificar', 'Repartos', 'Póquer'],
    pairCurrent: /^Par \d+ — en juego/, pairEarlier: /^Par \d+ \(anterior\)$/, notRevealed: /Aún no revelada: no hay nada mal/,
    recheck: /^Recalcular y comprobar/, details: /semilla|Resultado|registro/i,
  },
};
const SIZES = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];

async function openPage(lang, size) {
  const context = await fx.browser.newContext({ viewport: size, locale: SAY[lang].locale });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(`${fx.service.base}/`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.waitForFunction(() => /\d/.test(document.querySelector('#balance').textContent));
  return page;
}

/** Elements under `root` whose text is cut: wider than their box, or outside the viewport. */
function clipped(page, root) {
  return page.evaluate((sel) => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    for (const el of document.querySelectorAll(`${sel} *`)) {
      if (!el.offsetParent || !el.childNodes.length || el.closest('.sr-only')) continue;
      const r = el.getBoundingClientRect();
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') out.push(`${el.tagName} "${el.textContent.trim().slice(0, 20)}" scrolls`);
      if (r.right > vw + 1 || r.left < -1) out.push(`${el.tagName} "${el.textContent.trim().slice(0, 20)}" off screen (${Math.round(r.left)}–${Math.round(r.right)} of ${vw})`);
      // A box narrower than its own text (the table wrapper hides the rest).
      const wrap = el.closest('.table-wrap');
      if (wrap && wrap.scrollWidth > wrap.clientWidth + 1) out.push(`the history scrolls sideways (${wrap.scrollWidth} > ${wrap.clientWidth})`);
    }
    return [...new Set(out)];
  }, root);
}

async function roll(page) {
  const before = await page.$$eval('#d-history tr[data-nonce]', (r) => r.length);
  await page.focus('#d-roll');
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('#d-history tr[data-nonce]').length > n && !document.querySelector('#d-roll').disabled, before);
}

for (const lang of ['pt', 'es']) {
  for (const size of SIZES) {
    const name = `${lang}-${size.width}`;
    test(`dice in ${lang} at ${size.width}×${size.height}: tabs, focus, pairs in history, wins and losses, not-revealed check`, { skip, timeout: 120_000 }, async () => {
      const say = SAY[lang];
      const page = await openPage(lang, size);
      // Finding 4: every tab is on screen without scrolling the tab bar, with distinct names.
      const tabs = await page.$$eval('#tabs [role="tab"]', (els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent, inside: r.left >= 0 && r.right <= document.documentElement.clientWidth && r.width > 0, full: e.scrollWidth <= e.clientWidth + 1 };
      }));
      assert.deepEqual(tabs.map((x) => x.text), say.tabs);
      for (const tab of tabs) assert.ok(tab.inside && tab.full, `${name}: tab "${tab.text}" is cut or off screen`);
      assert.equal(await page.$eval('#tabs', (e) => e.scrollWidth <= e.clientWidth + 1), true, 'the tab bar does not scroll');
      assert.equal(await page.textContent('#d-roll'), say.roll);

      // Finding 8: after a roll (by Enter on the button), the keyboard stays on the button.
      await roll(page);
      assert.equal(await page.evaluate(() => document.activeElement.id), 'd-roll', `${name}: focus after a roll`);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('#d-history tr[data-nonce]').length === 2 && !document.querySelector('#d-roll').disabled);
      assert.equal(await page.evaluate(() => document.activeElement.id), 'd-roll', `${name}: focus after a second roll`);

      // Finding 1: a bet of the pair in play, checked in Verify: "not revealed yet", how to reveal, no error.
      await page.click('#d-history tr[data-nonce] button.proof');
      await page.waitForSelector('#v-not-revealed');
      const pending = await page.textContent('#v-not-revealed');
      assert.match(pending, say.notRevealed);
      assert.equal(await page.$$eval('#dice-verify-out .error-text, #dice-verify-out .badge.error', (e) => e.length), 0, 'no error shown');
      await shot(page, `player-${name}-not-revealed`);
      assert.deepEqual(await violations(page), []);
      // Its link goes to Seeds, where the pair is changed.
      await page.click('#v-go-seeds');
      await page.waitForSelector('#panel-seeds:not([hidden]) #s-rotate');
      await page.click('#s-rotate');
      await page.waitForFunction(() => document.querySelector('#s-reveal').textContent.length > 0);

      // Finding 9: after a rotation, history rows say which pair each bet is of; wins and losses differ by mark and sign.
      await page.click('#tab-dice');
      await page.fill('#d-amount', '1');
      await page.evaluate(() => { const s = document.querySelector('#d-target'); s.value = '9800'; s.dispatchEvent(new Event('input')); });
      await roll(page);
      await page.evaluate(() => { const s = document.querySelector('#d-target'); s.value = '1'; s.dispatchEvent(new Event('input')); });
      await roll(page);
      const heads = await page.$$eval('#d-history tr.pair-row', (r) => r.map((x) => x.textContent));
      assert.equal(heads.length, 2, `${name}: a row per pair, got ${JSON.stringify(heads)}`);
      assert.match(heads[0], say.pairCurrent);
      assert.match(heads[1], say.pairEarlier);
      const rows = await page.$$eval('#d-history tr[data-nonce]', (r) => r.map((x) => ({ win: x.querySelector('[data-win]').dataset.win, text: x.querySelector('[data-win]').textContent })));
      for (const r of rows) assert.match(r.text, r.win === 'true' ? /^✓ .*\+\d/ : /^✗ .*−\d/, `${name}: ${JSON.stringify(r)}`);
      assert.ok(rows.some((r) => r.win === 'true') && rows.some((r) => r.win === 'false'), `${name}: a win and a loss (target 98 then 0.01): ${JSON.stringify(rows)}`);
      await shot(page, `player-${name}-history`);

      // Finding 7: nothing in the history is cut, at this width and at 360 px.
      assert.deepEqual(await clipped(page, '#panel-dice'), [], `${name}: clipped`);
      if (size.width < 500) {
        await page.setViewportSize({ width: 360, height: 780 });
        assert.deepEqual(await clipped(page, '#panel-dice'), [], `${lang}-360: clipped`);
        assert.deepEqual(await clipped(page, '#tabs'), [], `${lang}-360: tabs clipped`);
        await shot(page, `player-${lang}-360-history`);
        await page.setViewportSize(size);
      }
      assert.deepEqual(await violations(page), []);

      // Finding 9: the revealed pair's button says it checks, not that it bets again.
      await page.click('#tab-revealed');
      await page.waitForSelector('#panel-revealed .verify-bets');
      assert.match(await page.textContent('#panel-revealed .verify-bets'), say.recheck);

      // Finding 2: a dice record's "Details" speak the player's language: a wrong seed.
      await page.click('#tab-dice');
      await page.click('#d-history tr.pair-row:nth-of-type(2) ~ tr[data-nonce] button.proof').catch(() => page.click('#d-history tr[data-nonce]:last-child button.proof'));
      await page.waitForSelector('#dice-verify-out .verdict');
      await page.fill('#v-server-seed', '0'.repeat(64));
      await page.click('#v-dice-go');
      await page.waitForSelector('#dice-verify-out .verdict.invalid');
      await page.click('#dice-verify-out details.more summary');
      const details = await page.innerText('#dice-verify-out details.more');
      assert.doesNotMatch(details, /\bsha256 of\b|\bINVALID\b|\brecord 0\b|\bof the revealed seed\b/, `${name}: English in Details: ${details}`);
      assert.match(details, say.details);
      await shot(page, `player-${name}-dice-details`);
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

// What the table path tests share: a page in the player's language at a
// desktop or phone size, and playing on (check or call on every turn) until
// something shows.
import assert from 'node:assert/strict';

export const SIZES = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];
export const LOCALES = { pt: 'pt-BR', es: 'es-ES' };

/** A fresh browser context (a new player) in `lang` at `size`, on the Table tab. */
export async function openPage(fx, lang, size) {
  const context = await fx.browser.newContext({ viewport: size, locale: LOCALES[lang] });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(`${fx.service.base}/#table`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}

/**
 * Checks or calls on every turn of the player's until `selector` is on the
 * page; fails naming `what` after `ms`.
 */
export async function playUntil(page, selector, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await page.$(selector))) {
    assert.ok(Date.now() < deadline, `${what}: not within ${ms} ms`);
    if (await page.isEnabled('#tb-call').catch(() => false)) await page.click('#tb-call', { timeout: 2_000 }).catch(() => {});
    await page.waitForTimeout(50);
  }
}

/** Opens a new table from the page and waits for the player's seat. Returns the table's id. */
export async function openTable(page) {
  await page.click('#tb-open');
  await page.waitForSelector('#tb-table .seat.mine[data-seat="0"]');
  return page.evaluate(() => JSON.parse(localStorage.getItem('fairseed.table')));
}

/** The status line's words once the player left, per language. */
export const LEFT = { pt: 'Você saiu da mesa.', es: 'Dejaste la mesa.' };

/** Leaves and waits until the page says so. */
export async function leave(page, lang) {
  await page.click('#tb-leave');
  await page.waitForFunction((text) => document.querySelector('#tb-status').textContent === text, LEFT[lang], { timeout: 60_000 });
}

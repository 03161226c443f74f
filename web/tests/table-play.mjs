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
 * Out of chips between hands (calling every bet loses the stack now and
 * then): tops up, as a player who plays on does. The table deals only when a
 * person with chips is sitting in, so without this a test that waits for a
 * later hand would wait for ever. Returns whether it asked.
 */
export async function topUpIfBusted(page) {
  if ((await seatShown(page)) !== 'busted' || !(await page.$('#tb-top-up:not([disabled])'))) return false;
  await page.click('#tb-top-up', { timeout: 2_000 }).catch(() => {});
  return true;
}

/**
 * Checks or calls (or with `button` '#tb-fold', folds) on every turn of the
 * player's, topping up when out of chips, until `until` (a selector on the
 * page, or a function that says so) holds; fails naming `what` and the seat's
 * state after `ms`.
 */
export async function playUntil(page, until, what, ms = 60_000, button = '#tb-call') {
  const done = typeof until === 'function' ? until : async () => Boolean(await page.$(until));
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() >= deadline) assert.fail(`${what}: not within ${ms} ms (the seat shows ${await seatShown(page) ?? 'playing'})`);
    if (await page.isEnabled('#tb-call').catch(() => false)) await page.click(button, { timeout: 2_000 }).catch(() => {});
    else await topUpIfBusted(page);
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

/**
 * Leaves and waits until the page says so. A click that sees the button
 * visible, enabled and stable can still stall in Chromium's scroll into view
 * on a busy two-core machine; then the button's click is dispatched directly.
 */
export async function leave(page, lang) {
  await page.click('#tb-leave', { timeout: 15_000 }).catch(async (e) => {
    if (!(await page.isVisible('#tb-leave')) || !(await page.isEnabled('#tb-leave'))) throw e;
    await page.dispatchEvent('#tb-leave', 'click');
  });
  await page.waitForFunction((text) => document.querySelector('#tb-status').textContent === text, LEFT[lang], { timeout: 60_000 });
}

/**
 * The tables this page opens get `policy` merged into what the page asks for
 * (a shorter clock, two seats, a smaller stack): the table's own rules, set
 * where a table is made, so the service plays them as any table's.
 */
export async function withPolicy(page, policy) {
  await page.route('**/v1/holdem/tables', async (route) => {
    const req = route.request();
    if (req.method() !== 'POST') return route.continue();
    const body = { ...JSON.parse(req.postData() || '{}'), ...policy };
    return route.continue({ postData: JSON.stringify(body) });
  });
}

/** The seat state the page shows under the felt (`data-state` of #tb-seat-state), or null. */
export function seatShown(page) {
  return page.evaluate(() => document.querySelector('#tb-seat-state')?.dataset.state ?? null);
}

/** The id of the element with the keyboard. */
export function focused(page) {
  return page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
}

/** The service's records of table `id`, read by the page's own player. */
export function records(page, id) {
  return page.evaluate(async (table) => {
    const token = JSON.parse(localStorage.getItem('fairseed.token'));
    const res = await fetch(`/v1/holdem/tables/${table}/hands?limit=100`, { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()).hands.map((r) => ({ hand: r.hand, actions: r.actions, deal: r.deal, seats: r.seats, results: r.results }));
  }, id);
}

/** Table `id`'s hand records as the service wrote them, each its own text (a 63-bit seed stays digit for digit). */
export function recordTexts(page, id) {
  return page.evaluate(async (table) => {
    const token = JSON.parse(localStorage.getItem('fairseed.token'));
    const res = await fetch(`/v1/holdem/tables/${table}/hands?limit=100`, { headers: { Authorization: `Bearer ${token}` } });
    const text = await res.text();
    const out = [];
    let depth = 0;
    let at = -1;
    for (let i = text.indexOf('[', text.indexOf('"hands"')) + 1; i < text.length; i++) {
      if (text[i] === '{' && depth++ === 0) at = i;
      if (text[i] === '}' && --depth === 0) out.push(text.slice(at, i + 1));
      if (text[i] === ']' && depth === 0) break;
    }
    return out;
  }, id);
}

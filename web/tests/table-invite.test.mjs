// Who may sit at a table, in Brazilian Portuguese, against a real
// `fairseed-server` (docs/spec.md §19.4). A private table: its opener sees
// the invitation's link and copies it; a second person opens the link in
// their own browser and sits, and both pages show the seat as invited; a third
// without the invitation, then with another table's, is refused in words
// naming what was wrong. A public table says so to its opener, to a player
// the operator created who sits there (marked as the house's on every page),
// to someone who only watches, and in each record; once it closes, the hand
// list says the policy check's public words and warns of the house's seat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAST_TABLES, callApi, serviceFixture, shot } from './harness.mjs';
import { SIZES, LOCALES, openPage, openTable, playUntil, withPolicy, leave } from './table-play.mjs';

const fx = serviceFixture({ args: FAST_TABLES });
const { skip } = fx;

const PRIVATE_OPENER = 'Mesa privada: só as pessoas que você convidar podem sentar aqui.';
const PRIVATE_OTHERS = 'Mesa privada: só quem a abriu e as pessoas que essa pessoa convidar podem sentar aqui.';
const PUBLIC = 'Mesa pública: qualquer um, inclusive a casa, pode sentar aqui.';
const MISSING = 'A mesa não deixou você sentar: você veio sem convite. Esta mesa é privada: só quem a abriu e as pessoas que essa pessoa convidar podem sentar. Peça a ela o link de convite.';
const WRONG = 'A mesa não deixou você sentar: este convite não é desta mesa. Um convite abre só a mesa para a qual foi feito; peça de novo o link a quem abriu a mesa.';

/** A new person's page (own browser context, own account) in pt-BR, opened at `url`. */
async function personAt(url, size = SIZES[0]) {
  const context = await fx.browser.newContext({ viewport: size, locale: LOCALES.pt });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}

/** The badge of how seat `seat`'s person came, as page `page` shows it. */
function came(page, seat) {
  return page.$eval(`#tb-table .seat[data-seat="${seat}"] .came-badge`, (b) => ({ came: b.dataset.came, text: b.textContent }));
}

/** Table `id`'s hand records as the service keeps them. */
function recordsOf(page, id) {
  return page.evaluate(async (table) => {
    const token = JSON.parse(localStorage.getItem('fairseed.token'));
    const res = await fetch(`/v1/holdem/tables/${table}/hands?limit=100`, { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()).hands;
  }, id);
}

test('pt-BR: the opener shares the invitation; the invited sits, a stranger is refused in words', { skip, timeout: 180_000 }, async () => {
  const opener = await openPage(fx, 'pt', SIZES[0]);
  await opener.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fx.service.base });
  // Two seats free for people: the opener at seat 0, one AI at seat 1.
  await withPolicy(opener, { ais: [1], seats: 4, action_ms: 4000 });
  const id = await openTable(opener);

  // The opener: private in words, and the link to share, copied.
  assert.equal(await opener.textContent('#tb-seating'), PRIVATE_OPENER);
  const link = await opener.inputValue('#tb-invite-link');
  const m = new RegExp(`^${fx.service.base}/#table=${id}&invite=([0-9a-f]{32})$`).exec(link);
  assert.ok(m, link);
  await opener.click('#tb-invite-copy');
  await opener.waitForFunction(() => document.querySelector('#tb-invite-copied').textContent !== '');
  assert.equal(await opener.textContent('#tb-invite-copied'), 'Link copiado.');
  assert.equal(await opener.evaluate(() => navigator.clipboard.readText()), link);
  assert.deepEqual(await came(opener, 0), { came: 'opener', text: 'abriu a mesa' });
  await shot(opener, 'invite-pt-opener', { fullPage: false });
  // The help says what the house can still do, and what it cannot.
  await opener.click('#tb-trust summary');
  const help = await opener.textContent('#tb-trust');
  assert.match(help, /Ela ainda pode:conhecer cada carta quando é distribuída/);
  assert.match(help, /sentar jogadores numa mesa pública/);
  assert.match(help, /Ela não pode:escolher as cartas/);
  await opener.$eval('#tb-trust', (e) => e.scrollIntoView({ block: 'start' }));
  await shot(opener, 'invite-pt-help', { fullPage: false });

  // The invited person opens the link in their own browser and sits at the first free seat.
  const invited = await personAt(link);
  await invited.waitForSelector('#tb-table .seat.mine[data-seat="2"]');
  assert.deepEqual(await came(invited, 2), { came: 'invited', text: 'convidado' });
  assert.equal(await invited.textContent('#tb-seating'), PRIVATE_OTHERS);
  // Only the opener is given the invitation; the address no longer carries it.
  assert.equal(await invited.$('#tb-invite-link'), null);
  assert.equal(await invited.evaluate(() => location.hash), '#table');
  await opener.waitForSelector('#tb-table .seat[data-seat="2"] .came-badge[data-came="invited"]');
  assert.deepEqual(await came(opener, 2), { came: 'invited', text: 'convidado' });
  await shot(invited, 'invite-pt-invited', { fullPage: false });

  // A third person with the table's link but no invitation: refused, and told why; then with another table's.
  const stranger = await personAt(`${fx.service.base}/#table=${id}`);
  await stranger.waitForSelector('#tb-refused:not([hidden])');
  assert.equal(await stranger.textContent('#tb-refused'), MISSING);
  assert.equal(await stranger.textContent('#tb-status'), 'Assistindo.');
  assert.equal(await stranger.$('#tb-table .seat.mine'), null);
  assert.equal(await stranger.textContent('#tb-seating'), PRIVATE_OTHERS);
  await shot(stranger, 'invite-pt-refused-missing', { fullPage: false });
  await stranger.evaluate((table) => { location.hash = `#table=${table}&invite=${'0'.repeat(32)}`; }, id);
  await stranger.waitForFunction((text) => document.querySelector('#tb-refused').textContent === text, WRONG);
  assert.equal(await stranger.$('#tb-table .seat.mine'), null);
  await shot(stranger, 'invite-pt-refused-wrong', { fullPage: false });

  // The records name how each person came.
  await playUntil(opener, async () => (await recordsOf(opener, id)).some((r) => r.seats.some((s) => s.seat === 2)), 'pt: a hand with the invited seat', 60_000);
  const all = await recordsOf(opener, id);
  const people = all.flatMap((r) => r.seats.filter((s) => s.player.kind === 'human').map((s) => `${s.seat}:${s.came}`));
  assert.deepEqual([...new Set(people)].sort(), ['0:opener', '2:invited']);
  assert.ok(all.every((r) => r.policy && r.policy.public === undefined), 'a private policy says nothing of public');

  for (const page of [opener, invited, stranger]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('pt-BR: a public table says so in every view and record; the house\'s player is marked, and warned of', { skip, timeout: 240_000 }, async () => {
  const opener = await openPage(fx, 'pt', SIZES[0]);
  await withPolicy(opener, { ais: [1], seats: 3, action_ms: 3000 });
  // Made public when opened, by the page's own choice.
  await opener.check('#tb-public');
  const id = await openTable(opener);
  assert.equal(await opener.textContent('#tb-seating'), PUBLIC);
  assert.equal(await opener.inputValue('#tb-invite-link'), `${fx.service.base}/#table=${id}`);

  // A player the operator created logs in with its link, then opens the table's: it sits, as the house's.
  const made = await callApi(fx.service.base, 'POST', '/v1/operator/players', fx.service.operatorKey, { external_id: 'invite-house' });
  const house = await personAt(`${fx.service.base}/#login=${made.token}`);
  await house.evaluate((table) => { location.hash = `#table=${table}`; }, id);
  await house.waitForSelector('#tb-table .seat.mine[data-seat="2"]');
  assert.equal(await house.textContent('#tb-seating'), PUBLIC);
  const badge = { came: 'house', text: '⚠ da casa' };
  assert.deepEqual(await came(house, 2), badge);
  await opener.waitForSelector('#tb-table .seat.house[data-seat="2"] .house-badge');
  assert.deepEqual(await came(opener, 2), badge);
  await opener.$eval('#tb-table', (e) => e.scrollIntoView({ block: 'center' }));
  await shot(opener, 'invite-pt-public-house', { fullPage: false });

  // Someone who only watches (every seat taken) is told so, and that the table is public.
  const watcher = await personAt(`${fx.service.base}/#table=${id}`, SIZES[1]);
  await watcher.waitForFunction(() => document.querySelector('#tb-status').textContent === 'Assistindo: todos os lugares desta mesa estão ocupados.');
  assert.equal(await watcher.textContent('#tb-seating'), PUBLIC);
  assert.deepEqual(await came(watcher, 2), badge);
  assert.equal(await watcher.textContent('#tb-error'), '');
  await shot(watcher, 'invite-pt-public-watcher');
  // Gone before anyone leaves (a page the link opened takes a seat that frees).
  assert.deepEqual(watcher.errors, []);
  await watcher.context().close();

  // Hands with the house's seat in them, and more; each record carries the public policy.
  await playUntil(opener, async () => (await recordsOf(opener, id)).length >= 3, 'pt: three hands', 90_000);
  const records = await recordsOf(opener, id);
  assert.ok(records.every((r) => r.policy && r.policy.public === true), 'every record names the public policy');
  const withHouse = records.find((r) => r.seats.some((s) => s.seat === 2));
  assert.ok(withHouse, 'a hand the house\'s seat was dealt into');
  assert.equal(withHouse.seats.find((s) => s.seat === 2).came, 'house');

  // Everyone leaves: the table closes, and every hand is verified whole in the list.
  await leave(opener, 'pt');
  await house.click('#tb-leave');
  await house.waitForFunction(() => document.querySelector('#tb-status').textContent === 'Você saiu da mesa.', null, { timeout: 60_000 });
  const item = `#tb-hands li[data-hand="${withHouse.hand}"]`;
  await opener.waitForSelector(`${item} .tb-warnings li[data-warning="house"]`, { timeout: 60_000 });
  const listed = await opener.$eval(item, (li) => ({
    checks: [...li.querySelectorAll('.tb-checks li')].map((c) => ({ name: c.dataset.check, ok: c.dataset.ok === 'true', text: c.textContent })),
    warnings: [...li.querySelectorAll('.tb-warnings li')].map((w) => ({ name: w.dataset.warning, text: w.textContent })),
  }));
  assert.deepEqual(listed.checks.filter((c) => !c.ok), []);
  const policy = listed.checks.find((c) => c.name === 'policy');
  assert.equal(policy && policy.text, `✓ Mão ${withHouse.hand}: cada lugar, nível de IA, blind, relógio e pilha inicial é o que a mesa fixou ao abrir; uma mesa pública: qualquer um, inclusive a casa, pode sentar aqui.`);
  const warned = listed.warnings.find((w) => w.name === 'house');
  assert.equal(warned.text, `⚠ aviso: Mão ${withHouse.hand}: lugar 2 é da casa: um jogador criado pelo operador sentou nesta mesa pública. A casa conhece cada carta distribuída, então este lugar pode jogar conhecendo-as.`);
  await opener.$eval(item, (e) => e.scrollIntoView({ block: 'start' }));
  await shot(opener, 'invite-pt-public-hand', { fullPage: false });
  // A later hand is held to the one before it: no chip came or went between them but by a top-up named.
  const later = records.map((r) => r.hand).filter((n) => n > 1).sort((a, b) => a - b)[0];
  const carried = await opener.$eval(`#tb-hands li[data-hand="${later}"] .tb-checks li[data-check="carried"]`, (c) => ({ ok: c.dataset.ok, text: c.textContent }));
  assert.deepEqual(carried, { ok: 'true', text: `✓ Mão ${later}: cada lugar que também estava na mão ${later - 1} começa com as fichas com que terminou aquela mão, mais as fichas que o registro diz que recebeu.` });

  for (const page of [opener, house]) {
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

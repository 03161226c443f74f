// The player's page: tabs, the balance, and wiring between the tabs. Verify and
// Tables work without the service; Dice, Seeds, Revealed and Table need it.
import { h, $, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { loadWasm } from './wasm.js';
import { knownValues } from './known.js';
import { errorText, useCoreCodes } from './errors.js';
import { fmtInt } from './format.js';
import { mountDice } from './dice.js';
import { mountSeeds } from './seeds.js';
import { mountRevealed } from './revealed.js';
import { mountVerify, DICE_FIELDS } from './verify.js';
import { mountTables } from './tables.js';
import { mountLanguageSwitch } from './lang.js';
import { takeLoginLink } from './account.js';
import { createLog } from './receipts.js';
import { inviteOf } from './table-invite.js';

const TABS = ['dice', 'seeds', 'revealed', 'verify', 'tables', 'table'];
/** Opens Verify with a bet's values; set once the tabs exist. */
/** @type {(values: Record<string, unknown>) => void} */
let openProof = (values) => {};

function setupTabs(onShow) {
  const nav = $('#tabs');
  const buttons = TABS.map((name) => h('button', {
    role: 'tab', id: `tab-${name}`, 'aria-controls': `panel-${name}`, type: 'button',
    onclick: () => select(name, true),
  }, t(`tab.${name}`)));
  clear(nav, buttons);
  nav.addEventListener('keydown', (ev) => {
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    const target = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[ev.key];
    if (target !== undefined) {
      ev.preventDefault();
      const name = TABS[(target + TABS.length) % TABS.length];
      select(name, true);
      $(`#tab-${name}`).focus();
    }
  });
  function select(name, push) {
    for (const n of TABS) {
      const on = n === name;
      $(`#tab-${n}`).setAttribute('aria-selected', String(on));
      $(`#tab-${n}`).tabIndex = on ? 0 : -1;
      $(`#panel-${n}`).hidden = !on;
    }
    if (push) history.replaceState(null, '', `#${name}`);
    onShow(name);
  }
  // `#verify?…` and a table's link `#table=<id>&invite=<code>` open their tab.
  const fromHash = () => location.hash.slice(1).split(/[?&=]/)[0];
  window.addEventListener('hashchange', () => TABS.includes(fromHash()) && select(fromHash(), false));
  select(TABS.includes(fromHash()) ? fromHash() : 'dice', false);
  return { select };
}

/** The public values of a shared link (`#verify?server_seed=…&nonce=…`), or null. */
function sharedCheck() {
  const [tab, query] = location.hash.slice(1).split('?');
  if (tab !== 'verify' || !query) return null;
  const params = new URLSearchParams(query);
  return Object.fromEntries(DICE_FIELDS.filter((k) => params.has(k)).map((k) => [k, params.get(k)]));
}

function setBalance(value) {
  $('#balance').textContent = `${fmtInt(value)} ${t('app.chips')}`;
}

function showError(e) {
  const box = $('#notice');
  box.hidden = false;
  box.textContent = t('app.offline', { error: errorText(e) });
}

async function main() {
  // An operator's login link: take the token, clear it from the address bar, first of all.
  const loggedIn = takeLoginLink();
  mountLanguageSwitch($('#lang-switch'));
  $('#tabs-nav').setAttribute('aria-label', t('app.tabs'));
  document.title = t('app.title');
  $('#tagline').textContent = t('app.tagline');
  $('#balance-label').textContent = t('app.balance');
  $('#api-link').textContent = t('app.api_link');
  let wasm;
  try {
    wasm = await loadWasm();
    useCoreCodes(wasm);
  } catch (e) {
    $('#notice').hidden = false;
    $('#notice').textContent = t('app.wasm_failed', { error: e.message || String(e) });
    return;
  }
  // The transparency log: the key pinned, checkpoints kept, a badge per receipt.
  const log = createLog(wasm, { alarm: $('#log-alarm') });
  const dice = mountDice($('#panel-dice'), { wasm, badges: log.badges, onBalance: setBalance, beforeBet: () => seeds.ensureBrowserSeed(), onProof: (v) => openProof(v) });
  const seeds = mountSeeds($('#panel-seeds'), { wasm, badges: log.badges, logPanel: log.panel, onRotate: () => { revealed.refresh().catch(showError); dice.refresh().catch(showError); } });
  const revealed = mountRevealed($('#panel-revealed'), { wasm, onProof: (v) => openProof(v) });
  const verify = mountVerify($('#panel-verify'), { wasm, knownValues, offlineHref: 'fairseed-verifier.html' });
  const tables = mountTables($('#panel-tables'), { wasm });
  // The Table tab's modules load the first time it is shown. A table's link
  // (`#table=<id>&invite=<code>`) opens that table; its invitation leaves the
  // address bar once taken.
  let table = null;
  const showTable = async () => {
    table ??= (await import('./table.js')).mountTable($('#panel-table'), { wasm, badges: log.badges });
    const link = inviteOf(location.hash);
    if (link) history.replaceState(null, '', '#table');
    return table.show(link);
  };
  const loaders = { dice: () => dice.refresh(), seeds: () => seeds.refresh(), revealed: () => revealed.refresh(), tables: () => tables.poll(), table: showTable };
  const tabs = setupTabs((name) => loaders[name]?.().catch(showError));
  const shared = sharedCheck();
  if (shared) verify.prefill(shared);
  // A shared link opened in a tab that already shows the page.
  window.addEventListener('hashchange', () => {
    const again = sharedCheck();
    if (again) verify.prefill(again);
  });
  // A bet in history or Revealed opens its proof here.
  openProof = (values) => {
    tabs.select('verify', true);
    verify.prefill(values);
  };
  if (loggedIn) {
    $('#notice').hidden = false;
    $('#notice').className = 'notice ok';
    $('#notice').setAttribute('role', 'status');
    $('#notice').textContent = t('account.login_taken');
  }
  try {
    setBalance((await api.me()).balance);
    await seeds.refresh();
  } catch (e) {
    showError(e);
  }
  document.body.dataset.ready = 'true';
}

main();

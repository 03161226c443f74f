// The player's page: tabs, the balance, and wiring between the tabs. Verify and
// Tables work without the service; Dice, Seeds and Revealed need it.
import { h, $, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { loadWasm } from './wasm.js';
import { knownValues } from './store.js';
import { mountDice } from './dice.js';
import { mountSeeds } from './seeds.js';
import { mountRevealed } from './revealed.js';
import { mountVerify } from './verify.js';
import { mountTables } from './tables.js';

const TABS = ['dice', 'seeds', 'revealed', 'verify', 'tables'];

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
    const step = { ArrowRight: 1, ArrowLeft: -1 }[ev.key];
    if (step) {
      ev.preventDefault();
      const name = TABS[(i + step + TABS.length) % TABS.length];
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
  window.addEventListener('hashchange', () => TABS.includes(location.hash.slice(1)) && select(location.hash.slice(1), false));
  select(TABS.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'dice', false);
}

function setBalance(value) {
  $('#balance').textContent = `${value} ${t('app.chips')}`;
}

function showError(e) {
  const box = $('#notice');
  box.hidden = false;
  box.textContent = t('app.offline', { error: e.message || String(e) });
}

async function main() {
  document.title = t('app.title');
  $('#tagline').textContent = t('app.tagline');
  $('#balance-label').textContent = t('app.balance');
  $('#api-link').textContent = t('app.api_link');
  let wasm;
  try {
    wasm = await loadWasm();
  } catch (e) {
    $('#notice').hidden = false;
    $('#notice').textContent = t('app.wasm_failed', { error: e.message || String(e) });
    return;
  }
  const dice = mountDice($('#panel-dice'), { wasm, onBalance: setBalance, beforeBet: () => seeds.ensureBrowserSeed() });
  const seeds = mountSeeds($('#panel-seeds'), { wasm, onRotate: () => { revealed.refresh().catch(showError); dice.refresh().catch(showError); } });
  const revealed = mountRevealed($('#panel-revealed'), { wasm });
  mountVerify($('#panel-verify'), { wasm, knownValues, offlineHref: 'fairseed-verifier.html' });
  const tables = mountTables($('#panel-tables'), { wasm });
  const loaders = { dice: () => dice.refresh(), seeds: () => seeds.refresh(), revealed: () => revealed.refresh(), tables: () => tables.poll() };
  setupTabs((name) => loaders[name]?.().catch(showError));
  try {
    setBalance((await api.me()).balance);
    await seeds.refresh();
  } catch (e) {
    showError(e);
  }
  document.body.dataset.ready = 'true';
}

main();

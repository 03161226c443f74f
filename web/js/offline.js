// The offline verifier's page: only the Verify tab, with the wasm inlined by
// tools/offline.mjs. It makes no network request at all.
import { $ } from './dom.js';
import { t } from './i18n.js';
import { loadWasm } from './wasm.js';
import { mountVerify } from './verify.js';
import { mountLanguageSwitch } from './lang.js';
import { useCoreCodes } from './errors.js';

async function start() {
  document.title = `${t('tab.verify')} — ${t('app.title')}`;
  $('.brand h1').textContent = t('offline.heading');
  $('#tagline').textContent = t('verify.offline_help');
  $('#panel-verify').setAttribute('aria-label', t('tab.verify'));
  mountLanguageSwitch($('#lang-switch'));
  try {
    const wasm = await loadWasm();
    useCoreCodes(wasm);
    mountVerify($('#panel-verify'), { wasm });
    document.body.dataset.ready = 'true';
  } catch (e) {
    $('#notice').hidden = false;
    $('#notice').textContent = t('app.wasm_failed', { error: e.message || String(e) });
  }
}

start();

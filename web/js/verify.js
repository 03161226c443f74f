// The Verify tab, also the whole of the offline verifier: a dice form, and a
// box that takes any record, array of records or JSON Lines of any scheme. The
// verdicts come from the core compiled to wasm — the same code as the server's
// and `fairseed verify --json` — and core's texts are shown as they are.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { renderOutcome } from './render.js';
import { hintFor } from './hint.js';

const SEED_FIELDS = { server_seed: 'seed', seed_a: 'seed', seed_b: 'seed', seed: 'seed' };

function field(id, label, attrs) {
  return h('label', { class: 'field', for: id }, h('span', {}, label), h('input', { id, name: id, autocomplete: 'off', spellcheck: 'false', ...attrs }));
}

/** The records of a pasted text, for hints only (the verdicts come from wasm). */
function splitForHints(text) {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [v];
  } catch {
    return text.split(/\r?\n/).filter((l) => l.trim()).map((l) => { try { return JSON.parse(l); } catch { return null; } });
  }
}

function recordHints(wasm, record, knownValues) {
  if (!record || typeof record !== 'object') return [];
  const fields = Object.entries(record).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
  const out = [];
  for (const [name, value] of fields) {
    if (!(name in SEED_FIELDS)) continue;
    const known = [
      ...fields.filter(([n]) => n !== name && !(n in SEED_FIELDS)).map(([n, v]) => ({ label: n, value: String(v), kind: 'field' })),
      ...knownValues(),
    ];
    const hint = hintFor(wasm, name, String(value), known, 'seed');
    if (hint) out.push(hint);
  }
  return out;
}

function verdictCard(wasm, verdict, report, record, knownValues, withHints) {
  const status = verdict.error ? 'error' : verdict.valid ? 'valid' : 'invalid';
  const badge = h('span', { class: `badge ${status}` }, t(`verify.${status}`));
  const checks = h('ul', { class: 'checks' }, (verdict.checks || []).map((c) =>
    h('li', { class: c.ok ? 'ok' : 'bad' }, h('span', { class: 'mark', 'aria-hidden': 'true' }, c.ok ? '✓' : '✗'),
      h('span', { class: 'sr-only' }, `${t(c.ok ? 'verify.check_ok' : 'verify.check_bad')} `), h('strong', {}, c.name), ' ', h('span', { class: 'detail' }, c.detail))));
  const hints = verdict.valid || !withHints ? [] : recordHints(wasm, record, knownValues);
  return h('article', { class: `verdict ${status}`, 'data-index': verdict.index, 'data-valid': String(verdict.valid) },
    h('header', {}, badge, ' ', h('span', {}, t('verify.record', { index: verdict.index, scheme: verdict.scheme || '?' }))),
    verdict.error ? h('p', { class: 'error-text' }, verdict.error) : null,
    ...hints,
    verdict.checks && verdict.checks.length ? h('section', {}, h('h4', {}, t('verify.checks')), checks) : null,
    h('div', { class: 'outcome' }, renderOutcome(wasm, verdict.scheme, verdict.outcome, record)),
    report ? h('details', { class: 'report' }, h('summary', {}, t('verify.report')), h('pre', {}, report)) : null);
}

/** Verifies `text` and lays the verdicts out in `out`. */
export function showVerdicts(wasm, text, out, knownValues, withHints = true) {
  const result = JSON.parse(wasm.verify(text));
  const records = withHints ? splitForHints(text) : [];
  clear(out, result.verdicts.map((v, i) => verdictCard(wasm, v, result.reports[i], records[i], knownValues, withHints)));
  return result;
}

export function mountVerify(root, { wasm, knownValues = () => [], offlineHref = null }) {
  const diceOut = h('div', { class: 'results', 'aria-live': 'polite', id: 'dice-verify-out' });
  const diceForm = h('form', { class: 'card-panel', id: 'verify-dice', novalidate: true },
    h('h3', {}, t('verify.dice_title')),
    field('v-server-seed', t('verify.server_seed'), { placeholder: t('verify.hex_placeholder') }),
    field('v-commitment', t('verify.commitment'), { placeholder: t('verify.hex_placeholder') }),
    field('v-client-seed', t('verify.client_seed')),
    h('div', { class: 'row2' },
      field('v-nonce', t('verify.nonce'), { inputmode: 'numeric', value: '0' }),
      field('v-roll', t('verify.claimed_roll'), { inputmode: 'numeric' })),
    h('button', { type: 'submit', class: 'primary' }, t('verify.go')),
    diceOut);
  const get = (id) => diceForm.querySelector(`#${id}`).value.trim();

  diceForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const seed = get('v-server-seed');
    const commitment = get('v-commitment');
    const client = get('v-client-seed');
    const known = [
      { label: 'commitment', display: t('verify.commitment'), value: commitment, kind: 'field' },
      { label: 'client_seed', display: t('verify.client_seed'), value: client, kind: 'field_other' },
      ...knownValues(),
    ];
    // One hint per mistake: the commitment field is only examined when the
    // seed field gave no hint (two equal fields would otherwise say it twice).
    const seedHint = hintFor(wasm, t('verify.server_seed'), seed, known, 'seed');
    const hints = [seedHint || hintFor(wasm, t('verify.commitment'), commitment,
      [{ label: 'server_seed', display: t('verify.server_seed'), value: seed, kind: 'field' }, ...knownValues()], 'commitment')].filter(Boolean);
    const nonceText = get('v-nonce');
    const record = { scheme: 'dice_v1', commitment, server_seed: seed, client_seed: client, nonce: /^\d+$/.test(nonceText) ? Number(nonceText) : nonceText };
    const claimed = get('v-roll');
    if (claimed !== '') record.outcome = { roll: /^\d+$/.test(claimed) ? Number(claimed) : claimed };
    if (!commitment) {
      // Without the hash there is no record to check, only a roll to compute.
      try {
        const roll = wasm.dice_roll(seed, client, Number(nonceText));
        clear(diceOut, ...hints, h('p', { class: 'roll-line' }, t('verify.roll_is', { roll }), ' ',
          claimed === '' ? '' : String(roll) === claimed ? t('verify.roll_claimed_ok') : t('verify.roll_claimed_bad', { claimed })));
      } catch (e) {
        clear(diceOut, ...hints, h('p', { class: 'error-text' }, e.message || String(e)));
      }
      return;
    }
    const holder = h('div');
    showVerdicts(wasm, JSON.stringify(record), holder, () => [], false);
    clear(diceOut, ...hints, ...holder.childNodes);
  });

  const recordsOut = h('div', { class: 'results', 'aria-live': 'polite', id: 'records-verify-out' });
  const textarea = h('textarea', { id: 'v-records', rows: 8, spellcheck: 'false', 'aria-label': t('verify.records_title'), placeholder: '{"scheme": "…", …}' });
  const run = () => {
    const text = textarea.value.trim();
    if (!text) {
      clear(recordsOut, h('p', {}, t('verify.nothing')));
      return;
    }
    showVerdicts(wasm, text, recordsOut, knownValues);
  };
  const fileInput = h('input', { type: 'file', id: 'v-file', accept: '.json,.jsonl,.ndjson,.txt,application/json', class: 'sr-only' });
  const readFile = async (file) => {
    textarea.value = await file.text();
    run();
  };
  fileInput.addEventListener('change', () => fileInput.files[0] && readFile(fileInput.files[0]));
  const drop = h('div', { class: 'drop', id: 'v-drop' },
    h('p', {}, t('verify.records_help')), textarea,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', id: 'v-records-go', onclick: run }, t('verify.go')),
      h('label', { class: 'button file-button' }, t('verify.file'), fileInput)));
  drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    drop.classList.remove('over');
    const file = ev.dataTransfer.files[0];
    if (file) readFile(file);
  });
  const recordsPanel = h('section', { class: 'card-panel', id: 'verify-records' }, h('h3', {}, t('verify.records_title')), drop, recordsOut);
  const offline = offlineHref
    ? h('p', { class: 'offline-link' }, h('a', { href: offlineHref, download: 'fairseed-verifier.html', class: 'button', id: 'v-offline' }, t('verify.offline')), ' ', h('span', { class: 'muted' }, t('verify.offline_help')))
    : null;
  clear(root, diceForm, recordsPanel, offline);
}

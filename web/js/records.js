// Verify's "any record" panel: paste, open or drop records of any scheme, of
// any size. The file goes to the bulk verifier (js/bulk.js) in workers; the
// results open with a summary (valid / does not verify / cannot be read, time
// taken), a filter for the problems, "go to the first problem", a list that
// only ever draws the rows on screen, and the selected record in full.
import { h, clear } from './dom.js';
import { t, tn } from './i18n.js';
import { hintFor } from './hint.js';
import { verdictCard, schemeName } from './verdict.js';
import { sentences } from './words.js';
import { coreErrorText } from './errors.js';
import { fmtInt, fmtDuration, fmtRoll } from './format.js';
import { verifyBlob } from './bulk.js';
import { withheldCounts } from './holdem-words.js';

const SEED_FIELDS = new Set(['server_seed', 'seed_a', 'seed_b', 'seed']);
/** A row's height in pixels: every row the same, so the list can place any row without drawing the others. */
const ROW = 48;
/** Rows drawn above and below the visible ones. */
const OVERSCAN = 8;
/**
 * The tallest the scrolling box's content is made: browsers cap an element's
 * height (Chromium near 33 million pixels), and a million 48 px rows are 48
 * million; past this height, scrolling maps to rows proportionally.
 */
const MAX_PX = 4_000_000;
const STATUS = ['valid', 'invalid', 'error'];

/** The largest input whose hand records are read again here to count withheld values (a bigger one is not counted). */
const WITHHELD_MAX = 16 << 20;

/**
 * Per table session and seat, in how many hands of `blob` a seat withheld
 * its per-hand value, as sentences, when a session has several (what
 * `fairseed verify` counts across records); none for input over WITHHELD_MAX.
 */
async function withheldLines(blob) {
  if (blob.size > WITHHELD_MAX) return [];
  const text = await blob.text();
  if (!/"withheld"\s*:\s*\[\s*\d/.test(text)) return [];
  const read = (s) => { try { return JSON.parse(s); } catch { return null; } };
  const whole = text.trimStart().startsWith('[') ? read(text) : null;
  const records = Array.isArray(whole) ? whole : text.split('\n').filter((l) => l.includes('"withheld"')).map(read);
  return withheldCounts(records.filter((r) => r && r.scheme === 'holdem_hand_v1'));
}

/** Hints for a record that did not verify: a seed field holding a hash, and the like. */
function recordHints(wasm, record, knownValues) {
  // A hand's seed is a number the deal is drawn from, not a hex seed: the hints do not apply.
  if (!record || typeof record !== 'object' || record.scheme === 'holdem_hand_v1') return [];
  const fields = Object.entries(record).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
  const out = [];
  for (const [name, value] of fields) {
    if (!SEED_FIELDS.has(name)) continue;
    const known = [
      ...fields.filter(([n]) => n !== name && !SEED_FIELDS.has(n)).map(([n, v]) => ({ label: n, value: String(v), kind: 'field' })),
      ...knownValues(),
    ];
    const hint = hintFor(wasm, name, String(value), known, 'seed');
    if (hint) out.push(hint);
  }
  return out;
}

/** The one line a row shows: the first problem, or the first thing that matched. */
function rowLine(wasm, item) {
  const v = item.verdict;
  if (v.error) return coreErrorText(v.error);
  if (v.valid && v.scheme === 'dice_v1' && v.outcome) return t('verify.roll_is', { roll: fmtRoll(v.outcome.roll) });
  const said = sentences(wasm, v, item.record);
  return said.length ? said[0].text : '';
}

export function mountRecords({ wasm, knownValues }) {
  const textarea = h('textarea', { id: 'v-records', rows: 6, spellcheck: 'false', 'aria-label': t('verify.records_title'), placeholder: '{"scheme": "…", …}' });
  const fileInput = h('input', { type: 'file', id: 'v-file', accept: '.json,.jsonl,.ndjson,.txt,application/json', class: 'sr-only' });
  const progress = h('progress', { id: 'records-progress', max: 1, value: 0, hidden: true, 'aria-label': t('verify.progress_label') });
  const summary = h('p', { id: 'records-summary', class: 'summary', 'aria-live': 'polite' });
  const withheld = h('div', { id: 'records-withheld' });
  const onlyProblems = h('input', { type: 'checkbox', id: 'records-only-problems' });
  const firstProblem = h('button', { type: 'button', id: 'records-first-problem' }, t('verify.first_problem'));
  const controls = h('div', { class: 'actions records-controls', hidden: true },
    h('label', { class: 'check' }, onlyProblems, ' ', h('span', { id: 'records-filter-label' }, t('verify.only_problems'))), firstProblem);
  const spacer = h('div', { class: 'vlist-spacer' });
  const list = h('div', { class: 'vlist', id: 'records-list', tabindex: 0, role: 'group', 'aria-label': t('verify.list_label'), hidden: true }, spacer);
  const detail = h('div', { id: 'records-detail', class: 'results', 'aria-live': 'polite' });

  let run = null;       // the current bulk run
  let view = null;      // null: every record; else a Uint32Array of record indices
  let selected = -1;
  let generation = 0;   // bumps on every new run, so late answers of an old one are dropped
  const lines = new Map(); // record index → its row text (bounded)

  const shown = () => (view ? view.length : run ? run.count : 0);
  const indexAt = (pos) => (view ? view[pos] : pos);

  /** The box's content height and how many row pixels one scrolled pixel stands for. */
  function geometry(n) {
    const total = n * ROW;
    const height = Math.min(total, MAX_PX);
    const view = list.clientHeight;
    return { height, scale: total > height && height > view ? (total - view) / (height - view) : 1 };
  }

  function draw() {
    if (!run) return;
    const n = shown();
    const { height, scale } = geometry(n);
    spacer.style.height = `${height}px`;
    // Where the rows would start if every row took its 48 px.
    const top = list.scrollTop * scale;
    const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    const last = Math.min(n, Math.ceil((top + list.clientHeight) / ROW) + OVERSCAN);
    const rows = [];
    const missing = [];
    for (let pos = first; pos < last; pos++) {
      const i = indexAt(pos);
      const status = STATUS[run.statuses[i]];
      if (!lines.has(i)) missing.push(i);
      rows.push(h('button', {
        type: 'button', class: `row ${status}${i === selected ? ' selected' : ''}`, style: `top:${list.scrollTop + pos * ROW - top}px`,
        'data-index': i, 'data-status': status, 'aria-pressed': String(i === selected), onclick: () => select(i),
      }, h('span', { class: `badge ${status}` }, t(`verify.${status}`)), ' ',
      h('span', { class: 'row-title' }, t('verify.record_n', { n: fmtInt(i + 1) })), ' ',
      h('span', { class: 'row-line muted' }, lines.get(i) ?? '…')));
    }
    spacer.replaceChildren(...rows);
    if (missing.length) fill(missing);
  }

  /** Scrolls the list so the row at position `pos` is near the top. */
  function scrollToRow(pos) {
    list.scrollTop = Math.max(0, pos * ROW - ROW) / geometry(shown()).scale;
  }

  async function fill(indices) {
    const mine = generation;
    for (const i of indices) {
      try {
        const item = await run.item(i);
        if (mine !== generation) return;
        // A problem leads with what is wrong; a valid record says what it is.
        lines.set(i, item.verdict.valid ? `${schemeName(item.verdict.scheme)} · ${rowLine(wasm, item)}` : rowLine(wasm, item));
      } catch (e) {
        lines.set(i, e.message);
      }
      if (lines.size > 2000) lines.delete(lines.keys().next().value);
    }
    if (mine === generation) requestAnimationFrame(draw);
  }

  async function select(i, scroll = false) {
    selected = i;
    const mine = generation;
    const item = await run.item(i);
    if (mine !== generation) return;
    const hints = item.verdict.valid ? [] : recordHints(wasm, item.record, knownValues);
    clear(detail, verdictCard(wasm, item.verdict, item.report, item.record, hints));
    if (scroll) {
      const pos = view ? view.indexOf(i) : i;
      if (pos >= 0) scrollToRow(pos);
    }
    draw();
  }

  function showSummary(r, running) {
    const [valid, invalid, unreadable] = r.counts;
    const total = valid + invalid + unreadable;
    summary.dataset.total = String(total);
    summary.dataset.valid = String(valid);
    summary.dataset.invalid = String(invalid);
    summary.dataset.unreadable = String(unreadable);
    summary.dataset.done = String(!running);
    clear(summary,
      h('strong', {}, running ? t('verify.summary_running', { total: fmtInt(total) }) : tn('verify.summary', total, { total: fmtInt(total), time: fmtDuration(r.ms) })), ' ',
      h('span', { class: 'ok-text' }, '✓ ', tn('verify.count_valid', valid, { n: fmtInt(valid) })), ' · ',
      h('span', { class: invalid ? 'error-text' : 'muted' }, '✗ ', tn('verify.count_invalid', invalid, { n: fmtInt(invalid) })), ' · ',
      h('span', { class: unreadable ? 'error-text' : 'muted' }, '⚠ ', tn('verify.count_unreadable', unreadable, { n: fmtInt(unreadable) })));
  }

  async function start(blob) {
    generation += 1;
    run?.close();
    run = null;
    view = null;
    selected = -1;
    lines.clear();
    onlyProblems.checked = false;
    controls.hidden = true;
    list.hidden = true;
    clear(detail);
    clear(withheld);
    progress.hidden = false;
    progress.value = 0;
    const mine = generation;
    let frame = 0;
    let latest = null;
    try {
      const r = await verifyBlob(wasm, blob, {
        workers: Math.max(1, Math.min(2, navigator.hardwareConcurrency || 2)),
        onProgress: (p) => {
          latest = p;
          if (mine !== generation || frame) return;
          // At most one summary update per frame, however fast parts arrive: the latest one.
          frame = requestAnimationFrame(() => {
            frame = 0;
            if (mine !== generation) return;
            progress.value = latest.total ? latest.done / latest.total : 1;
            showSummary(latest, true);
          });
        },
      });
      if (mine !== generation) { r.close(); return; }
      cancelAnimationFrame(frame);
      frame = 0;
      run = r;
      progress.hidden = true;
      showSummary(r, false);
      const counted = await withheldLines(blob).catch(() => []);
      if (mine !== generation) return;
      clear(withheld, counted.length ? h('div', { class: 'warn-box small' }, h('ul', { class: 'warn-list' }, counted.map((line) => h('li', { class: 'warn-text' }, '⚠ ', line)))) : null);
      const problems = r.count - r.counts[0];
      firstProblem.disabled = problems === 0;
      onlyProblems.disabled = problems === 0;
      clear(controls.querySelector('#records-filter-label'), t('verify.only_problems_n', { n: fmtInt(problems) }));
      if (r.count > 1) {
        controls.hidden = false;
        list.hidden = false;
        list.style.height = `${Math.min(r.count, 8) * ROW + 2}px`;
        list.scrollTop = 0;
        draw();
      }
      if (r.count > 0) await select(problems ? firstProblemIndex() : 0, true);
    } catch (e) {
      progress.hidden = true;
      clear(summary, h('span', { class: 'error-text' }, t('verify.failed', { error: e.message || String(e) })));
    }
  }

  function firstProblemIndex() {
    const s = run.statuses;
    for (let i = 0; i < s.length; i++) if (s[i] !== 0) return i;
    return -1;
  }

  onlyProblems.addEventListener('change', () => {
    if (!run) return;
    if (onlyProblems.checked) {
      const s = run.statuses;
      const out = new Uint32Array(run.count - run.counts[0]);
      let k = 0;
      for (let i = 0; i < s.length; i++) if (s[i] !== 0) out[k++] = i;
      view = out;
    } else {
      view = null;
    }
    list.scrollTop = 0;
    list.style.height = `${Math.min(shown(), 8) * ROW + 2}px`;
    draw();
  });
  firstProblem.addEventListener('click', () => {
    const i = run ? firstProblemIndex() : -1;
    if (i >= 0) select(i, true).then(() => detail.querySelector('.verdict')?.focus());
  });
  let scrollFrame = 0;
  list.addEventListener('scroll', () => {
    scrollFrame ||= requestAnimationFrame(() => { scrollFrame = 0; draw(); });
  });

  const verifyText = () => {
    const text = textarea.value.trim();
    if (!text) {
      clear(summary, t('verify.nothing'));
      return;
    }
    start(new Blob([text], { type: 'application/json' }));
  };
  // A file replaces whatever was pasted: the box never shows text other than what is being checked.
  const fromFile = (file) => {
    textarea.value = '';
    start(file);
  };
  fileInput.addEventListener('change', () => fileInput.files[0] && fromFile(fileInput.files[0]));
  const drop = h('div', { class: 'drop', id: 'v-drop' },
    h('p', {}, t('verify.records_help')), textarea,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', id: 'v-records-go', onclick: verifyText }, t('verify.go')),
      h('label', { class: 'button file-button' }, t('verify.file'), fileInput)));
  drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    drop.classList.remove('over');
    const file = ev.dataTransfer.files[0];
    if (file) fromFile(file);
  });
  const panel = h('section', { class: 'card-panel', id: 'verify-records' },
    h('h2', {}, t('verify.records_title')), drop, progress, summary, withheld, controls, list, detail);
  return { panel, start };
}

// The transparency log as this browser checks it (docs/web.md, "Receipts").
// The log key is pinned the first time it is seen (`/log/key`, kept in
// localStorage, shown with its fingerprint); the largest checkpoint seen is
// kept, and every other one must be consistent with it: the consistency proof
// is read from the log's tiles (`/log/tile/…`, C2SP tlog-tiles serves no
// proofs) and checked against both signed roots in wasm. Two checkpoints that
// are not consistent raise a red alarm with both signed notes to download.
// Each receipt an answer carries gets a badge: "acknowledged" once the log
// key's signature on it checks, "in the log" once its inclusion proof leads to
// a signed checkpoint consistent with the one kept. With witnesses required
// (their keys and a number N, kept in this browser), a checkpoint is accepted
// only with N valid cosignatures from distinct listed witnesses: the latest
// one, else the newest cosigned one (`/log/checkpoint/cosigned?min=N`), and a
// badge says "in the log" only once such a checkpoint covers its entry.
// A served key other than the pinned one is followed, without an alarm, only
// as a new log after the pinned one was frozen (docs/spec.md §16.11): the
// pinned log is listed at `/log/previous` as followed by the served key, its
// last checkpoint (`/log/frozen/<origin>/checkpoint`) is signed by the pinned
// key and consistent with the one kept (proved from the frozen tiles). The
// page then pins the new key and says so; anything else is the key alarm.
import { h, clear } from './dom.js';
import { t, has } from './i18n.js';
import { schemeName } from './verdict.js';
import { parseExact } from './json.js';
import { cosignerKey, countCosignatures, saveWitnessSettings, witnessSettings } from './witnesses.js';
import { readText, writeText } from './store.js';

const KEY = 'log_key';
const CHECKPOINT = 'log_checkpoint';
/** The frozen log this browser followed into the current one: {origin, size, next}. */
const FOLLOWED = 'log_followed';
/** The first look for a receipt's leaf, then the pause between looks, and when to stop. */
const FIRST_LOOK_MS = 1200;
const NEXT_LOOK_MS = 1000;
const GIVE_UP_MS = 60000;

const read = readText;
const write = writeText;

function base64(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** A link that downloads `text` as `name` (a Blob: nothing leaves the browser). */
function download(name, text, label, id) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  return h('a', { href: url, download: name, class: 'button', id }, label);
}

/** `abcd…` groups of four, for reading a fingerprint aloud. */
function grouped(hex) {
  return hex.match(/.{1,4}/g).join(' ');
}

export function createLog(wasm, { alarm }) {
  const state = { vkey: null, info: null, off: false, status: 'checking', error: '' };
  const panelBody = h('div', { id: 'log-status', 'data-state': 'checking' });
  const witness = { min: 0, keys: [], count: 0, size: null, met: true, error: '' };
  const settings = witnessForm();
  const panel = h('section', { class: 'card-panel', id: 'log-panel', 'aria-labelledby': 'log-title' },
    h('h2', { id: 'log-title' }, t('log.title')), h('p', { class: 'muted small' }, t('log.help')), panelBody, settings);
  let queue = Promise.resolve();
  let alarmed = false;

  function renderPanel() {
    panelBody.dataset.state = state.status;
    if (state.off) {
      clear(panelBody, h('p', { class: 'muted' }, t('log.off')));
      return;
    }
    if (!state.vkey) {
      clear(panelBody, h('p', { class: state.error ? 'error-text' : 'muted' }, state.error || t('log.checking')));
      return;
    }
    const kept = read(CHECKPOINT);
    const head = kept ? parseExact(wasm.log_checkpoint(kept, state.vkey)) : null;
    clear(panelBody, h('dl', { class: 'log-facts' },
      h('dt', {}, t('log.key')), h('dd', {}, h('code', { class: 'hex', id: 'log-key' }, state.vkey)),
      h('dt', {}, t('log.fingerprint')), h('dd', {}, h('code', { class: 'hex', id: 'log-fingerprint' }, grouped(state.info.fingerprint))),
      h('dt', {}, t('log.kept')), h('dd', { id: 'log-kept' }, head && head.ok
        ? t('log.kept_size', { size: head.checkpoint.size })
        : t('log.none')),
      h('dt', {}, t('log.witnesses')), witnessFact()),
    followedNote(),
    state.error ? h('p', { class: 'error-text', id: 'log-error' }, state.error) : null);
  }

  /** What this browser followed from a frozen log into the pinned one, if it did. */
  function followedNote() {
    let followed;
    try {
      followed = JSON.parse(read(FOLLOWED) || 'null');
    } catch {
      return null;
    }
    if (!followed || followed.key !== state.vkey) return null;
    return h('p', { class: 'notice ok', id: 'log-new-log' },
      t('log.new_log', { next: followed.next, old: followed.origin, size: followed.size }));
  }

  function witnessFact() {
    const attrs = { id: 'log-witnesses', 'data-met': String(witness.met) };
    if (witness.error) return h('dd', { ...attrs, class: 'error-text' }, t('log.witness_bad_key', { error: witness.error }));
    if (!witness.min) return h('dd', attrs, t('log.witnesses_none'));
    if (witness.met) return h('dd', { ...attrs, class: 'ok-text' }, t('log.witnesses_met', { count: witness.count, min: witness.min, size: witness.size }));
    return h('dd', { ...attrs, class: 'error-text' }, t('log.witnesses_unmet', { count: witness.count, min: witness.min }));
  }

  /** The settings: the witnesses' keys and N, kept in this browser; saving checks again. */
  function witnessForm() {
    const kept = witnessSettings();
    const keys = h('textarea', { id: 'log-witness-keys', rows: 3, spellcheck: 'false', autocomplete: 'off' });
    keys.value = kept.keys.join('\n');
    const min = h('input', { id: 'log-witness-min', type: 'number', min: '0', max: '99', step: '1', value: String(kept.min) });
    const form = h('details', { id: 'log-witness-settings', class: 'small' },
      h('summary', {}, t('log.witness_settings')),
      h('p', { class: 'muted' }, t('log.witness_help')),
      h('div', { class: 'field' }, h('label', { for: 'log-witness-keys' }, t('log.witness_keys')), keys),
      h('div', { class: 'field' }, h('label', { for: 'log-witness-min' }, t('log.witness_min')), min),
      h('div', { class: 'actions' }, h('button', { type: 'button', id: 'log-witness-save' }, t('log.witness_save'))));
    form.querySelector('#log-witness-save').addEventListener('click', async () => {
      const list = [...new Set(keys.value.split('\n').map((k) => k.trim()).filter(Boolean))];
      const n = Math.max(0, Math.min(99, Number.parseInt(min.value, 10) || 0));
      saveWitnessSettings({ keys: list, min: n });
      if (!(await ready)) return;
      await loadWitnesses();
      try {
        await checkWitnesses(await getText('/log/checkpoint'));
      } catch {
        witness.met = false;
      }
      settle();
      if (!alarmed) renderPanel();
    });
    return form;
  }

  async function loadWitnesses() {
    const kept = witnessSettings();
    Object.assign(witness, { min: kept.min, keys: [], count: 0, size: null, met: !kept.min, error: '' });
    for (const vkey of kept.keys) {
      try { witness.keys.push(await cosignerKey(vkey)); } catch (e) { witness.error = e.message || String(e); }
    }
  }

  /** The size of a checkpoint signed by the log key (cosignatures after its signature are allowed). */
  function sizeOf(note) {
    const opened = parseExact(wasm.log_checkpoint(note, state.vkey));
    return opened.ok ? opened.checkpoint.size : null;
  }

  /**
   * Counts the listed witnesses' cosignatures on `note`; too few, the newest
   * cosigned checkpoint is read and, consistent with the one kept, counted.
   */
  async function checkWitnesses(note) {
    if (!witness.min) return;
    let count = sizeOf(note) === null ? 0 : await countCosignatures(note, witness.keys);
    let chosen = note;
    if (count < witness.min) {
      try {
        const cosigned = await getText(`/log/checkpoint/cosigned?min=${witness.min}`);
        if ((await observe(cosigned)).ok) {
          const more = await countCosignatures(cosigned, witness.keys);
          if (more > count) [count, chosen] = [more, cosigned];
        }
      } catch { /* none cosigned enough yet: the requirement stays unmet */ }
    }
    witness.count = count;
    witness.met = count >= witness.min;
    witness.size = sizeOf(chosen);
  }

  /** The panel's state once the checks are done: not met is not accepted. */
  function settle() {
    if (alarmed || state.off || !state.vkey) return;
    if (state.status === 'ok' || state.status === 'unwitnessed') state.status = witness.met ? 'ok' : 'unwitnessed';
  }

  function raise(kind, first, second, detail) {
    alarmed = true;
    state.status = 'alarm';
    const names = kind === 'key' ? ['fairseed-log-key-pinned.txt', 'fairseed-log-key-served.txt'] : ['fairseed-checkpoint-kept.txt', 'fairseed-checkpoint-seen.txt'];
    alarm.hidden = false;
    clear(alarm, h('h2', {}, t(kind === 'key' ? 'log.alarm_key_title' : 'log.alarm_title')),
      h('p', {}, t(kind === 'key' ? 'log.alarm_key_text' : 'log.alarm_text')),
      h('p', { class: 'small' }, detail),
      h('div', { class: 'actions' },
        download(names[0], first, t(kind === 'key' ? 'log.download_pinned_key' : 'log.download_kept'), 'log-evidence-kept'),
        download(names[1], second, t(kind === 'key' ? 'log.download_served_key' : 'log.download_seen'), 'log-evidence-seen')));
    renderPanel();
  }

  async function getText(path) {
    const res = await fetch(path, { cache: 'no-store' });
    if (!res.ok) {
      const err = /** @type {Error & {status?: number}} */ (new Error(`${path}: HTTP ${res.status}`));
      err.status = res.status;
      throw err;
    }
    return res.text();
  }

  /** Pins the log key on first sight; a different key later is an alarm. */
  async function pinKey() {
    let served;
    try {
      served = (await getText('/log/key')).trim();
    } catch (e) {
      if (e.status === 404) state.off = true;
      else state.error = t('log.unreachable');
      return false;
    }
    const pinned = read(KEY);
    let info;
    try {
      info = JSON.parse(wasm.log_key(pinned || served));
    } catch (e) {
      state.error = t('log.bad_key', { error: e.message || String(e) });
      return false;
    }
    if (pinned && pinned !== served) {
      const frozen = await frozenBefore(pinned, served);
      if (frozen) return follow(served, frozen);
    }
    if (!pinned) write(KEY, served);
    state.vkey = pinned || served;
    state.info = info;
    if (pinned && pinned !== served) raise('key', `${pinned}\n`, `${served}\n`, t('log.key_changed'));
    return true;
  }

  /**
   * The pinned log, if `/log/previous` lists it as frozen and followed by the
   * served key, its last checkpoint signed by the pinned key and consistent
   * with the one kept: {origin, size, next}; else null (the alarm stays).
   */
  async function frozenBefore(pinned, served) {
    let logs;
    try {
      logs = JSON.parse(await getText('/log/previous'));
    } catch {
      return null;
    }
    const log = Array.isArray(logs) ? logs.find((l) => l && typeof l.key === 'string' && l.key.trim() === pinned) : null;
    const next = log && Array.isArray(log.next) ? log.next.map((v) => String(v).trim()) : [];
    if (!log || next[1] !== served || typeof log.origin !== 'string' || log.prefix !== `/log/frozen/${log.origin}`) return null;
    let note;
    try {
      note = await getText(`${log.prefix}/checkpoint`);
    } catch {
      return null;
    }
    const opened = parseExact(wasm.log_checkpoint(note, pinned));
    if (!opened.ok) return null;
    const kept = read(CHECKPOINT);
    if (kept && kept !== note && parseExact(wasm.log_checkpoint(kept, pinned)).ok) {
      // What this browser saw must be in the frozen log: a kept checkpoint
      // larger than it (entries lost) has no proof there, and stays an alarm.
      let fetched;
      try {
        fetched = await fetchTiles(kept, note, pinned, log.prefix);
      } catch {
        return null;
      }
      if (fetched.need) return null;
      const verdict = parseExact(wasm.log_consistency(pinned, kept, note, JSON.stringify(fetched.tiles)));
      if (!verdict.ok || verdict.seen.size < verdict.kept.size) return null;
    }
    return { origin: log.origin, size: opened.checkpoint.size, next: next[0] };
  }

  /** Pins the new log's key after its frozen predecessor checked, and says so. */
  function follow(served, frozen) {
    let info;
    try {
      info = JSON.parse(wasm.log_key(served));
    } catch (e) {
      state.error = t('log.bad_key', { error: e.message || String(e) });
      return false;
    }
    write(KEY, served);
    write(CHECKPOINT, '');
    write(FOLLOWED, JSON.stringify({ ...frozen, key: served }));
    state.vkey = served;
    state.info = info;
    return true;
  }

  /** The tiles the proof between two checkpoints is read from, as {path: base64}. */
  async function fetchTiles(kept, seen, vkey = state.vkey, prefix = '/log') {
    const need = JSON.parse(wasm.log_consistency_tiles(vkey, kept, seen));
    if (!need.ok) return { need };
    const tiles = {};
    for (const path of need.tiles) {
      const res = await fetch(`${prefix}/${path}`);
      if (!res.ok) throw new Error(`${prefix}/${path}: HTTP ${res.status}`);
      tiles[path] = base64(new Uint8Array(await res.arrayBuffer()));
    }
    return { tiles };
  }

  /**
   * Checks a signed checkpoint against the one kept: {ok} and the larger kept,
   * or {ok: false, failed, error}; `consistency` raises the alarm.
   */
  async function consider(note) {
    const opened = parseExact(wasm.log_checkpoint(note, state.vkey));
    if (!opened.ok) return opened;
    const kept = read(CHECKPOINT);
    if (!kept || kept === note || !parseExact(wasm.log_checkpoint(kept, state.vkey)).ok) {
      write(CHECKPOINT, note);
      return { ok: true };
    }
    let fetched;
    try {
      fetched = await fetchTiles(kept, note);
    } catch (e) {
      return { ok: false, failed: 'unreachable', error: e.message || String(e) };
    }
    if (fetched.need) return fetched.need;
    const verdict = parseExact(wasm.log_consistency(state.vkey, kept, note, JSON.stringify(fetched.tiles)));
    if (verdict.ok) {
      if (verdict.keep === 'seen') write(CHECKPOINT, note);
    } else if (verdict.failed === 'consistency') {
      raise('checkpoint', kept, note, t('log.alarm_detail', { kept: verdict.kept.size, seen: verdict.seen.size, error: verdict.error }));
    }
    return verdict;
  }

  /** One checkpoint at a time, in the order seen. */
  function observe(note) {
    const done = queue.then(() => consider(note)).then((v) => { if (!alarmed) renderPanel(); return v; });
    queue = done.catch(() => {});
    return done;
  }

  const ready = (async () => {
    if (!(await pinKey())) {
      state.status = state.off ? 'off' : 'error';
      renderPanel();
      return false;
    }
    try {
      await loadWitnesses();
      const note = await getText('/log/checkpoint');
      const v = await observe(note);
      if (v.ok) await checkWitnesses(note);
      if (!alarmed) state.status = v.ok ? 'ok' : 'error';
      if (!v.ok && !alarmed) state.error = t('log.checkpoint_failed', { error: v.error });
      settle();
    } catch {
      state.error = t('log.unreachable');
      state.status = 'error';
    }
    if (!alarmed) renderPanel();
    return true;
  })();

  /** A badge for one receipt, which follows it into the log. */
  function badge(receipt) {
    const label = h('span', { class: 'log-badge-text' }, t('log.checking'));
    const facts = h('div', { class: 'log-badge-facts small' });
    const el = h('details', { class: 'log-badge', 'data-state': 'checking', 'data-entry': receipt.entry_hash },
      h('summary', {}, label), facts);
    let kind = '';
    const set = (stage, text, extra = []) => {
      el.dataset.state = stage;
      label.textContent = kind ? `${kind} · ${text}` : text;
      clear(facts,
        h('p', {}, h('span', { class: 'muted' }, t('log.entry_hash'), ': '), h('code', { class: 'hex' }, receipt.entry_hash)),
        extra,
        state.vkey ? h('p', {}, download(`fairseed-receipt-${receipt.entry_hash.slice(0, 16)}.json`,
          `${JSON.stringify({ key: state.vkey, receipt }, null, 1)}\n`, t('log.download_receipt'))) : null);
    };
    const check = (r) => parseExact(wasm.log_receipt(JSON.stringify(r), state.vkey, ''));

    async function follow() {
      if (!(await ready)) {
        set(state.off ? 'off' : 'error', state.off ? t('log.off_badge') : t('log.unchecked'));
        return;
      }
      const first = check(receipt);
      if (!first.ok) {
        set('bad', t('log.bad_receipt', { part: t(`log.part_${first.failed}`) }), h('p', { class: 'error-text' }, first.error));
        return;
      }
      kind = t(`log.kind_${first.entry.kind}`);
      set('ack', t('log.acknowledged'));
      const deadline = Date.now() + GIVE_UP_MS;
      let full = first.sequenced ? receipt : null;
      let wait = FIRST_LOOK_MS;
      while (!full && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, wait));
        wait = NEXT_LOOK_MS;
        try {
          const got = parseExact(await getText(`/log/receipts/${receipt.entry_hash}`));
          if (got.leaf_index !== null && got.leaf_index !== undefined) full = got;
        } catch { /* not reachable now: look again */ }
      }
      if (!full) {
        set('ack', t('log.not_yet'));
        return;
      }
      const v = check(full);
      if (!v.ok) {
        set('bad', t('log.bad_receipt', { part: t(`log.part_${v.failed}`) }), h('p', { class: 'error-text' }, v.error));
        return;
      }
      receipt = full;
      const consistent = await observe(full.checkpoint);
      const where = h('p', {}, t('log.where', { index: v.leaf_index, size: v.checkpoint.size }));
      if (consistent.ok && !(await witnessed(receipt.checkpoint, v.checkpoint.size, deadline))) set('ack', t('log.witnesses_pending'), where);
      else if (consistent.ok) set('in', t('log.in_log'), where);
      else if (consistent.failed === 'consistency') set('bad', t('log.forked'), where);
      else set('ack', t('log.unchecked'), [where, h('p', { class: 'error-text' }, consistent.error)]);
    }
    follow();
    return el;
  }

  /** Whether a checkpoint of at least `size` entries meets the witness requirement (none set: yes), looking until `deadline`. */
  async function witnessed(note, size, deadline) {
    if (!witness.min) return true;
    await checkWitnesses(note);
    while (!(witness.met && witness.size >= size) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, NEXT_LOOK_MS));
      try { await checkWitnesses(await getText('/log/checkpoint')); } catch { /* look again */ }
    }
    settle();
    if (!alarmed) renderPanel();
    return witness.met && witness.size >= size;
  }

  /** The badges of an answer's receipts, in a live region; nothing when it has none. */
  function badges(receipts) {
    if (!Array.isArray(receipts) || !receipts.length) return null;
    return h('span', { class: 'log-badges', 'aria-live': 'polite' }, receipts.map(badge));
  }

  renderPanel();
  return { panel, badges, observe, ready };
}

/**
 * The receipt check of the Verify tab and the offline verifier: a receipt
 * (JSON), the log key and optionally a kept checkpoint, checked in wasm with
 * no request: the signature, and the inclusion proof once it has one.
 */
export function receiptForm(wasm) {
  const out = h('div', { id: 'r-out', 'aria-live': 'polite' });
  const area = (id, label, attrs = {}) => h('div', { class: 'field' }, h('label', { for: id }, label),
    h('textarea', { id, rows: attrs.rows || 4, spellcheck: 'false', autocomplete: 'off', ...attrs }));
  const form = h('form', { class: 'card-panel', id: 'verify-receipt', novalidate: true },
    h('h2', {}, t('offline.receipt_title')),
    h('p', { class: 'muted small' }, t('offline.receipt_help')),
    area('r-receipt', t('offline.receipt'), { rows: 6 }),
    h('div', { class: 'field' }, h('label', { for: 'r-key' }, t('offline.key')),
      h('input', { id: 'r-key', autocomplete: 'off', spellcheck: 'false', value: read(KEY) || '' })),
    area('r-checkpoint', t('offline.checkpoint')),
    area('r-witnesses', t('offline.witnesses'), { rows: 2 }),
    h('div', { class: 'field' }, h('label', { for: 'r-min' }, t('offline.witnesses_min')),
      h('input', { id: 'r-min', type: 'number', min: 1, step: 1, inputmode: 'numeric', autocomplete: 'off' })),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'r-go' }, t('offline.check'))),
    out);
  const value = (id) => form.querySelector(`#${id}`).value;

  /**
   * The witness line: how many of the listed witnesses validly cosigned the
   * checkpoint the receipt's proof leads to (the one given, else the
   * receipt's own), against how many are required; null with no witness listed.
   */
  async function witnessLine(text, verdict) {
    const listed = value('r-witnesses').split('\n').map((l) => l.trim()).filter(Boolean);
    if (!listed.length) return null;
    const line = (ok, message) => h('p', { class: ok ? 'ok-text' : 'error-text', id: 'r-witnessed', 'data-ok': String(ok) }, message);
    if (!verdict.ok || !verdict.sequenced) return line(false, t('offline.witnesses_no_checkpoint'));
    let keys;
    try {
      keys = await Promise.all(listed.map(cosignerKey));
    } catch (e) {
      return line(false, e.message || String(e));
    }
    let note = value('r-checkpoint');
    if (!note.trim()) {
      try {
        const parsed = JSON.parse(text);
        note = String((parsed.receipt || parsed).checkpoint || '');
      } catch { /* the verdict already failed on it */ }
    }
    const required = Number(value('r-min')) || keys.length;
    const count = await countCosignatures(note, keys);
    return line(count >= required, t('offline.witnessed', { count, listed: keys.length, required }));
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = value('r-receipt');
    let key = value('r-key').trim();
    if (!key) {
      try { key = String(JSON.parse(text).key || ''); } catch { /* the verdict says the receipt is not JSON */ }
    }
    const v = parseExact(wasm.log_receipt(text, key, value('r-checkpoint')));
    let info = null;
    try { info = JSON.parse(wasm.log_key(key)); } catch { /* the verdict names the key */ }
    const lines = [];
    if (v.ok) {
      lines.push(h('p', { class: 'ok-text', id: 'r-verdict', 'data-ok': 'true' }, v.sequenced
        ? t('offline.ok_sequenced', { index: v.leaf_index, size: v.checkpoint.size })
        : t('offline.ok_acknowledged')));
    } else {
      lines.push(h('p', { class: 'error-text', id: 'r-verdict', 'data-ok': 'false', 'data-failed': v.failed },
        t('offline.failed', { part: t(`log.part_${v.failed}`), error: v.error })));
    }
    if (info) lines.push(h('p', { class: 'small' }, t('offline.fingerprint', { fingerprint: grouped(info.fingerprint) })));
    if (v.entry) {
      lines.push(h('p', { class: 'small hex' }, t('offline.entry', {
        kind: has(`offline.kind_${v.entry.kind}`) ? t(`offline.kind_${v.entry.kind}`) : v.entry.kind,
        scheme: schemeName(v.entry.scheme), ids: v.entry.ids.join(', '), values: v.entry.values.join(', '),
      })));
    }
    lines.push(await witnessLine(text, v));
    clear(out, lines);
  });
  return form;
}

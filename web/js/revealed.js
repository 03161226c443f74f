// The Revealed tab: each revealed seed beside its hash, the SHA-256 check done
// here, and every bet of the pair re-rolled in a Web Worker with a progress bar.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api, ensureToken } from './api.js';
import { store } from './store.js';
import { errorText } from './errors.js';
import { betNumber, fmtDuration, fmtInt, fmtRoll } from './format.js';

let nextJob = 1;

/** Above this many bets, one streamed export beats paging at 500 bets a request. */
export const EXPORT_ABOVE = 2000;

/** Runs one job in a fresh worker; `onProgress(done, total)`; resolves with the report. */
export function runWorker(job, onProgress) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const id = nextJob++;
    worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'progress') onProgress?.(m.done, m.total);
      else {
        worker.terminate();
        if (m.type === 'done') resolve(m);
        else reject(new Error(m.message));
      }
    };
    worker.onerror = (e) => { worker.terminate(); reject(new Error(e.message)); };
    // ArrayBuffers are transferred, not copied: the main thread stays free.
    worker.postMessage({ ...job, id }, job.buffers || []);
  });
}

/**
 * Checks bets already in the page (`buffers`: ArrayBuffers of JSON bets) on
 * `workers` workers at once, one share each; progress and reports are summed.
 */
export async function runWorkers(job, workers, onProgress) {
  const shares = Array.from({ length: workers }, () => []);
  job.buffers.forEach((b, i) => shares[i % workers].push(b));
  const done = new Array(workers).fill(0);
  const reports = await Promise.all(shares.map((buffers, w) => runWorker({ ...job, buffers }, (d) => {
    done[w] = d;
    onProgress?.(done.reduce((a, b) => a + b, 0), job.total);
  })));
  return reports.reduce((acc, r) => ({
    checked: acc.checked + r.checked,
    mismatched: acc.mismatched + r.mismatched,
    mismatches: acc.mismatches.concat(r.mismatches).slice(0, 100),
    ms: Math.max(acc.ms, r.ms),
  }), { checked: 0, mismatched: 0, mismatches: [], ms: 0 });
}

/** A mismatch in words: the roll in the unit the game shows, the payout with separators. */
function mismatchText(m) {
  const digits = (v) => /^\d+$/.test(String(v));
  const show = (v) => (m.field === 'roll' && digits(v) ? fmtRoll(Number(v)) : digits(v) ? fmtInt(String(v)) : String(v));
  return t('revealed.mismatch', { nonce: digits(m.nonce) ? fmtInt(betNumber(m.nonce)) : m.nonce, field: t(`revealed.field_${m.field}`), expected: show(m.expected), found: show(m.found) });
}

/** The pair's latest bets, each with a link to its proof in Verify. */
function betList(p, onProof, number) {
  const out = h('div', { class: 'pair-bets' });
  const button = h('button', { type: 'button', class: 'link show-bets' }, t('revealed.show_bets'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const page = await api.bets({ pair_id: String(p.pair_id), limit: 20 });
      clear(out, h('table', { class: 'history' },
        h('thead', {}, h('tr', {}, ['col_nonce', 'col_roll', 'col_proof'].map((k) => h('th', { scope: 'col' }, t(`dice.${k}`))))),
        h('tbody', {}, page.bets.map((b) => h('tr', { 'data-nonce': b.nonce },
          h('td', {}, fmtInt(betNumber(b.nonce))), h('td', {}, fmtRoll(b.roll)),
          h('td', {}, h('button', { type: 'button', class: 'link proof', 'aria-label': t('dice.proof_label', { nonce: fmtInt(betNumber(b.nonce)), pair: number }),
            onclick: () => onProof?.({ server_seed: p.server_seed, commitment: p.commitment, client_seed: p.client_seed, nonce: b.nonce, roll: b.roll }) }, t('dice.proof'))))))));
    } catch (e) {
      clear(out, h('p', { class: 'error-text' }, errorText(e)));
    }
  });
  return [button, out];
}

function pairCard(wasm, p, number, onProof) {
  const seen = store.seenCommitments()[p.pair_id];
  const shaOk = wasm.sha256_hex(p.server_seed) === p.commitment;
  const seenOk = seen === undefined ? null : seen === p.commitment;
  const progress = h('progress', { max: Math.max(1, p.bets), value: 0, 'aria-label': t('revealed.progress', { done: 0, total: fmtInt(p.bets) }) });
  const status = h('p', { class: 'status', 'aria-live': 'polite' }, '\u00a0');
  const label = p.bets === 1 ? t('revealed.verify_one') : t('revealed.verify', { count: fmtInt(p.bets) });
  const button = h('button', { type: 'button', class: 'primary verify-bets', disabled: p.bets === 0 }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const token = await ensureToken();
      const via = p.bets > EXPORT_ABOVE ? 'export' : 'pages';
      const r = await runWorker({ pair_id: p.pair_id, server_seed: p.server_seed, client_seed: p.client_seed, token, base: location.origin, total: p.bets, via },
        (done, total) => { progress.value = done; status.textContent = t('revealed.progress', { done: fmtInt(done), total: fmtInt(total) }); });
      // Every bet the service counts must have been re-rolled, none missing.
      if (r.checked !== p.bets) r.mismatches.unshift({ nonce: '-', field: 'bets', expected: p.bets, found: r.checked });
      if (r.checked !== p.bets) r.mismatched += 1;
      status.className = `status ${r.mismatched ? 'bad' : 'ok'}`;
      clear(status, r.mismatched
        ? [t('revealed.some_bad', { bad: fmtInt(r.mismatched), count: fmtInt(r.checked) }), h('ul', {}, r.mismatches.map((m) => h('li', {}, mismatchText(m))))]
        : t(r.checked === 1 ? 'revealed.one_ok' : 'revealed.all_ok', { count: fmtInt(r.checked), time: fmtDuration(r.ms) }));
    } catch (e) {
      status.className = 'status bad';
      status.textContent = errorText(e);
    } finally {
      button.disabled = false;
    }
  });
  return h('article', { class: 'card-panel revealed-pair', 'data-pair': p.pair_id },
    h('h2', {}, t('revealed.pair', { pair: number })),
    h('dl', { class: 'kv' },
      h('dt', {}, t('revealed.seed')), h('dd', {}, h('code', { class: 'hex seed' }, p.server_seed)),
      h('dt', {}, t('revealed.hash')), h('dd', {}, h('code', { class: 'hex' }, p.commitment),
        h('span', { class: shaOk ? 'ok-text sha check-line' : 'error-text sha check-line' }, shaOk ? t('revealed.sha_ok') : t('revealed.sha_bad'))),
      seenOk === null ? null : [h('dt', {}, t('revealed.hash_seen')), h('dd', { class: seenOk ? 'ok-text' : 'error-text' }, seenOk ? t('revealed.seen_ok') : t('revealed.seen_bad'))],
      h('dt', {}, t('revealed.client')), h('dd', {}, h('code', { class: 'client' }, p.client_seed)),
      h('dt', {}, t('revealed.bets')), h('dd', {}, fmtInt(p.bets))),
    button, progress, status, ...betList(p, onProof, number));
}

/** Every revealed pair of the player, newest first, page by page. */
async function allRevealed() {
  const pairs = [];
  let before = null;
  for (;;) {
    const page = await api.revealed(before);
    pairs.push(...page.pairs);
    if (!page.next_before || !page.pairs.length) return pairs;
    before = page.next_before;
  }
}

/**
 * The player's own numbering of their pairs, oldest first: the service's
 * pair ids count every player's pairs, so a new player's first pair is not
 * "Pair 11".
 */
export function pairNumbers(ids) {
  return new Map([...ids].sort((a, b) => a - b).map((id, k) => [id, k + 1]));
}

export function mountRevealed(root, { wasm, onProof }) {
  async function refresh() {
    const pairs = await allRevealed();
    for (const p of pairs) store.rememberReveal(p);
    const numbers = pairNumbers(pairs.map((p) => p.pair_id));
    clear(root, pairs.length ? pairs.map((p) => pairCard(wasm, p, numbers.get(p.pair_id), onProof)) : h('p', { class: 'card-panel muted' }, t('revealed.empty')));
  }
  return { refresh };
}

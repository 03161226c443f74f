// The Revealed tab: each revealed seed beside its hash, the SHA-256 check done
// here, and every bet of the pair re-rolled in a Web Worker with a progress bar.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api, ensureToken } from './api.js';
import { store } from './store.js';

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

function pairCard(wasm, p) {
  const seen = store.seenCommitments()[p.pair_id];
  const shaOk = wasm.sha256_hex(p.server_seed) === p.commitment;
  const seenOk = seen === undefined ? null : seen === p.commitment;
  const progress = h('progress', { max: Math.max(1, p.bets), value: 0, 'aria-label': t('revealed.progress', { done: 0, total: p.bets }) });
  const status = h('p', { class: 'status', 'aria-live': 'polite' }, '\u00a0');
  const label = p.bets === 1 ? t('revealed.verify_one') : t('revealed.verify', { count: p.bets });
  const button = h('button', { type: 'button', class: 'primary verify-bets', disabled: p.bets === 0 }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const token = await ensureToken();
      const via = p.bets > EXPORT_ABOVE ? 'export' : 'pages';
      const r = await runWorker({ pair_id: p.pair_id, server_seed: p.server_seed, client_seed: p.client_seed, token, base: location.origin, total: p.bets, via },
        (done, total) => { progress.value = done; status.textContent = t('revealed.progress', { done, total }); });
      // Every bet the service counts must have been re-rolled, none missing.
      if (r.checked !== p.bets) r.mismatches.unshift({ nonce: '-', field: 'bets', expected: p.bets, found: r.checked });
      if (r.checked !== p.bets) r.mismatched += 1;
      status.className = `status ${r.mismatched ? 'bad' : 'ok'}`;
      clear(status, r.mismatched
        ? [t('revealed.some_bad', { bad: r.mismatched, count: r.checked }), h('ul', {}, r.mismatches.map((m) => h('li', {}, t('revealed.mismatch', m))))]
        : t(r.checked === 1 ? 'revealed.one_ok' : 'revealed.all_ok', { count: r.checked, ms: Math.round(r.ms) }));
    } catch (e) {
      status.className = 'status bad';
      status.textContent = e.message;
    } finally {
      button.disabled = false;
    }
  });
  return h('article', { class: 'card-panel revealed-pair', 'data-pair': p.pair_id },
    h('h3', {}, t('revealed.pair', { pair: p.pair_id })),
    h('dl', { class: 'kv' },
      h('dt', {}, t('revealed.seed')), h('dd', {}, h('code', { class: 'hex seed' }, p.server_seed)),
      h('dt', {}, t('revealed.hash')), h('dd', {}, h('code', { class: 'hex' }, p.commitment), ' ',
        h('span', { class: shaOk ? 'ok-text sha' : 'error-text sha' }, shaOk ? t('revealed.sha_ok') : t('revealed.sha_bad'))),
      seenOk === null ? null : [h('dt', {}, t('revealed.hash_seen')), h('dd', { class: seenOk ? 'ok-text' : 'error-text' }, seenOk ? t('revealed.seen_ok') : t('revealed.seen_bad'))],
      h('dt', {}, t('revealed.client')), h('dd', {}, h('code', {}, p.client_seed)),
      h('dt', {}, t('revealed.bets')), h('dd', {}, String(p.bets))),
    button, progress, status);
}

export function mountRevealed(root, { wasm }) {
  async function refresh() {
    const page = await api.revealed();
    for (const p of page.pairs) store.rememberReveal(p);
    clear(root, page.pairs.length ? page.pairs.map((p) => pairCard(wasm, p)) : h('p', { class: 'card-panel muted' }, t('revealed.empty')));
  }
  return { refresh };
}

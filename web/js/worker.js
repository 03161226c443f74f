// Re-rolls every bet of a revealed seed pair off the main thread, so a pair
// with a million bets never freezes the page. Pages of bets go to the core
// (wasm `DiceBatch.check_json`) as the server's own JSON text: exact payouts,
// no per-bet call across the JS boundary.
import { loadWasm } from './wasm.js';

async function fetchPages(msg, batch, report) {
  let before = null;
  for (;;) {
    const query = new URLSearchParams({ pair_id: String(msg.pair_id), limit: '500' });
    if (before !== null) query.set('before', String(before));
    const res = await fetch(`${msg.base}/v1/dice/bets?${query}`, { headers: { Authorization: `Bearer ${msg.token}` } });
    const text = await res.text();
    if (!res.ok) throw new Error(`bets: HTTP ${res.status} ${text.slice(0, 200)}`);
    report(JSON.parse(batch.check_json(text)));
    before = JSON.parse(text).next_before;
    if (before === null || before === undefined) return;
  }
}

self.onmessage = async (ev) => {
  const msg = ev.data;
  const started = performance.now();
  const total = { checked: 0, mismatched: 0, mismatches: [] };
  let batch = null;
  try {
    const wasm = await loadWasm();
    batch = new wasm.DiceBatch(msg.server_seed, msg.client_seed);
    const report = (r) => {
      total.checked += r.checked;
      total.mismatched += r.mismatched;
      total.mismatches.push(...r.mismatches.slice(0, Math.max(0, 100 - total.mismatches.length)));
      self.postMessage({ type: 'progress', id: msg.id, done: total.checked, total: msg.total });
    };
    if (msg.buffers) {
      for (const buf of msg.buffers) report(JSON.parse(batch.check_bytes(new Uint8Array(buf))));
    } else if (msg.chunks) {
      for (const text of msg.chunks) report(JSON.parse(batch.check_json(text)));
    } else {
      await fetchPages(msg, batch, report);
    }
    self.postMessage({ type: 'done', id: msg.id, ...total, ms: performance.now() - started });
  } catch (e) {
    self.postMessage({ type: 'error', id: msg.id, message: e.message || String(e) });
  } finally {
    batch?.free();
  }
};

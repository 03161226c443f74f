// Re-rolls every bet of a revealed seed pair off the main thread, so a pair
// with a million bets never freezes the page. Small pairs come page by page
// from /v1/dice/bets, big ones from one streamed /v1/records/export. Bets go to the core
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

/** Joins byte arrays. */
function join(parts, total) {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * A big pair: one request for the export (JSON Lines of every record of the
 * player), streamed and checked 4 MiB at a time, cut at line ends; the core
 * keeps only this pair's dice records.
 */
async function fetchExport(msg, batch, report) {
  const res = await fetch(`${msg.base}/v1/records/export`, { headers: { Authorization: `Bearer ${msg.token}` } });
  if (!res.ok) throw new Error(`export: HTTP ${res.status}`);
  const reader = res.body.getReader();
  let parts = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (value) { parts.push(value); size += value.length; }
    if (size >= 4 << 20 || (done && size > 0)) {
      const bytes = join(parts, size);
      const cut = done ? bytes.length : bytes.lastIndexOf(10) + 1;
      if (cut > 0) report(JSON.parse(batch.check_bytes(bytes.subarray(0, cut))));
      parts = cut < bytes.length ? [bytes.slice(cut)] : [];
      size = bytes.length - cut;
    }
    if (done) return;
  }
}

self.onmessage = async (ev) => {
  const msg = ev.data;
  const started = performance.now();
  const total = { checked: 0, mismatched: 0, skipped: 0, mismatches: [] };
  let batch = null;
  try {
    const wasm = await loadWasm();
    batch = new wasm.DiceBatch(msg.server_seed, msg.client_seed);
    const report = (r) => {
      total.checked += r.checked;
      total.mismatched += r.mismatched;
      total.skipped += r.skipped;
      total.mismatches.push(...r.mismatches.slice(0, Math.max(0, 100 - total.mismatches.length)));
      self.postMessage({ type: 'progress', id: msg.id, done: total.checked, total: msg.total });
    };
    if (msg.buffers) {
      for (const buf of msg.buffers) report(JSON.parse(batch.check_bytes(new Uint8Array(buf))));
    } else if (msg.chunks) {
      for (const text of msg.chunks) report(JSON.parse(batch.check_json(text)));
    } else if (msg.via === 'export') {
      await fetchExport(msg, batch, report);
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

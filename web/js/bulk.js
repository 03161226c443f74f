// Runs a record file through the bulk verifier: JSON Lines are cut at line
// starts into one byte range per worker and streamed (js/bulk-core.js); any
// other text is verified whole in one worker. The page keeps one status byte
// and one offset per record — bounded memory for any size — and recomputes a
// record's full verdict from its bytes only when its row is on screen.
import { parseExact } from './json.js';
import { verifyLines, verifyWhole, items } from './bulk-core.js';

/** Bytes read per step: big in a worker, small on the page (each step is one task). */
const WORKER_CHUNK = 4 << 20;
const PAGE_CHUNK = 256 << 10;

/** Runs bulk-core on the page, with the worker's protocol (the offline file cannot start workers). */
class PageWorker {
  constructor(wasm) {
    this.wasm = wasm;
    this.kept = null;
    this.stopped = false;
    /** @type {((ev: {data: any}) => void) | null} */
    this.onmessage = null;
    /** @type {((ev: {message?: string}) => void) | null} */
    this.onerror = null;
  }

  postMessage(msg) {
    setTimeout(() => this.run(msg), 0);
  }

  async run(msg) {
    const post = (m) => { if (!this.stopped) this.onmessage?.({ data: { ...m, id: msg.id } }); };
    const pause = () => new Promise((r) => setTimeout(r, 0));
    try {
      if (msg.type === 'items') return post({ type: 'items', items: items(this.kept, msg.from, msg.to) });
      if (msg.type === 'whole') this.kept = await verifyWhole(this.wasm, msg, post);
      else await verifyLines(this.wasm, { ...msg, chunk: PAGE_CHUNK }, post, pause);
      post({ type: 'done' });
    } catch (e) {
      post({ type: 'error', message: e.message || String(e) });
    }
  }

  terminate() {
    this.stopped = true;
  }
}

function spawn(wasm) {
  if (globalThis.FAIRSEED_WASM_BASE64) return new PageWorker(wasm);
  return new Worker(new URL('./bulk-worker.js', import.meta.url), { type: 'module' });
}

/** JSON Lines, unless the text is one JSON array or one record spread over lines. */
export async function modeOf(blob) {
  const head = await blob.slice(0, 1 << 16).text();
  const text = head.trimStart();
  if (text.startsWith('[')) return 'whole';
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl);
  try {
    JSON.parse(first);
    return 'lines';
  } catch {
    // Not a whole line of JSON: one pretty-printed record, or text that is
    // no record at all (line by line, each line says why).
    return blob.size <= 64 << 20 ? 'whole' : 'lines';
  }
}

/** Cuts [0, size) into `parts` ranges that start at line starts. */
export async function lineCuts(blob, parts) {
  const cuts = [0];
  for (let k = 1; k < parts; k++) {
    let at = Math.max(cuts[cuts.length - 1], Math.floor((blob.size * k) / parts));
    for (;;) {
      if (at >= blob.size) { at = blob.size; break; }
      const bytes = new Uint8Array(await blob.slice(at, at + (1 << 16)).arrayBuffer());
      const nl = bytes.indexOf(10);
      if (nl >= 0) { at += nl + 1; break; }
      at += bytes.length;
    }
    cuts.push(at);
  }
  cuts.push(blob.size);
  return cuts;
}

function join(parts, Kind) {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Kind(total);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * Verifies `blob`; `onProgress({counts, done, total})` as parts arrive.
 * Resolves with {mode, count, counts: [valid, invalid, unreadable], statuses,
 * ms, item(i)}, where `item(i)` resolves with one record's verdict, report
 * and record.
 * @param {any} wasm
 * @param {Blob} blob
 * @param {{workers?: number, onProgress?: (p: {counts: number[], done: number, total: number}) => void}} [options]
 */
export async function verifyBlob(wasm, blob, { workers = 2, onProgress } = {}) {
  const started = performance.now();
  const mode = await modeOf(blob);
  const cuts = mode === 'lines' ? await lineCuts(blob, Math.max(1, Math.min(workers, Math.ceil(blob.size / (1 << 20))))) : [0, blob.size];
  const ranges = cuts.slice(1).map((end, k) => [cuts[k], end]).filter(([a, b]) => b > a);
  if (!ranges.length) ranges.push([0, 0]);
  const statuses = ranges.map(() => []);
  const starts = ranges.map(() => []);
  const counts = ranges.map(() => [0, 0, 0]);
  const done = ranges.map(() => 0);
  const spawned = ranges.map(() => spawn(wasm));
  const sum = () => counts.reduce((acc, c) => acc.map((x, i) => x + c[i]), [0, 0, 0]);
  try {
    await Promise.all(ranges.map(([start, end], w) => new Promise((resolve, reject) => {
      const worker = spawned[w];
      worker.onmessage = (ev) => {
        const m = ev.data;
        if (m.type === 'part') {
          statuses[w].push(m.statuses);
          if (m.starts) starts[w].push(m.starts);
          counts[w] = m.counts;
          done[w] = m.done;
          onProgress?.({ counts: sum(), done: done.reduce((a, b) => a + b, 0), total: blob.size });
        } else if (m.type === 'done') resolve();
        else if (m.type === 'error') reject(new Error(m.message));
      };
      worker.onerror = (e) => reject(new Error(e.message || 'worker failed'));
      worker.postMessage({ type: mode, id: w, file: blob, start, end, chunk: WORKER_CHUNK });
    })));
  } catch (e) {
    spawned.forEach((x) => x.terminate());
    throw e;
  }
  // Line mode needs no worker any more: rows are recomputed from the bytes.
  const keeper = mode === 'whole' ? spawned[0] : null;
  spawned.forEach((x) => { if (x !== keeper) x.terminate(); });
  const all = join(statuses.flat(), Uint8Array);
  const offsets = mode === 'lines' ? join(starts.flat(), Float64Array) : null;
  const ms = performance.now() - started;

  async function lineItem(i) {
    const end = i + 1 < offsets.length ? offsets[i + 1] : blob.size;
    const text = (await blob.slice(offsets[i], end).text()).trim();
    const result = parseExact(wasm.verify(text));
    let record = null;
    try { record = parseExact(text); } catch { /* unreadable: the verdict says why */ }
    const verdict = { ...result.verdicts[0], index: i };
    return { verdict, report: result.reports[0], record, text };
  }

  // A whole-text run's verdicts stay in its worker; rows ask for theirs by id.
  const pending = new Map();
  let asked = 0;
  if (keeper) keeper.onmessage = (ev) => { pending.get(ev.data.id)?.(ev.data); pending.delete(ev.data.id); };
  function wholeItem(i) {
    return new Promise((resolve, reject) => {
      const id = `items-${asked++}`;
      pending.set(id, (m) => (m.type === 'items' && m.items[0] ? resolve(m.items[0]) : reject(new Error(m.message || 'no such record'))));
      keeper.postMessage({ type: 'items', id, from: i, to: i + 1 });
    });
  }

  return {
    mode,
    count: all.length,
    counts: sum(),
    statuses: all,
    ms,
    item: mode === 'lines' ? lineItem : wholeItem,
    close: () => keeper?.terminate(),
  };
}

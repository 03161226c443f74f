// Verifying a record file a piece at a time: the work of the bulk worker
// (js/bulk-worker.js), also run on the page itself where no worker can start
// (the offline file's Content-Security-Policy forbids them). A byte range of
// the file, starting and ending at line starts, is read a few megabytes at a
// time, never whole; each chunk's answer — one status byte per record (0
// valid, 1 does not verify, 2 cannot be read) and where each record starts —
// goes to `post`. A file that is not JSON Lines (one JSON array, one
// pretty-printed record) is verified whole and its verdicts kept for the rows
// on screen.
import { parseExact } from './json.js';

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * `msg` is {file, start, end, chunk}; `yieldEvery` (ms) gives the thread
 * back between chunks when running on the page.
 * @param {any} wasm
 * @param {{file: Blob, start: number, end: number, chunk: number, id?: number}} msg
 * @param {(m: object, transfer?: Transferable[]) => void} post
 * @param {() => Promise<void>} [pause]
 */
export async function verifyLines(wasm, msg, post, pause) {
  const bulk = new wasm.BulkVerifier();
  const counts = [0, 0, 0];
  let pos = msg.start;
  let carry = null;
  const read = (at) => (at < msg.end ? msg.file.slice(at, Math.min(msg.end, at + msg.chunk)).arrayBuffer() : null);
  let reading = read(pos);
  try {
    while (pos < msg.end) {
      const next = Math.min(msg.end, pos + msg.chunk);
      let bytes = new Uint8Array(await reading);
      // The next chunk is read while this one is verified.
      reading = read(next);
      const base = pos - (carry ? carry.length : 0);
      if (carry) bytes = concat(carry, bytes);
      pos = next;
      // Whole lines only; the rest waits for the next chunk.
      const cut = pos >= msg.end ? bytes.length : bytes.lastIndexOf(10) + 1;
      carry = cut < bytes.length ? bytes.slice(cut) : null;
      if (cut === 0) continue;
      const statuses = bulk.lines(bytes.subarray(0, cut));
      const rel = bulk.starts();
      const starts = new Float64Array(rel.length);
      for (let i = 0; i < rel.length; i++) starts[i] = base + rel[i];
      for (const s of statuses) counts[s] += 1;
      post({ type: 'part', statuses, starts, counts: [...counts], done: pos - msg.start }, [statuses.buffer, starts.buffer]);
      if (pause) await pause();
    }
  } finally {
    bulk.free();
  }
}

/** Verifies the whole file at once; returns what `items` reads the rows from. */
export async function verifyWhole(wasm, msg, post) {
  const text = await msg.file.text();
  const result = parseExact(wasm.verify(text));
  let records = [];
  try {
    const v = parseExact(text);
    records = Array.isArray(v) ? v : [v];
  } catch { /* unreadable: the verdicts say why */ }
  const statuses = Uint8Array.from(result.verdicts, (v) => (v.error ? 2 : v.valid ? 0 : 1));
  const counts = [0, 0, 0];
  for (const s of statuses) counts[s] += 1;
  post({ type: 'part', statuses, starts: null, counts, done: msg.file.size }, [statuses.buffer]);
  return { result, records };
}

/** Rows `from`..`to` of a whole-text run: verdict, report and record. */
export function items(kept, from, to) {
  const out = [];
  const n = kept ? kept.result.verdicts.length : 0;
  for (let i = from; i < Math.min(to, n); i++) {
    out.push({ verdict: kept.result.verdicts[i], report: kept.result.reports[i], record: kept.records[i] ?? null });
  }
  return out;
}

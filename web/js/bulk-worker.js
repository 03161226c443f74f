// The bulk verifier's worker: runs js/bulk-core.js off the main thread, so a
// file of a million records never freezes the page.
import { loadWasm } from './wasm.js';
import { verifyLines, verifyWhole, items } from './bulk-core.js';

let kept = null;

self.onmessage = async (ev) => {
  const msg = ev.data;
  const post = (m, transfer) => self.postMessage({ ...m, id: msg.id }, transfer || []);
  try {
    if (msg.type === 'items') {
      post({ type: 'items', items: items(kept, msg.from, msg.to) });
      return;
    }
    const wasm = await loadWasm();
    if (msg.type === 'whole') kept = await verifyWhole(wasm, msg, post);
    else await verifyLines(wasm, msg, post);
    post({ type: 'done' });
  } catch (e) {
    post({ type: 'error', message: e.message || String(e) });
  }
};

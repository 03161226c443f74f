// Loads the WebAssembly build of fairseed-core once. The offline verifier sets
// FAIRSEED_WASM_BASE64 with the module's bytes inlined; the served page fetches
// pkg/fairseed_wasm_bg.wasm next to the glue.
import * as glue from '../pkg/fairseed_wasm.js';

let ready = null;

export function loadWasm() {
  if (!ready) {
    const inlined = globalThis.FAIRSEED_WASM_BASE64;
    const arg = inlined
      ? { module_or_path: Uint8Array.from(atob(inlined), (c) => c.charCodeAt(0)) }
      : undefined;
    ready = glue.default(arg).then(() => glue);
  }
  return ready;
}

// Witness cosignatures on the log's checkpoints (docs/spec.md §16.9,
// C2SP tlog-cosignature), checked in this browser with WebCrypto's Ed25519.
// The player lists the witnesses they trust (their cosigner verifier keys,
// `<name>+<key id>+base64(0x04 || public key)`, as `fairseed witness` prints
// them) and how many must have cosigned; a checkpoint counts a witness once,
// and only for a line whose signature over
// `cosignature/v1\ntime <t>\n<checkpoint text>` verifies with its key.
import { readValue, writeValue } from './store.js';

const SETTINGS = 'log_witnesses';

const utf8 = new TextEncoder();

function fromBase64(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function sameBytes(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The settings kept in this browser: {keys: [vkey], min}; none set: min 0. */
export function witnessSettings() {
  const kept = readValue(SETTINGS, null);
  if (kept && Array.isArray(kept.keys) && Number.isInteger(kept.min)) return { keys: kept.keys.map(String), min: kept.min };
  return { keys: [], min: 0 };
}

export function saveWitnessSettings(settings) {
  writeValue(SETTINGS, settings);
}

/**
 * Parses a cosigner verifier key: {name, id, key (CryptoKey)}; throws an
 * Error naming what is wrong (the caller shows it).
 */
export async function cosignerKey(vkey) {
  const parts = vkey.trim().split('+');
  if (parts.length < 3 || !parts[0] || !/^[0-9a-f]{8}$/.test(parts[1])) throw new Error(`${vkey}: expected <name>+<8 hex key id>+<base64 key>`);
  const name = parts[0];
  let typed;
  try { typed = fromBase64(parts.slice(2).join('+')); } catch { throw new Error(`${name}: the key is not base64`); }
  if (typed.length !== 33 || typed[0] !== 0x04) throw new Error(`${name}: not a cosignature/v1 key (type 0x04, 32 bytes)`);
  if (!globalThis.crypto?.subtle) throw new Error('this browser has no WebCrypto here (a secure context is needed)');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', concat(utf8.encode(`${name}\n`), typed)));
  const id = digest.subarray(0, 4);
  if (!sameBytes(id, Uint8Array.from(parts[1].match(/../g).map((h) => parseInt(h, 16))))) throw new Error(`${name}: the key id does not match the name and key`);
  const key = await crypto.subtle.importKey('raw', typed.subarray(1), { name: 'Ed25519' }, false, ['verify']);
  return { name, id, key };
}

/** A signed note's text (through its last newline before the blank line) and signature lines. */
function splitNote(note) {
  const at = note.lastIndexOf('\n\n');
  if (at < 0) return null;
  return { text: note.slice(0, at + 1), lines: note.slice(at + 2).split('\n').filter(Boolean) };
}

/** How many of `keys` (parsed) have a valid cosignature on `note`, each counted once. */
export async function countCosignatures(note, keys) {
  const parts = splitNote(note);
  if (!parts) return 0;
  const body = utf8.encode(parts.text);
  const found = new Set();
  for (const line of parts.lines) {
    const m = /^\u2014 (\S+) (\S+)$/.exec(line);
    if (!m) continue;
    let sig;
    try { sig = fromBase64(m[2]); } catch { continue; }
    if (sig.length !== 76) continue;
    for (const [i, k] of keys.entries()) {
      if (found.has(i) || k.name !== m[1] || !sameBytes(k.id, sig.subarray(0, 4))) continue;
      const time = new DataView(sig.buffer, sig.byteOffset + 4, 8).getBigUint64(0);
      const message = concat(utf8.encode(`cosignature/v1\ntime ${time}\n`), body);
      try {
        if (await crypto.subtle.verify({ name: 'Ed25519' }, k.key, sig.subarray(12), message)) found.add(i);
      } catch { /* a malformed signature counts for nothing */ }
    }
  }
  return found.size;
}

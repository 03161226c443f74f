// The hold'em table's WebSocket messages against their one JSON Schema
// (crates/server/src/holdem_ws.schema.json, generated from the serde types
// the server parses and writes): every frame a test page sends or receives
// is recorded, and each must be a `ClientMessage` (sent) or a
// `ServerMessage` (received). So the page and the server cannot drift apart
// while every test still passes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';

const SCHEMA_PATH = join(import.meta.dirname, '../../crates/server/src/holdem_ws.schema.json');

/** The validators of the two directions, compiled once. */
function compile() {
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));
  // strictTypes off: the schema's top level lists both directions under
  // `properties` without `type`, as schemars writes it.
  const ajv = new Ajv2020({ strictTypes: false });
  // schemars' integer formats: a non-negative integer (JSON numbers are checked exactly).
  for (const name of ['uint', 'uint64']) {
    ajv.addFormat(name, { type: 'number', validate: (n) => Number.isInteger(n) && n >= 0 });
  }
  ajv.addSchema(schema, 'ws');
  return {
    sent: ajv.getSchema('ws#/$defs/ClientMessage'),
    received: ajv.getSchema('ws#/$defs/ServerMessage'),
  };
}

let validators;

/**
 * Why `frame` ({dir: 'sent'|'received', payload}) is not a message of the
 * schema, or null when it is one. A frame that is not JSON text is a mismatch.
 */
export function mismatch(frame) {
  validators ??= compile();
  let message;
  try {
    message = JSON.parse(String(frame.payload));
  } catch {
    return `${frame.dir} frame is not JSON: ${String(frame.payload).slice(0, 80)}`;
  }
  const validate = validators[frame.dir];
  if (validate(message)) return null;
  const first = validate.errors?.[0];
  return `${frame.dir} ${JSON.stringify(message).slice(0, 160)}: ${first?.instancePath || '/'} ${first?.message}`;
}

/** Records every WebSocket frame `page` sends and receives into `frames`. */
export function recordSocketFrames(page, frames) {
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/v1/holdem/tables/')) return;
    ws.on('framesent', (f) => frames.push({ dir: 'sent', payload: f.payload }));
    ws.on('framereceived', (f) => frames.push({ dir: 'received', payload: f.payload }));
  });
}

/** The mismatches among `frames`, each once, at most `limit`. */
export function mismatches(frames, limit = 5) {
  const found = new Set();
  for (const frame of frames) {
    const why = mismatch(frame);
    if (why) found.add(why);
    if (found.size >= limit) break;
  }
  return [...found];
}

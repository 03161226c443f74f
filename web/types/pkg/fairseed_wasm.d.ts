// The page's view of the WebAssembly verifier's exports (crates/wasm, built by
// web/build.sh into web/pkg/fairseed_wasm.js). web/jsconfig.json's rootDirs
// put this file where TypeScript looks for the glue, so `tsc` checks the
// page's calls against these types and not the generated glue itself.
// Answers are JSON text unless said otherwise; a function that can fail throws.

export class BulkVerifier {
  constructor();
  /** Verifies the complete lines of `bytes`; one status byte per record. */
  lines(bytes: Uint8Array): Uint8Array;
  /** Each record's byte offset in the lines given so far. */
  starts(): Uint32Array;
  free(): void;
}

export class DiceBatch {
  constructor(server_seed: string, client_seed: string);
  roll(nonce: number): number;
  check_json(text: string): string;
  check_bytes(bytes: Uint8Array): string;
  free(): void;
}

export function card_name(deck: string, id: number): string;
export function classify(value: string, known_json: string): string;
export function coach(view: string, seed: number): string;
export function dice_roll(server_seed: string, client_seed: string, nonce: number): number;
export function dice_settle(amount: number, condition: string, target: number, roll: number): string;
export function error_code(message: string): string;
export function holdem_evidence_check(record: string, evidence: string, key: string): string;
export function holdem_evidence_check_session(records: string, evidence: string, key: string): string;
/** The message a signed evidence item signs; throws unless `key` signed it. */
export function holdem_evidence_item(key: string, item: string): string;
export function holdem_replay(record: string): string;
export function log_checkpoint(note: string, vkey: string): string;
export function log_consistency(vkey: string, kept: string, seen: string, tiles_json: string): string;
export function log_consistency_proof(vkey: string, kept: string, seen: string, proof_json: string): string;
export function log_consistency_tiles(vkey: string, kept: string, seen: string): string;
export function log_key(vkey: string): string;
export function log_receipt(receipt_json: string, vkey: string, against: string): string;
export function sha256_hex(text: string): string;
export function verify(text: string): string;
export function verify_json_lines(text: string): string;
export function initSync(module: unknown): unknown;
export default function init(module_or_path?: unknown): Promise<unknown>;

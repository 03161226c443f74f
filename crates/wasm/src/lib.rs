//! WebAssembly bindings of `fairseed-core` for the player's page and the
//! offline verifier.
//!
//! The page must compute exactly what the server computes, so nothing here
//! re-implements a scheme: JavaScript values become core newtypes, core does the
//! work, and core's errors leave as their `Display` text. Like core, this crate
//! reads no clock, no network and no OS randomness.
//!
//! Each export is a thin `#[wasm_bindgen]` wrapper over a plain Rust function
//! in the same module; the plain functions are what the native unit tests call
//! (wasm-bindgen's JS types cannot be built outside a browser).

#![forbid(unsafe_code)]

mod bulk;
mod classify;
mod coach;
mod codes;
mod dice;
mod evidence;
mod log;
mod names;
mod verify;

pub use bulk::{check_lines, BulkVerifier, INVALID, UNREADABLE, VALID};
pub use classify::{classify, classify_value, Classification, Found, Known, Relation, Shape};
pub use coach::{coach, coach_json, holdem_replay, replay_json};
pub use codes::{code_of, error_code};
pub use dice::{dice_roll, dice_settle, roll, settle, BatchReport, DiceBatch, Mismatch, Quote};
pub use evidence::{
    check as evidence_check, holdem_evidence_check, holdem_evidence_item, item_message,
};
pub use log::{
    check_receipt, checkpoint_verdict, consistency, consistency_with_proof, key_info, tiles_needed,
    Failure,
};
pub use names::{card_name, name, sha256_hex};
pub use verify::{json_lines, verify, verify_json_lines, verify_text};

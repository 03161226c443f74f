//! fairseed-tlog: the pure foundation of fairseed's transparency log.
//!
//! Commit–reveal proves a revealed seed matches its hash; it does not stop an
//! operator from showing different commitments to different players. An
//! append-only Merkle log whose checkpoints are signed fixes that, if anyone can
//! check it with tools the operator did not write. So every format here is a
//! public one:
//!
//! - [`merkle`]: RFC 6962 / RFC 9162 hashing (leaf `SHA-256(0x00 || entry)`,
//!   node `SHA-256(0x01 || left || right)`), tree heads, inclusion and
//!   consistency proofs, generated and verified.
//! - [`tiles`]: the C2SP `tlog-tiles` layout (`tile/<L>/<N>[.p/<W>]`,
//!   `tile/entries/<N>[.p/<W>]`), tile contents, entry bundles, and recomputing
//!   a tree head from tiles.
//! - [`note`]: C2SP `signed-note` with Ed25519 keys and the `vkey` format.
//! - [`checkpoint`]: the C2SP `tlog-checkpoint` body, signed as a note.
//! - [`cosignature`]: a witness's C2SP `tlog-cosignature` on a checkpoint, checked.
//! - [`LogEntry`]: the versioned binary entry the log holds (fairseed's own format).
//! - [`receipt`]: the log key's signed note on a batch of entries, given when they are queued.
//! - [`client`]: what a player checks: a receipt's inclusion proof to its
//!   signed checkpoint, and consistency between checkpoints, read from tiles.
//! - [`stored`]: a log kept as stored hashes in a database, read a few at a time.
//!
//! Pure: no I/O, clock, randomness or global state; the caller passes the
//! private key bytes. Builds for `wasm32-unknown-unknown`.
//!
//! ```
//! use fairseed_tlog::{checkpoint, leaf_hash, open_checkpoint, sign_checkpoint, verify_inclusion};
//! use fairseed_tlog::{MemoryLog, NoteKey};
//!
//! let mut log = MemoryLog::new();
//! for entry in [&b"first"[..], b"second", b"third"] {
//!     log.append(entry);
//! }
//! let key = NoteKey::from_private_bytes("fairseed.example/log", &[9; 32])?;
//! let body = checkpoint("fairseed.example/log", 3, log.root(3)?, &[])?;
//! let note = sign_checkpoint(&key, &body)?;
//!
//! // A player holding the verifier key and a receipt for "second":
//! let head = open_checkpoint(note.as_bytes(), &key.vkey())?;
//! let proof = log.inclusion_proof(1, head.size())?;
//! verify_inclusion(&proof, head.size(), *head.hash(), 1, leaf_hash(b"second"))?;
//! # Ok::<(), fairseed_tlog::TlogError>(())
//! ```
//!
//! # Why these crates
//!
//! The Merkle arithmetic, the tile geometry and the checkpoint body come from
//! [`tlog_tiles`], the note format from [`signed_note`]: Cloudflare's ports
//! (for its Azul CT and MTC logs) of Go's `golang.org/x/mod/sumdb/tlog` and
//! `sumdb/note`, the code behind Go's checksum database and the origin of the
//! C2SP specs. They are pure Rust, build for wasm32, and keep Go's structure,
//! so the Go test vectors apply to them directly. Two gaps are filled here:
//! `tlog_tiles` 0.2 writes Go's `tile/<H>/<L>/<N>` paths, which include the
//! tile height that C2SP drops, and has no entry bundles; [`tiles`] writes the
//! C2SP paths and bundles itself. `ct-merkle` (in-memory trees only, no tiles)
//! and `sigsum` (a client for Sigsum logs and their protocol) were not a fit.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod batch_tree;
pub mod checkpoint;
pub mod client;
pub mod cosignature;
mod entry;
mod error;
pub mod merkle;
pub mod note;
pub mod receipt;
pub mod stored;
pub mod tiles;

pub use checkpoint::{checkpoint, open_checkpoint, parse_checkpoint, sign_checkpoint, Checkpoint};
pub use client::{
    check_consistent, check_inclusion, consistency_from_tiles, consistency_tiles,
    open_log_checkpoint,
};
pub use cosignature::{append_signatures, cosigned_by, CosignerKey};
pub use entry::{EntryKind, LogEntry, ENTRY_VERSION, MAX_ENTRY_BYTES};
pub use error::TlogError;
pub use merkle::{
    leaf_hash, node_hash, verify_consistency, verify_inclusion, Hash, MemoryLog, EMPTY_ROOT,
};
pub use note::{check_vkey, key_hash, open_note, NoteKey};
pub use receipt::{open_receipt, receipt_text, sign_receipts, BatchReceipt, RECEIPT_HEADER};
pub use stored::{
    append_leaves, completing_leaf, frontier_indexes, leaf_stored_index, node_position,
    prove_consistency, prove_inclusion, stored_leaf, tile_exists, tile_hash_indexes, tree_root,
    SparseHashes,
};
pub use tiles::{
    check_bundle, decode_bundle, encode_bundle, hash_tile_data, new_entry_bundles, new_hash_tiles,
    root_from_tiles, tiles_for_root, verify_tiles, TileKind, TilePath,
};

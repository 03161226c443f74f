//! What the log hands out: an entry as queued or sequenced, a signed
//! checkpoint with its cosignatures, and what one sequencing step did.

use crate::error::{StoreError, StoreResult};

/// A signed checkpoint as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogCheckpoint {
    /// The tree size it signs.
    pub size: u64,
    /// The signed note (C2SP tlog-checkpoint in a signed-note), the log's signature only.
    pub note: String,
    /// The witnesses' cosignature lines stored for it (each `— <name> <base64>\n`),
    /// verified before they were stored; empty where not read.
    pub cosignatures: Vec<String>,
    /// When it was signed (Unix ms; 0 before it is stored).
    pub signed_at_ms: i64,
}

/// What one sequencing step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogStep {
    /// The checkpoint it signed.
    pub checkpoint: LogCheckpoint,
    /// How many entries it gave leaf indexes: fewer than the step's `max`
    /// means none were left waiting when it read the queue.
    pub appended: u32,
}

impl LogCheckpoint {
    /// The note with every stored cosignature appended: what `/log/checkpoint` serves.
    pub fn cosigned_note(&self) -> String {
        fairseed_tlog::append_signatures(&self.note, &self.cosignatures)
    }
}

/// One entry of the log, queued or sequenced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedEntry {
    /// The entry's bytes (docs/spec.md §16.1).
    pub entry: Vec<u8>,
    /// Its leaf index once sequenced.
    pub leaf_index: Option<u64>,
}

/// Signs the checkpoint of a tree of `size` leaves with root `root`; the
/// signed note, or an error that aborts the sequencing step.
pub type SignFn = Box<dyn FnOnce(u64, [u8; 32]) -> StoreResult<String> + Send>;

/// A 32-byte SHA-256 hash as stored.
pub(crate) type HashBytes = [u8; 32];

/// A stored hash, which must be 32 bytes.
pub(crate) fn hash_bytes(blob: Vec<u8>) -> StoreResult<HashBytes> {
    blob.try_into()
        .map_err(|_| StoreError::other("a stored log hash is not 32 bytes"))
}

/// Where a pending entry is stored, in the order the sequencer takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryAt {
    /// The queued entry of this id.
    Queue(i64),
    /// The logged dice bet of this id, which is its own outcome entry.
    Bet(i64),
}

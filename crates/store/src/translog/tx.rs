//! The SQL primitives of the transparency log, which each backend provides
//! beside its [`crate::tx::Tx`] ones.

use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::translog::order::{PerSource, Waiting};
use crate::translog::{LogCheckpoint, LoggedEntry};

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

/// A checkpoint row.
pub(crate) fn checkpoint_row(row: Option<(i64, String)>) -> StoreResult<Option<LogCheckpoint>> {
    row.map(|(size, note)| {
        Ok(LogCheckpoint {
            size: convert::to_u64(size, "tree size")?,
            note,
            cosignatures: Vec::new(),
        })
    })
    .transpose()
}

/// The log's statements inside one transaction (or one read connection).
pub(crate) trait LogTx {
    /// Queues an entry with its leaf hash, the idempotent call that queued
    /// it and its name ([`crate::translog::entry_name`]).
    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        name: Option<&str>,
        now: i64,
    ) -> StoreResult<()>;

    /// The entries queued under `subject`, in queue order.
    async fn log_entries_of(&mut self, subject: &str) -> StoreResult<Vec<Vec<u8>>>;

    /// The entries queued under any of `names`, in queue order.
    async fn log_entries_named(&mut self, names: &[String]) -> StoreResult<Vec<Vec<u8>>>;

    /// Up to `limit` entries of each source without a leaf index, in id
    /// order, both read in one snapshot.
    async fn waiting_log_entries(&mut self, limit: u32) -> StoreResult<Waiting>;

    /// Gives each entry `(where, leaf index, leaf hash)` its index if it has
    /// none; how many were given one.
    async fn set_leaf_indexes(
        &mut self,
        assigned: &[(EntryAt, u64, HashBytes)],
    ) -> StoreResult<u64>;

    /// Read by a sequencing plan before the waiting entries, where the
    /// backend looks for them above a floor per source (PostgreSQL, whose
    /// ids do not follow commit order; SQLite's do, and it needs none): the
    /// id each floor can be raised to once every entry up to it has a leaf,
    /// if every transaction that could write one has ended. A plan whose
    /// read then takes every entry of the source waiting up to it settles it.
    async fn floor_within_reach(&mut self) -> StoreResult<PerSource<Option<i64>>> {
        Ok(PerSource::default())
    }

    /// The first write of a step whose leaves grow the tree to `size`:
    /// raises each floor to its `settled` id (what
    /// [`LogTx::floor_within_reach`] offered, if the step took every entry
    /// up to it) and takes the next candidates, so the next steps look for
    /// entries above what this one settled. First, because on PostgreSQL
    /// the candidates must be read before the step's transaction is given
    /// an id (`postgres/log_tx.rs`).
    async fn raise_pending_floor(
        &mut self,
        settled: PerSource<Option<i64>>,
        size: u64,
    ) -> StoreResult<()> {
        let _ = (settled, size);
        Ok(())
    }

    /// The leaf hashes of the leaves among `leaves` (any order; a missing one is left out).
    async fn leaf_hashes(&mut self, leaves: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>>;

    /// Stores the hashes a step adds to the tree, by their stored-hash
    /// index, in order: its leaves' and the nodes above them (one run of
    /// indexes). A backend that keeps each leaf's hash with its leaf stores
    /// only the nodes'.
    async fn insert_log_hashes(&mut self, hashes: &[(u64, HashBytes)]) -> StoreResult<()>;

    /// The hashes above the leaves among `indexes` (any order; a missing
    /// one is left out); [`crate::translog::stored_hashes`] reads any.
    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>>;

    /// Stores a signed checkpoint.
    async fn insert_log_checkpoint(&mut self, size: u64, note: &str, now: i64) -> StoreResult<()>;

    /// The checkpoint of the largest tree.
    async fn latest_log_checkpoint(&mut self) -> StoreResult<Option<LogCheckpoint>>;

    /// The checkpoint of the tree of `size` leaves.
    async fn log_checkpoint_at(&mut self, size: u64) -> StoreResult<Option<LogCheckpoint>>;

    /// Stores `witness`'s cosignature `line` on the checkpoint of `size`
    /// (a second one of the same witness and size is ignored).
    async fn insert_log_cosignature(
        &mut self,
        size: u64,
        witness: &str,
        line: &str,
        now: i64,
    ) -> StoreResult<()>;

    /// The cosignature lines of the checkpoint of `size`, by witness.
    async fn log_cosignature_lines(&mut self, size: u64) -> StoreResult<Vec<String>>;

    /// The largest size `witness` cosigned.
    async fn log_cosigned_size(&mut self, witness: &str) -> StoreResult<Option<u64>>;

    /// The largest size with at least `min` cosignatures.
    async fn latest_cosigned_size(&mut self, min: u32) -> StoreResult<Option<u64>>;

    /// The entries of leaves `from .. from + count`, in order (fewer if the tree is smaller).
    async fn log_leaves(&mut self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>>;

    /// An entry by its leaf hash (the earliest queued, should two be equal).
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>>;
}

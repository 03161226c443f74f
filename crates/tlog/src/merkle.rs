//! RFC 6962 / RFC 9162 Merkle tree hashing and proofs.
//!
//! The arithmetic is `tlog_tiles`' port of Go's `sumdb/tlog`, whose record and
//! tree proofs are RFC 6962 audit paths and consistency proofs (Go checks them
//! against live Certificate Transparency logs). This module gives it fairseed's
//! error type and an in-memory log the service and tests build on.

use tlog_tiles::HashReader;

pub use tlog_tiles::Hash;

use crate::error::TlogError;

/// The root of the empty tree: `SHA-256("")` (RFC 6962 §2.1).
pub const EMPTY_ROOT: Hash = tlog_tiles::EMPTY_HASH;

/// The leaf hash of one log entry: `SHA-256(0x00 || entry)`.
pub fn leaf_hash(entry: &[u8]) -> Hash {
    tlog_tiles::record_hash(entry)
}

/// The hash of an interior node: `SHA-256(0x01 || left || right)`.
pub fn node_hash(left: Hash, right: Hash) -> Hash {
    tlog_tiles::node_hash(left, right)
}

/// An append-only log held in memory as its stored hashes.
///
/// The hashes are kept in the dense order of `tlog_tiles::stored_hash_index`
/// (every complete subtree once), so a store can persist [`stored_hashes`]
/// as they are and serve any tile, proof or past root from them.
///
/// [`stored_hashes`]: MemoryLog::stored_hashes
#[derive(Debug, Clone, Default)]
pub struct MemoryLog {
    hashes: Vec<Hash>,
    size: u64,
}

impl MemoryLog {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one entry and returns its leaf index.
    pub fn append(&mut self, entry: &[u8]) -> u64 {
        self.append_leaf_hash(leaf_hash(entry))
    }

    /// Appends a leaf by its hash and returns its leaf index.
    pub fn append_leaf_hash(&mut self, leaf: Hash) -> u64 {
        let index = self.size;
        // The only hashes read are earlier complete subtrees, which this log holds.
        let new = tlog_tiles::stored_hashes_for_record_hash(index, leaf, self)
            .unwrap_or_else(|_| unreachable!("a log reads only hashes it stored"));
        self.hashes.extend(new);
        self.size += 1;
        index
    }

    /// The number of leaves.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Every stored hash, in `stored_hash_index` order.
    pub fn stored_hashes(&self) -> &[Hash] {
        &self.hashes
    }

    /// The tree head of the first `size` leaves.
    ///
    /// # Errors
    /// [`TlogError::OutOfRange`] if `size` is past the log's size.
    pub fn root(&self, size: u64) -> Result<Hash, TlogError> {
        self.check_size("tree size", size)?;
        tlog_tiles::tree_hash(size, self).map_err(internal)
    }

    /// The inclusion proof (RFC 6962 audit path) of leaf `index` in the tree of `size` leaves.
    ///
    /// # Errors
    /// [`TlogError::OutOfRange`] unless `index < size <= self.size()`.
    pub fn inclusion_proof(&self, index: u64, size: u64) -> Result<Vec<Hash>, TlogError> {
        self.check_size("tree size", size)?;
        if index >= size {
            return Err(TlogError::OutOfRange(format!(
                "leaf index {index} is not in a tree of {size} leaves"
            )));
        }
        tlog_tiles::prove_record(size, index, self).map_err(internal)
    }

    /// The consistency proof from the tree of `old_size` leaves to the one of `new_size`.
    ///
    /// # Errors
    /// [`TlogError::OutOfRange`] unless `1 <= old_size <= new_size <= self.size()`.
    pub fn consistency_proof(&self, old_size: u64, new_size: u64) -> Result<Vec<Hash>, TlogError> {
        self.check_size("new tree size", new_size)?;
        check_sizes(old_size, new_size)?;
        tlog_tiles::prove_tree(new_size, old_size, self).map_err(internal)
    }

    fn check_size(&self, field: &str, size: u64) -> Result<(), TlogError> {
        if size > self.size {
            return Err(TlogError::OutOfRange(format!(
                "{field} {size} is past the log's {} leaves",
                self.size
            )));
        }
        Ok(())
    }
}

impl HashReader for MemoryLog {
    fn read_hashes(&self, indexes: &[u64]) -> Result<Vec<Hash>, tlog_tiles::Error> {
        indexes
            .iter()
            .map(|&i| {
                usize::try_from(i)
                    .ok()
                    .and_then(|i| self.hashes.get(i).copied())
                    .ok_or(tlog_tiles::Error::IndexesNotInTree)
            })
            .collect()
    }
}

/// Checks that `proof` shows leaf `leaf` at `index` in the tree of `size` leaves with head `root`.
///
/// # Errors
/// [`TlogError::OutOfRange`] if `index >= size`, [`TlogError::ProofFailed`] otherwise.
pub fn verify_inclusion(
    proof: &[Hash],
    size: u64,
    root: Hash,
    index: u64,
    leaf: Hash,
) -> Result<(), TlogError> {
    if index >= size {
        return Err(TlogError::OutOfRange(format!(
            "leaf index {index} is not in a tree of {size} leaves"
        )));
    }
    tlog_tiles::check_record(&proof.to_vec(), size, root, index, leaf)
        .map_err(|_| TlogError::ProofFailed { what: "inclusion" })
}

/// Checks that `proof` shows the tree (`old_size`, `old_root`) is a prefix of (`new_size`, `new_root`).
///
/// # Errors
/// [`TlogError::OutOfRange`] unless `1 <= old_size <= new_size`, [`TlogError::ProofFailed`] otherwise.
pub fn verify_consistency(
    proof: &[Hash],
    old_size: u64,
    old_root: Hash,
    new_size: u64,
    new_root: Hash,
) -> Result<(), TlogError> {
    check_sizes(old_size, new_size)?;
    tlog_tiles::check_tree(&proof.to_vec(), new_size, new_root, old_size, old_root).map_err(|_| {
        TlogError::ProofFailed {
            what: "consistency",
        }
    })
}

/// Consistency is defined from a non-empty tree to one at least as large.
fn check_sizes(old_size: u64, new_size: u64) -> Result<(), TlogError> {
    if old_size == 0 || old_size > new_size {
        return Err(TlogError::OutOfRange(format!(
            "consistency needs 1 <= old size <= new size, got {old_size} and {new_size}"
        )));
    }
    Ok(())
}

/// An error from the Merkle code on arguments this module already checked.
fn internal(err: tlog_tiles::Error) -> TlogError {
    TlogError::OutOfRange(err.to_string())
}

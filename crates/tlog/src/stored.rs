//! A log kept as stored hashes in a database, read a few at a time.
//!
//! A store cannot hand `tlog_tiles` a synchronous reader over its whole tree,
//! and need not: appending reads only the roots of the tree's complete
//! subtrees (its frontier), a proof or a tile reads a known handful. So the
//! caller fills a [`SparseHashes`] with what it fetched, runs the computation,
//! and if that asked for hashes it lacked ([`SparseHashes::take_missing`]),
//! fetches them and runs it again.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use tlog_tiles::HashReader;

use crate::tiles::{TileKind, TilePath, TILE_HEIGHT, TILE_WIDTH};
use crate::{error::TlogError, merkle::Hash};

/// Some stored hashes by `stored_hash_index`, and the ones a computation asked for and lacked.
#[derive(Debug, Default)]
pub struct SparseHashes {
    known: BTreeMap<u64, Hash>,
    missing: RefCell<BTreeSet<u64>>,
}

impl SparseHashes {
    /// No hashes yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a fetched hash.
    pub fn insert(&mut self, index: u64, hash: Hash) {
        self.known.insert(index, hash);
    }

    /// The indexes asked for since the last call that were not known, ascending.
    pub fn take_missing(&self) -> Vec<u64> {
        std::mem::take(&mut *self.missing.borrow_mut())
            .into_iter()
            .collect()
    }

    /// Runs `f` over these hashes; `Ok(None)` if it needed hashes not known
    /// yet (see [`Self::take_missing`]).
    ///
    /// # Errors
    /// The error of `f` when it failed with every hash it asked for at hand.
    pub fn try_with<R>(
        &self,
        f: impl FnOnce(&Self) -> Result<R, TlogError>,
    ) -> Result<Option<R>, TlogError> {
        match f(self) {
            Ok(out) => Ok(Some(out)),
            Err(_) if !self.missing.borrow().is_empty() => Ok(None),
            Err(e) => Err(e),
        }
    }
}

impl HashReader for SparseHashes {
    fn read_hashes(&self, indexes: &[u64]) -> Result<Vec<Hash>, tlog_tiles::Error> {
        let found: Vec<Option<Hash>> = indexes.iter().map(|i| self.known.get(i).copied()).collect();
        if found.iter().all(Option::is_some) {
            return Ok(found.into_iter().flatten().collect());
        }
        let mut missing = self.missing.borrow_mut();
        for (i, hash) in indexes.iter().zip(&found) {
            if hash.is_none() {
                missing.insert(*i);
            }
        }
        Err(tlog_tiles::Error::IndexesNotInTree)
    }
}

/// The leaf whose hash is stored at `index`, if that is a leaf's (level 0):
/// a store that keeps each leaf hash beside its leaf need not store it again.
pub fn stored_leaf(index: u64) -> Option<u64> {
    match tlog_tiles::split_stored_hash_index(index) {
        (0, n) => Some(n),
        _ => None,
    }
}

/// The stored-hash index of leaf `n`'s hash.
pub fn leaf_stored_index(n: u64) -> u64 {
    tlog_tiles::stored_hash_index(0, n)
}

/// Where the node hash stored at `index` sits among the node hashes (the
/// hashes above the leaves) that leaves `first_leaf` and after complete,
/// counted in stored-hash order: a sequencing step's new node hashes are
/// exactly those of its leaves, in one run of stored indexes with only the
/// leaves' own between them, so a store can keep a step's node hashes
/// together and find one by this position. `None` for a leaf's hash, a node
/// completed before `first_leaf`, or an index past any tree.
pub fn node_position(first_leaf: u64, index: u64) -> Option<u64> {
    let last = completing_leaf(index)?;
    if last < first_leaf {
        return None;
    }
    // The node's hash is stored after the leaves' own up to `last`, and
    // after the hashes of the nodes those leaves complete before it.
    let leaves_between = last - first_leaf + 1;
    index
        .checked_sub(leaf_stored_index(first_leaf))?
        .checked_sub(leaves_between)
}

/// The leaf whose appending completes the node stored at `index` (the last
/// leaf under it): `None` for a leaf's own hash, or an index past any tree.
pub fn completing_leaf(index: u64) -> Option<u64> {
    // No tree has 2^62 leaves (`split_stored_hash_index` overflows near 2^64).
    if index >= 1 << 62 {
        return None;
    }
    match tlog_tiles::split_stored_hash_index(index) {
        (0, _) => None,
        (level, n) => Some(((n + 1) << level) - 1),
    }
}

/// The stored hashes appending to a tree of `size` leaves reads: the roots of its complete subtrees.
pub fn frontier_indexes(size: u64) -> Vec<u64> {
    if size == 0 {
        return Vec::new();
    }
    tlog_tiles::sub_tree_index(0, size, Vec::new())
}

/// Appends `leaves` to a tree of `size` leaves whose [`frontier_indexes`] are in
/// `hashes`: the new stored hashes with their indexes (to persist), and the new root.
///
/// # Errors
/// [`TlogError::OutOfRange`] if `hashes` lacks a frontier hash.
pub fn append_leaves(
    size: u64,
    leaves: &[Hash],
    hashes: &mut SparseHashes,
) -> Result<(Vec<(u64, Hash)>, Hash), TlogError> {
    let mut added = Vec::new();
    for (n, leaf) in (size..).zip(leaves) {
        let new = tlog_tiles::stored_hashes_for_record_hash(n, *leaf, &*hashes)
            .map_err(|e| TlogError::OutOfRange(format!("appending leaf {n}: {e}")))?;
        let first = tlog_tiles::stored_hash_index(0, n);
        for (index, hash) in (first..).zip(new) {
            hashes.insert(index, hash);
            added.push((index, hash));
        }
    }
    let new_size = size + leaves.len() as u64;
    let root = tree_root(hashes, new_size)?;
    Ok((added, root))
}

/// The root of the tree of `size` leaves.
///
/// # Errors
/// [`TlogError::OutOfRange`] if `hashes` lacks a hash it needs.
pub fn tree_root(hashes: &impl HashReader, size: u64) -> Result<Hash, TlogError> {
    tlog_tiles::tree_hash(size, hashes).map_err(|e| TlogError::OutOfRange(e.to_string()))
}

/// The inclusion proof of leaf `index` in the tree of `size` leaves.
///
/// # Errors
/// [`TlogError::OutOfRange`] unless `index < size` and `hashes` has what it needs.
pub fn prove_inclusion(
    hashes: &impl HashReader,
    index: u64,
    size: u64,
) -> Result<Vec<Hash>, TlogError> {
    if index >= size {
        return Err(TlogError::OutOfRange(format!(
            "leaf index {index} is not in a tree of {size} leaves"
        )));
    }
    tlog_tiles::prove_record(size, index, hashes).map_err(|e| TlogError::OutOfRange(e.to_string()))
}

/// The consistency proof from the tree of `old_size` leaves to the one of `new_size`.
///
/// # Errors
/// [`TlogError::OutOfRange`] unless `1 <= old_size <= new_size` and `hashes` has what it needs.
pub fn prove_consistency(
    hashes: &impl HashReader,
    old_size: u64,
    new_size: u64,
) -> Result<Vec<Hash>, TlogError> {
    if old_size == 0 || old_size > new_size {
        return Err(TlogError::OutOfRange(format!(
            "consistency needs 1 <= old size <= new size, got {old_size} and {new_size}"
        )));
    }
    tlog_tiles::prove_tree(new_size, old_size, hashes)
        .map_err(|e| TlogError::OutOfRange(e.to_string()))
}

/// The stored-hash indexes a hash tile holds, in order; empty for an entry bundle.
pub fn tile_hash_indexes(tile: &TilePath) -> Vec<u64> {
    let TileKind::Hashes { level } = tile.kind else {
        return Vec::new();
    };
    let Some(tree_level) = level.checked_mul(TILE_HEIGHT) else {
        return Vec::new();
    };
    let start = tile.index.saturating_mul(u64::from(TILE_WIDTH));
    (0..u64::from(tile.width))
        .map(|i| tlog_tiles::stored_hash_index(tree_level, start + i))
        .collect()
}

/// Whether the tree of `size` leaves has the hashes of `tile` (at least its width of them).
pub fn tile_exists(tile: &TilePath, size: u64) -> bool {
    let count = match tile.kind {
        TileKind::Hashes { level } => {
            let shift = u32::from(level) * u32::from(TILE_HEIGHT);
            size.checked_shr(shift).unwrap_or(0)
        }
        TileKind::Entries => size,
    };
    tile.index
        .checked_mul(u64::from(TILE_WIDTH))
        .and_then(|start| start.checked_add(u64::from(tile.width)))
        .is_some_and(|end| end <= count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        merkle::{leaf_hash, MemoryLog},
        tiles::hash_tile_data,
    };

    /// Every stored hash is a leaf's or a node's above, and a leaf's index maps back to the leaf.
    #[test]
    fn leaf_indexes_round_trip_and_nodes_are_no_leaves() {
        let mut leaves = 0;
        for index in 0..tlog_tiles::stored_hash_count(1000) {
            if let Some(n) = stored_leaf(index) {
                assert_eq!(leaf_stored_index(n), index);
                assert_eq!(n, leaves, "leaves come in order");
                leaves += 1;
            }
        }
        assert_eq!(leaves, 1000);
        // Go's layout: leaf 0, leaf 1, their parent, leaf 2, leaf 3, parent, grandparent.
        assert_eq!(
            (0..7).map(stored_leaf).collect::<Vec<_>>(),
            [Some(0), Some(1), None, Some(2), Some(3), None, None]
        );
    }

    /// From any first leaf on, the node hashes in stored order have the
    /// positions 0, 1, 2, …; leaves and earlier nodes have none.
    #[test]
    fn node_positions_count_the_nodes_from_a_first_leaf_in_stored_order() {
        for first_leaf in 0..70 {
            let start = leaf_stored_index(first_leaf);
            let mut next = 0;
            for index in 0..leaf_stored_index(first_leaf + 300) {
                let (level, n) = tlog_tiles::split_stored_hash_index(index);
                let completed_after = level > 0 && ((n + 1) << level) > first_leaf;
                if index >= start && completed_after {
                    assert_eq!(
                        node_position(first_leaf, index),
                        Some(next),
                        "{first_leaf} {index}"
                    );
                    next += 1;
                } else {
                    assert_eq!(
                        node_position(first_leaf, index),
                        None,
                        "{first_leaf} {index}"
                    );
                }
            }
        }
        assert_eq!(node_position(0, u64::MAX), None);
    }

    /// Appending batch by batch from the frontier alone gives the in-memory log's hashes and roots.
    #[test]
    fn appending_from_the_frontier_matches_the_memory_log() {
        let mut memory = MemoryLog::new();
        let mut stored: BTreeMap<u64, Hash> = BTreeMap::new();
        let mut size = 0u64;
        for batch in [1usize, 2, 5, 250, 1, 300, 17] {
            let leaves: Vec<Hash> = (0..batch)
                .map(|i| leaf_hash(format!("entry {}", size + i as u64).as_bytes()))
                .collect();
            for leaf in &leaves {
                memory.append_leaf_hash(*leaf);
            }
            let mut hashes = SparseHashes::new();
            for index in frontier_indexes(size) {
                hashes.insert(index, stored[&index]);
            }
            let (added, root) = append_leaves(size, &leaves, &mut hashes).expect("appends");
            stored.extend(added);
            size += batch as u64;
            assert_eq!(root, memory.root(size).expect("root"));
        }
        let dense: Vec<Hash> = stored.values().copied().collect();
        assert_eq!(dense, memory.stored_hashes());
        // A proof and a tile read through the sparse reader after fetching what it asked for.
        let mut hashes = SparseHashes::new();
        assert!(hashes
            .try_with(|h| prove_inclusion(h, 300, size))
            .expect("no failure")
            .is_none());
        for index in hashes.take_missing() {
            hashes.insert(index, stored[&index]);
        }
        let proof = hashes
            .try_with(|h| prove_inclusion(h, 300, size))
            .expect("proves")
            .expect("has the hashes");
        assert_eq!(proof, memory.inclusion_proof(300, size).expect("proof"));
        let tile = crate::tiles::new_hash_tiles(0, size)[0];
        let mut hashes = SparseHashes::new();
        for index in tile_hash_indexes(&tile) {
            hashes.insert(index, stored[&index]);
        }
        assert_eq!(
            hash_tile_data(&hashes, &tile).expect("tile"),
            hash_tile_data(&memory, &tile).expect("tile")
        );
        assert!(tile_exists(&tile, size));
    }
}

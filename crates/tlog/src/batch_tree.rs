//! The RFC 6962 tree of one receipt batch, built once and read for every
//! entry's proof.
//!
//! A batch is signed and proved at once, so its tree is kept level by level:
//! each level pairs the nodes of the one below, and an odd last node moves
//! up unchanged. That is RFC 6962's tree (its left subtree always the
//! largest power of two), and an entry's audit path is its sibling on each
//! level where it has one, from the leaves up. [`crate::MemoryLog`] gives
//! the same root and proofs through the stored-hash arithmetic of a log
//! that grows; a batch never grows, and this is a few vectors instead.

use crate::{
    error::TlogError,
    merkle::{node_hash, Hash},
};

/// A batch's tree, level by level from the leaves.
#[derive(Debug, Clone)]
pub struct BatchTree {
    levels: Vec<Vec<Hash>>,
}

impl BatchTree {
    /// The tree over `leaves`, in order.
    ///
    /// # Errors
    /// [`TlogError::OutOfRange`] for no leaves: a batch has an entry.
    pub fn new(leaves: &[Hash]) -> Result<Self, TlogError> {
        if leaves.is_empty() {
            return Err(TlogError::OutOfRange(
                "a receipt batch needs an entry".into(),
            ));
        }
        let mut levels = vec![leaves.to_vec()];
        while let Some(below) = levels.last().filter(|level| level.len() > 1) {
            let level = below
                .chunks(2)
                .map(|pair| match pair {
                    [left, right] => node_hash(*left, *right),
                    [odd] => *odd,
                    _ => unreachable!("chunks of at most two"),
                })
                .collect();
            levels.push(level);
        }
        Ok(Self { levels })
    }

    /// The number of leaves.
    pub fn size(&self) -> u64 {
        self.levels[0].len() as u64
    }

    /// The root hash.
    pub fn root(&self) -> Hash {
        self.levels[self.levels.len() - 1][0]
    }

    /// The audit path of leaf `index` (from the leaves up); `None` past the
    /// last leaf.
    pub fn inclusion_proof(&self, index: usize) -> Option<Vec<Hash>> {
        if index >= self.levels[0].len() {
            return None;
        }
        let mut at = index;
        let mut proof = Vec::with_capacity(self.levels.len() - 1);
        for level in &self.levels[..self.levels.len() - 1] {
            if let Some(sibling) = level.get(at ^ 1) {
                proof.push(*sibling);
            }
            at /= 2;
        }
        Some(proof)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::merkle::{leaf_hash, verify_inclusion, MemoryLog};

    proptest! {
        /// Every size up to past a power of two: the root and every proof
        /// are the growing log's (whose arithmetic is Go's `sumdb/tlog`),
        /// and each proof verifies.
        #[test]
        fn the_same_tree_as_the_log(size in 1usize..70) {
            let leaves: Vec<Hash> = (0..size)
                .map(|i| leaf_hash(format!("entry {i}").as_bytes()))
                .collect();
            let tree = BatchTree::new(&leaves).expect("tree");
            let mut log = MemoryLog::new();
            for leaf in &leaves {
                log.append_leaf_hash(*leaf);
            }
            let n = size as u64;
            prop_assert_eq!(tree.size(), n);
            prop_assert_eq!(tree.root(), log.root(n).expect("root"));
            for (i, leaf) in leaves.iter().enumerate() {
                let proof = tree.inclusion_proof(i).expect("in the batch");
                prop_assert_eq!(&proof, &log.inclusion_proof(i as u64, n).expect("proof"));
                prop_assert!(verify_inclusion(&proof, n, tree.root(), i as u64, *leaf).is_ok());
            }
            prop_assert!(tree.inclusion_proof(size).is_none());
        }
    }

    #[test]
    fn an_empty_batch_is_refused() {
        assert!(matches!(BatchTree::new(&[]), Err(TlogError::OutOfRange(_))));
    }
}

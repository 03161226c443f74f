//! The 64-leaf Merkle tree over a poker deck, and its proofs (docs/spec.md §7.4, §7.6).
//!
//! Leaves and nodes are hex strings hashed as text, as the seeds' Node code does:
//! `parent = sha256("pk1:node:" + left_hex + right_hex)`.

use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::hash::decimal;
use crate::seed::ct_eq;

/// Leaves in the tree: 52 cards and 12 pads.
pub const LEAVES: usize = 64;
/// Levels between a leaf and the root.
pub const DEPTH: usize = 6;

/// `sha256("pk1:leaf:" + i + ":" + card + ":" + salt_hex)`.
pub fn leaf(i: usize, card: u8, salt_hex: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"pk1:leaf:");
    let mut buf = [0u8; 20];
    h.update(decimal(i as u64, &mut buf));
    h.update(b":");
    h.update(decimal(u64::from(card), &mut buf));
    h.update(b":");
    h.update(salt_hex.as_bytes());
    h.finalize().into()
}

/// `sha256("pk1:pad")`, the leaf of positions 52..63.
pub fn pad() -> [u8; 32] {
    Sha256::digest(b"pk1:pad").into()
}

/// `sha256("pk1:node:" + left_hex + right_hex)`.
pub fn node(left: &[u8; 32], right: &[u8; 32]) -> [u8; 32] {
    let mut text = [0u8; 9 + 128];
    text[..9].copy_from_slice(b"pk1:node:");
    // Both halves are exactly 64 hex characters: the buffer sizes match.
    hex::encode_to_slice(left, &mut text[9..73]).unwrap_or_else(|_| unreachable!());
    hex::encode_to_slice(right, &mut text[73..]).unwrap_or_else(|_| unreachable!());
    Sha256::digest(text).into()
}

/// The whole tree: `levels[0]` are the 64 leaves, `levels[6]` the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerkleTree {
    levels: Vec<Vec<[u8; 32]>>,
}

impl MerkleTree {
    /// Builds the tree over 64 leaves.
    pub fn new(leaves: [[u8; 32]; LEAVES]) -> Self {
        let mut levels = Vec::with_capacity(DEPTH + 1);
        levels.push(leaves.to_vec());
        while let Some(below) = levels.last().filter(|l| l.len() > 1) {
            let up = below.chunks_exact(2).map(|p| node(&p[0], &p[1])).collect();
            levels.push(up);
        }
        Self { levels }
    }

    /// The root.
    pub fn root(&self) -> [u8; 32] {
        self.levels[DEPTH][0]
    }

    /// The 6 sibling hashes of leaf `i`, leaf level first.
    ///
    /// # Panics
    /// `i >= 64` is a caller bug.
    pub fn path(&self, i: usize) -> [[u8; 32]; DEPTH] {
        assert!(i < LEAVES, "leaf index {i} is outside the 64-leaf tree");
        core::array::from_fn(|level| self.levels[level][(i >> level) ^ 1])
    }
}

/// Walks `path` up from `leaf` at position `i` and compares with `root` in constant time.
///
/// # Errors
/// `i` is not a leaf position, or the path does not lead to `root`.
pub fn check_path(
    i: usize,
    leaf: [u8; 32],
    path: &[[u8; 32]; DEPTH],
    root: &[u8; 32],
) -> Result<(), Error> {
    if i >= LEAVES {
        return Err(Error::invalid(
            "i",
            format!("position {i} is outside the tree, expected 0 to 63"),
        ));
    }
    let top = path.iter().enumerate().fold(leaf, |acc, (level, sibling)| {
        if (i >> level) & 1 == 0 {
            node(&acc, sibling)
        } else {
            node(sibling, &acc)
        }
    });
    if ct_eq(&top, root) {
        Ok(())
    } else {
        Err(Error::invalid(
            "path",
            format!(
                "merkle path of position {i} leads to {}, not to deck_root",
                hex::encode(top)
            ),
        ))
    }
}

//! What a player's browser checks: a receipt's inclusion proof to its signed
//! checkpoint, and that every checkpoint it sees is consistent with the last
//! one it kept (docs/spec.md §16.5).
//!
//! C2SP `tlog-tiles` serves no proofs, only tiles: a reader computes the
//! consistency proof itself from the tiles of the larger tree
//! ([`consistency_tiles`] names them, [`consistency_from_tiles`] reads them),
//! then checks it against both signed roots ([`check_consistent`]). Tiles are
//! not signed, but a proof read from bad tiles cannot lead to the signed roots,
//! so they need no check of their own.

use std::cell::RefCell;

use tlog_tiles::HashReader;

use crate::checkpoint::{open_checkpoint, Checkpoint};
use crate::tiles::{read_with_tiles, widest_tile, TilePath};
use crate::{
    error::TlogError,
    merkle::{leaf_hash, verify_consistency, verify_inclusion, Hash, EMPTY_ROOT},
};

/// Opens a signed checkpoint of the log whose verifier key is `vkey`: signed by
/// it, and naming the key's log as its origin.
///
/// # Errors
/// As [`open_checkpoint`], or [`TlogError::BadCheckpoint`] for another origin.
pub fn open_log_checkpoint(note: &[u8], vkey: &str) -> Result<Checkpoint, TlogError> {
    let head = open_checkpoint(note, vkey)?;
    let name = vkey.split('+').next().unwrap_or_default();
    if head.origin() != name {
        return Err(TlogError::BadCheckpoint(format!(
            "origin {:?} is not the key's log {name:?}",
            head.origin()
        )));
    }
    Ok(head)
}

/// Checks that `proof` shows `entry` at `leaf_index` in the signed checkpoint
/// `checkpoint` of the log keyed `vkey`, and returns the checkpoint.
///
/// # Errors
/// [`TlogError::BadKey`], [`TlogError::BadNote`] or [`TlogError::BadCheckpoint`]
/// for the checkpoint; [`TlogError::OutOfRange`] if the index is past its size;
/// [`TlogError::ProofFailed`] if the proof does not lead to its root.
pub fn check_inclusion(
    vkey: &str,
    entry: &[u8],
    leaf_index: u64,
    proof: &[Hash],
    checkpoint: &[u8],
) -> Result<Checkpoint, TlogError> {
    let head = open_log_checkpoint(checkpoint, vkey)?;
    verify_inclusion(
        proof,
        head.size(),
        *head.hash(),
        leaf_index,
        leaf_hash(entry),
    )?;
    Ok(head)
}

/// Checks that two checkpoints of one log are consistent, given the RFC 6962
/// proof from the smaller tree to the larger (empty when the sizes are equal or
/// the smaller is empty). Either may be the older: the smaller must be a prefix
/// of the larger.
///
/// # Errors
/// [`TlogError::BadCheckpoint`] for checkpoints of different logs, or of one
/// size with different roots; [`TlogError::ProofFailed`] if the proof does not
/// lead from the smaller root to the larger.
pub fn check_consistent(a: &Checkpoint, b: &Checkpoint, proof: &[Hash]) -> Result<(), TlogError> {
    if a.origin() != b.origin() {
        return Err(TlogError::BadCheckpoint(format!(
            "checkpoints of two logs: {:?} and {:?}",
            a.origin(),
            b.origin()
        )));
    }
    let (small, large) = if a.size() <= b.size() { (a, b) } else { (b, a) };
    if small.size() == large.size() {
        if small.hash() != large.hash() {
            return Err(TlogError::BadCheckpoint(format!(
                "two roots for tree size {}",
                small.size()
            )));
        }
        return Ok(());
    }
    if small.size() == 0 {
        if *small.hash() != EMPTY_ROOT {
            return Err(TlogError::BadCheckpoint(
                "the empty tree's root is not SHA-256(\"\")".into(),
            ));
        }
        return Ok(());
    }
    verify_consistency(
        proof,
        small.size(),
        *small.hash(),
        large.size(),
        *large.hash(),
    )
}

/// The hash tiles the consistency proof between trees of `a` and `b` leaves is
/// read from (as published for the larger tree); none when no proof is needed.
pub fn consistency_tiles(a: u64, b: u64) -> Vec<TilePath> {
    let (small, large) = (a.min(b), a.max(b));
    if small == 0 || small == large {
        return Vec::new();
    }
    // Which hashes a proof reads depends on the sizes only, so zeros stand in.
    let recorder = Recorder::default();
    let _ = tlog_tiles::prove_tree(large, small, &recorder);
    let mut tiles: Vec<TilePath> = Vec::new();
    for index in recorder.asked.into_inner() {
        if let Some(tile) = widest_tile(index, large) {
            if !tiles.contains(&tile) {
                tiles.push(tile);
            }
        }
    }
    tiles
}

/// The consistency proof between trees of `a` and `b` leaves, read from the
/// larger tree's tiles; `fetch` returns a tile's contents as served.
///
/// # Errors
/// [`TlogError::BadTile`] naming a tile that is missing or has the wrong length.
pub fn consistency_from_tiles(
    a: u64,
    b: u64,
    fetch: impl Fn(&TilePath) -> Option<Vec<u8>>,
) -> Result<Vec<Hash>, TlogError> {
    let (small, large) = (a.min(b), a.max(b));
    if small == 0 || small == large {
        return Ok(Vec::new());
    }
    read_with_tiles(large, fetch, |reader| {
        tlog_tiles::prove_tree(large, small, reader)
    })
}

/// A hash reader that answers zeros and remembers what was asked.
#[derive(Default)]
struct Recorder {
    asked: RefCell<Vec<u64>>,
}

impl HashReader for Recorder {
    fn read_hashes(&self, indexes: &[u64]) -> Result<Vec<Hash>, tlog_tiles::Error> {
        self.asked.borrow_mut().extend_from_slice(indexes);
        Ok(vec![Hash([0; 32]); indexes.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        checkpoint::{checkpoint, sign_checkpoint},
        merkle::MemoryLog,
        note::NoteKey,
        tiles::{hash_tile_data, new_hash_tiles},
    };

    const ORIGIN: &str = "example.org/fairseed";

    fn key() -> NoteKey {
        NoteKey::from_private_bytes(ORIGIN, &[5; 32]).expect("key")
    }

    fn log_of(entries: &[String]) -> MemoryLog {
        let mut log = MemoryLog::new();
        for e in entries {
            log.append(e.as_bytes());
        }
        log
    }

    fn signed(log: &MemoryLog, size: u64) -> String {
        let body = checkpoint(ORIGIN, size, log.root(size).expect("root"), &[]).expect("body");
        sign_checkpoint(&key(), &body).expect("signs")
    }

    fn tiles_of(log: &MemoryLog) -> impl Fn(&TilePath) -> Option<Vec<u8>> + '_ {
        let published = new_hash_tiles(0, log.size());
        move |tile| {
            published
                .contains(tile)
                .then(|| hash_tile_data(log, tile).expect("tile"))
        }
    }

    fn entries(n: usize, tag: &str) -> Vec<String> {
        (0..n).map(|i| format!("{tag} {i}")).collect()
    }

    #[test]
    fn an_inclusion_proof_checks_against_its_signed_checkpoint_only() {
        let log = log_of(&entries(700, "entry"));
        let note = signed(&log, 700);
        let vkey = key().vkey();
        let proof = log.inclusion_proof(300, 700).expect("proof");
        let head = check_inclusion(&vkey, b"entry 300", 300, &proof, note.as_bytes()).expect("ok");
        assert_eq!(head.size(), 700);
        assert_eq!(
            check_inclusion(&vkey, b"entry 301", 300, &proof, note.as_bytes()),
            Err(TlogError::ProofFailed { what: "inclusion" })
        );
        let mut bent = proof.clone();
        bent[2].0[7] ^= 1;
        assert!(check_inclusion(&vkey, b"entry 300", 300, &bent, note.as_bytes()).is_err());
        let other = NoteKey::from_private_bytes(ORIGIN, &[6; 32]).expect("key");
        assert!(matches!(
            check_inclusion(&other.vkey(), b"entry 300", 300, &proof, note.as_bytes()),
            Err(TlogError::BadNote(_))
        ));
    }

    #[test]
    fn a_checkpoint_of_another_origin_is_refused() {
        let log = log_of(&entries(3, "e"));
        let body = checkpoint("other.example/log", 3, log.root(3).expect("root"), &[]).expect("b");
        let note = sign_checkpoint(&key(), &body).expect("signs");
        assert!(matches!(
            open_log_checkpoint(note.as_bytes(), &key().vkey()),
            Err(TlogError::BadCheckpoint(_))
        ));
    }

    /// Every pair of sizes: the proof read from the larger tree's tiles, asking
    /// only for the tiles `consistency_tiles` names, checks; in either order.
    #[test]
    fn proofs_from_tiles_check_between_every_pair_of_sizes() {
        let log = log_of(&entries(600, "entry"));
        let vkey = key().vkey();
        for (a, b) in [
            (1, 2),
            (3, 7),
            (255, 256),
            (256, 257),
            (100, 513),
            (511, 600),
            (7, 7),
            (0, 9),
        ] {
            let old = open_log_checkpoint(signed(&log, a).as_bytes(), &vkey).expect("old");
            let new = open_log_checkpoint(signed(&log, b).as_bytes(), &vkey).expect("new");
            let wanted = consistency_tiles(a, b);
            let grown = log_of(&entries(b as usize, "entry"));
            let all = tiles_of(&grown);
            let only_wanted = |t: &TilePath| wanted.contains(t).then(|| all(t)).flatten();
            let proof = consistency_from_tiles(a, b, only_wanted).expect("reads");
            if a != 0 && a != b {
                assert_eq!(
                    proof,
                    log.consistency_proof(a, b).expect("proof"),
                    "{a} → {b}"
                );
            }
            check_consistent(&old, &new, &proof).expect("consistent");
            check_consistent(&new, &old, &proof).expect("either order");
        }
    }

    #[test]
    fn a_forked_checkpoint_is_not_consistent() {
        let honest = log_of(&entries(20, "entry"));
        let mut forked_entries = entries(20, "entry");
        forked_entries[4] = "entry 4, edited".into();
        let forked = log_of(&forked_entries);
        let vkey = key().vkey();
        let old = open_log_checkpoint(signed(&honest, 10).as_bytes(), &vkey).expect("old");
        let new = open_log_checkpoint(signed(&forked, 20).as_bytes(), &vkey).expect("new");
        // The proof the forked log's own tiles give.
        let proof = consistency_from_tiles(10, 20, tiles_of(&forked)).expect("reads");
        assert_eq!(
            check_consistent(&old, &new, &proof),
            Err(TlogError::ProofFailed {
                what: "consistency"
            })
        );
        // Same size, two roots.
        let twin = open_log_checkpoint(signed(&forked, 10).as_bytes(), &vkey).expect("twin");
        assert!(matches!(
            check_consistent(&old, &twin, &[]),
            Err(TlogError::BadCheckpoint(_))
        ));
        // A missing tile is named, not taken for a fork.
        let none = |_: &TilePath| None;
        assert!(matches!(
            consistency_from_tiles(10, 20, none),
            Err(TlogError::BadTile { .. })
        ));
    }
}

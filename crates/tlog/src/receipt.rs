//! Receipts: the log key's signature on entries, given when they are queued.
//!
//! Signing each entry alone would cost one Ed25519 signature per bet; the
//! service signs the entries queued at about the same moment together. A
//! receipt batch is an RFC 6962 tree over the batch's entries (the same
//! hashing as the log), and the log key signs a C2SP note naming its root:
//!
//! ```text
//! fairseed receipts v1
//! <origin>
//! <batch size>
//! <base64 batch root>
//! ```
//!
//! An entry's receipt is that note, the entry's index in the batch and its
//! inclusion proof to the batch root. The first line keeps the note from ever
//! reading as a checkpoint (whose second line is a tree size). Any note
//! verifier (Go's `sumdb/note`) checks the signature; the proof binds the entry.

use std::sync::Arc;

use base64::Engine as _;

use crate::batch_tree::BatchTree;
use crate::note::open_note;
use crate::{
    error::TlogError,
    merkle::{leaf_hash, verify_inclusion, Hash},
    note::NoteKey,
};

/// The first line of a receipt note's text.
pub const RECEIPT_HEADER: &str = "fairseed receipts v1";

/// One entry's part of a signed batch.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchReceipt {
    /// The signed note over the batch root, shared by the batch's receipts.
    pub note: Arc<str>,
    /// The entry's index in the batch.
    pub index: u64,
    /// Its inclusion proof to the batch root.
    pub proof: Vec<Hash>,
}

/// The text a receipt note signs for a batch of `size` entries with root `root`.
pub fn receipt_text(origin: &str, size: u64, root: Hash) -> String {
    let root = base64::engine::general_purpose::STANDARD.encode(root.0);
    format!("{RECEIPT_HEADER}\n{origin}\n{size}\n{root}\n")
}

/// Signs the entries with these leaf hashes as one batch: one receipt each, in order.
///
/// # Errors
/// [`TlogError::OutOfRange`] for an empty batch; [`TlogError::BadNote`] if the
/// key's name is not a valid note line.
pub fn sign_receipts(key: &NoteKey, leaves: &[Hash]) -> Result<Vec<BatchReceipt>, TlogError> {
    let batch = BatchTree::new(leaves)?;
    let note: Arc<str> = key
        .sign(&receipt_text(key.name(), batch.size(), batch.root()))?
        .into();
    (0..leaves.len())
        .map(|index| {
            Ok(BatchReceipt {
                note: Arc::clone(&note),
                index: index as u64,
                proof: batch
                    .inclusion_proof(index)
                    .ok_or_else(|| TlogError::OutOfRange("a leaf past its batch".into()))?,
            })
        })
        .collect()
}

/// Checks that `receipt` is signed by `vkey` and covers `entry`.
///
/// # Errors
/// [`TlogError::BadKey`]/[`TlogError::BadNote`] as [`open_note`], or when the
/// note is not a receipt of this log; [`TlogError::ProofFailed`] if the entry
/// is not in the signed batch.
pub fn open_receipt(receipt: &BatchReceipt, vkey: &str, entry: &[u8]) -> Result<(), TlogError> {
    let text = open_note(receipt.note.as_bytes(), vkey)?;
    let bad = || TlogError::BadNote("not a receipt note of this log".into());
    let origin = vkey.split('+').next().unwrap_or_default();
    let mut lines = text.lines();
    if lines.next() != Some(RECEIPT_HEADER) || lines.next() != Some(origin) {
        return Err(bad());
    }
    let size: u64 = lines.next().and_then(|n| n.parse().ok()).ok_or_else(bad)?;
    let root = lines
        .next()
        .and_then(|r| base64::engine::general_purpose::STANDARD.decode(r).ok())
        .and_then(|r| <[u8; 32]>::try_from(r).ok())
        .ok_or_else(bad)?;
    if text != receipt_text(origin, size, Hash(root)) {
        return Err(bad());
    }
    verify_inclusion(
        &receipt.proof,
        size,
        Hash(root),
        receipt.index,
        leaf_hash(entry),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_opens_for_its_entry_only() {
        let key = NoteKey::from_private_bytes("example.org/fairseed", &[7; 32]).expect("key");
        let entries: [&[u8]; 3] = [b"entry one", b"entry two", b"entry three"];
        let leaves: Vec<Hash> = entries.iter().map(|e| leaf_hash(e)).collect();
        let receipts = sign_receipts(&key, &leaves).expect("signs");
        assert!(receipts[0]
            .note
            .starts_with("fairseed receipts v1\nexample.org/fairseed\n3\n"));
        for (receipt, entry) in receipts.iter().zip(entries) {
            open_receipt(receipt, &key.vkey(), entry).expect("opens");
        }
        assert!(open_receipt(&receipts[0], &key.vkey(), b"entry two").is_err());
        let other = NoteKey::from_private_bytes("example.org/fairseed", &[8; 32]).expect("key");
        assert!(open_receipt(&receipts[0], &other.vkey(), b"entry one").is_err());
        let alone = sign_receipts(&key, &leaves[1..2]).expect("signs");
        assert!(
            alone[0].proof.is_empty(),
            "a batch of one is its entry's hash"
        );
        open_receipt(&alone[0], &key.vkey(), b"entry two").expect("opens");
        let text = receipt_text("example.org/fairseed", 1, leaves[0]);
        assert!(crate::checkpoint::parse_checkpoint(&text).is_err());
        assert!(sign_receipts(&key, &[]).is_err());
    }
}

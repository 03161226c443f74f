//! Receipts: the log key's signature on one entry, given when it is appended.
//!
//! A receipt is a C2SP signed note by the log's key whose text names the log
//! and the entry's leaf hash:
//!
//! ```text
//! fairseed receipt v1
//! <origin>
//! <base64 leaf hash>
//! ```
//!
//! The first line keeps it from ever reading as a checkpoint (whose second line
//! is a tree size). Any note verifier (Go's `sumdb/note`) checks the signature;
//! the leaf hash binds the entry.

use crate::note::open_note;
use crate::{leaf_hash, NoteKey, TlogError};

/// The first line of a receipt's text.
pub const RECEIPT_HEADER: &str = "fairseed receipt v1";

/// The text a receipt signs for `entry` in the log named `origin`.
pub fn receipt_text(origin: &str, entry: &[u8]) -> String {
    use base64::Engine as _;
    let hash = base64::engine::general_purpose::STANDARD.encode(leaf_hash(entry).0);
    format!("{RECEIPT_HEADER}\n{origin}\n{hash}\n")
}

/// The receipt of `entry`: a note signed by `key`, whose name is the log's origin.
///
/// # Errors
/// [`TlogError::BadNote`] if the origin is not a valid note line.
pub fn sign_receipt(key: &NoteKey, entry: &[u8]) -> Result<String, TlogError> {
    key.sign(&receipt_text(key.name(), entry))
}

/// Checks that `note` is the receipt of `entry` signed by `vkey`.
///
/// # Errors
/// [`TlogError::BadKey`]/[`TlogError::BadNote`] as [`open_note`], or
/// [`TlogError::BadNote`] if the note signs another entry or log.
pub fn open_receipt(note: &[u8], vkey: &str, entry: &[u8]) -> Result<(), TlogError> {
    let text = open_note(note, vkey)?;
    let origin = vkey.split('+').next().unwrap_or_default();
    if text != receipt_text(origin, entry) {
        return Err(TlogError::BadNote(
            "the receipt signs another entry or log".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_opens_for_its_entry_only() {
        let key = NoteKey::from_private_bytes("example.org/fairseed", &[7; 32]).expect("key");
        let note = sign_receipt(&key, b"entry one").expect("signs");
        assert!(note.starts_with("fairseed receipt v1\nexample.org/fairseed\n"));
        open_receipt(note.as_bytes(), &key.vkey(), b"entry one").expect("opens");
        assert!(open_receipt(note.as_bytes(), &key.vkey(), b"entry two").is_err());
        let other = NoteKey::from_private_bytes("example.org/fairseed", &[8; 32]).expect("key");
        assert!(open_receipt(note.as_bytes(), &other.vkey(), b"entry one").is_err());
        assert!(crate::parse_checkpoint(&receipt_text("example.org/fairseed", b"x")).is_err());
    }
}

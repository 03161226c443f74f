//! C2SP `tlog-checkpoint` (<https://c2sp.org/tlog-checkpoint>): the signed tree head.
//!
//! The body is the origin line (the log's name), the tree size in decimal, the
//! base64 root hash, then optional non-empty extension lines, each line ending
//! in a newline. It is published as the text of a signed note
//! (<https://c2sp.org/signed-note>) whose key name is conventionally the origin.

pub use tlog_tiles::Checkpoint;

use crate::{
    error::TlogError,
    merkle::Hash,
    note::{open_note, NoteKey},
};

/// Builds a checkpoint body, checking it against the format.
///
/// # Errors
/// [`TlogError::BadCheckpoint`] if the origin is empty or has a newline, or an
/// extension line is empty or has a newline.
pub fn checkpoint(
    origin: &str,
    size: u64,
    root: Hash,
    extensions: &[&str],
) -> Result<Checkpoint, TlogError> {
    if origin.contains('\n') {
        return Err(TlogError::BadCheckpoint("origin has a newline".into()));
    }
    let mut extension = String::new();
    for (i, line) in extensions.iter().enumerate() {
        if line.is_empty() || line.contains('\n') {
            return Err(TlogError::BadCheckpoint(format!(
                "extension line {i} is empty or has a newline"
            )));
        }
        extension.push_str(line);
        extension.push('\n');
    }
    Checkpoint::new(origin, size, root, &extension)
        .map_err(|_| TlogError::BadCheckpoint("origin is empty".into()))
}

/// The checkpoint signed as a note by `key`.
///
/// # Errors
/// [`TlogError::BadNote`] if the body cannot be signed (it always can when built by [`checkpoint`]).
pub fn sign_checkpoint(key: &NoteKey, checkpoint: &Checkpoint) -> Result<String, TlogError> {
    let body = String::from_utf8(checkpoint.to_bytes())
        .map_err(|_| TlogError::BadCheckpoint("body is not UTF-8".into()))?;
    key.sign(&body)
}

/// Verifies a signed checkpoint against the log's verifier key and parses its body.
///
/// # Errors
/// [`TlogError::BadKey`]/[`TlogError::BadNote`] as [`open_note`];
/// [`TlogError::BadCheckpoint`] if the signed text is not a checkpoint.
pub fn open_checkpoint(note: &[u8], vkey: &str) -> Result<Checkpoint, TlogError> {
    let text = open_note(note, vkey)?;
    parse_checkpoint(&text)
}

/// Parses a checkpoint body (unsigned text; use [`open_checkpoint`] for a published one).
///
/// # Errors
/// [`TlogError::BadCheckpoint`] if the text is not a checkpoint.
pub fn parse_checkpoint(text: &str) -> Result<Checkpoint, TlogError> {
    Checkpoint::from_bytes(text.as_bytes())
        .map_err(|_| TlogError::BadCheckpoint("not origin, size, base64 root hash lines".into()))
}

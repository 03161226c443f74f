//! The one error type of the crate.

use thiserror::Error;

/// Why a log operation or a check failed.
///
/// Verification failures (a proof, a signature, a tile that does not match)
/// are kept apart from input that cannot even be parsed.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum TlogError {
    /// A proof did not lead to the claimed root.
    #[error("{what} proof does not verify")]
    ProofFailed {
        /// "inclusion" or "consistency".
        what: &'static str,
    },
    /// Arguments outside the tree, e.g. a leaf index past its size.
    #[error("{0}")]
    OutOfRange(String),
    /// A tile path that is not in the C2SP tlog-tiles layout.
    #[error("bad tile path {path:?}: {reason}")]
    BadTilePath {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A tile is missing, has the wrong length or does not hash to the tree head.
    #[error("tile {path}: {reason}")]
    BadTile {
        /// The tile's C2SP path.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An entry bundle that cannot be decoded or encoded.
    #[error("entry bundle: {0}")]
    BadBundle(String),
    /// A key, key name or verifier key that is malformed.
    #[error("key: {0}")]
    BadKey(String),
    /// A signed note that is malformed or not signed by the expected key.
    #[error("note: {0}")]
    BadNote(String),
    /// A log entry that cannot be encoded or decoded.
    #[error("log entry: {0}")]
    BadEntry(String),
    /// A checkpoint body that is not in the C2SP tlog-checkpoint format.
    #[error("checkpoint: {0}")]
    BadCheckpoint(String),
}

//! Receipts: what a response that shows a commitment, a reveal or a settled
//! bet carries, so a player can prove later what the service acknowledged.

use base64::prelude::*;
use fairseed_tlog::leaf_hash;
use serde::Serialize;

use super::LogKey;
use crate::error::ApiError;

/// One entry's receipt (docs/api.md, "Receipts").
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Receipt {
    /// The entry's bytes, base64 (docs/spec.md §16.1).
    pub entry: String,
    /// Its RFC 6962 leaf hash, hex: the key of `GET /log/receipts/{entry_hash}`.
    pub entry_hash: String,
    /// A signed note by the log key over the entry's leaf hash (docs/spec.md §16.5).
    pub signature: String,
    /// The leaf index, once sequenced.
    pub leaf_index: Option<u64>,
    /// The inclusion proof (base64 hashes) to `checkpoint`, once sequenced.
    pub inclusion_proof: Option<Vec<String>>,
    /// The signed checkpoint the proof leads to, once sequenced.
    pub checkpoint: Option<String>,
}

impl Receipt {
    /// The receipt of an entry just queued: signed, not yet sequenced.
    ///
    /// # Errors
    /// The key cannot sign (a malformed origin, refused at start).
    pub fn queued(key: &LogKey, entry: &[u8]) -> Result<Self, ApiError> {
        Ok(Self {
            entry: BASE64_STANDARD.encode(entry),
            entry_hash: hex::encode(leaf_hash(entry).0),
            signature: fairseed_tlog::sign_receipt(key.note_key(), entry)
                .map_err(ApiError::internal)?,
            leaf_index: None,
            inclusion_proof: None,
            checkpoint: None,
        })
    }
}

/// The receipts of `entries`, or none when the log is off.
///
/// # Errors
/// As [`Receipt::queued`].
pub fn receipts(key: Option<&LogKey>, entries: &[Vec<u8>]) -> Result<Vec<Receipt>, ApiError> {
    let Some(key) = key else {
        return Ok(Vec::new());
    };
    entries.iter().map(|e| Receipt::queued(key, e)).collect()
}

//! Receipts: what a response that shows a commitment, a reveal or a settled
//! bet carries, so a player can prove later what the service acknowledged.

use base64::prelude::*;
use fairseed_tlog::{BatchReceipt, Hash};
use serde::Serialize;

/// One entry's receipt (docs/api.md, "Receipts").
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Receipt {
    /// The entry's bytes, base64 (docs/spec.md §16.1).
    pub entry: String,
    /// Its RFC 6962 leaf hash, hex: the key of `GET /log/receipts/{entry_hash}`.
    pub entry_hash: String,
    /// A signed note by the log key over the root of a batch of entries
    /// signed together (docs/spec.md §16.5).
    pub signature: String,
    /// The entry's index in that batch.
    pub batch_index: u64,
    /// Its inclusion proof (base64 hashes) to the batch root.
    pub batch_proof: Vec<String>,
    /// The leaf index, once sequenced.
    pub leaf_index: Option<u64>,
    /// The inclusion proof (base64 hashes) to `checkpoint`, once sequenced.
    pub inclusion_proof: Option<Vec<String>>,
    /// The signed checkpoint the proof leads to, once sequenced.
    pub checkpoint: Option<String>,
}

/// Hashes as base64 strings.
pub fn base64_hashes(hashes: &[Hash]) -> Vec<String> {
    hashes.iter().map(|h| BASE64_STANDARD.encode(h.0)).collect()
}

impl Receipt {
    /// The receipt of an entry (with its leaf hash) just signed, not yet sequenced.
    pub fn signed(entry: &[u8], leaf: Hash, batch: BatchReceipt) -> Self {
        Self {
            entry: BASE64_STANDARD.encode(entry),
            entry_hash: hex::encode(leaf.0),
            signature: batch.note,
            batch_index: batch.index,
            batch_proof: base64_hashes(&batch.proof),
            leaf_index: None,
            inclusion_proof: None,
            checkpoint: None,
        }
    }
}

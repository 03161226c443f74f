//! Receipts: what a response that shows a commitment, a reveal or a settled
//! bet carries, so a player can prove later what the service acknowledged.
//!
//! Every bet answers with one, so a receipt keeps its bytes and hashes as
//! they are and writes their text forms (base64, hex) straight into the
//! response as it is serialized; a batch's receipts share one signed note.

use std::sync::Arc;

use base64::display::Base64Display;
use base64::prelude::*;
use fairseed_tlog::{BatchReceipt, Hash};
use serde::ser::Error as _;
use serde::{Serialize, Serializer};

/// One entry's receipt (docs/api.md, "Receipts").
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Receipt {
    /// The entry's bytes, base64 (docs/spec.md §16.1).
    #[serde(serialize_with = "base64_bytes")]
    pub entry: Vec<u8>,
    /// Its RFC 6962 leaf hash, hex: the key of `GET /log/receipts/{entry_hash}`.
    #[serde(serialize_with = "hex_hash")]
    pub entry_hash: Hash,
    /// A signed note by the log key over the root of a batch of entries
    /// signed together (docs/spec.md §16.5).
    #[serde(serialize_with = "text")]
    pub signature: Arc<str>,
    /// The entry's index in that batch.
    pub batch_index: u64,
    /// Its inclusion proof (base64 hashes) to the batch root.
    #[serde(serialize_with = "base64_hash_list")]
    pub batch_proof: Vec<Hash>,
    /// The leaf index, once sequenced.
    pub leaf_index: Option<u64>,
    /// The inclusion proof (base64 hashes) to `checkpoint`, once sequenced.
    #[serde(serialize_with = "optional_base64_hash_list")]
    pub inclusion_proof: Option<Vec<Hash>>,
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
            entry: entry.to_vec(),
            entry_hash: leaf,
            signature: batch.note,
            batch_index: batch.index,
            batch_proof: batch.proof,
            leaf_index: None,
            inclusion_proof: None,
            checkpoint: None,
        }
    }
}

fn text<S: Serializer>(text: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(text)
}

fn base64_bytes<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&Base64Display::new(bytes, &BASE64_STANDARD))
}

fn hex_hash<S: Serializer>(hash: &Hash, s: S) -> Result<S::Ok, S::Error> {
    let mut text = [0u8; 64];
    hex::encode_to_slice(hash.0, &mut text).map_err(S::Error::custom)?;
    s.serialize_str(std::str::from_utf8(&text).map_err(S::Error::custom)?)
}

/// A hash as base64, written without an intermediate string.
struct Base64Hash<'a>(&'a Hash);

impl Serialize for Base64Hash<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = [0u8; 44];
        let len = BASE64_STANDARD
            .encode_slice(self.0 .0, &mut text)
            .map_err(S::Error::custom)?;
        let text = text.get(..len).ok_or_else(|| S::Error::custom("base64"))?;
        s.serialize_str(std::str::from_utf8(text).map_err(S::Error::custom)?)
    }
}

fn base64_hash_list<S: Serializer>(hashes: &[Hash], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(hashes.iter().map(Base64Hash))
}

fn optional_base64_hash_list<S: Serializer>(
    hashes: &Option<Vec<Hash>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match hashes {
        Some(hashes) => base64_hash_list(hashes, s),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `receipt` written as a response body is, then read back.
    fn as_written(receipt: &Receipt) -> serde_json::Value {
        let body = serde_json::to_vec(receipt).expect("serializes");
        serde_json::from_slice(&body).expect("JSON")
    }

    /// The text forms written while serializing are those of the
    /// encoders' own string functions.
    #[test]
    fn a_receipt_serializes_as_its_strings() {
        let proof = vec![Hash([1; 32]), Hash([0xfe; 32])];
        let receipt = Receipt {
            entry: b"\x00\x01entry bytes\xff".to_vec(),
            entry_hash: Hash([0xab; 32]),
            signature: "fairseed receipts v1\nexample.org\n1\nAAAA\n\n\u{2014} k sig\n".into(),
            batch_index: 3,
            batch_proof: proof.clone(),
            leaf_index: Some(7),
            inclusion_proof: Some(proof.clone()),
            checkpoint: None,
        };
        let json = as_written(&receipt);
        assert_eq!(
            json,
            serde_json::json!({
                "entry": BASE64_STANDARD.encode(&receipt.entry),
                "entry_hash": hex::encode([0xab; 32]),
                "signature": &*receipt.signature,
                "batch_index": 3,
                "batch_proof": base64_hashes(&proof),
                "leaf_index": 7,
                "inclusion_proof": base64_hashes(&proof),
                "checkpoint": null,
            })
        );
        let unsequenced = Receipt {
            inclusion_proof: None,
            ..receipt
        };
        let json = as_written(&unsequenced);
        assert_eq!(json["inclusion_proof"], serde_json::Value::Null);
    }
}

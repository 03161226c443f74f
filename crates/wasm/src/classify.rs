//! Names a pasted value: "this is the hash of the seed, not the seed".
//!
//! Players most often paste the commitment where the revealed seed belongs, or
//! the current pair's commitment instead of the old pair's revealed seed. The
//! page passes the value and every value it knows (form fields, record fields,
//! commitments and seeds remembered in the browser), each with a label; this
//! module says how the value relates to each of them, using core's hashes, and
//! the page turns the relations into a sentence.

use fairseed_core::{selfpoker, sha256_hex, ServerSeed};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// A value the page already knows, with the label it shows for it.
#[derive(Debug, Deserialize)]
pub struct Known {
    /// How the page names the value ("commitment", "current seed pair's hash").
    pub label: String,
    /// The value itself.
    pub value: String,
}

/// How a pasted value relates to a known one.
#[derive(Debug, Serialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// The same text.
    Equals,
    /// `sha256(known)` — the commitment of the known seed.
    CommitmentOf,
    /// `sha256("selfpoker:" + known)` — the selfpoker commit of the known seed.
    SelfpokerCommitOf,
    /// `sha256(value)` is the known value: the value is the seed behind it.
    SeedOf,
    /// `sha256("selfpoker:" + value)` is the known value.
    SelfpokerSeedOf,
}

/// The form of a pasted value.
#[derive(Debug, Serialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// Nothing but whitespace.
    Empty,
    /// 64 lowercase hex characters: a server seed, a commitment or a hand value.
    Hex64,
    /// 64 hex characters with uppercase letters: a hash copied from elsewhere.
    Hex64Upper,
    /// A decimal integer that fits in 63 bits: a selfpoker seed.
    Decimal63,
    /// Anything else: a client seed, or a typo.
    Text,
}

/// One relation found.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Found {
    /// How the value relates.
    pub relation: Relation,
    /// The label of the known value.
    pub label: String,
}

/// What the page learns about a pasted value.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Classification {
    /// Its form.
    pub shape: Shape,
    /// Its relations to the known values, in the order they were given.
    pub relations: Vec<Found>,
}

/// The selfpoker seed a text could be: a decimal below 2^63.
fn selfpoker_seed(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok().filter(|s| *s < 1 << 63)
}

/// The form of `text`.
fn shape(text: &str) -> Shape {
    if text.is_empty() {
        Shape::Empty
    } else if ServerSeed::parse(text).is_ok() {
        Shape::Hex64
    } else if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        Shape::Hex64Upper
    } else if selfpoker_seed(text).is_some() {
        Shape::Decimal63
    } else {
        Shape::Text
    }
}

/// The relations of `value` to each known value (hashes compared lowercase).
pub fn classify_value(value: &str, known: &[Known]) -> Classification {
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    let value_hash = sha256_hex(value.as_bytes());
    let value_selfpoker = selfpoker_seed(value).map(selfpoker::commit);
    let mut relations = Vec::new();
    for k in known {
        let kv = k.value.trim();
        if kv.is_empty() {
            continue;
        }
        let k_lower = kv.to_ascii_lowercase();
        let mut add = |relation| {
            relations.push(Found {
                relation,
                label: k.label.clone(),
            });
        };
        if value == kv || (lower.len() == 64 && lower == k_lower) {
            add(Relation::Equals);
            continue;
        }
        if lower == sha256_hex(kv.as_bytes()) {
            add(Relation::CommitmentOf);
        }
        if selfpoker_seed(kv).map(selfpoker::commit).as_deref() == Some(lower.as_str()) {
            add(Relation::SelfpokerCommitOf);
        }
        if value_hash == k_lower {
            add(Relation::SeedOf);
        }
        if value_selfpoker.as_deref() == Some(k_lower.as_str()) {
            add(Relation::SelfpokerSeedOf);
        }
    }
    Classification {
        shape: shape(value),
        relations,
    }
}

/// Classifies `value` against `known_json`, a JSON array of `{label, value}`;
/// returns `{shape, relations: [{relation, label}]}` as JSON.
///
/// # Errors
/// `known_json` is not such an array.
#[wasm_bindgen]
pub fn classify(value: &str, known_json: &str) -> Result<String, JsError> {
    let known: Vec<Known> =
        serde_json::from_str(known_json).map_err(|e| JsError::new(&format!("known: {e}")))?;
    Ok(serde_json::json!(classify_value(value, &known)).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(pairs: &[(&str, &str)]) -> Vec<Known> {
        pairs
            .iter()
            .map(|(l, v)| Known {
                label: (*l).to_owned(),
                value: (*v).to_owned(),
            })
            .collect()
    }

    const SEED: &str = "7b0d5a52d6bd6a0d8b1c4c1c9a0b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b";

    #[test]
    fn commitment_pasted_as_seed() {
        let commitment = ServerSeed::parse(SEED)
            .unwrap_or_else(|e| panic!("{e}"))
            .commitment()
            .to_hex();
        // The player pasted the commitment into the seed field.
        let c = classify_value(&commitment, &known(&[("commitment", &commitment)]));
        assert_eq!(c.shape, Shape::Hex64);
        assert_eq!(c.relations[0].relation, Relation::Equals);
        // The seed field holds the hash of what sits in the commitment field (swapped).
        let c = classify_value(&commitment, &known(&[("commitment", SEED)]));
        assert_eq!(c.relations[0].relation, Relation::CommitmentOf);
        // The real seed is recognised as the seed of the commitment.
        let c = classify_value(SEED, &known(&[("commitment", &commitment)]));
        assert_eq!(c.relations[0].relation, Relation::SeedOf);
    }

    #[test]
    fn uppercase_hash_and_selfpoker() {
        let commit = selfpoker::commit(1_234_567_890_123_456_789);
        let c = classify_value(
            &commit.to_uppercase(),
            &known(&[("seed", "1234567890123456789")]),
        );
        assert_eq!(c.shape, Shape::Hex64Upper);
        assert_eq!(c.relations[0].relation, Relation::SelfpokerCommitOf);
        let c = classify_value("1234567890123456789", &known(&[("commit", &commit)]));
        assert_eq!(c.shape, Shape::Decimal63);
        assert_eq!(c.relations[0].relation, Relation::SelfpokerSeedOf);
    }

    #[test]
    fn unrelated_text() {
        let c = classify_value("my lucky seed", &known(&[("commitment", SEED)]));
        assert_eq!(c.shape, Shape::Text);
        assert!(c.relations.is_empty());
    }
}

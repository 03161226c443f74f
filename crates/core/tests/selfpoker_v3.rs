//! `selfpoker_v3` against vectors written by an independent Python implementation
//! (`tests/vectors/selfpoker_v3.py`: hmac, hashlib, NumPy), and the property the
//! per-hand values exist for: every revealed value moves the seed.

use std::path::PathBuf;

use fairseed_core::selfpoker_v2::{self, parse_secret, ClientSeedEntry};
use fairseed_core::selfpoker_v3::{derive_hand, hand_seed, message, HandEntry, HandValue};
use proptest::prelude::*;
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/vectors/primitives/selfpoker_v3.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    doc["cases"].as_array().cloned().unwrap_or_default()
}

fn entries(case: &Value) -> Vec<HandEntry> {
    case["client_seeds"]
        .as_object()
        .expect("client_seeds is an object")
        .iter()
        .map(|(seat, seed)| {
            let value = case["hand_values"][seat]
                .as_str()
                .expect("a value per seed");
            let seat = seat.parse().expect("seat is decimal");
            HandEntry::new(seat, seed.as_str().expect("seed is text"), value).expect("valid")
        })
        .collect()
}

#[test]
fn python_vectors_match() {
    let all = cases();
    assert!(all.len() >= 40, "{} cases", all.len());
    for (i, c) in all.iter().enumerate() {
        let secret = parse_secret(c["session_secret"].as_str().unwrap_or(""), "session_secret")
            .unwrap_or_else(|e| panic!("case {i}: {e}"));
        let table = c["table_id"].as_str().unwrap_or("");
        let hand = c["hand"].as_u64().expect("hand");
        let entries = entries(c);
        for e in &entries {
            let commit = &c["hand_commits"][e.seat().to_string()];
            assert_eq!(
                e.value.commit(),
                *commit,
                "case {i}: seat {} commit",
                e.seat()
            );
        }
        let msg = message(table, hand, &entries).unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(hex::encode(&msg), c["message_hex"], "case {i}: message");
        assert_eq!(
            Some(hand_seed(&secret, table, hand, &entries).expect("derives")),
            c["seed"].as_u64(),
            "case {i}: seed"
        );
        let derived = derive_hand(&secret, table, hand, &entries).expect("derives");
        assert_eq!(derived.commit, c["commit"], "case {i}: commit");
        let deck: Vec<u64> = derived.deck.iter().map(|&c| u64::from(c)).collect();
        assert_eq!(serde_json::json!(deck), c["deck"], "case {i}: deck");
    }
}

/// A v3 message is never a v2 message: records dealt under `selfpoker_v2`
/// keep their seeds, and no v3 hand can pass for one.
#[test]
fn v3_and_v2_messages_differ() {
    let secret = [9u8; 32];
    let v2 = [ClientSeedEntry::new(0, "ann").expect("valid")];
    let v3 = [HandEntry::new(0, "ann", &"11".repeat(32)).expect("valid")];
    let m2 = selfpoker_v2::message("t1", 1, &v2).expect("valid");
    let m3 = message("t1", 1, &v3).expect("valid");
    assert!(m2.starts_with(b"selfpoker_v2:") && m3.starts_with(b"selfpoker_v3:"));
    assert_ne!(
        selfpoker_v2::hand_seed(&secret, "t1", 1, &v2).expect("valid"),
        hand_seed(&secret, "t1", 1, &v3).expect("valid")
    );
}

fn value() -> impl Strategy<Value = HandValue> {
    any::<[u8; 32]>().prop_map(HandValue::from_bytes)
}

proptest! {
    /// Changing one seat's revealed value, everything else fixed, changes the
    /// seed: every value dealt in counts.
    #[test]
    fn every_value_moves_the_seed(
        secret in any::<[u8; 32]>(),
        values in proptest::collection::vec(value(), 1..=6),
        other in value(),
        pick in any::<prop::sample::Index>(),
    ) {
        let entries: Vec<HandEntry> = values
            .iter()
            .enumerate()
            .map(|(seat, v)| HandEntry { client: ClientSeedEntry::new(seat, "s").expect("valid"), value: v.clone() })
            .collect();
        let i = pick.index(entries.len());
        prop_assume!(other != entries[i].value);
        let mut changed = entries.clone();
        changed[i].value = other;
        prop_assert_ne!(
            hand_seed(&secret, "t", 1, &entries).expect("valid"),
            hand_seed(&secret, "t", 1, &changed).expect("valid")
        );
    }
}

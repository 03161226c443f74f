//! `selfpoker_v2` against vectors written by an independent Python implementation
//! (`tests/vectors/selfpoker_v2.py`: hmac, hashlib, NumPy), and the properties
//! that make the derivation worth having: every input moves the seed.

use std::path::PathBuf;

use fairseed_core::selfpoker_v2::{
    derive_hand, hand_seed, message, parse_secret, session_commit, ClientSeedEntry,
};
use proptest::prelude::*;
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/vectors/primitives/selfpoker_v2.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    doc["cases"].as_array().cloned().unwrap_or_default()
}

fn entries(seeds: &Value) -> Vec<ClientSeedEntry> {
    seeds
        .as_object()
        .expect("client_seeds is an object")
        .iter()
        .map(|(seat, seed)| {
            let seat = seat.parse().expect("seat is decimal");
            ClientSeedEntry::new(seat, seed.as_str().expect("seed is text")).expect("valid seed")
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
        let seeds = entries(&c["client_seeds"]);
        assert_eq!(session_commit(&secret), c["session_commit"], "case {i}");
        let msg = message(table, hand, &seeds).unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(hex::encode(&msg), c["message_hex"], "case {i}: message");
        let seed = hand_seed(&secret, table, hand, &seeds).expect("derives");
        assert_eq!(Some(seed), c["seed"].as_u64(), "case {i}: seed");
        let derived = derive_hand(&secret, table, hand, &seeds).expect("derives");
        assert_eq!(derived.commit, c["commit"], "case {i}: commit");
        let deck: Vec<u64> = derived.deck.iter().map(|&c| u64::from(c)).collect();
        assert_eq!(serde_json::json!(deck), c["deck"], "case {i}: deck");
    }
}

#[test]
fn the_order_entries_are_given_in_does_not_matter() {
    let secret = [3u8; 32];
    let a = [
        ClientSeedEntry::new(5, "five").expect("ok"),
        ClientSeedEntry::new(1, "one").expect("ok"),
    ];
    let b = [a[1].clone(), a[0].clone()];
    assert_eq!(
        hand_seed(&secret, "t", 1, &a).expect("ok"),
        hand_seed(&secret, "t", 1, &b).expect("ok")
    );
}

fn seed_text() -> impl Strategy<Value = String> {
    "[a-z0-9:=,]{1,16}"
}

/// Up to six humans on distinct seats 0..=9, with their seeds.
fn humans() -> impl Strategy<Value = Vec<(usize, String)>> {
    proptest::sample::subsequence((0..10usize).collect::<Vec<_>>(), 1..=6).prop_flat_map(|seats| {
        let n = seats.len();
        (Just(seats), proptest::collection::vec(seed_text(), n))
            .prop_map(|(seats, seeds)| seats.into_iter().zip(seeds).collect())
    })
}

fn to_entries(list: &[(usize, String)]) -> Vec<ClientSeedEntry> {
    list.iter()
        .map(|(seat, s)| ClientSeedEntry::new(*seat, s).expect("valid"))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Changing any one client seed changes the seed and the deck.
    #[test]
    fn any_client_seed_moves_the_deck(
        secret in any::<[u8; 32]>(), hand in 1u64.., humans in humans(),
        which in any::<prop::sample::Index>(), other in seed_text(),
    ) {
        let k = which.index(humans.len());
        prop_assume!(humans[k].1 != other);
        let before = derive_hand(&secret, "t1", hand, &to_entries(&humans)).expect("ok");
        let mut changed = humans.clone();
        changed[k].1 = other;
        let after = derive_hand(&secret, "t1", hand, &to_entries(&changed)).expect("ok");
        prop_assert_ne!(before.seed, after.seed);
        prop_assert_ne!(before.deck, after.deck);
        prop_assert_ne!(before.commit, after.commit);
    }

    /// Moving a seed to another seat, adding or dropping a human changes the seed.
    #[test]
    fn seats_and_headcount_move_the_seed(secret in any::<[u8; 32]>(), humans in humans()) {
        let base = hand_seed(&secret, "t1", 1, &to_entries(&humans)).expect("ok");
        let mut moved = humans.clone();
        let free = (0..10).find(|s| !humans.iter().any(|(h, _)| h == s));
        if let Some(free) = free {
            moved[0].0 = free;
            prop_assert_ne!(base, hand_seed(&secret, "t1", 1, &to_entries(&moved)).expect("ok"));
            let mut more = humans.clone();
            more.push((free, "extra".to_owned()));
            prop_assert_ne!(base, hand_seed(&secret, "t1", 1, &to_entries(&more)).expect("ok"));
        }
        if humans.len() > 1 {
            let fewer = &humans[1..];
            prop_assert_ne!(base, hand_seed(&secret, "t1", 1, &to_entries(fewer)).expect("ok"));
        }
    }

    /// The secret, the table and the hand number each change the seed and the deck.
    #[test]
    fn secret_table_and_hand_move_the_deck(
        secret in any::<[u8; 32]>(), byte in 0usize..32, flip in 1u8..,
        hand in 1u64..u64::MAX, humans in humans(),
    ) {
        let seeds = to_entries(&humans);
        let base = derive_hand(&secret, "t1", hand, &seeds).expect("ok");
        let mut other = secret;
        other[byte] ^= flip;
        let moved = [
            derive_hand(&other, "t1", hand, &seeds).expect("ok"),
            derive_hand(&secret, "t2", hand, &seeds).expect("ok"),
            derive_hand(&secret, "t1", hand + 1, &seeds).expect("ok"),
        ];
        for m in moved {
            prop_assert_ne!(base.seed, m.seed);
            prop_assert_ne!(base.deck, m.deck);
        }
    }
}

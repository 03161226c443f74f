//! Invariants of the schemes, checked on random inputs (proptest).

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::collections::BTreeMap;

use fairseed_core::stream::{reduce, DrawSource, HmacStream, SPAN};
use fairseed_core::{
    merkle, poker, shuffle, verify_value, ClientSeed, Commitment, Ident, ServerSeed,
};
use proptest::prelude::*;
use serde_json::Value;

fn stream(key: &[u8], prefix: &str) -> HmacStream {
    HmacStream::new(key, prefix.as_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Fisher–Yates over the draw stream only moves elements: a permutation.
    #[test]
    fn every_shuffle_is_a_permutation(key in prop::collection::vec(any::<u8>(), 0..80),
                                       prefix in ".{0,40}", len in 0usize..150) {
        let mut a: Vec<usize> = (0..len).collect();
        shuffle(&mut stream(&key, &prefix), &mut a);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..len).collect::<Vec<_>>());
    }

    /// `int(n)` stays below `n` for every `n` up to 2^52.
    #[test]
    fn int_is_below_n(key in prop::collection::vec(any::<u8>(), 1..64), n in 1u64..=SPAN) {
        let mut s = stream(&key, "p:");
        for _ in 0..8 {
            prop_assert!(s.int(n) < n);
        }
    }

    /// Over a whole simulated word space, every result of rejection sampling has
    /// exactly the same number of words, and only the top partial block is rejected.
    #[test]
    fn rejection_sampling_is_exactly_uniform(bits in 1u32..=14, n in 1u64..=300) {
        let span = 1u64 << bits;
        prop_assume!(n <= span);
        let mut counts = vec![0u64; n as usize];
        let mut rejected = 0;
        for w in 0..span {
            match reduce(span, n, w) {
                Some(x) => counts[x as usize] += 1,
                None => rejected += 1,
            }
        }
        prop_assert!(counts.iter().all(|&c| c == span / n));
        prop_assert_eq!(rejected, span % n);
    }

    /// Changing any byte of a proof's card, salt, path or root makes it fail.
    #[test]
    fn merkle_proofs_fail_when_any_byte_changes(seed in any::<[u8; 32]>(), n in 1u64..1000,
                                                 position in 0usize..52, which in 0usize..4,
                                                 at in 0usize..64, flip in 1u8..16) {
        let table = Ident::parse("t1").unwrap();
        let session = Ident::parse("s1").unwrap();
        let seats: BTreeMap<u8, ClientSeed> =
            [(0, "a"), (5, "b")].into_iter().map(|(s, c)| (s, ClientSeed::parse(c).unwrap())).collect();
        let value = poker::hand_value(&ServerSeed::from_bytes(seed), &table, &session, n);
        let deck = poker::deal(&value, &table, &session, n, &seats).unwrap();
        let mut root = Commitment::parse(&deck.root()).unwrap();
        let mut proof = deck.proof(position);
        prop_assert!(poker::verify_proof(&root, &proof).is_ok());
        let bump = |hex: &mut String, at: usize| {
            let mut bytes = hex.clone().into_bytes();
            let digit = u8::from_str_radix(&hex[at..=at], 16).unwrap();
            bytes[at] = format!("{:x}", (digit + flip) % 16).as_bytes()[0];
            *hex = String::from_utf8(bytes).unwrap();
        };
        match which {
            0 => proof.card = (proof.card + flip) % 52,
            1 => bump(&mut proof.salt, at),
            2 => bump(&mut proof.path[at % merkle::DEPTH], at),
            _ => {
                let mut hex = root.to_hex();
                bump(&mut hex, at);
                root = Commitment::parse(&hex).unwrap();
            }
        }
        prop_assert!(poker::verify_proof(&root, &proof).is_err());
    }
}

/// Every number inside a record's outcome, as a path of keys and indexes.
fn numeric_leaves(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Array(items) => items.iter().enumerate().for_each(|(i, x)| {
            path.push(i.into());
            numeric_leaves(x, path, out);
            path.pop();
        }),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            path.push(k.clone().into());
            numeric_leaves(x, path, out);
            path.pop();
        }),
        Value::Number(_) | Value::Bool(_) | Value::String(_) => out.push(path.clone()),
        Value::Null => {}
    }
}

fn leaf_mut<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, seg| match seg {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

fn sample_records() -> &'static [Value] {
    static RECORDS: std::sync::OnceLock<Vec<Value>> = std::sync::OnceLock::new();
    RECORDS.get_or_init(load_records)
}

fn load_records() -> Vec<Value> {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors/records");
    [
        "match_seed_v2",
        "match_seed_v1",
        "chess_colour_v1",
        "poker_hmac_v1",
        "poker_hmac_v1_proof",
        "dice_v1",
        "selfpoker",
    ]
    .iter()
    .flat_map(|s| {
        let text = std::fs::read_to_string(dir.join(format!("{s}.jsonl"))).unwrap();
        text.lines()
            .take(40)
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .collect::<Vec<_>>()
    })
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Changing any element of a valid record's outcome makes the verdict invalid.
    #[test]
    fn any_changed_outcome_element_is_invalid(pick in any::<prop::sample::Index>(),
                                              leaf in any::<prop::sample::Index>(),
                                              delta in 1u64..60) {
        let records = sample_records();
        let mut record = pick.get(records).clone();
        let mut leaves = Vec::new();
        numeric_leaves(&record["outcome"], &mut Vec::new(), &mut leaves);
        prop_assume!(!leaves.is_empty());
        let path = leaf.get(&leaves);
        let target = leaf_mut(&mut record["outcome"], path);
        *target = match target.clone() {
            Value::Number(n) => {
                let x = n.as_u128().unwrap();
                serde_json::Number::from_u128(x.wrapping_add(u128::from(delta))).unwrap().into()
            }
            Value::Bool(b) => (!b).into(),
            Value::String(s) => {
                let mut s = s.into_bytes();
                s[0] = if s[0] == b'0' { b'1' } else { b'0' };
                String::from_utf8(s).unwrap().into()
            }
            other => other,
        };
        let verdict = verify_value(&record);
        prop_assert!(verdict.error.is_none());
        prop_assert!(!verdict.valid, "changed outcome{:?} still valid", path);
    }
}

fn dice_lines() -> &'static [String] {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/vectors/records");
        ["dice_v1.jsonl", "invalid.jsonl", "malformed.jsonl"]
            .iter()
            .flat_map(|f| {
                std::fs::read_to_string(dir.join(f))
                    .unwrap()
                    .lines()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .filter(|l| l.contains("dice_v1"))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The borrowed fast path for dice records gives exactly the field reader's
    /// verdict, on the vectors and on any one to three byte edits of them
    /// (bytes chosen to make numbers, literals, escapes, whitespace and
    /// structure go wrong).
    #[test]
    fn dice_fast_path_agrees_with_the_field_reader(pick in any::<prop::sample::Index>(),
                                                    edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4,
                                                        prop::sample::select(b"0123456789abcdef\"{}[],:-.+eEnultrs \\\t\n\x01".to_vec())), 1..4)) {
        let line = pick.get(dice_lines());
        let mut bytes = line.clone().into_bytes();
        for (at, edit, byte) in edits {
            let i = at.index(bytes.len());
            match edit {
                0 => {}
                1 => bytes[i] = byte,
                2 => { bytes.remove(i); }
                _ => bytes.insert(i, byte),
            }
        }
        let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
        let fast = fairseed_core::Verifier::new().verify_str(&text);
        // The reference reading: a JSON tree, then the field reader.
        match serde_json::from_str::<Value>(&text) {
            Ok(v) => prop_assert_eq!(fast, fairseed_core::Verifier::new().verify_value(&v)),
            Err(_) => prop_assert!(fast.is_input_error()),
        }
    }
}

/// Every line of every vector file (all schemes; valid, tampered, malformed).
fn all_vector_lines() -> &'static [String] {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/vectors/records");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        files
            .iter()
            .flat_map(|f| {
                std::fs::read_to_string(f)
                    .unwrap()
                    .lines()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A batch gives, record for record, the verdicts `verify_str` gives one at a
    /// time: any mix of schemes, pairs and broken lines, in any order, with runs
    /// of one pair's bets (so the batch shares keys) and the verifier's memory of
    /// the last pair carried from batch to batch.
    #[test]
    fn verify_batch_agrees_with_verify_str(
        picks in prop::collection::vec(
            (any::<prop::sample::Index>(), 1usize..6,
             prop::option::of((any::<prop::sample::Index>(),
                               prop::sample::select(b"0123456789abcdef\"{}[],:-.enul ".to_vec())))),
            0..40),
        split in 0usize..40,
        dice_only in any::<bool>(),
    ) {
        let pool: Vec<&String> = if dice_only {
            dice_lines().iter().collect()
        } else {
            all_vector_lines().iter().collect()
        };
        let mut owned: Vec<String> = Vec::new();
        for (pick, run, edit) in picks {
            // A run of consecutive lines: consecutive bets of one pair in the dice file.
            let start = pick.index(pool.len());
            let mut lines: Vec<String> =
                pool[start..(start + run).min(pool.len())].iter().map(|s| s.to_string()).collect();
            // Perhaps one byte of the run's last line changed (a tampered
            // outcome, a broken seed, bad JSON).
            if let (Some((at, byte)), Some(last)) = (edit, lines.last_mut()) {
                let mut bytes = last.clone().into_bytes();
                let i = at.index(bytes.len());
                bytes[i] = byte;
                if let Ok(text) = String::from_utf8(bytes) {
                    *last = text;
                }
            }
            owned.extend(lines);
        }
        let texts: Vec<&str> = owned.iter().map(String::as_str).collect();
        let mut one = fairseed_core::Verifier::new();
        let expected: Vec<_> = texts.iter().map(|t| one.verify_str(t)).collect();
        let mut batched = fairseed_core::Verifier::new();
        let (a, b) = texts.split_at(split.min(texts.len()));
        let mut got = batched.verify_batch(a);
        got.extend(batched.verify_batch(b));
        prop_assert_eq!(got, expected);
    }
}

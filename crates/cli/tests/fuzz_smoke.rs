//! A stable-Rust stand-in for `fuzz/` (which needs nightly): mutated vector
//! records thrown at `verify_str`, asserting no panic, a coherent verdict, and
//! the same verdict from the reference reading and from `verify_batch`.
//!
//! `FAIRSEED_FUZZ_SMOKE=N` sets the number of inputs (default 20 000, quick in a
//! debug build); the cargo-fuzz target explores far more on nightly.

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use fairseed_core::{report, verify_str, verify_value, Verifier};
use serde_json::Value;

/// Small deterministic generator: the same inputs on every run, so a failure replays.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n.max(1) as u64).expect("below n fits usize")
    }
}

/// Tokens that steer mutations toward the parser's and verifier's edges.
const TOKENS: &[&str] = &[
    "-1",
    "0",
    "1",
    "9801",
    "9800",
    "9999",
    "10000",
    "2",
    "11",
    "136",
    "137",
    "144",
    "52",
    "64",
    "9007199254740991",
    "9007199254740992",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "1e3",
    "1.5",
    "-0",
    "null",
    "true",
    "false",
    "\"\"",
    "[]",
    "{}",
    "\"under\"",
    "\"over\"",
    "\"dice_v1\"",
    "\"selfpoker\"",
    "\"match_seed_v2\"",
    "\"bridge\"",
    "\"mahjong\"",
    "\"baloot\"",
    "\"backgammon\"",
    "\"-\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\u{1F0A1}",
    "[[]]",
    "[[0,1],[2,3]]",
    "{\"buyer\":3}",
    "{\"buyer\":null}",
    "\"00\"",
];

fn mutate(rng: &mut XorShift, seed: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => v.truncate(at),
            2 => {
                let end = (at + rng.below(16)).min(v.len());
                v.drain(at..end);
            }
            3 | 4 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                // Replace a number or short token after a colon, or insert.
                let end = v[at..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']'))
                    .map_or(v.len(), |p| at + p);
                if rng.below(2) == 0 && v[..at].ends_with(b":") {
                    v.splice(at..end, t.iter().copied());
                } else {
                    v.splice(at..at, t.iter().copied());
                }
            }
            5 => {
                let from = rng.below(v.len());
                let len = rng.below(32).min(v.len() - from.min(v.len()));
                let chunk: Vec<u8> = v[from..from + len].to_vec();
                v.splice(at..at, chunk);
            }
            _ => {
                let b = u8::try_from(rng.below(256)).expect("below 256");
                v.insert(at, b);
            }
        }
    }
    v
}

#[test]
fn mutated_records_never_panic() {
    let n: usize = std::env::var("FAIRSEED_FUZZ_SMOKE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors/records");
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for entry in fs::read_dir(&dir).expect("tests/vectors/records exists") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let text = fs::read(&path).expect("readable");
            seeds.extend(
                text.split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty())
                    .map(<[u8]>::to_vec),
            );
        }
    }
    assert!(seeds.len() > 100, "vector records found: {}", seeds.len());

    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let (mut readable, mut unreadable) = (0usize, 0usize);
    for i in 0..n {
        let seed = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, seed);
        let Ok(text) = std::str::from_utf8(&input) else {
            continue;
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let verdict = verify_str(text);
            let _ = verdict.to_json(i);
            let _ = report::render(i, &verdict);
            // The other entry points: the reference reading (a JSON tree, then
            // the field reader) and the bulk path `fairseed verify` takes.
            let reference = serde_json::from_str::<Value>(text)
                .ok()
                .map(|v| verify_value(&v));
            let batch = Verifier::new().verify_batch(&[text, text]);
            (verdict, reference, batch)
        }));
        let (verdict, reference, batch) =
            outcome.unwrap_or_else(|_| panic!("input {i} panicked: {text}"));
        // Shortcuts (the dice scanner, batched rolls) must not change a verdict.
        match reference {
            Some(reference) => {
                assert_eq!(verdict, reference, "input {i}: fast path differs: {text}")
            }
            None => assert!(verdict.is_input_error(), "input {i}: bad JSON read: {text}"),
        }
        assert_eq!(
            batch,
            [verdict.clone(), verdict.clone()],
            "input {i}: batch differs: {text}"
        );
        if verdict.is_input_error() {
            unreadable += 1;
            assert!(!verdict.valid, "input {i}: unreadable yet valid: {text}");
            assert!(
                verdict.checks.is_empty(),
                "input {i}: unreadable with checks: {text}"
            );
        } else {
            readable += 1;
            assert_eq!(
                verdict.valid,
                verdict.checks.iter().all(|c| c.ok),
                "input {i}: valid must mean every check passed: {text}"
            );
        }
    }
    // Both sides of the parser were reached, or the mutations are too gentle/harsh.
    assert!(
        readable > n / 50 && unreadable > n / 50,
        "readable {readable}, unreadable {unreadable}"
    );
}

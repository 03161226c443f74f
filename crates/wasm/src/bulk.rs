//! Bulk verification for files of any size: the page streams a JSON Lines file
//! into workers a few megabytes at a time, and each chunk comes back as one
//! status byte per record, not as verdicts.
//!
//! A million records would be hundreds of megabytes of verdict JSON; the page
//! needs only the counts, where the failures are, and — for the few rows on
//! screen — the full verdict, which it recomputes from the record's bytes
//! with [`crate::verify`]. So a chunk's answer is a status per record plus
//! each record's byte offset in the chunk.

use fairseed_core::{Verdict, Verifier};
use wasm_bindgen::prelude::*;

/// The record verified: every check passed.
pub const VALID: u8 = 0;
/// The record was read but a check failed.
pub const INVALID: u8 = 1;
/// The record could not be read (bad JSON, a bad field).
pub const UNREADABLE: u8 = 2;

/// The status byte of a verdict.
pub fn status(verdict: &Verdict) -> u8 {
    if verdict.is_input_error() {
        UNREADABLE
    } else if verdict.valid {
        VALID
    } else {
        INVALID
    }
}

/// The records of a chunk of JSON Lines: each non-blank line's text and the
/// byte offset where the line starts. A line that is not UTF-8 is kept as
/// `None` (it is unreadable).
pub fn lines(bytes: &[u8]) -> Vec<(u32, Option<&str>)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    for line in bytes.split(|b| *b == b'\n') {
        let start = at;
        at += line.len() + 1;
        match std::str::from_utf8(line) {
            Ok(text) if text.trim().is_empty() => {}
            Ok(text) => out.push((offset(start), Some(text))),
            Err(_) => out.push((offset(start), None)),
        }
    }
    out
}

/// A chunk offset as u32: chunks are a few megabytes, far below 4 GiB.
fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

/// The status of each record of `bytes` (whole JSON Lines) and where each
/// starts, verified in order by one verifier (a pair's bets share its key).
pub fn check_lines(verifier: &mut Verifier, bytes: &[u8]) -> (Vec<u8>, Vec<u32>) {
    let records = lines(bytes);
    let texts: Vec<&str> = records.iter().filter_map(|(_, t)| *t).collect();
    let mut verdicts = fairseed_holdem::verdict::verify_batch(verifier, &texts).into_iter();
    let statuses = records
        .iter()
        .map(|(_, text)| match text {
            Some(_) => verdicts.next().map_or(UNREADABLE, |v| status(&v)),
            None => UNREADABLE,
        })
        .collect();
    (statuses, records.iter().map(|(at, _)| *at).collect())
}

/// A verifier that keeps its key state across the chunks of one file.
#[wasm_bindgen]
#[derive(Default)]
pub struct BulkVerifier {
    verifier: Verifier,
    starts: Vec<u32>,
}

#[wasm_bindgen]
impl BulkVerifier {
    /// A fresh verifier.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }

    /// One status per record of `bytes` (whole lines of JSON Lines): 0 valid,
    /// 1 does not verify, 2 cannot be read. [`BulkVerifier::starts`] then
    /// gives each record's offset in `bytes`.
    pub fn lines(&mut self, bytes: &[u8]) -> Vec<u8> {
        let (statuses, starts) = check_lines(&mut self.verifier, bytes);
        self.starts = starts;
        statuses
    }

    /// The byte offset of each record of the last [`BulkVerifier::lines`] call.
    pub fn starts(&self) -> Vec<u32> {
        self.starts.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = "0000000000000000000000000000000000000000000000000000000000000001";

    fn record(nonce: u64, roll: u64) -> String {
        let commitment = fairseed_core::sha256_hex(SEED.as_bytes());
        serde_json::json!({"scheme": "dice_v1", "commitment": commitment, "server_seed": SEED,
            "client_seed": "c", "nonce": nonce, "outcome": {"roll": roll}})
        .to_string()
    }

    #[test]
    fn statuses_and_offsets_follow_the_lines() {
        let roll = u64::from(fairseed_core::dice::roll(
            &fairseed_core::ServerSeed::parse(SEED).unwrap_or_else(|e| panic!("{e}")),
            &fairseed_core::ClientSeed::parse("c").unwrap_or_else(|e| panic!("{e}")),
            0,
        ));
        let good = record(0, roll);
        let bad = record(0, (roll + 1) % 10000);
        let text = format!("{good}\n\n  \n{bad}\r\nnot json\n");
        let (statuses, starts) = check_lines(&mut Verifier::new(), text.as_bytes());
        assert_eq!(statuses, vec![VALID, INVALID, UNREADABLE]);
        let want: Vec<u32> = [0, good.len() + 5, good.len() + 5 + bad.len() + 2]
            .iter()
            .map(|&x| offset(x))
            .collect();
        assert_eq!(starts, want);
    }

    #[test]
    fn statuses_agree_with_the_whole_text_verifier() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/vectors/records/invalid.jsonl"
        ))
        .unwrap_or_default();
        assert!(!text.is_empty());
        let (statuses, _) = check_lines(&mut Verifier::new(), text.as_bytes());
        let whole: Vec<u8> = fairseed_core::record::split(&text)
            .iter()
            .map(|r| match r {
                Ok(v) => status(&Verifier::new().verify_value(v)),
                Err(_) => UNREADABLE,
            })
            .collect();
        assert_eq!(statuses, whole);
        let bad = b"{\"scheme\":\"dice_v1\"}\n\xff\xfe\n";
        // Hold'em hand records are replayed here too, as in `fairseed verify`.
        let hands = include_str!("../../../examples/holdem_selfpoker_v2.jsonl");
        let changed = hands.replacen("\"alice\"", "\"alicf\"", 1);
        let (statuses, _) = check_lines(&mut Verifier::new(), changed.as_bytes());
        assert_eq!(statuses, vec![INVALID, VALID, VALID]);
        assert_eq!(
            check_lines(&mut Verifier::new(), bad).0,
            vec![UNREADABLE, UNREADABLE]
        );
    }
}

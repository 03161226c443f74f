//! The verifier's entry point: records in, `fairseed verify --json` verdicts out.
//!
//! The text goes through core's own splitter and `verify_value` (hold'em hand
//! records through `fairseed_holdem::verdict`, as the command line routes
//! them), and each verdict is serialized by core's `Verdict::to_json`, so the
//! browser's verdicts are byte for byte the command line's.

use fairseed_core::{record, report, Verdict, Verifier};
use fairseed_holdem::verdict as holdem;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// The verdict of each record of `text`, in order; a piece that cannot be read
/// as a record becomes a verdict carrying core's error.
///
/// One [`Verifier`] serves the whole text, as in `fairseed verify`: consecutive
/// bets of a dice pair share its key state and its commitment check.
fn verdicts(text: &str) -> Vec<Verdict> {
    let mut verifier = Verifier::new();
    record::split(text)
        .into_iter()
        .map(|item| match item {
            Ok(value) if holdem::is_hand_record(&value) => holdem::verify_value(&value),
            Ok(value) => verifier.verify_value(&value),
            Err(e) => unreadable(&e.to_string()),
        })
        .collect()
}

/// The verdict on a piece of text that is not a record.
///
/// Built as the verdict on empty input (unreadable, no scheme) with its error
/// replaced by the splitter's, which names the line; `Verdict::unreadable`
/// makes the same verdict.
fn unreadable(error: &str) -> Verdict {
    let mut verdict = Verifier::new().verify_str("");
    verdict.error = Some(error.to_owned());
    verdict
}

/// The JSON Lines `fairseed verify --json` prints for `text`: one object per
/// record, each ending in a newline.
pub fn json_lines(text: &str) -> String {
    verdicts(text)
        .iter()
        .enumerate()
        .map(|(i, v)| v.to_json(i) + "\n")
        .collect()
}

/// `{"verdicts": [...], "reports": [...]}`: the `--json` object and the
/// readable report of each record of `text`.
///
/// The verdicts are spliced in as core's `to_json` text, not re-serialized, so
/// each is byte for byte the line `fairseed verify --json` prints (key order
/// and number formatting included).
pub fn verify_text(text: &str) -> String {
    let all = verdicts(text);
    let objects: Vec<String> = all.iter().enumerate().map(|(i, v)| v.to_json(i)).collect();
    let reports: Vec<Value> = all
        .iter()
        .enumerate()
        .map(|(i, v)| Value::from(report::render(i, v)))
        .collect();
    format!(
        "{{\"verdicts\":[{}],\"reports\":{}}}",
        objects.join(","),
        Value::Array(reports)
    )
}

/// Verifies one record, a JSON array of records or JSON Lines; returns
/// `{"verdicts": [...], "reports": [...]}` as JSON text. Never fails: bad input
/// is a verdict with `error` set, as in `fairseed verify`.
#[wasm_bindgen]
pub fn verify(text: &str) -> String {
    verify_text(text)
}

/// Exactly the output of `fairseed verify --json` for `text`.
#[wasm_bindgen]
pub fn verify_json_lines(text: &str) -> String {
    json_lines(text)
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
    fn lines_match_core_verdicts_one_per_record() {
        let text = format!("{}\n{}\nnot json\n", record(0, 1), record(1, 2));
        let lines: Vec<String> = json_lines(&text).lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), 3);
        for (i, line) in lines.iter().take(2).enumerate() {
            let one = record(i as u64, (i + 1) as u64);
            assert_eq!(*line, fairseed_core::verify_str(&one).to_json(i));
        }
        let third: Value = serde_json::from_str(&lines[2]).unwrap_or_default();
        assert_eq!(third["valid"], Value::Bool(false));
        assert!(
            third["error"].as_str().unwrap_or("").contains("line 3"),
            "{third}"
        );
    }

    #[test]
    fn verify_text_carries_verdicts_and_reports() {
        let out: Value =
            serde_json::from_str(&verify_text(&format!("[{}]", record(5, 7)))).unwrap_or_default();
        assert_eq!(out["verdicts"].as_array().map(Vec::len), Some(1));
        // Each verdict is spliced in as core's own line.
        let line = fairseed_core::verify_str(&record(5, 7)).to_json(0);
        assert!(verify_text(&record(5, 7)).contains(&line));
        let report = out["reports"][0].as_str().unwrap_or("");
        assert!(report.starts_with("record 0 (dice_v1)"), "{report}");
    }

    /// The `selfpoker_v2` example verifies here as in `fairseed verify`, and a
    /// changed client seed is named.
    #[test]
    fn holdem_records_verify_with_their_derivation() {
        let text = include_str!("../../../examples/holdem_selfpoker_v2.jsonl");
        let lines: Vec<Value> = json_lines(text)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_default())
            .collect();
        assert_eq!(lines.len(), 3);
        for line in &lines {
            assert_eq!(line["valid"], Value::Bool(true), "{line}");
            assert_eq!(line["checks"][1]["name"], "derivation");
        }
        let changed = text
            .lines()
            .next()
            .unwrap_or("")
            .replace("\"alice\"", "\"alicf\"");
        let line: Value = serde_json::from_str(json_lines(&changed).trim()).unwrap_or_default();
        assert_eq!(line["valid"], Value::Bool(false));
        let detail = line["checks"][1]["detail"].as_str().unwrap_or("");
        assert!(
            detail.starts_with("hand 1: the seed derived from"),
            "{detail}"
        );
    }
}

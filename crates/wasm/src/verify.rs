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
///
/// Hand records of one table in a row are then held to each other
/// (`carried`, [`holdem::chain_checks`]), as `fairseed verify` holds them.
fn verdicts(text: &str) -> Vec<Verdict> {
    let mut verifier = Verifier::new();
    let items = record::split(text);
    // Each hand record's own text (none for anything else), for the checks between hands.
    let hands: Vec<String> = items
        .iter()
        .map(|item| match item {
            Ok(value) if holdem::is_hand_record(value) => value.to_string(),
            _ => String::new(),
        })
        .collect();
    let mut all: Vec<Option<Verdict>> = items
        .into_iter()
        .map(|item| {
            Some(match item {
                Ok(value) if holdem::is_hand_record(&value) => holdem::verify_value(&value),
                Ok(value) => verifier.verify_value(&value),
                Err(e) => unreadable(&e.to_string()),
            })
        })
        .collect();
    if hands.iter().filter(|t| !t.is_empty()).count() > 1 {
        let texts: Vec<&str> = hands.iter().map(String::as_str).collect();
        holdem::chain_checks(&texts, &mut all);
    }
    all.into_iter().flatten().collect()
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

    /// Three hands of one simulated table under `selfpoker_v3`, one JSON line each.
    fn hands() -> Vec<fairseed_holdem::HandRecord> {
        use fairseed_core::selfpoker_v2::ClientSeedEntry;
        use fairseed_holdem::ai::Level;
        use fairseed_holdem::live::Scheme;
        let session = fairseed_holdem::SessionV2 {
            table_id: "simulated".into(),
            client_seeds: vec![ClientSeedEntry::new(0, "mine").unwrap_or_else(|e| panic!("{e}"))],
            scheme: Scheme::SelfpokerV3,
        };
        fairseed_holdem::simulate_session(&[Level::One, Level::Two], 3, 7, Some(&session))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The browser's lines for `records`, and the command line's (`verify_batch`).
    fn both(records: &[fairseed_holdem::HandRecord]) -> (Vec<String>, Vec<String>) {
        let texts: Vec<String> = records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap_or_default())
            .collect();
        let browser = json_lines(&texts.join("\n"))
            .lines()
            .map(str::to_owned)
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let cli = holdem::verify_batch(&mut Verifier::new(), &refs)
            .iter()
            .enumerate()
            .map(|(i, v)| v.to_json(i))
            .collect();
        (browser, cli)
    }

    #[test]
    fn hands_in_a_row_are_held_to_each_other_as_on_the_command_line() {
        let records = hands();
        let (browser, cli) = both(&records);
        assert_eq!(browser, cli);
        for (i, line) in browser.iter().enumerate() {
            let v: Value = serde_json::from_str(line).unwrap_or_default();
            assert_eq!(v["valid"], Value::Bool(true), "{line}");
            let carried = v["checks"]
                .as_array()
                .map_or(0, |c| c.iter().filter(|c| c["name"] == "carried").count());
            assert_eq!(carried, usize::from(i > 0), "hand {}: {line}", i + 1);
        }
        // A top-up the record misnames: invalid, in the same words as on the command line.
        let mut tampered = records;
        let seat = tampered[2]
            .seats
            .iter()
            .position(|s| !s.sat_down)
            .unwrap_or_default();
        tampered[2].seats[seat].topped_up = Some(1);
        let (browser, cli) = both(&tampered);
        assert_eq!(browser, cli);
        let third: Value = serde_json::from_str(&browser[2]).unwrap_or_default();
        assert_eq!(third["valid"], Value::Bool(false), "{third}");
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

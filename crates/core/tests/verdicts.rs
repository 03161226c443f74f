//! Verdicts and reports: pending records, named mismatches, round trips.

#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use fairseed_core::record::Record;
use fairseed_core::{report, verify_str, verify_value};
use serde_json::Value;

fn first_record(scheme_file: &str, pick: impl Fn(&str) -> bool) -> Value {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/vectors/records")
        .join(scheme_file);
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| pick(l)).unwrap();
    serde_json::from_str(line).unwrap()
}

#[test]
fn a_record_before_its_reveal_says_what_it_could_not_check() {
    let mut record = first_record("dice_v1.jsonl", |l| l.contains("\"bet\""));
    record.as_object_mut().unwrap().remove("server_seed");
    let verdict = verify_value(&record);
    assert!(!verdict.valid);
    assert!(!verdict.is_input_error());
    assert_eq!(verdict.outcome, None);
    let check = verdict.first_failure().unwrap();
    assert_eq!(check.name, "reveal");
    assert!(
        check.detail.contains("not revealed yet"),
        "{}",
        check.detail
    );
    let text = report::render(0, &verdict);
    assert!(text.contains("not revealed yet"), "{text}");
}

#[test]
fn a_bad_card_is_named_by_deal_seat_and_card() {
    let mut record = first_record("match_seed_v2.jsonl", |l| {
        l.contains("\"bridge\"") && l.contains("\"deals\":3")
    });
    let card = &mut record["outcome"]["deals"][1][2][5];
    let old = card.as_u64().unwrap();
    *card = ((old + 1) % 52).into();
    let verdict = verify_value(&record);
    assert!(!verdict.valid);
    let failed = verdict.first_failure().unwrap();
    assert_eq!(failed.name, "outcome.deals");
    assert!(
        failed
            .detail
            .starts_with("deal 2, seat 2, card 6 (outcome.deals[1][2][5]): record says"),
        "{}",
        failed.detail
    );
    let report = report::render(3, &verdict);
    assert!(
        report.contains("record 3 (match_seed_v2): INVALID"),
        "{report}"
    );
    assert!(
        report.contains("first mismatch: outcome.deals: deal 2, seat 2, card 6"),
        "{report}"
    );
}

#[test]
fn reports_name_cards_tiles_and_colours() {
    let bridge = verify_value(&first_record("match_seed_v2.jsonl", |l| {
        l.contains("\"bridge\"") && l.contains("\"deals\":3")
    }));
    let text = report::render(0, &bridge);
    assert!(text.contains("deal 1, seat 0: ["), "{text}");
    assert!(
        text.contains("s ") || text.contains("h "),
        "cards by name: {text}"
    );

    let mahjong = verify_value(&first_record("match_seed_v2.jsonl", |l| {
        l.contains("\"mahjong\"") && l.contains("\"hands\":[13")
    }));
    let text = report::render(0, &mahjong);
    assert!(
        [
            "Characters",
            "Dots",
            "Bamboo",
            "wind",
            "dragon",
            "Flower",
            "Season"
        ]
        .iter()
        .any(|n| text.contains(n)),
        "{text}"
    );

    let bot = verify_value(&first_record("chess_colour_v1.jsonl", |l| {
        l.contains("\"commit_b\":\"-\"")
    }));
    assert!(bot.valid, "{:?}", bot.checks);
    assert!(report::render(0, &bot).contains("white: "));
}

#[test]
fn unreadable_input_names_the_field_and_never_panics() {
    for (text, field) in [
        ("{", "invalid JSON"),
        ("[]", "record"),
        (r#"{"scheme":"dice_v1"}"#, "commitment: missing"),
        (r#"{"scheme":"nope"}"#, "unknown scheme 'nope'"),
        (
            r#"{"scheme":"selfpoker","commit":"00","players":3}"#,
            "commit:",
        ),
        (
            r#"{"scheme":"dice_v1","commitment":"00","client_seed":"x","nonce":-1}"#,
            "commitment:",
        ),
    ] {
        let verdict = verify_str(text);
        assert!(verdict.is_input_error(), "{text}");
        let error = verdict.error.unwrap();
        assert!(error.contains(field), "{text}: {error}");
    }
}

#[test]
fn records_round_trip_through_their_types() {
    for file in [
        "match_seed_v2.jsonl",
        "match_seed_v1.jsonl",
        "chess_colour_v1.jsonl",
        "poker_hmac_v1.jsonl",
        "poker_hmac_v1_proof.jsonl",
        "dice_v1.jsonl",
    ] {
        let record = first_record(file, |_| true);
        let parsed = Record::from_value(&record).unwrap();
        assert_eq!(parsed.to_value(), record, "{file}");
    }
}

#[test]
fn json_verdict_has_exactly_the_spec_keys() {
    let verdict = verify_value(&first_record("selfpoker.jsonl", |_| true));
    let text = verdict.to_json(7);
    let order = ["index", "scheme", "valid", "checks", "outcome", "error"]
        .map(|k| text.find(&format!("\"{k}\":")));
    assert!(order.iter().all(Option::is_some), "{text}");
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "keys in the order of docs/spec.md §11.4: {text}"
    );
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 6);
    assert_eq!(v["index"], 7);
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["outcome"]["deck"].as_array().unwrap().len(), 52);
}

//! `fairseed table simulate` and hold'em records in `fairseed verify`, through
//! the real binary.
//!
//! The tampered records are built here from the rules of no-limit hold'em (the
//! first preflop raise must reach two big blinds) and the record's own fields;
//! the expected words follow docs/spec.md, cards and chips formatted by this
//! file's own helpers.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;
use common::{code, run, text};

fn simulate(seats: &str, hands: &str, seed: &str) -> Vec<Value> {
    let out = run(
        &[
            "table", "simulate", "--seats", seats, "--hands", hands, "--seed", seed,
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON record"))
        .collect()
}

fn verify(records: &[Value]) -> Output {
    let lines: String = records.iter().map(|r| format!("{r}\n")).collect();
    run(&["verify", "-"], lines.as_bytes())
}

/// A card id as its name: rank × 4 + suit, ranks 2 to ace, suits ♣♦♥♠.
fn card_name(id: &Value) -> String {
    let id = id.as_u64().expect("a card id") as usize;
    let rank = "23456789TJQKA".as_bytes()[id / 4] as char;
    let suit = "cdhs".as_bytes()[id % 4] as char;
    format!("{rank}{suit}")
}

/// `1,200`: chips with thousands separators.
fn chips(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn simulated_hands_verify_and_repeat_from_their_seed() {
    let records = simulate("4", "80", "42");
    assert_eq!(records.len(), 80);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["scheme"], "holdem_hand_v1");
        assert_eq!(r["hand"], i as u64 + 1);
    }
    let out = verify(&records);
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("80 records: 80 valid, 0 invalid, 0 unreadable"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(simulate("4", "80", "42"), records, "same seed, same hands");
    assert_ne!(
        simulate("4", "80", "43"),
        records,
        "another seed, other hands"
    );
}

#[test]
fn hold_em_and_other_schemes_verify_side_by_side() {
    let dice = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/dice_v1.jsonl"),
    )
    .expect("the dice example is readable");
    let dice: Value =
        serde_json::from_str(dice.lines().next().expect("a first record")).expect("JSON");
    let hands = simulate("2", "2", "5");
    let out = verify(&[hands[0].clone(), dice, hands[1].clone()]);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 0, "{report}");
    assert!(
        report.contains("record 0 (holdem_hand_v1): VALID"),
        "{report}"
    );
    assert!(report.contains("record 1 (dice_v1): VALID"), "{report}");
    assert!(
        report.contains("record 2 (holdem_hand_v1): VALID"),
        "{report}"
    );
}

#[test]
fn hold_em_records_verify_in_a_json_array_too() {
    let hands = simulate("3", "5", "12");
    let array = serde_json::to_string_pretty(&hands).expect("records serialize");
    let out = run(&["verify", "-"], array.as_bytes());
    let report = text(&out.stdout);
    assert_eq!(code(&out), 0, "{report}");
    assert!(
        report.contains("5 records: 5 valid, 0 invalid, 0 unreadable"),
        "{report}"
    );
}

#[test]
fn a_raise_below_the_minimum_is_named() {
    let mut records = simulate("3", "40", "7");
    // A hand whose first preflop raise faces only the big blind: the minimum
    // raise is then to two big blinds, so a raise to one chip more than the
    // big blind is short.
    let (index, seat, hand, big_blind) = records
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let first = r["actions"]
                .as_array()?
                .iter()
                .find(|a| a["action"]["kind"] == "raise_to")?;
            (first["street"] == "preflop").then(|| {
                (
                    i,
                    first["seat"].as_u64().expect("a seat"),
                    r["hand"].as_u64().expect("a hand number"),
                    r["config"]["big_blind"].as_u64().expect("a big blind"),
                )
            })
        })
        .expect("some hand in 40 has a preflop raise");
    let actions = records[index]["actions"]
        .as_array_mut()
        .expect("an action list");
    let raise = actions
        .iter_mut()
        .find(|a| a["action"]["kind"] == "raise_to")
        .expect("the raise found above");
    raise["action"]["to"] = Value::from(big_blind + 1);

    let out = verify(&records);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 1, "{report}");
    let want = format!(
        "FAIL actions: hand {hand}, preflop: seat {seat}'s raise to {} is below the minimum raise {}",
        chips(big_blind + 1),
        chips(2 * big_blind)
    );
    assert!(report.contains(&want), "want {want:?} in\n{report}");
    assert!(
        report.contains("39 valid, 1 invalid, 0 unreadable"),
        "{report}"
    );
}

#[test]
fn a_changed_board_card_is_named() {
    let mut records = simulate("3", "30", "8");
    let (index, board) = records
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let board = r["results"]["board"].as_array()?;
            (board.len() == 5).then(|| (i, board.clone()))
        })
        .expect("some hand in 30 reaches the river");
    let unused = (0..52u64)
        .find(|c| !board.contains(&Value::from(*c)))
        .expect("a card not on the board");
    let mut changed = board.clone();
    changed[2] = Value::from(unused);
    records[index]["results"]["board"] = Value::Array(changed.clone());
    let hand = records[index]["hand"].as_u64().expect("a hand number");

    let out = verify(&records);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 1, "{report}");
    let names = |cards: &[Value]| cards.iter().map(card_name).collect::<Vec<_>>().join(" ");
    let want = format!(
        "FAIL results: hand {hand}: the board is {}, the record says {}",
        names(&board),
        names(&changed)
    );
    assert!(report.contains(&want), "want {want:?} in\n{report}");
}

#[test]
fn a_changed_winner_is_named() {
    let mut records = simulate("3", "30", "9");
    let (index, winner, amount) = records
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let winners = r["results"]["pots"][0]["winners"].as_array()?;
            let [pair] = winners.as_slice() else {
                return None;
            };
            Some((i, pair[0].as_u64()?, pair[1].as_u64()?))
        })
        .expect("some hand in 30 has one winner of its main pot");
    let other = (winner + 1) % 3;
    records[index]["results"]["pots"][0]["winners"] = serde_json::json!([[other, amount]]);
    let hand = records[index]["hand"].as_u64().expect("a hand number");

    let out = verify(&records);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 1, "{report}");
    let want = format!(
        "FAIL results: hand {hand}: pot 0 pays seat {winner} {}, the record says seat {other} {}",
        chips(amount),
        chips(amount)
    );
    assert!(report.contains(&want), "want {want:?} in\n{report}");
}

#[test]
fn a_changed_seed_fails_the_commitment() {
    let mut records = simulate("2", "1", "10");
    let seed = records[0]["seed"].as_u64().expect("a seed");
    records[0]["seed"] = Value::from(seed ^ 1);
    let out = verify(&records);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 1, "{report}");
    assert!(
        report.contains("FAIL commitment: hand 1: commit does not match"),
        "{report}"
    );
}

#[test]
fn a_record_missing_a_field_is_unreadable() {
    let mut records = simulate("2", "1", "11");
    records[0]
        .as_object_mut()
        .expect("an object")
        .remove("actions");
    let out = verify(&records);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 2, "{report}");
    assert!(report.contains("missing field `actions`"), "{report}");
}

#[test]
fn bad_simulate_arguments_name_the_flag() {
    for (args, flag) in [
        (
            &["--seats", "7", "--hands", "1", "--seed", "1"][..],
            "--seats",
        ),
        (
            &["--seats", "3", "--hands", "0", "--seed", "1"][..],
            "--hands",
        ),
        (
            &["--seats", "3", "--hands", "100001", "--seed", "1"][..],
            "--hands",
        ),
        (
            &["--seats", "3", "--hands", "1", "--seed", "x"][..],
            "--seed",
        ),
        (
            &[
                "--seats", "3", "--hands", "1", "--seed", "1", "--levels", "1,2",
            ][..],
            "--levels",
        ),
        (
            &[
                "--seats", "2", "--hands", "1", "--seed", "1", "--levels", "1,4",
            ][..],
            "--levels",
        ),
    ] {
        let out = run(&[&["table", "simulate"][..], args].concat(), b"");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(
            text(&out.stderr).contains(flag),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

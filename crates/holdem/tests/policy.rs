//! A hand held to its table's policy (docs/spec.md §19.3): the policy's JSON
//! and hash against vectors from an independent Python script, and each way
//! a record may stray from the policy committed at open named by the
//! verifier's `policy` check — an AI seated at a level the policy does not
//! give first of all.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use fairseed_core::selfpoker_v2::ClientSeedEntry;
use fairseed_core::Verifier;
use fairseed_holdem::ai::Level;
use fairseed_holdem::live::{Policy, Scheme};
use fairseed_holdem::verdict::{verdict, verify_batch, verify_text};
use fairseed_holdem::{policy_check, simulate_session, HandRecord, Player, SessionV2};
use serde_json::Value;

#[test]
fn a_policy_writes_and_hashes_as_the_python_vectors_say() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/primitives/holdem_policy.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/vectors/primitives/holdem_policy.json");
    let file: Value = serde_json::from_str(&text).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() >= 20, "{} cases", cases.len());
    for case in cases {
        let json = case["policy"].as_str().unwrap();
        let policy: Policy = serde_json::from_str(json).unwrap();
        assert_eq!(policy.to_json(), json);
        assert_eq!(policy.commit(), case["sha256"].as_str().unwrap(), "{json}");
    }
}

/// Two hands at a table of a person (seat 0) and AIs of levels 2 and 2,
/// dealt under `selfpoker_v3` with the secret revealed, each carrying its policy.
fn records() -> Vec<HandRecord> {
    let session = SessionV2 {
        table_id: "simulated".into(),
        client_seeds: vec![ClientSeedEntry::new(0, "mine").unwrap()],
        scheme: Scheme::SelfpokerV3,
    };
    simulate_session(&[Level::One, Level::Two, Level::Two], 2, 11, Some(&session)).unwrap()
}

fn policy_failure(record: &HandRecord) -> String {
    let v = verdict(record);
    assert!(!v.valid, "{v:?}");
    let failed = v.first_failure().expect("a check fails");
    assert_eq!(failed.name, "policy", "{v:?}");
    failed.detail.to_string()
}

#[test]
fn an_honest_hand_holds_to_its_policy_and_names_its_hash() {
    for r in records() {
        let policy = r
            .policy
            .clone()
            .expect("a simulated record carries its policy");
        assert_eq!(policy.ais, [2, 2]);
        assert!(policy.ai_seats.is_empty(), "seats 1, 2 as at a live table");
        let v = verdict(&r);
        assert!(v.valid, "{v:?}");
        let check = v.checks.iter().find(|c| c.name == "policy").unwrap();
        assert!(check.detail.contains(&policy.commit()), "{}", check.detail);
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains(&format!("\"policy\":{}", policy.to_json())));
        assert!(verify_text(&json).valid);
    }
}

#[test]
fn an_ai_seated_at_another_level_than_the_policys_is_named() {
    let mut r = records().remove(1);
    r.seats[2].player = Player::Ai { level: 3 };
    assert_eq!(
        policy_failure(&r),
        "hand 2: seat 2 plays as AI level 3; the table's policy, committed at open, seats level 2 there"
    );
}

/// A change to a record.
type Tamper = fn(&mut HandRecord);

#[test]
fn every_other_stray_from_the_policy_is_named() {
    let honest = records();
    let cases: Vec<(usize, Tamper, &str)> = vec![
        (1, |r| r.config.big_blind = 200, "hand 2: big_blind is 200; the table's policy, committed at open, sets 100"),
        (1, |r| r.config.action_ms = 300, "hand 2: action_ms is 300; the table's policy, committed at open, gives each turn 30000 ms"),
        (1, |r| r.seats[0].player = Player::Ai { level: 3 }, "hand 2: seat 0 plays as AI level 3; the table's policy, committed at open, leaves it to people"),
        (1, |r| r.seats[1].player = Player::Human { id: 9 }, "hand 2: seat 1 is a person; the table's policy, committed at open, seats AI level 2 there"),
        (1, |r| r.seats[1].engine = None, "hand 2: seat 1 is an AI that names no engine; the table's policy, committed at open, plays its AIs under engine v1"),
        (1, |r| { r.seats.remove(2); }, "hand 2: the table's policy, committed at open, seats AI level 2 at seat 2; the hand was dealt without it"),
        (0, |r| r.seats[1].stack = 12_000, "hand 1: seat 1 starts hand 1 with 12,000 chips; the table's policy, committed at open, starts every seat with 10,000"),
        (0, |r| r.seats[0].topped_up = Some(100), "hand 1: seat 0 was topped up 100 before hand 1; the table's policy, committed at open, starts every seat with 10,000 and tops a stack up only between hands"),
        (1, |r| { r.seats[0].stack = 12_000; r.seats[0].topped_up = Some(2_500); }, "hand 2: seat 0 was topped up 2,500 to 12,000 chips; the table's policy, committed at open, tops a stack up to its starting stack, 10,000"),
        (1, |r| { r.seats[0].stack = 9_000; r.seats[0].sat_down = true; }, "hand 2: seat 0 sat down with 9,000 chips; the table's policy, committed at open, seats every player with 10,000"),
        (1, |r| { r.seats[2].stack = 10_000; r.seats[2].topped_up = Some(10_001); }, "hand 2: seat 2 was topped up 10,001, more than the starting stack; the table's policy, committed at open, tops a stack up from what it has to 10,000"),
    ];
    for (i, tamper, want) in cases {
        let mut r = honest[i].clone();
        tamper(&mut r);
        assert_eq!(policy_check::check(&r).unwrap_err().to_string(), want);
    }
}

#[test]
fn a_v3_hand_without_its_policy_fails_and_a_malformed_policy_is_named() {
    let mut r = records().remove(0);
    r.policy = None;
    assert_eq!(
        policy_failure(&r),
        "hand 1: the record carries no policy: its seats cannot be held to what the table committed to at open"
    );
    let mut r = records().remove(0);
    r.policy.as_mut().unwrap().ais[1] = 4;
    let v = verdict(&r);
    let error = v.error.expect("an input error");
    assert!(
        error.starts_with("hand 1: policy.ais[1]: level 4"),
        "{error}"
    );
    let mut r = records().remove(0);
    r.policy.as_mut().unwrap().ai_seats = vec![2, 1];
    let error = verdict(&r).error.expect("an input error");
    assert!(
        error.starts_with("hand 1: policy.ai_seats[1]: seat 1"),
        "{error}"
    );
}

/// Forty hands at the table of [`records`], where stacks run low and are
/// topped up between hands, as JSON texts.
fn long_session() -> Vec<HandRecord> {
    let session = SessionV2 {
        table_id: "simulated".into(),
        client_seeds: vec![ClientSeedEntry::new(0, "mine").unwrap()],
        scheme: Scheme::SelfpokerV3,
    };
    simulate_session(
        &[Level::One, Level::Two, Level::Two],
        40,
        11,
        Some(&session),
    )
    .unwrap()
}

fn batch(records: &[HandRecord]) -> Vec<fairseed_core::Verdict> {
    let texts: Vec<String> = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    verify_batch(&mut Verifier::new(), &texts)
}

/// The first hand of `records` with a top-up, and the seat topped up.
fn first_top_up(records: &[HandRecord]) -> (usize, usize) {
    records
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let seat = r.seats.iter().position(|s| s.topped_up > Some(0))?;
            Some((i, seat))
        })
        .expect("a top-up in forty hands")
}

#[test]
fn top_ups_the_policy_allows_hold_and_every_stack_is_carried_from_the_hand_before() {
    let records = long_session();
    let (i, seat) = first_top_up(&records);
    let r = &records[i];
    let s = r.seats[seat];
    assert_eq!(s.stack, 10_000, "a top-up fills to the starting stack");
    let ended = records[i - 1]
        .results
        .stacks
        .iter()
        .find(|(n, _)| *n == s.seat)
        .unwrap()
        .1;
    let topped_up = s.topped_up.unwrap();
    assert_eq!(ended + topped_up, 10_000);
    assert!(serde_json::to_string(r)
        .unwrap()
        .contains(&format!("\"topped_up\":{topped_up}")));
    let verdicts = batch(&records);
    for (n, v) in verdicts.iter().enumerate() {
        assert!(v.valid, "hand {}: {v:?}", n + 1);
        let carried = v.checks.iter().filter(|c| c.name == "carried").count();
        assert_eq!(carried, usize::from(n > 0), "hand {}: {v:?}", n + 1);
    }
    // Alone, a record cannot be held to the hand before it.
    assert!(verdict(r).checks.iter().all(|c| c.name != "carried"));
}

#[test]
fn a_top_up_the_record_hides_or_inflates_is_named_against_the_hand_before() {
    let records = long_session();
    let (i, seat) = first_top_up(&records);
    let s = records[i].seats[seat];
    let topped_up = s.topped_up.unwrap();
    let ended = 10_000 - topped_up;
    let cases: Vec<(u64, String)> = vec![
        (0, "no top-up".to_owned()),
        (
            topped_up - 1,
            format!(
                "a top-up of {}",
                fairseed_holdem::rules::chips(topped_up - 1)
            ),
        ),
    ];
    for (named_amount, named) in cases {
        let mut tampered = records.clone();
        tampered[i].seats[seat].topped_up = Some(named_amount);
        let v = &batch(&tampered)[i];
        assert!(!v.valid, "{v:?}");
        let failed = v.first_failure().unwrap();
        assert_eq!(failed.name, "carried");
        assert_eq!(
            failed.detail.to_string(),
            format!(
                "hand {}: seat {} starts with 10,000 chips; it ended hand {} with {} and the record names {named}",
                i + 1,
                s.seat,
                i,
                fairseed_holdem::rules::chips(ended)
            )
        );
    }
    // A player who sat down anew brings a stack of their own.
    let mut sat = records.clone();
    sat[i].seats[seat].topped_up = Some(0);
    sat[i].seats[seat].sat_down = true;
    assert!(batch(&sat)[i].valid);
    // A record written before records named top-ups is not held so.
    let mut old = records.clone();
    for s in &mut old[i].seats {
        s.topped_up = None;
    }
    let v = &batch(&old)[i];
    assert!(v.valid, "{v:?}");
    assert!(v.checks.iter().all(|c| c.name != "carried"), "{v:?}");
}

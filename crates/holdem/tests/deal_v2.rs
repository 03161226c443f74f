//! Hand records dealt under `selfpoker_v2`: they verify whole, and a changed
//! secret, client seed, seed or commit is named (docs/spec.md §17.5).
#![allow(clippy::unwrap_used)] // tests: a panic is a failure

use fairseed_core::selfpoker;
use fairseed_core::selfpoker_v2::ClientSeedEntry;
use fairseed_holdem::ai::Level;
use fairseed_holdem::deal::DealV2;
use fairseed_holdem::record::replay_hand;
use fairseed_holdem::{replay, simulate_session, verdict, HandRecord, ReplayError, SessionV2};

fn records() -> Vec<HandRecord> {
    let session = SessionV2 {
        table_id: "t-1".to_owned(),
        client_seeds: vec![
            ClientSeedEntry::new(0, "alice").unwrap(),
            ClientSeedEntry::new(2, "b:o=2").unwrap(),
        ],
        scheme: fairseed_holdem::live::Scheme::SelfpokerV2,
    };
    let levels = [Level::One, Level::Two, Level::Three, Level::Two];
    simulate_session(&levels, 12, 9, Some(&session)).unwrap()
}

fn check_names(record: &HandRecord) -> Vec<(String, bool)> {
    verdict::verdict(record)
        .checks
        .iter()
        .map(|c| (c.name.to_string(), c.ok))
        .collect()
}

fn detail_of_failure(record: &HandRecord) -> String {
    let v = verdict::verdict(record);
    assert!(!v.valid, "{v:?}");
    v.first_failure()
        .map(|c| format!("{}: {}", c.name, c.detail))
        .unwrap_or_default()
}

#[test]
fn derived_hands_verify_with_seven_checks() {
    for r in records() {
        replay(&r).unwrap();
        let v = verdict::verdict(&r);
        assert!(v.valid, "{v:?}");
        let names: Vec<String> = check_names(&r).into_iter().map(|c| c.0).collect();
        assert_eq!(
            names,
            [
                "session_secret",
                "derivation",
                "policy",
                "commitment",
                "actions",
                "results",
                "ai"
            ]
        );
        // The site's own check still holds: the commit is the seed's.
        assert_eq!(r.commit, selfpoker::commit(r.seed));
    }
}

#[test]
fn a_changed_client_seed_is_named() {
    let mut r = records().remove(3);
    r.deal
        .as_mut()
        .unwrap()
        .client_seeds
        .insert(2, "b:o=3".into());
    let err = replay(&r).unwrap_err();
    assert!(
        matches!(err, ReplayError::Derivation { hand: 4, .. }),
        "{err}"
    );
    let msg = detail_of_failure(&r);
    assert!(
        msg.starts_with("derivation: hand 4: the seed derived from the session secret"),
        "{msg}"
    );
    assert!(
        msg.ends_with(&format!("the record says {}", r.seed)),
        "{msg}"
    );
}

#[test]
fn a_seed_the_house_drew_itself_is_caught_even_with_a_matching_commit() {
    let mut r = records().remove(0);
    r.seed ^= 1;
    r.commit = selfpoker::commit(r.seed);
    let msg = detail_of_failure(&r);
    assert!(msg.starts_with("derivation: hand 1: "), "{msg}");
}

#[test]
fn a_changed_secret_is_named() {
    let mut r = records().remove(1);
    let deal = r.deal.as_mut().unwrap();
    let secret = deal.session_secret.clone().unwrap();
    let flipped = if secret.starts_with('0') { "1" } else { "0" };
    deal.session_secret = Some(format!("{flipped}{}", &secret[1..]));
    let err = replay(&r).unwrap_err();
    assert!(matches!(err, ReplayError::SessionCommit { .. }), "{err}");
    let msg = detail_of_failure(&r);
    assert!(
        msg.starts_with("session_secret: hand 2: sha256(session_secret) is "),
        "{msg}"
    );
    assert!(msg.contains(&format!(
        "the record says session_commit {}",
        r.deal.unwrap().session_commit
    )));
}

#[test]
fn a_changed_commit_is_named() {
    let mut r = records().remove(2);
    r.commit = selfpoker::commit(r.seed + 1);
    let msg = detail_of_failure(&r);
    assert_eq!(
        msg,
        "commitment: hand 3: commit does not match sha256(\"selfpoker:\" + seed)"
    );
}

#[test]
fn an_open_session_fails_only_its_secret_check() {
    let mut r = records().remove(0);
    r.deal.as_mut().unwrap().session_secret = None;
    assert_eq!(replay(&r).unwrap_err(), ReplayError::Unrevealed(1));
    assert!(replay_hand(&r).is_ok());
    assert_eq!(
        check_names(&r),
        [
            ("session_secret".to_owned(), false),
            ("policy".to_owned(), true),
            ("commitment".to_owned(), true),
            ("actions".to_owned(), true),
            ("results".to_owned(), true),
        ]
    );
    let v = verdict::verdict(&r);
    assert!(v.outcome.is_some() && v.error.is_none());
    assert!(detail_of_failure(&r).contains("not revealed yet"));
}

/// The first failure after `change` is made to the first hand's client seeds.
fn seeds_failure(change: impl FnOnce(&mut std::collections::BTreeMap<usize, String>)) -> String {
    let mut r = records().remove(0);
    change(&mut r.deal.as_mut().unwrap().client_seeds);
    detail_of_failure(&r)
}

#[test]
fn every_human_dealt_in_needs_a_client_seed_and_no_ai_has_one() {
    let cases = [
        (
            seeds_failure(|s| drop(s.remove(&2))),
            "seat 2 is a human dealt in without a client seed",
        ),
        (
            seeds_failure(|s| drop(s.insert(1, "bot".into()))),
            "seat 1 is an AI and has a client seed",
        ),
        (
            seeds_failure(|s| drop(s.insert(4, "far".into()))),
            "seat 4 has a client seed, the table has seats 0 to 3",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, format!("derivation: hand 1: {want}"));
    }
}

/// A change made to a record's deal.
type Change = fn(&mut DealV2);

#[test]
fn malformed_deal_fields_are_input_errors_naming_the_field() {
    let cases: [(&str, Change); 5] = [
        ("deal.session_secret", |d| {
            d.session_secret = Some("zz".into())
        }),
        ("deal.session_commit", |d| d.session_commit = "12".into()),
        ("deal.table_id", |d| d.table_id = "a:b".into()),
        ("deal.client_seeds[0]", |d| {
            d.client_seeds.insert(0, String::new());
        }),
        ("deal.scheme", |d| d.scheme = "selfpoker".into()),
    ];
    for (field, change) in cases {
        let mut r = records().remove(0);
        change(r.deal.as_mut().unwrap());
        let v = verdict::verdict(&r);
        let error = v.error.unwrap_or_default();
        assert!(error.starts_with(&format!("hand 1: {field}: ")), "{error}");
        assert!(v.checks.is_empty() && !v.valid);
        // A secret is described, never quoted.
        assert!(!error.contains("zz"), "{error}");
    }
}

#[test]
fn records_round_trip_and_plain_records_keep_their_policy_and_three_checks() {
    let r = records().remove(0);
    let json = serde_json::to_string(&r).unwrap();
    assert!(
        json.contains("\"deal\":{\"scheme\":\"selfpoker_v2\""),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<HandRecord>(&json).unwrap(), r);
    let v = verdict::verify_text(&json);
    assert!(v.valid);
    let plain = fairseed_holdem::simulate(&[Level::One, Level::Two], 1, 5).unwrap();
    let json = serde_json::to_string(&plain[0]).unwrap();
    assert!(!json.contains("\"deal\""));
    let names: Vec<String> = verdict::verify_text(&json)
        .checks
        .into_iter()
        .map(|c| c.name.into_owned())
        .collect();
    assert_eq!(names, ["policy", "commitment", "actions", "results"]);
}

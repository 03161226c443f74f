//! The audit's words for a per-hand value a seat committed to and withheld,
//! and for a round that ended without its hand.

use fairseed_audit::schemes::withheld::SCHEME;
use fairseed_audit::{Checker, Entry, FindingKind, Kind};

fn entry(kind: Kind, ids: &[&str], values: &[&str]) -> Entry {
    Entry {
        kind,
        time_ms: 1_700_000_000_000,
        scheme: SCHEME.into(),
        ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        values: values.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// A hand of table `t1`: its commit, its seed, and seat 2 withholding when `held`.
fn hand(n: u64, held: bool) -> Vec<Entry> {
    let number = n.to_string();
    let ids = ["t1", number.as_str()];
    let commit = fairseed_core::selfpoker::commit(n);
    let mut out = vec![entry(Kind::Commitment, &ids, &[&commit])];
    if held {
        out.push(entry(Kind::Outcome, &ids, &["withheld", "2"]));
    }
    out.push(entry(Kind::Reveal, &ids, &[&number]));
    out
}

#[test]
fn each_withheld_reveal_is_reported_and_counted_per_seat() {
    let mut checker = Checker::new();
    let entries: Vec<Entry> = (1..=4).flat_map(|n| hand(n, n % 2 == 0)).collect();
    for (leaf, e) in entries.iter().enumerate() {
        checker.entry(leaf as u64, e);
    }
    let (_, findings) = checker.finish();
    let found: Vec<String> = findings
        .first
        .iter()
        .map(|f| {
            assert_eq!(f.kind, FindingKind::WithheldReveal, "{f}");
            f.to_string()
        })
        .collect();
    assert_eq!(
        found,
        [
            "entry 3: table t1, hand 2: seat 2 committed to a per-hand value and withheld it; the hand was dealt without it",
            "entry 8: table t1, hand 4: seat 2 committed to a per-hand value and withheld it; the hand was dealt without it",
            "table t1: seat 2 withheld its per-hand value 2 times (4 hands logged at the table)",
        ]
    );
}

#[test]
fn a_round_without_its_hand_says_so_and_its_other_ends_are_no_findings() {
    let mut checker = Checker::new();
    let ids = ["t1", "5"];
    let entries = [
        entry(Kind::Outcome, &ids, &["not_committed", "0"]),
        entry(Kind::Outcome, &ids, &["withheld", "2"]),
        entry(Kind::Outcome, &ids, &["no_hand", "too_few_ready"]),
        entry(Kind::Outcome, &ids, &["no_hand", "nobody_committed"]),
    ];
    for (leaf, e) in entries.iter().enumerate() {
        checker.entry(leaf as u64, e);
    }
    let (_, findings) = checker.finish();
    let found: Vec<String> = findings.first.iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        [
            "entry 1: table t1, hand 5: seat 2 committed to a per-hand value and withheld it; no hand was dealt in that round (too few ready), and the round ran again",
            "table t1: seat 2 withheld its per-hand value 1 time (0 hands logged at the table)",
        ]
    );
    let mut checker = Checker::new();
    checker.entry(0, &entry(Kind::Outcome, &ids, &["no_hand", "closed"]));
    assert_eq!(checker.finish().1.first[0].kind, FindingKind::BadEntry);
}

#[test]
fn a_log_with_no_withheld_reveal_reports_none() {
    let mut checker = Checker::new();
    for (leaf, e) in (1..=3).flat_map(|n| hand(n, false)).enumerate() {
        checker.entry(leaf as u64, &e);
    }
    assert!(checker.finish().1.is_empty());
}

#[test]
fn a_malformed_withheld_entry_is_a_bad_entry() {
    let mut checker = Checker::new();
    checker.entry(0, &entry(Kind::Outcome, &["t1"], &["withheld", "2"]));
    let (_, findings) = checker.finish();
    assert_eq!(findings.first[0].kind, FindingKind::BadEntry);
}

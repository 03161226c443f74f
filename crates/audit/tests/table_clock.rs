//! A live hold'em table's ends and timeouts against its logged policy and
//! service (docs/spec.md §19.2), over logs written here by hand: an honest
//! table passes; a `table_idle` close forced right after downtime, a
//! timeout with less than `action_ms` of served time, a clock counted
//! through downtime, an end reason outside the policy and a `table_idle`
//! end with no figures are each reported, naming the table, hand and
//! figures.

use fairseed_audit::{Checker, Entry, FindingKind, Findings, Kind};
use proptest::prelude::*;
use sha2::{Digest, Sha256};

const TABLE: &str = "t1";
const SESSION: &str = "holdem_table:t1";
/// The session secret; its commitment is `sha256` of its 64 hex characters (§17.1).
const SECRET: &str = "0101010101010101010101010101010101010101010101010101010101010101";
/// The hand's seed, and its commit `sha256("selfpoker:" + seed)`.
const SEED: u64 = 42;

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn entry(kind: Kind, time_ms: u64, scheme: &str, ids: &[&str], values: &[&str]) -> Entry {
    Entry {
        kind,
        time_ms,
        scheme: scheme.to_owned(),
        ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        values: values.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// A table's log: each turn 3 s, idle limit 60 s.
struct Log(Vec<Entry>);

impl Log {
    fn opened() -> Log {
        let policy = r#"{"config":{"seats":2,"small_blind":1,"big_blind":2,"starting_stack":200,"action_ms":3000},"ais":[1],"idle_close_ms":60000}"#;
        Log(vec![
            entry(
                Kind::Commitment,
                0,
                "selfpoker_v2",
                &[SESSION],
                &[&sha256_hex(SECRET.as_bytes())],
            ),
            entry(
                Kind::Commitment,
                0,
                "holdem_table",
                &[SESSION, "policy"],
                &[policy],
            ),
        ])
    }

    fn push(self, kind: Kind, scheme: &str, ids: &[&str], values: &[&str]) -> Log {
        self.push_at(0, kind, scheme, ids, values)
    }

    /// [`Log::push`] of an entry logged at `time_ms`.
    fn push_at(
        mut self,
        time_ms: u64,
        kind: Kind,
        scheme: &str,
        ids: &[&str],
        values: &[&str],
    ) -> Log {
        self.0.push(entry(kind, time_ms, scheme, ids, values));
        self
    }

    fn served(self, since: u64) -> Log {
        let since = since.to_string();
        let values = ["served", "p1", "-", "-", "-", &since];
        self.push(Kind::Outcome, "holdem_table", &[SESSION], &values)
    }

    fn dealt(self) -> Log {
        let commit = sha256_hex(format!("selfpoker:{SEED}").as_bytes());
        self.push(Kind::Commitment, "selfpoker_v2", &[TABLE, "1"], &[&commit])
    }

    fn hand_ended(self) -> Log {
        let seed = SEED.to_string();
        self.push(Kind::Reveal, "selfpoker_v2", &[TABLE, "1"], &[&seed])
    }

    /// A timeout logged at the moment it names.
    fn timeout(self, clock_from: u64, at: u64) -> Log {
        self.timeout_logged(clock_from, at, at)
    }

    /// A timeout naming `at` as the moment the clock ran out, logged at `logged`.
    fn timeout_logged(self, clock_from: u64, at: u64, logged: u64) -> Log {
        let (from, at) = (clock_from.to_string(), at.to_string());
        let values = ["timeout", "1", "0", &from, &at];
        self.push_at(logged, Kind::Outcome, "holdem_table", &[SESSION], &values)
    }

    /// The `closed` entry, the session's end and the policy's reveal.
    fn closed(self, reason: &str, quiet_from: &str, at: u64) -> Log {
        let at = at.to_string();
        let values = ["closed", reason, quiet_from, &at];
        self.push(Kind::Outcome, "holdem_table", &[SESSION], &values)
            .ended(reason)
    }

    fn ended(self, reason: &str) -> Log {
        let policy = self.0[1].values[0].clone();
        self.push(Kind::Reveal, "selfpoker_v2", &[SESSION], &[SECRET, reason])
            .push(
                Kind::Reveal,
                "holdem_table",
                &[SESSION, "policy"],
                &[&policy],
            )
    }

    fn audit(&self) -> Findings {
        let mut checker = Checker::new();
        for (leaf, e) in self.0.iter().enumerate() {
            checker.entry(leaf as u64, e);
        }
        checker.finish().1
    }
}

fn only(findings: &Findings, kind: FindingKind) -> String {
    assert_eq!(findings.total, 1, "{:#?}", findings.first);
    assert_eq!(findings.first[0].kind, kind, "{:#?}", findings.first);
    findings.first[0].message.clone()
}

/// Served from 1000; the person's clock runs from 1000 to 4000, the hand
/// ends, the table is quiet from 5000 and closes idle at 65000.
fn honest() -> Log {
    Log::opened()
        .served(1_000)
        .dealt()
        .timeout(1_000, 4_000)
        .hand_ended()
}

#[test]
fn an_honest_table_passes() {
    let findings = honest().closed("table_idle", "5000", 65_000).audit();
    assert!(findings.is_empty(), "{:#?}", findings.first);
    let findings = honest().closed("table_empty", "5000", 5_500).audit();
    assert!(findings.is_empty(), "{:#?}", findings.first);
}

#[test]
fn a_restart_gives_the_clock_back_and_the_audit_counts_from_it() {
    // Down from 2000; served again from 30000: a full clock from then on.
    let findings = Log::opened()
        .served(1_000)
        .dealt()
        .served(30_000)
        .timeout(30_000, 33_000)
        .hand_ended()
        .closed("table_idle", "33000", 93_000)
        .audit();
    assert!(findings.is_empty(), "{:#?}", findings.first);
}

#[test]
fn an_idle_close_forced_after_downtime_is_reported() {
    // Served again at 30000, closed 100 ms later: the idle limit is 60 s.
    let findings = honest()
        .served(30_000)
        .closed("table_idle", "30000", 30_100)
        .audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert_eq!(
        message,
        "table t1 closed as table_idle after 100 ms of served quiet; its policy's idle limit is 60000 ms"
    );
}

#[test]
fn an_idle_close_counting_the_downtime_is_reported() {
    // Quiet from 5000, down, served again at 64000, closed at 65000.
    let findings = honest()
        .served(64_000)
        .closed("table_idle", "5000", 65_000)
        .audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert!(
        message.contains("quiet from 5000, before the table was last served from 64000"),
        "{message}"
    );
}

#[test]
fn an_idle_close_during_a_hand_is_reported() {
    let findings = Log::opened()
        .served(1_000)
        .dealt()
        .closed("table_idle", "1000", 90_000)
        .audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert_eq!(
        message,
        "table t1 closed as table_idle while hand 1 was in play"
    );
}

#[test]
fn a_timeout_with_less_than_the_clock_served_is_reported() {
    let findings = Log::opened()
        .served(1_000)
        .dealt()
        .timeout(1_000, 2_200)
        .hand_ended()
        .audit();
    let message = only(&findings, FindingKind::EarlyTimeout);
    assert_eq!(
        message,
        "table t1, hand 1: seat 0 timed out after 1200 ms of served time; its policy gives each turn 3000 ms"
    );
}

#[test]
fn a_timeout_counting_the_downtime_is_reported() {
    // The clock ran from 1000 while nobody served the table until 30000.
    let findings = Log::opened()
        .served(1_000)
        .dealt()
        .served(30_000)
        .timeout(1_000, 30_050)
        .audit();
    let message = only(&findings, FindingKind::EarlyTimeout);
    assert_eq!(
        message,
        "table t1, hand 1: seat 0's clock counted from 1000, before the table was last served from 30000"
    );
}

#[test]
fn a_timeout_logged_before_the_moment_it_names_is_reported() {
    // The clock ran its 3 s from 1000 to 4000, but the entry was logged at
    // 2500: the table declared the timeout before the clock ran out.
    let logged_at = |logged| {
        Log::opened()
            .served(1_000)
            .dealt()
            .timeout_logged(1_000, 4_000, logged)
            .hand_ended()
            .audit()
    };
    let message = only(&logged_at(2_500), FindingKind::EarlyTimeout);
    assert_eq!(
        message,
        "table t1, hand 1: seat 0's timeout at 4000 was logged at 2500, before the moment it says the clock ran out"
    );
    // Logged later than the moment it names (the store's time follows the
    // table's step): explained.
    let findings = logged_at(4_020);
    assert!(findings.is_empty(), "{:#?}", findings.first);
}

#[test]
fn a_timeout_outside_a_hand_is_reported() {
    let findings = honest().timeout(5_000, 9_000).audit();
    let message = only(&findings, FindingKind::EarlyTimeout);
    assert_eq!(
        message,
        "table t1, hand 1: seat 0 timed out in a hand not in play"
    );
}

#[test]
fn an_unknown_end_reason_is_reported() {
    let findings = honest().closed("operator_closed", "5000", 5_100).audit();
    assert!(findings
        .first
        .iter()
        .all(|f| f.kind == FindingKind::EarlyEnd));
    assert!(
        findings
            .first
            .iter()
            .any(|f| f.message.contains("reason \"operator_closed\"")),
        "{:#?}",
        findings.first
    );
}

#[test]
fn a_closed_entry_that_disagrees_with_the_session_end_is_reported() {
    let findings = honest()
        .push(
            Kind::Outcome,
            "holdem_table",
            &[SESSION],
            &["closed", "table_empty", "5000", "5100"],
        )
        .ended("table_idle")
        .audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert_eq!(
        message,
        "table t1 closed as table_empty but its session ended as table_idle"
    );
}

#[test]
fn an_idle_end_without_its_figures_is_reported() {
    let findings = honest().ended("table_idle").audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert_eq!(
        message,
        "table t1 ended as table_idle with no logged quiet spell (no closed entry)"
    );
}

#[test]
fn a_malformed_figure_is_a_bad_entry() {
    let findings = honest().push(
        Kind::Outcome,
        "holdem_table",
        &[SESSION],
        &["timeout", "1", "0", "soon", "4000"],
    );
    let message = only(&findings.audit(), FindingKind::BadEntry);
    assert!(
        message.contains("clock_from is not a decimal number"),
        "{message}"
    );
}

proptest! {
    /// Whatever the downtime and the moment of the timeout: a timeout with
    /// at least the policy's 3 s of served time since the latest start of
    /// service passes, and one with less is the one finding.
    #[test]
    fn a_timeout_is_explained_exactly_when_the_clock_was_served(
        dealt in 1_000u64..100_000,
        down in 0u64..1_000_000,
        served in 0u64..10_000,
    ) {
        let since = dealt + down;
        let findings = Log::opened()
            .served(dealt)
            .dealt()
            .served(since)
            .timeout(since, since + served)
            .hand_ended()
            .audit();
        if served >= 3_000 {
            prop_assert!(findings.is_empty(), "{:#?}", findings.first);
        } else {
            prop_assert_eq!(findings.total, 1);
            prop_assert_eq!(findings.first[0].kind, FindingKind::EarlyTimeout);
            let figures = format!("after {served} ms of served time");
            prop_assert!(findings.first[0].message.contains(&figures));
        }
    }
}

/// The same log dealt under `selfpoker_v3` (docs/spec.md §20): its hands
/// and its end are held to the policy alike.
fn as_v3(log: Log) -> Log {
    Log(log
        .0
        .into_iter()
        .map(|mut e| {
            if e.scheme == "selfpoker_v2" {
                e.scheme = "selfpoker_v3".to_owned();
            }
            e
        })
        .collect())
}

#[test]
fn a_selfpoker_v3_table_is_checked_alike() {
    let findings = as_v3(honest().closed("table_idle", "5000", 65_000)).audit();
    assert!(findings.is_empty(), "{:#?}", findings.first);
    let short = Log::opened()
        .served(1_000)
        .dealt()
        .timeout(1_000, 2_200)
        .hand_ended()
        .closed("table_empty", "-", 3_000);
    let message = only(&as_v3(short).audit(), FindingKind::EarlyTimeout);
    assert!(
        message.contains("after 1200 ms of served time"),
        "{message}"
    );
}

#[test]
fn a_table_nobody_joined_may_close_after_a_minute_of_service_and_not_sooner() {
    // Policy idle limit 60 s here too, so the minute is the bound: served
    // from 1000, closed unjoined at 61000 — explained; at 31000 — early.
    let findings = Log::opened()
        .served(1_000)
        .closed("table_unjoined", "1000", 61_000)
        .audit();
    assert_eq!(findings.total, 0, "{:#?}", findings.first);
    let findings = Log::opened()
        .served(1_000)
        .closed("table_unjoined", "1000", 31_000)
        .audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert_eq!(
        message,
        "table t1 closed as table_unjoined after 30000 ms of served quiet; a table nobody joined closes after 60000 ms"
    );
    // A table where a hand was dealt was joined: its own idle limit holds.
    let findings = honest().closed("table_unjoined", "5000", 65_000).audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert_eq!(
        message,
        "table t1 closed as table_unjoined though hand 1 was logged there: somebody had joined, and its idle limit applies"
    );
}

#[test]
fn a_close_while_a_round_is_open_is_reported_and_one_after_its_end_is_not() {
    // The round of hand 2 opens at a table whose idle limit would allow
    // the close: the figures are fine, the moment is not.
    let opened = honest().push(
        Kind::Outcome,
        "selfpoker_v3",
        &[TABLE, "2"],
        &["round_opened", "0", "2"],
    );
    let findings = opened.closed("table_idle", "5000", 65_000).audit();
    let message = only(&findings, FindingKind::EarlyEnd);
    assert_eq!(
        message,
        "table t1 closed as table_idle while the round of hand 2 was open: the session ended on a deck the house knew, with no hand and no withheld seat logged"
    );
    let ended = honest()
        .push(
            Kind::Outcome,
            "selfpoker_v3",
            &[TABLE, "2"],
            &["round_opened", "0"],
        )
        .push(
            Kind::Outcome,
            "selfpoker_v3",
            &[TABLE, "2"],
            &["no_hand", "nobody_committed"],
        );
    let findings = ended.closed("table_idle", "5000", 65_000).audit();
    assert_eq!(findings.total, 0, "{:#?}", findings.first);
}

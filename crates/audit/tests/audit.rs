//! The monitor against logs built here: an honest one passes, and each kind of
//! tampering is named precisely.

use std::collections::HashMap;

use fairseed_audit::sample::{Sample, Shape};
use fairseed_audit::writer::TileWriter;
use fairseed_audit::{audit, Entry, FindingKind, Kind, Report, State};
use fairseed_tlog::NoteKey;

const ORIGIN: &str = "fairseed.test/log";

struct Log {
    files: HashMap<String, Vec<u8>>,
    note: String,
    vkey: String,
}

fn key() -> NoteKey {
    NoteKey::from_private_bytes(ORIGIN, &[7; 32]).expect("valid key name")
}

fn build(entries: impl IntoIterator<Item = Entry>) -> Log {
    let mut writer = TileWriter::new();
    for entry in entries {
        writer.append(entry.encode().expect("entry encodes"));
    }
    let files = writer.new_files().expect("tiles").into_iter().collect();
    Log {
        files,
        note: writer.checkpoint(&key()).expect("signed"),
        vkey: key().vkey(),
    }
}

fn sample(n: usize) -> Vec<Entry> {
    Sample::new("tests", Shape::default()).take(n).collect()
}

fn run(log: &Log, state: &State) -> Report {
    audit(
        log.note.as_bytes(),
        &log.vkey,
        state,
        |t| log.files.get(&t.path()).cloned(),
        |_, _| {},
    )
}

fn messages(report: &Report, kind: FindingKind) -> Vec<String> {
    report
        .findings
        .first
        .iter()
        .filter(|f| f.kind == kind)
        .map(ToString::to_string)
        .collect()
}

#[test]
fn an_honest_log_passes_with_its_statistics() {
    let log = build(sample(3000));
    let report = run(&log, &State::default());
    assert!(report.passed(), "{:#?}", report.findings);
    let summary = report.summary.as_ref().expect("summary");
    assert_eq!(summary.counts.entries, 3000);
    assert!(
        summary.rolls.n > 2000,
        "rolls recomputed: {}",
        summary.rolls.n
    );
    assert!(summary.cards.n >= 100, "deals counted: {}", summary.cards.n);
    // Judged, no alarm, and the power stated at these sizes.
    for test in [&summary.rolls, &summary.cards] {
        assert!(!test.too_few() && !test.alarming(), "{test:?}");
        assert!(test.power_factor.is_some_and(f64::is_finite), "{test:?}");
    }
    let rtp = &summary.rtp;
    // Below 99 %: small stakes lose to the floor of the payout (docs/spec.md §8.3).
    assert!(
        rtp.theoretical.is_some_and(|t| (0.95..0.99).contains(&t)),
        "{rtp:?}"
    );
    assert_eq!(rtp.consistent, Some(true), "{rtp:?}");
    assert!(
        rtp.theoretical_by_chips
            .is_some_and(|t| (0.95..0.99).contains(&t)),
        "{rtp:?}"
    );
    assert_eq!(report.state.checkpoints.len(), 1);
    assert_eq!(report.state.checkpoints[0].size, 3000);
}

/// A player's session of a few honest rolls (fixed seeds): judged without a
/// false alarm, with its power stated; fewer than 5 rolls are too few to judge.
#[test]
fn a_short_session_is_judged_or_too_few_never_a_false_alarm() {
    for (rolls, judged) in [(4u64, false), (20, true), (100, true)] {
        let shape = Shape {
            bets_per_pair: rolls,
            poker_every: 0,
            selfpoker_every: 0,
            ..Shape::default()
        };
        let entries: Vec<Entry> = Sample::new("session", shape)
            .take(rolls as usize + 2)
            .collect();
        let report = run(&build(entries), &State::default());
        assert!(report.passed(), "{rolls}: {:#?}", report.findings);
        let summary = report.summary.as_ref().expect("summary");
        assert_eq!(summary.rolls.n, rolls);
        assert_eq!(summary.rolls.too_few(), !judged, "{:?}", summary.rolls);
        assert_eq!(summary.rolls.power_factor.is_some(), judged);
        assert!(summary.cards.too_few(), "no deals: {:?}", summary.cards);
    }
}

#[test]
fn a_grown_log_is_consistent_with_the_checkpoint_seen_before() {
    let entries = sample(1000);
    let first = run(&build(entries[..300].to_vec()), &State::default());
    assert!(first.passed(), "{:#?}", first.findings);
    let second = run(&build(entries), &first.state);
    assert!(second.passed(), "{:#?}", second.findings);
    assert_eq!(second.state.checkpoints.len(), 2);
}

#[test]
fn an_edited_entry_bundle_is_named() {
    let mut log = build(sample(600));
    let bundle = log
        .files
        .get_mut("tile/entries/001")
        .expect("a full second bundle");
    // The last byte of entry 0 of the bundle (leaf 256): inside its last value.
    let len = usize::from(u16::from_be_bytes([bundle[0], bundle[1]]));
    bundle[1 + len] ^= 1;
    let report = run(&log, &State::default());
    assert_eq!(
        messages(&report, FindingKind::BadBundle),
        ["tile/entries/001 against tile/0/001: entry 0 does not hash to the tile's hash 0"]
    );
}

#[test]
fn an_edited_hash_tile_is_named() {
    let mut log = build(sample(600));
    log.files.get_mut("tile/0/000").expect("first tile")[5] ^= 1;
    let report = run(&log, &State::default());
    let bad = messages(&report, FindingKind::BadTile);
    assert_eq!(
        bad,
        ["tile tile/0/000: does not hash to its hash in the parent tile"]
    );
}

#[test]
fn a_forked_checkpoint_is_named() {
    let honest = sample(700);
    let seen = run(&build(honest[..300].to_vec()), &State::default());
    // Another history from leaf 100 on: same origin, same key.
    let mut fork = honest.clone();
    fork[100].time_ms += 1;
    let report = run(&build(fork), &seen.state);
    assert_eq!(
        messages(&report, FindingKind::Inconsistent)
            .iter()
            .map(|m| m.split(':').next().unwrap_or_default().to_owned())
            .collect::<Vec<_>>(),
        ["checkpoint 700 is not consistent with checkpoint 300 seen before"]
    );
    assert!(!report.passed());
    assert_eq!(
        report.state, seen.state,
        "the contradicting checkpoint is not kept"
    );
}

#[test]
fn a_rollback_is_named() {
    let entries = sample(700);
    let seen = run(&build(entries.clone()), &State::default());
    let report = run(&build(entries[..400].to_vec()), &seen.state);
    assert_eq!(
        messages(&report, FindingKind::Inconsistent),
        ["checkpoint 400 is not consistent with checkpoint 700 seen before: it is smaller than checkpoint 700 seen before (a rollback)"]
    );
}

#[test]
fn an_unrevealed_overdue_seed_is_named() {
    let shape = Shape {
        step_ms: 1000,
        ..Shape::default()
    };
    let entries: Vec<Entry> = Sample::new("tests", shape)
        .take(800)
        .filter(|e| !(e.kind == Kind::Reveal && e.ids == ["o0", "p0"]))
        .collect();
    let report = run(&build(entries), &State::default());
    let overdue = messages(&report, FindingKind::Overdue);
    assert_eq!(overdue.len(), 1, "{overdue:?}");
    assert!(
        overdue[0].starts_with("entry 0: dice seed pair p0 committed at 2023-11-14T22:13:21.000Z never revealed, though its owner opened pair p7 at entry "),
        "{}",
        overdue[0]
    );
}

#[test]
fn a_seed_still_in_use_is_not_overdue() {
    let entries: Vec<Entry> = sample(800)
        .into_iter()
        .filter(|e| !(e.kind == Kind::Reveal && e.ids == ["o0", "p0"]))
        .collect();
    // p0 is rotated by p7, but less than the grace period before the log's last entry.
    let report = run(&build(entries), &State::default());
    assert!(report.passed(), "{:#?}", report.findings);
}

#[test]
fn a_reused_nonce_is_named() {
    let mut entries = sample(100);
    // Bet nonce 3 of the first pair logged again as nonce 1 (entry 2 is nonce 1).
    entries[4].ids[1] = "1".into();
    let report = run(&build(entries), &State::default());
    let nonce = messages(&report, FindingKind::Nonce);
    assert_eq!(
        nonce[0],
        "entry 4: nonce 1 of dice seed pair p0 used twice (first at entry 2)"
    );
}

#[test]
fn a_wrong_payout_and_a_wrong_reveal_are_named() {
    let mut entries = sample(100);
    entries[1].values[5] = "123456".into();
    let reveal = entries
        .iter()
        .position(|e| e.kind == Kind::Reveal)
        .expect("a reveal");
    let mut bad_reveal = entries.clone();
    bad_reveal[reveal].values[0] = "0".repeat(64);
    let report = run(&build(entries), &State::default());
    let wrong = messages(&report, FindingKind::WrongPayout);
    assert_eq!(wrong.len(), 1);
    assert!(
        wrong[0].starts_with("entry 1: bet nonce 0 of dice seed pair p0 rolled "),
        "{}",
        wrong[0]
    );
    assert!(wrong[0].ends_with(", the log says 123456"), "{}", wrong[0]);
    let report = run(&build(bad_reveal), &State::default());
    assert_eq!(
        messages(&report, FindingKind::RevealMismatch),
        [format!("entry {reveal}: dice seed pair p0: the revealed seed does not hash to the commitment of entry 0")]
    );
}

#[test]
fn a_duplicate_commitment_is_named() {
    let mut entries = sample(200);
    let second_pair = entries
        .iter()
        .position(|e| e.kind == Kind::Commitment && e.ids == ["o1", "p1"])
        .expect("pair p1");
    entries[second_pair].values[0] = entries[0].values[0].clone();
    let report = run(&build(entries), &State::default());
    let dup = messages(&report, FindingKind::DuplicateCommitment);
    assert_eq!(dup.len(), 1, "{dup:?}");
    assert!(
        dup[0].ends_with("was already committed at entry 0"),
        "{}",
        dup[0]
    );
}

#[test]
fn a_checkpoint_signed_by_another_key_is_refused() {
    let mut log = build(sample(50));
    log.vkey = NoteKey::from_private_bytes(ORIGIN, &[8; 32])
        .expect("key")
        .vkey();
    let report = run(&log, &State::default());
    assert_eq!(report.findings.first[0].kind, FindingKind::BadCheckpoint);
    assert!(report.summary.is_none());
}

fn entry(kind: Kind, scheme: &str, ids: &[&str], values: &[&str]) -> Entry {
    Entry {
        kind,
        time_ms: 1_700_000_000_000,
        scheme: scheme.into(),
        ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        values: values.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// The layout that names a pair, a session or a round by one id (its commitment
/// or round id) and logs no table or seats: reveals, rolls, payouts and nonces
/// are still checked.
#[test]
fn entries_named_by_one_id_are_checked() {
    use fairseed_core::dice::{Bet, Condition};
    use fairseed_core::ServerSeed;
    let seed = ServerSeed::from_bytes([4; 32]);
    let c = seed.commitment().to_hex();
    let bet = Bet::new(100, Condition::Under, 5000).expect("bet");
    let roll = fairseed_core::dice::DiceKey::new(&seed).roll("cs", 0);
    let payout = bet.settle(roll).payout.to_string();
    let session = ServerSeed::from_bytes([5; 32]);
    let sp = fairseed_core::selfpoker::commit(42);
    let honest = vec![
        entry(Kind::Commitment, "dice_v1", &[&c], &[&c]),
        entry(
            Kind::Outcome,
            "dice_v1",
            &[&c, "0"],
            &["cs", "100", "under", "5000", &roll.to_string(), &payout],
        ),
        entry(Kind::Reveal, "dice_v1", &[&c], &[seed.reveal()]),
        entry(
            Kind::Commitment,
            "poker_hmac_v1",
            &["s1"],
            &[&session.commitment().to_hex()],
        ),
        entry(
            Kind::Commitment,
            "poker_hmac_v1",
            &["s1", "1"],
            &[&"a".repeat(64), &"b".repeat(64)],
        ),
        entry(Kind::Reveal, "poker_hmac_v1", &["s1"], &[session.reveal()]),
        entry(Kind::Commitment, "selfpoker", &["r1"], &[&sp]),
        entry(Kind::Reveal, "selfpoker", &["r1"], &["42"]),
    ];
    let report = run(&build(honest.clone()), &State::default());
    assert!(report.passed(), "{:#?}", report.findings);
    assert_eq!(report.summary.as_ref().map(|s| s.rolls.n), Some(1));

    let mut lied = honest;
    lied[1].values[4] = ((roll + 1) % 10_000).to_string();
    lied[7].values[0] = "43".into();
    let report = run(&build(lied), &State::default());
    assert_eq!(
        messages(&report, FindingKind::WrongPayout),
        [format!(
            "entry 1: bet nonce 0 of dice seed pair {c} rolled {roll}, the log says {}",
            (roll + 1) % 10_000
        )]
    );
    assert_eq!(
        messages(&report, FindingKind::RevealMismatch),
        ["entry 7: selfpoker r1: sha256(\"selfpoker:\" + seed) is not the commit of entry 6"]
    );
}

#[test]
fn a_checkpoint_past_the_tiles_is_named_without_walking_them() {
    let mut log = build(sample(300));
    let body = fairseed_tlog::checkpoint(ORIGIN, 1 << 40, fairseed_tlog::EMPTY_ROOT, &[])
        .expect("checkpoint");
    log.note = fairseed_tlog::sign_checkpoint(&key(), &body).expect("signed");
    let report = run(&log, &State::default());
    let bad = messages(&report, FindingKind::BadTile);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad[0].ends_with(": missing"), "{}", bad[0]);
    // Tile 0 is full in the 300-entry log; the full tile 1 is not there.
    assert_eq!(
        bad[1],
        "tile/0/001 or tile/entries/001 is missing: entries from 256 on are not checked"
    );
}

#[test]
fn a_partial_tile_replaced_by_a_full_one_is_read_from_it() {
    let mut writer = TileWriter::new();
    let mut files = HashMap::new();
    for entry in sample(768) {
        writer.append(entry.encode().expect("entry encodes"));
        if writer.size() == 600 {
            files.extend(writer.new_files().expect("tiles"));
        }
    }
    let early = {
        // The checkpoint at 600, as a monitor saw it before the log grew.
        let mut w = TileWriter::new();
        for entry in sample(600) {
            w.append(entry.encode().expect("entry encodes"));
        }
        w.checkpoint(&key()).expect("signed")
    };
    files.extend(writer.new_files().expect("tiles"));
    assert!(
        files.remove("tile/0/002.p/88").is_some()
            && files.remove("tile/entries/002.p/88").is_some()
    );
    let log = Log {
        files,
        note: early,
        vkey: key().vkey(),
    };
    let report = run(&log, &State::default());
    assert!(report.passed(), "{:#?}", report.findings);
    assert_eq!(report.summary.map(|s| s.counts.entries), Some(600));
}

#[test]
fn a_selfpoker_v2_session_and_its_hands_are_checked() {
    use fairseed_core::ServerSeed;
    let secret = ServerSeed::from_bytes([6; 32]);
    let commit = fairseed_core::selfpoker::commit(7);
    let entries = vec![
        entry(
            Kind::Commitment,
            "selfpoker_v2",
            &["sess1"],
            &[&secret.commitment().to_hex()],
        ),
        entry(Kind::Commitment, "selfpoker_v2", &["t1", "1"], &[&commit]),
        entry(Kind::Reveal, "selfpoker_v2", &["t1", "1"], &["7"]),
        entry(Kind::Reveal, "selfpoker_v2", &["sess1"], &[secret.reveal()]),
    ];
    let report = run(&build(entries.clone()), &State::default());
    assert!(report.passed(), "{:#?}", report.findings);
    let mut wrong = entries;
    wrong[3].values[0] = ServerSeed::from_bytes([8; 32]).reveal().to_owned();
    let report = run(&build(wrong), &State::default());
    assert_eq!(
        messages(&report, FindingKind::RevealMismatch),
        ["entry 3: selfpoker_v2 sess1: revealed value 0 does not hash to the commitment of entry 0"]
    );
}

/// A live table logs its session's end with the reason (docs/spec.md §17.4):
/// the policy's reasons pass, any other is an early end.
#[test]
fn a_selfpoker_v2_session_ended_outside_its_policy_is_reported() {
    use fairseed_core::ServerSeed;
    let secret = ServerSeed::from_bytes([6; 32]);
    let session = |reason: &str| {
        vec![
            entry(
                Kind::Commitment,
                "selfpoker_v2",
                &["holdem_table:t1"],
                &[&secret.commitment().to_hex()],
            ),
            entry(
                Kind::Reveal,
                "selfpoker_v2",
                &["holdem_table:t1"],
                &[secret.reveal(), reason],
            ),
        ]
    };
    for reason in ["table_empty", "table_idle"] {
        let report = run(&build(session(reason)), &State::default());
        assert!(report.passed(), "{reason}: {:#?}", report.findings);
    }
    let report = run(&build(session("process_gone")), &State::default());
    assert_eq!(
        messages(&report, FindingKind::EarlyEnd),
        ["entry 1: selfpoker_v2 holdem_table:t1 ended before its policy: reason \"process_gone\", expected one of table_empty, table_idle, table_unjoined"]
    );
}

/// The service names a poker session `poker:<table>:<session>`: its hands are
/// checked against the revealed seed, and the table's next session makes an
/// unrevealed one overdue.
#[test]
fn poker_sessions_named_by_their_round_id_are_checked() {
    use fairseed_core::poker::hand_value;
    use fairseed_core::{Ident, ServerSeed};
    let seed = ServerSeed::from_bytes([9; 32]);
    let (t, s) = (
        Ident::parse("t1").expect("id"),
        Ident::parse("s1").expect("id"),
    );
    let hand = hand_value(&seed, &t, &s, 1).commitment().to_hex();
    let other = ServerSeed::from_bytes([10; 32]);
    let mut entries = vec![
        entry(
            Kind::Commitment,
            "poker_hmac_v1",
            &["poker:t1:s1"],
            &[&seed.commitment().to_hex()],
        ),
        entry(
            Kind::Commitment,
            "poker_hmac_v1",
            &["poker:t1:s1", "1"],
            &[&hand, &"d".repeat(64)],
        ),
        entry(
            Kind::Reveal,
            "poker_hmac_v1",
            &["poker:t1:s1"],
            &[seed.reveal()],
        ),
    ];
    let report = run(&build(entries.clone()), &State::default());
    assert!(report.passed(), "{:#?}", report.findings);

    entries[1].values[0] = "e".repeat(64);
    let report = run(&build(entries.clone()), &State::default());
    assert_eq!(
        messages(&report, FindingKind::RevealMismatch),
        ["entry 1: hand 1 of poker session s1 of table t1: the revealed seed's hand value does not hash to the hand commitment"]
    );
    entries[2] = entry(
        Kind::Commitment,
        "poker_hmac_v1",
        &["poker:t1:s2"],
        &[&other.commitment().to_hex()],
    );
    let mut later = entry(
        Kind::Commitment,
        "selfpoker",
        &["selfpoker:1"],
        &[&"f".repeat(64)],
    );
    later.time_ms += 120_000;
    entries.push(later);
    let report = run(&build(entries), &State::default());
    let overdue = messages(&report, FindingKind::Overdue);
    assert_eq!(
        overdue,
        ["entry 0: poker session s1 of table t1 committed at 2023-11-14T22:13:20.000Z never revealed, though the table opened session s2 at entry 2"]
    );
}

/// A log started after an unbridgeable loss (docs/spec.md §16.11) reveals
/// and draws from seeds its frozen predecessor committed: alone it is
/// reported for them, audited as following the frozen log it passes, and a
/// commitment the predecessor showed is a duplicate in it.
#[test]
fn a_new_log_is_audited_from_what_the_frozen_one_left_open() {
    let all = sample(3000);
    let (old, new) = all.split_at(1500);
    let frozen = build(old.to_vec());
    let following = build(new.to_vec());
    let alone = run(&following, &State::default());
    assert!(
        !alone.passed(),
        "the second half alone passed: nothing crossed the split"
    );
    let follow = |log: &Log| {
        let before = fairseed_audit::carried(frozen.note.as_bytes(), &frozen.vkey, |t| {
            frozen.files.get(&t.path()).cloned()
        })
        .expect("the frozen log reads");
        fairseed_audit::audit_following(
            before,
            log.note.as_bytes(),
            &log.vkey,
            &State::default(),
            |t| log.files.get(&t.path()).cloned(),
            |_, _| {},
        )
    };
    let after = follow(&following);
    assert!(after.passed(), "{:#?}", after.findings);
    assert_eq!(
        after.summary.as_ref().expect("summary").counts.entries,
        1500,
        "only the new log's entries are counted"
    );
    // The frozen log's first commitment shown again in the new one.
    let first_commitment = old
        .iter()
        .find(|e| e.kind == Kind::Commitment)
        .expect("a commitment")
        .clone();
    let mut again = new.to_vec();
    again.push(first_commitment);
    let again = build(again);
    let report = follow(&again);
    assert!(
        !report.passed(),
        "a commitment of the frozen log shown again passed"
    );
}

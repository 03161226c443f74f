//! `fairseed verify --evidence` (docs/spec.md §20.7), the real binary on a
//! hand record and a seat's evidence file: a table driven by its own pure
//! functions (`fairseed_holdem::live`) as the service drives it, signing
//! what it tells the person's seat as the service does
//! (`fairseed_holdem::evidence`). The honest record holds (exit 0); the
//! record altered to time the person out early raises the alarm (exit 1);
//! evidence signed with another key, or a record naming no key, is refused
//! with the field named (exit 2).

mod common;

use std::path::Path;

use common::{code, run, text};
use fairseed_core::selfpoker_v3::{self, HandValue};
use fairseed_holdem::evidence::{self, AckKind, Notice, Signed, SigningKey};
use fairseed_holdem::live::{
    self, driver, round, LiveTable, Message, Policy, Request, Scheme, Session,
};
use fairseed_holdem::rules::{Action, Command};
use fairseed_holdem::{HandRecord, TableConfig};
use fairseed_play::Millis;
use serde_json::json;

const SECRET: [u8; 32] = [0x55; 32];

/// The table's evidence key (the service draws one from the OS CSPRNG).
fn table_key() -> SigningKey {
    SigningKey::from_bytes(&[0x21; 32])
}

/// A person at seat 0 against one AI of level 2; 5 s turns.
fn policy() -> Policy {
    Policy {
        config: TableConfig {
            seats: 2,
            small_blind: 50,
            big_blind: 100,
            starting_stack: 10_000,
            action_ms: 5_000,
        },
        ais: vec![2],
        ai_seats: Vec::new(),
        idle_close_ms: 600_000,
        public: false,
    }
}

/// A table, its clock, everything it said, and what it signed for seat 0.
struct Table {
    live: LiveTable,
    now: Millis,
    messages: Vec<Message>,
    items: Vec<Signed>,
}

impl Table {
    fn step(&mut self, change: impl FnOnce(&LiveTable, Millis) -> (LiveTable, Vec<Message>)) {
        self.now = Millis(self.now.0 + 10);
        let (next, messages) = change(&self.live, self.now);
        self.messages.extend(messages);
        self.live = next;
    }

    fn ms(&self) -> u64 {
        u64::try_from(self.now.0).expect("a positive clock")
    }

    /// The person commits and reveals `value`, each accepted with a signed
    /// acknowledgement.
    fn commit_and_reveal(&mut self, value: &HandValue) {
        let hand = self.live.round.as_ref().expect("a round").hand;
        let commit = Request::Commit {
            hand,
            commit: value.commit(),
        };
        self.step(|l, now| live::request(l, 1, commit, now).expect("a commit"));
        self.ack(hand, AckKind::Commit);
        let reveal = Request::Reveal {
            hand,
            value: value.as_hex().to_owned(),
        };
        self.step(|l, now| live::request(l, 1, reveal, now).expect("a reveal"));
        self.ack(hand, AckKind::Reveal);
    }

    fn ack(&mut self, hand: u64, kind: AckKind) {
        let ack = evidence::ack(&self.live, hand, 0, kind, self.ms()).expect("accepted");
        self.items.push(Notice::Ack(ack).sign(&table_key()));
    }
}

/// Plays hands until one has an action of the person's; that hand's record
/// and every item signed for the person.
fn play() -> (HandRecord, Vec<Signed>) {
    let session = Session {
        scheme: Scheme::SelfpokerV3,
        commit: Some(selfpoker_v3::session_commit(&SECRET)),
        revealed: None,
    };
    let live = LiveTable::open("ev".into(), policy(), session)
        .expect("a policy in bounds")
        .with_evidence_key(evidence::public_hex(&table_key()));
    let sit = Request::Sit {
        seat: 0,
        client_seed: "the person's".into(),
        invitation: None,
        house: false,
    };
    let (live, messages) = live::request(&live, 1, sit, Millis(1_000)).expect("a free seat");
    let mut table = Table {
        live,
        now: Millis(1_000),
        messages,
        items: Vec::new(),
    };
    let timing = driver::Timing {
        ai_delay_ms: 0,
        next_hand_ms: 0,
        idle_close_ms: 600_000,
    };
    for n in 1..=12u8 {
        table.step(|l, now| round::open(l, now).expect("a round is due"));
        table.commit_and_reveal(&HandValue::from_bytes([n; 32]));
        table.step(|l, now| round::deal(l, &SECRET, now).expect("dealt"));
        while let Some(hand) = &table.live.table.hand {
            if hand.seat_to_act() == 0 {
                let turn = evidence::turn_notice(&table.live, 0, table.ms()).expect("its turn");
                table.items.push(Notice::Turn(turn).sign(&table_key()));
                let behind = hand
                    .players
                    .iter()
                    .find(|p| p.seat == 0)
                    .map_or(0, |p| p.street_bet);
                let action = if hand.current_bet > behind {
                    Action::Fold
                } else {
                    Action::Check
                };
                table.step(|l, now| live::request(l, 1, Request::Act(action), now).expect("legal"));
                continue;
            }
            let plan = driver::next(&table.live, timing, &SECRET).expect("an AI acts");
            let driver::Due::Command(command @ Command::Act { .. }) = plan.due else {
                panic!("an AI's action is due: {:?}", plan.due);
            };
            table.step(|l, now| live::apply(l, command, now).expect("the AI's action"));
        }
        let record = table.messages.iter().rev().find_map(|m| match m {
            Message::HandEnd { record, .. } => Some((**record).clone()),
            _ => None,
        });
        if let Some(record) = record.filter(|r| r.actions.iter().any(|a| a.seat == 0)) {
            return (record, table.items);
        }
        while let Some(plan) = driver::next(&table.live, timing, &SECRET) {
            let driver::Due::Command(command @ Command::TopUp { .. }) = plan.due else {
                break;
            };
            table.step(|l, now| live::apply(l, command, now).expect("a top-up"));
        }
    }
    panic!("the person never acted in 12 hands");
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path.to_str().expect("utf-8").to_owned()
}

fn evidence_file(key: &SigningKey, items: &[Signed]) -> String {
    json!({"scheme": "holdem_evidence_v1", "key": evidence::public_hex(key), "items": items})
        .to_string()
}

/// `fairseed verify RECORD --evidence EVIDENCE`: status, stdout, stderr.
fn verify(record: &str, evidence: &str) -> (i32, String, String) {
    let out = run(&["verify", record, "--evidence", evidence], b"");
    (code(&out), text(&out.stdout), text(&out.stderr))
}

#[test]
fn evidence_holds_an_honest_record_and_raises_the_alarm_on_an_early_timeout() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (record, items) = play();
    assert_eq!(
        record.evidence_key.as_deref(),
        Some(evidence::public_hex(&table_key()).as_str()),
        "the record names the table's key"
    );
    let file = write(
        dir.path(),
        "evidence.json",
        &evidence_file(&table_key(), &items),
    );
    let honest = write(
        dir.path(),
        "record.json",
        &serde_json::to_string(&record).expect("a record serializes"),
    );
    let (status, out, err) = verify(&honest, &file);
    assert_eq!(status, 0, "{out}{err}");
    assert!(
        out.contains("ok: the record agrees with what the table signed"),
        "{out}"
    );

    // The record says the person's clock ran out 2 s into a 5 s turn.
    let turn = items
        .iter()
        .rev()
        .find_map(|s| match &s.notice {
            Notice::Turn(t) if t.hand == record.hand => Some(t.clone()),
            _ => None,
        })
        .expect("a turn of the hand");
    let index = usize::try_from(turn.actions).expect("an index");
    let at = i64::try_from(turn.deadline_ms).expect("a time") - 3_000;
    let mut forged = serde_json::to_value(&record).expect("a record serializes");
    forged["actions"][index]["timed_out"] = json!(true);
    forged["actions"][index]["at"] = json!(at);
    let forged = write(dir.path(), "forged.json", &forged.to_string());
    let (status, out, err) = verify(&forged, &file);
    assert_eq!(status, 1, "{out}{err}");
    let want = format!(
        "ALARM: hand {}: seat 0 was timed out (action {index}) at {at}, 3000 ms before the deadline {} the table signed for that turn at {}; more than the 1000 ms the clocks may differ by",
        record.hand, turn.deadline_ms, turn.server_ms
    );
    assert!(out.contains(&want), "{want}\n{out}");
    let out = run(&["verify", "--json", &forged, "--evidence", &file], b"");
    assert_eq!(code(&out), 1);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(json["hand"], record.hand);
    assert_eq!(json["alarms"], json!([want.trim_start_matches("ALARM: ")]));

    // Evidence signed with another key than the record names: refused, `key` named.
    let other = SigningKey::from_bytes(&[0x42; 32]);
    let resigned: Vec<Signed> = items
        .iter()
        .map(|s| s.notice.clone().sign(&other))
        .collect();
    let stranger = write(dir.path(), "other.json", &evidence_file(&other, &resigned));
    let (status, out, err) = verify(&honest, &stranger);
    assert_eq!(status, 2, "{out}{err}");
    assert!(err.contains("key: the evidence names key"), "{err}");

    // The table's key named, but an item signed by another: refused, the item named.
    let mut mixed = items.clone();
    mixed[0] = mixed[0].notice.clone().sign(&other);
    let mixed = write(
        dir.path(),
        "mixed.json",
        &evidence_file(&table_key(), &mixed),
    );
    let (status, _, err) = verify(&honest, &mixed);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("items[0].sig:"), "{err}");

    // A record that names no evidence key cannot be held to any.
    let mut keyless = record.clone();
    keyless.evidence_key = None;
    let keyless = write(
        dir.path(),
        "keyless.json",
        &serde_json::to_string(&keyless).expect("a record serializes"),
    );
    let (status, _, err) = verify(&keyless, &file);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("record.evidence_key: missing"), "{err}");
}

//! A dishonest table server, as a test double: the table's own pure
//! functions (`fairseed_holdem::live`), driven as the service drives them,
//! with two of the cheats a patched server could play. The double lives in
//! this test file only, so no build of `fairseed` or `fairseed-server`
//! contains it (a test below looks for its mark in the binary). For each
//! cheat, the honest `fairseed verify` or `fairseed audit`, run as the
//! real binary on what the double produced, names the check that catches it:
//!
//! - AI levels switched per hand, knowing the deck: each AI seated at level
//!   3 when its final hand beats the person's, else level 1, and that level
//!   written into the record; every decision replays under it, but the
//!   `policy` check holds the record to the policy committed at open;
//! - closing as a veto: a house seat commits and holds its reveal, the
//!   person reveals, and the operator closes before the reveal phase ends;
//!   the audit reports the session's end while the round was open;
//! - a clock run down early: the person's turn timed out while the clock
//!   still ran, the table told the moment its clock would run out; the
//!   audit reports a timeout logged before the moment it names.

mod common;

use std::path::Path;

use common::{code, run, text};
use fairseed_audit::{Entry, Kind};
use fairseed_core::selfpoker_v3::{self, HandValue};
use fairseed_holdem::live::{
    self, driver, entries, round, LiveTable, Message, Policy, Request, Scheme, Session,
};
use fairseed_holdem::rules::{Action, Command, Player};
use fairseed_holdem::{evaluator, Card, HandRecord, TableConfig};
use fairseed_play::Millis;
use fairseed_tlog::NoteKey;

/// What marks the double: no build of the service may contain it.
const MARK: &str = "fairseed-dishonest-table-double";

const SECRET: [u8; 32] = [0x77; 32];

/// The table's policy: a person at seat 0 against AIs of level 2 and 2.
fn policy() -> Policy {
    Policy {
        config: TableConfig {
            seats: 3,
            small_blind: 50,
            big_blind: 100,
            starting_stack: 10_000,
            action_ms: 5_000,
        },
        ais: vec![2, 2],
        ai_seats: Vec::new(),
        idle_close_ms: 100,
        public: false,
    }
}

/// The double: a table, its clock and everything it said.
struct Dishonest {
    live: LiveTable,
    now: Millis,
    messages: Vec<Message>,
    log: Vec<fairseed_tlog::LogEntry>,
}

impl Dishonest {
    /// Opens table `table` of `seats` seats as the service does (the
    /// policy's two AIs at seats 1 and 2) and seats person 1 at seat 0.
    fn open(table: &str, seats: usize) -> Dishonest {
        let mut policy = policy();
        policy.config.seats = seats;
        let session = Session {
            scheme: Scheme::SelfpokerV3,
            commit: Some(selfpoker_v3::session_commit(&SECRET)),
            revealed: None,
        };
        let mut live = LiveTable::open(table.into(), policy, session).expect("a policy in bounds");
        live.quiet_since = Some(Millis(1_000));
        let mut log = vec![
            entries::session_commitment(&live).expect("a v3 session"),
            entries::policy_commitment(&live).expect("a policy serializes"),
            entries::served(&live, MARK, None, Millis(1_000)),
        ];
        for e in &mut log {
            e.time_ms = 1_000;
        }
        let sit = Request::Sit {
            seat: 0,
            client_seed: "the person's".into(),
            invitation: None,
            house: false,
        };
        let before = live.clone();
        let (live, messages) = live::request(&live, 1, sit, Millis(1_000)).expect("a free seat");
        log.extend(
            entries::change(&before, &SECRET, &live, &messages, Millis(1_000))
                .into_iter()
                .map(|mut e| {
                    e.time_ms = 1_000;
                    e
                }),
        );
        Dishonest {
            live,
            now: Millis(1_000),
            messages,
            log,
        }
    }

    /// Applies one change at the double's clock, logging as the service
    /// (each entry's time the double's clock as the store sets it).
    fn step(&mut self, change: impl FnOnce(&LiveTable, Millis) -> (LiveTable, Vec<Message>)) {
        self.step_told(None, change);
    }

    /// [`Dishonest::step`] with the table and its entries told the moment
    /// `told` (if given) instead of the double's clock, which still stamps
    /// the entries as the store does.
    fn step_told(
        &mut self,
        told: Option<Millis>,
        change: impl FnOnce(&LiveTable, Millis) -> (LiveTable, Vec<Message>),
    ) {
        self.now = Millis(self.now.0 + 10);
        let moment = told.unwrap_or(self.now);
        let (next, messages) = change(&self.live, moment);
        let logged = entries::change(&self.live, &SECRET, &next, &messages, moment);
        self.log.extend(logged.into_iter().map(|mut e| {
            e.time_ms = u64::try_from(self.now.0).expect("a positive clock");
            e
        }));
        self.messages.extend(messages);
        self.live = next;
    }

    /// Person `player` commits to and reveals `value` in the open round.
    fn commit_and_reveal(&mut self, player: i64, value: &HandValue, reveal: bool) {
        let hand = self.live.round.as_ref().expect("a round").hand;
        let commit = Request::Commit {
            hand,
            commit: value.commit(),
        };
        self.step(|l, now| live::request(l, player, commit, now).expect("a commit"));
        if reveal {
            let reveal = Request::Reveal {
                hand,
                value: value.as_hex().to_owned(),
            };
            self.step(|l, now| live::request(l, player, reveal, now).expect("a reveal"));
        }
    }

    /// The records of every hand that ended, with the session secret.
    fn records(&self) -> Vec<HandRecord> {
        self.messages
            .iter()
            .filter_map(|m| match m {
                Message::HandEnd { record, .. } => {
                    Some((**record).clone().with_session_secret(&hex::encode(SECRET)))
                }
                _ => None,
            })
            .collect()
    }
}

/// The cheat: each AI at level 3 when its final hand beats the person's,
/// else at level 1, decided once the hand is dealt and every card known.
fn swap_levels(live: &mut LiveTable) {
    let Some(hand) = &live.table.hand else { return };
    let strength = |hole: [Card; 2]| {
        let mut cards = hole.to_vec();
        cards.extend(hand.board);
        evaluator().evaluate(&cards).expect("seven cards")
    };
    let person = hand
        .players
        .iter()
        .find(|p| p.seat == 0)
        .map(|p| strength(p.hole));
    let levels: Vec<(usize, u8)> = hand
        .players
        .iter()
        .filter(|p| p.seat != 0)
        .map(|p| {
            (
                p.seat,
                if Some(strength(p.hole)) > person {
                    3
                } else {
                    1
                },
            )
        })
        .collect();
    for (seat, level) in levels {
        if let Some(s) = live.table.seats[seat].as_mut() {
            s.player = Player::Ai { level };
        }
    }
}

/// Plays `hands` hands where the person calls or checks every time; with
/// `cheat`, the AIs' levels are swapped per hand knowing the deck.
fn play(hands: u8, cheat: bool) -> Vec<HandRecord> {
    let mut table = Dishonest::open("swap", 3);
    let timing = driver::Timing {
        ai_delay_ms: 0,
        next_hand_ms: 0,
        idle_close_ms: 600_000,
    };
    for n in 1..=hands {
        let short = table.live.table.seats[0]
            .as_ref()
            .is_some_and(|s| s.stack < policy().config.starting_stack);
        if short {
            table.step(|l, now| live::request(l, 1, Request::TopUp, now).expect("a top-up"));
        }
        table.step(|l, now| round::open(l, now).expect("a round is due"));
        table.commit_and_reveal(1, &HandValue::from_bytes([n; 32]), true);
        table.step(|l, now| round::deal(l, &SECRET, now).expect("dealt"));
        if cheat {
            swap_levels(&mut table.live);
        }
        while let Some(hand) = &table.live.table.hand {
            let seat = hand.seat_to_act();
            if seat == 0 {
                let to_call = hand.current_bet
                    > hand
                        .players
                        .iter()
                        .find(|p| p.seat == 0)
                        .map_or(0, |p| p.street_bet);
                let action = if to_call { Action::Call } else { Action::Check };
                table.step(|l, now| live::request(l, 1, Request::Act(action), now).expect("legal"));
                continue;
            }
            let plan = driver::next(&table.live, timing, &SECRET).expect("an AI acts");
            let driver::Due::Command(command @ Command::Act { .. }) = plan.due else {
                panic!("an AI's action is due: {:?}", plan.due);
            };
            table.step(|l, now| live::apply(l, command, now).expect("the AI's action"));
        }
        // Busted AIs top up as the driver would, and levels go back for the next deal.
        for (i, &level) in policy().ais.iter().enumerate() {
            if let Some(s) = table.live.table.seats[i + 1].as_mut() {
                s.player = Player::Ai { level };
            }
        }
        while let Some(plan) = driver::next(&table.live, timing, &SECRET) {
            let driver::Due::Command(command @ Command::TopUp { .. }) = plan.due else {
                break;
            };
            table.step(|l, now| live::apply(l, command, now).expect("a top-up"));
        }
    }
    table.records()
}

fn verify(dir: &Path, records: &[HandRecord]) -> (i32, String) {
    let path = dir.join("hands.jsonl");
    let lines: Vec<String> = records
        .iter()
        .map(|r| serde_json::to_string(r).expect("a record serializes"))
        .collect();
    std::fs::write(&path, lines.join("\n") + "\n").expect("written");
    let out = run(&["verify", path.to_str().expect("utf-8")], b"");
    (code(&out), text(&out.stdout))
}

#[test]
fn ai_levels_switched_per_hand_fail_the_policy_check() {
    let dir = tempfile::tempdir().expect("temp dir");
    let honest = play(12, false);
    let (status, report) = verify(dir.path(), &honest);
    assert_eq!(status, 0, "the double plays honestly unless told: {report}");
    let cheated = play(12, true);
    let swapped = cheated
        .iter()
        .find(|r| r.seats.iter().any(|s| s.player == Player::Ai { level: 3 }))
        .expect("an AI was seated at level 3 in some hand");
    let (status, report) = verify(dir.path(), &cheated);
    assert_eq!(status, 1, "{report}");
    let seat = swapped
        .seats
        .iter()
        .find(|s| s.player == Player::Ai { level: 3 })
        .map(|s| s.seat)
        .expect("a level-3 seat");
    let want = format!(
        "FAIL policy: hand {}: seat {seat} plays as AI level 3; the table's policy, committed at open, seats level 2 there",
        swapped.hand
    );
    assert!(report.contains(&want), "{want}\n{report}");
    // Without the policy check the cheat would pass: every deal, action and
    // AI decision replays under the level the record names…
    fairseed_holdem::replay(swapped).expect("the cheat's hand replays");
    // …and a record that leaves its policy out fails for that.
    let mut unbound = swapped.clone();
    unbound.policy = None;
    let (status, report) = verify(dir.path(), &[unbound]);
    assert_eq!(status, 1, "{report}");
    assert!(
        report.contains("FAIL policy: hand ") && report.contains("the record carries no policy"),
        "{report}"
    );
}

fn key() -> NoteKey {
    NoteKey::from_private_bytes("fairseed.test/dishonest", &[5; 32]).expect("valid key name")
}

fn write_log(dir: &Path, log: &[fairseed_tlog::LogEntry]) {
    let entries: Vec<Entry> = log
        .iter()
        .map(|e| Entry {
            kind: match e.kind {
                fairseed_tlog::EntryKind::Commitment => Kind::Commitment,
                fairseed_tlog::EntryKind::Reveal => Kind::Reveal,
                fairseed_tlog::EntryKind::Outcome => Kind::Outcome,
            },
            time_ms: e.time_ms,
            scheme: e.scheme.clone(),
            ids: e.ids.clone(),
            values: e.values.clone(),
        })
        .collect();
    common::write_log(dir, &entries, &key());
}

/// The real `fairseed audit`'s report on `log`, which it must fail (exit 1).
fn audit_failing(log: &[fairseed_tlog::LogEntry]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    write_log(dir.path(), log);
    let out = run(&["audit", dir.path().to_str().expect("utf-8")], b"");
    let report = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(code(&out), 1, "{report}");
    report
}

#[test]
fn a_close_while_the_round_is_open_is_reported_by_the_audit() {
    let mut table = Dishonest::open("veto", 4);
    // The house's own "person" sits at seat 3.
    let sit = Request::Sit {
        seat: 3,
        client_seed: "the house's".into(),
        invitation: None,
        house: false,
    };
    table.step(|l, now| live::request(l, 99, sit, now).expect("a free seat"));
    table.step(|l, now| round::open(l, now).expect("a round is due"));
    // The house commits and holds its reveal; the person commits and reveals.
    let hand = table.live.round.as_ref().expect("a round").hand;
    let house = HandValue::from_bytes([0xaa; 32]);
    let commit = Request::Commit {
        hand,
        commit: house.commit(),
    };
    table.step(|l, now| live::request(l, 99, commit, now).expect("a commit"));
    table.commit_and_reveal(1, &HandValue::from_bytes([0x11; 32]), true);
    // The honest table refuses the operator's close now…
    let refused = live::close(&table.live, table.now).expect_err("a round is open");
    assert_eq!(refused, live::LiveError::RoundOpen(hand));
    // …the patched server closes anyway, as its idle limit (100 ms) would allow.
    table.step(|l, now| {
        let mut next = l.clone();
        for (seat, _) in l.humans() {
            next = live::apply(&next, Command::Leave { seat }, now)
                .expect("not in a hand")
                .0;
        }
        next.closed = true;
        next.end = Some(live::SessionEnd::TableIdle);
        next.quiet_since = Some(Millis(now.0 - 200));
        (next, Vec::new())
    });
    let report = audit_failing(&table.log);
    let want = format!(
        "table veto closed as table_idle while the round of hand {hand} was open: the session ended on a deck the house knew, with no hand and no withheld seat logged"
    );
    assert!(report.contains(&want), "{want}\n{report}");
}

#[test]
fn a_timeout_logged_before_its_clock_ran_out_is_reported_by_the_audit() {
    let mut table = Dishonest::open("early", 3);
    table.step(|l, now| round::open(l, now).expect("a round is due"));
    table.commit_and_reveal(1, &HandValue::from_bytes([0x21; 32]), true);
    table.step(|l, now| round::deal(l, &SECRET, now).expect("dealt"));
    let timing = driver::Timing {
        ai_delay_ms: 0,
        next_hand_ms: 0,
        idle_close_ms: 600_000,
    };
    // The AIs act until the person's turn.
    loop {
        let hand = table.live.table.hand.as_ref().expect("a hand in play");
        if hand.seat_to_act() == 0 {
            break;
        }
        let plan = driver::next(&table.live, timing, &SECRET).expect("an AI acts");
        let driver::Due::Command(command @ Command::Act { .. }) = plan.due else {
            panic!("an AI's action is due: {:?}", plan.due);
        };
        table.step(|l, now| live::apply(l, command, now).expect("the AI's action"));
    }
    let hand = table.live.table.hand.as_ref().expect("a hand in play");
    let (number, deadline) = (hand.number, hand.deadline);
    // The honest table refuses a timeout before the deadline…
    assert!(live::apply(&table.live, Command::Timeout { seat: 0 }, table.now).is_err());
    // …the patched server tells the table it is the deadline, 10 ms after
    // the last step, and its store stamps the entry with the true time.
    table.step_told(Some(deadline), |l, now| {
        live::apply(l, Command::Timeout { seat: 0 }, now).expect("the clock ran out")
    });
    let logged = table.now;
    assert!(logged < deadline, "the double runs the clock down early");
    let report = audit_failing(&table.log);
    let want = format!(
        "table early, hand {number}: seat 0's timeout at {} was logged at {}, before the moment it says the clock ran out",
        deadline.0, logged.0
    );
    assert!(report.contains(&want), "{want}\n{report}");
}

#[test]
fn no_build_of_the_service_contains_the_double() {
    let binary = env!("CARGO_BIN_EXE_fairseed");
    let bytes = std::fs::read(binary).expect("the binary");
    let found = bytes.windows(MARK.len()).any(|w| w == MARK.as_bytes());
    assert!(!found, "{binary} contains the dishonest double's mark");
}

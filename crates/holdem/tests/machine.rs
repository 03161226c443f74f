//! The live table as one machine, driven in virtual time by simulated
//! people (`harness`): a hand played to showdown, a person's clock running
//! out, a close refused while a round is open, the session's secret
//! revealed when the table closes, a start of service and the wind-down of a
//! table restored from a backup — each through the one entry point the
//! service calls, `Machine::handle`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

mod harness;

use fairseed_core::{selfpoker_v2, selfpoker_v3};
use fairseed_holdem::live::driver::Timing;
use fairseed_holdem::live::machine::{Input, Status};
use fairseed_holdem::live::{
    view, LiveError, LiveTable, Message, Policy, Request, Scheme, Session, SessionEnd,
};
use fairseed_holdem::{replay, Event, HoldemError, TableConfig};
use fairseed_play::{Millis, Viewer};
use fairseed_tlog::EntryKind;
use harness::{Harness, Persona};

const SECRET: [u8; 32] = [0x3c; 32];
const ACTION_MS: i64 = 5_000;

/// A table `m1` of `seats` seats with AIs of `ais`, under `scheme`, opened at 0.
fn open(scheme: Scheme, seats: usize, ais: &[u8]) -> Harness {
    let policy = Policy {
        config: TableConfig {
            seats,
            small_blind: 1,
            big_blind: 2,
            starting_stack: 200,
            action_ms: ACTION_MS,
        },
        ais: ais.to_vec(),
        ai_seats: Vec::new(),
        idle_close_ms: 60_000,
        public: true,
    };
    let commit = match scheme {
        Scheme::SelfpokerV3 => selfpoker_v3::session_commit(&SECRET),
        _ => selfpoker_v2::session_commit(&SECRET),
    };
    let session = Session {
        scheme,
        commit: Some(commit),
        revealed: None,
    };
    let live = LiveTable::open("m1".into(), policy, session)
        .unwrap()
        .opened_at(Millis(0));
    Harness::new(live, SECRET, Timing::default())
}

fn ended(h: &Harness) -> usize {
    h.hand_ends().len()
}

#[test]
fn two_people_play_a_hand_to_showdown_through_its_round() {
    let mut h = open(Scheme::SelfpokerV3, 2, &[]);
    h.sit(1, 0, Persona::Caller);
    h.sit(2, 1, Persona::Caller);
    assert!(h.run_until(60_000, |h| ended(h) == 1), "the hand ends");
    let last = view(&h.live, Viewer::Public)
        .last_hand
        .expect("a last hand");
    assert_eq!(last.shown.len(), 2, "both hands shown at showdown");
    assert_eq!(last.board.len(), 5, "the board run out");
    // The round opened after the pause between hands, then the hand was
    // dealt the moment both values were in: at the same virtual instant.
    let kinds: Vec<_> = h
        .entries
        .iter()
        .map(|(at, e)| (at.0, e.kind, e.values.first().cloned().unwrap_or_default()))
        .collect();
    assert_eq!(kinds[0], (2_000, EntryKind::Outcome, "round_opened".into()));
    assert_eq!(kinds[1].0, 2_000);
    assert_eq!(kinds[1].1, EntryKind::Commitment, "the hand's commit");
    let Some(Message::HandEnd {
        fairplay, record, ..
    }) = h.hand_ends().first().copied()
    else {
        unreachable!()
    };
    assert_eq!(
        kinds.last().unwrap(),
        &(2_000, EntryKind::Reveal, fairplay.seed.clone()),
        "the hand's seed, logged as it ended"
    );
    assert_eq!(h.status, Status::Open);
    assert!(
        h.revealed.is_none(),
        "the secret stays sealed while the table is open"
    );
    // Once the secret is out the whole record checks, derivation included.
    let record = (**record).clone().with_session_secret(&hex::encode(SECRET));
    assert!(replay(&record).is_ok(), "{:?}", replay(&record));
}

#[test]
fn an_absent_persons_clock_runs_out_and_the_log_says_how_long_they_had() {
    let mut h = open(Scheme::SelfpokerV2, 2, &[1]);
    h.now = Millis(500);
    h.sit(1, 0, Persona::Absent);
    // The first deal comes the pause after nothing: at 2 s of the clock.
    assert!(h.run_until(10_000, |h| h.live.table.hand.is_some()));
    assert_eq!(h.now, Millis(2_000));
    assert!(h.run_until(60_000, |h| !h.service_log("timeout").is_empty()));
    let timeout = &h.service_log("timeout")[0];
    let (from, at): (i64, i64) = (timeout[3].parse().unwrap(), timeout[4].parse().unwrap());
    assert_eq!(timeout[2], "0", "seat 0 timed out");
    assert_eq!(at - from, ACTION_MS, "exactly the clock, in virtual time");
    assert_eq!(h.now, Millis(at));
    let timed_out = h.messages.iter().any(|m| {
        matches!(
            m,
            Message::Event {
                event: Event::Acted {
                    seat: 0,
                    timed_out: true,
                    ..
                },
                ..
            }
        )
    });
    assert!(timed_out, "the action is public as a timeout");
    // An absent person is sat out: no next hand, and after the quiet spell
    // (from the hand's end) the clock closes the table, revealing its secret.
    assert!(h.run_until(600_000, |h| h.live.closed));
    assert_eq!(h.status, Status::Closed(SessionEnd::TableIdle));
    assert_eq!(h.revealed, Some(hex::encode(SECRET)));
    let closed = &h.service_log("closed")[0];
    let quiet_from: i64 = closed[2].parse().unwrap();
    assert_eq!(
        closed[3],
        (quiet_from + 60_000).to_string(),
        "the policy's idle limit"
    );
}

#[test]
fn a_close_while_a_round_is_open_is_refused_and_taken_once_it_ended() {
    let mut h = open(Scheme::SelfpokerV3, 2, &[2]);
    h.sit(1, 0, Persona::Caller);
    assert!(h.run_until(10_000, |h| h
        .live
        .round
        .as_ref()
        .is_some_and(|r| r.is_open())));
    let before = h.live.clone();
    let hand = before.round.as_ref().unwrap().hand;
    assert_eq!(
        h.input(Input::Close).unwrap_err(),
        LiveError::RoundOpen(hand)
    );
    assert_eq!(h.live, before, "a refused close changes nothing");
    // The person's commit and reveal deal the hand; a close is refused
    // while it is played, too.
    assert!(h.run_until(10_000, |h| h.live.table.hand.is_some()));
    assert_eq!(
        h.input(Input::Close).unwrap_err(),
        LiveError::Rules(HoldemError::HandRunning(hand))
    );
    // Between hands, before the next round opens, the close is taken.
    assert!(h.run_until(120_000, |h| ended(h) == 1));
    assert!(h.live.round.as_ref().is_none_or(|r| !r.is_open()));
    let out = h.input(Input::Close).unwrap();
    assert_eq!(out.status, Status::Closed(SessionEnd::TableIdle));
    assert!(matches!(
        out.messages.as_slice(),
        [Message::Event {
            event: Event::Left { seat: 0 },
            ..
        }]
    ));
    assert_eq!(h.input(Input::Close).unwrap_err(), LiveError::Closed);
    assert_eq!(h.input(Input::Tick).unwrap_err(), LiveError::NotDue);
}

#[test]
fn the_last_leave_reveals_the_secret_and_every_hand_then_replays() {
    let mut h = open(Scheme::SelfpokerV3, 3, &[1, 3]);
    h.sit(1, 0, Persona::Caller);
    assert!(h.run_until(600_000, |h| ended(h) == 3 && h.live.table.hand.is_none()));
    assert!(h.run_until(10_000, |h| h
        .live
        .round
        .as_ref()
        .is_none_or(|r| !r.is_open())));
    let out = h.send(1, Request::Leave).unwrap();
    assert_eq!(out.status, Status::Closed(SessionEnd::TableEmpty));
    assert_eq!(out.reveal, Some(hex::encode(SECRET)));
    // Logged: the close's figures, the secret with why, the policy again.
    let tail: Vec<_> = out
        .entries
        .iter()
        .map(|e| (e.kind, e.scheme.as_str(), e.values[0].clone()))
        .collect();
    let policy = serde_json::to_string(&h.live.policy).unwrap();
    assert_eq!(
        tail,
        [
            (EntryKind::Outcome, "holdem_table", "closed".to_owned()),
            (EntryKind::Reveal, "selfpoker_v3", hex::encode(SECRET)),
            (EntryKind::Reveal, "holdem_table", policy),
        ]
    );
    let public = view(&h.live, Viewer::Public);
    assert_eq!(public.session.secret, Some(hex::encode(SECRET)));
    for m in h.hand_ends() {
        let Message::HandEnd { record, .. } = m else {
            unreachable!()
        };
        let record = (**record).clone().with_session_secret(&hex::encode(SECRET));
        assert!(replay(&record).is_ok(), "{:?}", replay(&record));
    }
}

#[test]
fn a_start_of_service_gives_the_clock_back_and_names_the_process() {
    let mut h = open(Scheme::SelfpokerV2, 2, &[2]);
    h.sit(1, 0, Persona::Absent);
    assert!(h.run_until(10_000, |h| h.live.table.hand.is_some()));
    let hand = h.live.table.hand.clone().unwrap();
    h.now = Millis(h.now.0 + 3_600_000);
    let serve = Input::Serve {
        owner: "proc-b".into(),
        took_over_from: Some("proc-a".into()),
    };
    let out = h.input(serve).unwrap();
    assert!(
        out.messages.is_empty(),
        "no message, yet every clock changed"
    );
    assert_eq!(out.status, Status::Open);
    let since = h.now.0;
    let deadline = out.next.table.hand.as_ref().unwrap().deadline;
    assert_eq!(
        deadline,
        Millis(since + ACTION_MS),
        "the running turn's clock in full"
    );
    assert_eq!(
        h.service_log("served"),
        [vec![
            "served".to_owned(),
            "proc-b".into(),
            "proc-a".into(),
            hand.number.to_string(),
            deadline.0.to_string(),
            since.to_string(),
        ]]
    );
}

#[test]
fn a_restored_table_plays_its_hand_out_at_once_and_closes_without_a_new_one() {
    let mut h = open(Scheme::SelfpokerV3, 3, &[1, 2]);
    h.sit(1, 0, Persona::Caller);
    assert!(h.run_until(10_000, |h| h.live.table.hand.is_some()));
    let hand = h.live.table.hand.as_ref().unwrap().number;
    h.people.clear(); // nobody is served while the table winds down
    let mut steps = 0;
    while !h.live.closed {
        h.input(Input::WindDown).unwrap();
        steps += 1;
        assert!(steps < 200, "a hand ends in far fewer steps");
    }
    assert_eq!(h.live.table.hands_played, hand, "no new hand started");
    assert_eq!(h.hand_ends().len(), 1, "the hand under way played out");
    assert_eq!(h.status, Status::Closed(SessionEnd::TableIdle));
    assert_eq!(h.revealed, Some(hex::encode(SECRET)));
    assert!(h.live.humans().is_empty(), "its people left");
    assert_eq!(h.input(Input::WindDown).unwrap_err(), LiveError::Closed);
}

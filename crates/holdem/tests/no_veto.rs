//! Closing is never a veto (docs/spec.md §17.4, §20.2): no session ends
//! while a hand's round is open or its hand is played — neither the
//! operator's close nor the last human's leave — and a round that ends
//! without its hand is named with why and runs again on fresh values only.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use fairseed_core::selfpoker_v3::{self, HandValue};
use fairseed_holdem::live::round::{self, NoHandWhy, Phase};
use fairseed_holdem::live::{
    self, LiveError, LiveTable, Message, Policy, Request, RoundNotice, Scheme, Session,
};
use fairseed_holdem::{HoldemError, TableConfig};
use fairseed_play::{Code, Millis, RuleViolation};

const SECRET: [u8; 32] = [0x4d; 32];
const ACTION_MS: i64 = 5_000;

/// A heads-up `selfpoker_v3` table: player 1 at seat 0 against an AI.
fn heads_up() -> LiveTable {
    table_of(&[2])
}

/// A `selfpoker_v3` table: player 1 at seat 0 against AIs of `ais`.
fn table_of(ais: &[u8]) -> LiveTable {
    let policy = Policy {
        config: TableConfig {
            seats: ais.len() + 1,
            small_blind: 1,
            big_blind: 2,
            starting_stack: 200,
            action_ms: ACTION_MS,
        },
        ais: ais.to_vec(),
        ai_seats: Vec::new(),
        idle_close_ms: 60_000,
        public: false,
    };
    let session = Session {
        scheme: Scheme::SelfpokerV3,
        commit: Some(selfpoker_v3::session_commit(&SECRET)),
        revealed: None,
    };
    let live = LiveTable::open("t9".into(), policy, session).unwrap();
    let sit = Request::Sit {
        seat: 0,
        client_seed: "mine".into(),
        invitation: None,
        house: false,
    };
    live::request(&live, 1, sit, Millis(0)).unwrap().0
}

fn value(byte: u8) -> HandValue {
    HandValue::from_bytes([byte; 32])
}

fn commit(live: &LiveTable, v: &HandValue) -> Result<(LiveTable, Vec<Message>), LiveError> {
    let hand = live.round.as_ref().unwrap().hand;
    let request = Request::Commit {
        hand,
        commit: v.commit(),
    };
    live::request(live, 1, request, Millis(20))
}

#[test]
fn no_close_while_a_round_is_open_or_a_hand_is_played() {
    let table = heads_up();
    let opened = round::open(&table, Millis(10)).unwrap().0;
    let refused = live::close(&opened, Millis(11)).unwrap_err();
    assert_eq!(refused, LiveError::RoundOpen(1));
    assert_eq!(refused.code(), Code::RoundOpen);
    let leave = live::request(&opened, 1, Request::Leave, Millis(11)).unwrap_err();
    assert_eq!(leave, LiveError::RoundOpen(1));
    // Committed: the reveal phase is open, and still nothing closes.
    let revealing = commit(&opened, &value(7)).unwrap().0;
    assert_eq!(revealing.round.as_ref().unwrap().phase, Phase::Reveal);
    assert_eq!(
        live::close(&revealing, Millis(21)).unwrap_err(),
        LiveError::RoundOpen(1)
    );
    let reveal = Request::Reveal {
        hand: 1,
        value: value(7).as_hex().to_owned(),
    };
    let revealed = live::request(&revealing, 1, reveal, Millis(22)).unwrap().0;
    let dealt = round::deal(&revealed, &SECRET, Millis(23)).unwrap().0;
    assert!(dealt.table.hand.is_some());
    assert_eq!(
        live::close(&dealt, Millis(24)).unwrap_err(),
        LiveError::Rules(HoldemError::HandRunning(1))
    );
}

#[test]
fn the_last_human_cannot_end_the_session_mid_hand_even_folded() {
    let table = table_of(&[2, 2]);
    let opened = round::open(&table, Millis(10)).unwrap().0;
    let revealing = commit(&opened, &value(9)).unwrap().0;
    let reveal = Request::Reveal {
        hand: 1,
        value: value(9).as_hex().to_owned(),
    };
    let revealed = live::request(&revealing, 1, reveal, Millis(22)).unwrap().0;
    let mut live = round::deal(&revealed, &SECRET, Millis(23)).unwrap().0;
    let timing = live::driver::Timing::default();
    let mut folded = false;
    while live.table.hand.is_some() {
        let refused = live::request(&live, 1, Request::Leave, Millis(24)).unwrap_err();
        // Dealt in, folded or not, the seat stays until the hand ends.
        assert_eq!(refused, LiveError::Rules(HoldemError::InHand(0)));
        let hand = live.table.hand.as_ref().unwrap();
        live = if hand.seat_to_act() == 0 {
            folded = true;
            let fold = Request::Act(fairseed_holdem::Action::Fold);
            live::request(&live, 1, fold, Millis(25)).unwrap().0
        } else {
            let plan = live::driver::next(&live, timing, &SECRET).unwrap();
            let live::driver::Due::Command(command) = plan.due else {
                panic!("an AI acts: {:?}", plan.due);
            };
            live::apply(&live, command, plan.at).unwrap().0
        };
    }
    assert!(folded, "the person folded and the AIs played on");
    let left = live::request(&live, 1, Request::Leave, Millis(10_000_000))
        .unwrap()
        .0;
    assert!(
        left.closed,
        "once the hand is over, the leave ends the session"
    );
}

#[test]
fn a_round_without_its_hand_says_why_and_runs_again_on_fresh_values() {
    let table = heads_up();
    // Nobody commits: no hand, and why.
    let opened = round::open(&table, Millis(10)).unwrap().0;
    let (after, messages) = round::close_commits(&opened, Millis(10 + ACTION_MS)).unwrap();
    let whys: Vec<NoHandWhy> = messages
        .iter()
        .filter_map(|m| match m {
            Message::Round {
                notice: RoundNotice::NoHand { why, .. },
                ..
            } => Some(*why),
            _ => None,
        })
        .collect();
    assert_eq!(whys, [NoHandWhy::NobodyCommitted]);
    assert!(after.round.is_none());
    // The person sits in, commits, and withholds: no hand again.
    let back = live::request(&after, 1, Request::SitIn, Millis(6_000))
        .unwrap()
        .0;
    let opened = round::open(&back, Millis(6_001)).unwrap().0;
    let revealing = commit(&opened, &value(3)).unwrap().0;
    let (after, messages) = round::deal(&revealing, &SECRET, Millis(20_000)).unwrap();
    let notices: Vec<&RoundNotice> = messages
        .iter()
        .filter_map(|m| match m {
            Message::Round { notice, .. } => Some(notice),
            _ => None,
        })
        .collect();
    assert_eq!(
        notices,
        [
            &RoundNotice::Withheld { hand: 1, seat: 0 },
            &RoundNotice::NoHand {
                hand: 1,
                why: NoHandWhy::TooFewReady
            }
        ]
    );
    // The round runs again: the value committed to before is refused, a fresh one taken.
    let back = live::request(&after, 1, Request::SitIn, Millis(21_000))
        .unwrap()
        .0;
    let opened = round::open(&back, Millis(21_001)).unwrap().0;
    let refused = commit(&opened, &value(3)).unwrap_err();
    assert_eq!(refused.code(), Code::HandValueInvalid);
    assert!(
        refused
            .to_string()
            .starts_with("commit: this value was committed to in an earlier round of hand 1"),
        "{refused}"
    );
    let revealing = commit(&opened, &value(4)).unwrap().0;
    let reveal = Request::Reveal {
        hand: 1,
        value: value(4).as_hex().to_owned(),
    };
    let revealed = live::request(&revealing, 1, reveal, Millis(21_002))
        .unwrap()
        .0;
    let dealt = round::deal(&revealed, &SECRET, Millis(21_003)).unwrap().0;
    assert!(dealt.table.hand.is_some());
    assert!(
        dealt.spent_commits.is_empty(),
        "spent until the hand is dealt"
    );
}

/// At a table whose turn clock is ten minutes, a seat that does not commit
/// stalls the hand 30 s, not ten minutes: each phase of a round lasts at
/// most [`round::MAX_PHASE_MS`], after a restart too.
#[test]
fn a_rounds_phases_are_bounded_whatever_the_turn_clock() {
    let mut table = heads_up();
    table.table.config.action_ms = 600_000;
    let opened = round::open(&table, Millis(1_000)).unwrap().0;
    let deadline = opened.round.as_ref().unwrap().deadline;
    assert_eq!(deadline, Millis(1_000 + round::MAX_PHASE_MS));
    let plan = live::driver::next(&opened, live::driver::Timing::default(), &SECRET).unwrap();
    assert_eq!(
        (plan.at, plan.due),
        (deadline, live::driver::Due::CloseCommits)
    );
    let revealing = commit(&opened, &value(5)).unwrap().0;
    assert_eq!(
        revealing.round.as_ref().unwrap().deadline,
        Millis(20 + round::MAX_PHASE_MS)
    );
    let resumed = live::resume(&revealing, Millis(90_000));
    assert_eq!(
        resumed.round.as_ref().unwrap().deadline,
        Millis(90_000 + round::MAX_PHASE_MS)
    );
    assert_eq!(round::phase_ms(5_000), 5_000, "a short clock is the phase");
}

/// A table nobody sits at closes after a minute of service whatever its
/// idle limit (here a day), and says why; one a person joined keeps its own.
#[test]
fn a_table_nobody_joined_closes_within_a_minute() {
    let mut table = heads_up();
    table.policy.idle_close_ms = 86_400_000;
    let sit = table.clone();
    let empty = live::LiveTable {
        table: table.policy.table().unwrap(),
        client_seeds: Vec::new(),
        ..table
    };
    let empty = live::resume(
        &live::LiveTable {
            quiet_since: Some(Millis(0)),
            ..empty
        },
        Millis(5_000),
    );
    assert!(empty.nobody_joined());
    let timing = live::driver::Timing::default();
    let plan = live::driver::next(&empty, timing, &SECRET).unwrap();
    assert_eq!(plan.due, live::driver::Due::Close);
    assert_eq!(plan.at, Millis(5_000 + live::driver::UNJOINED_CLOSE_MS));
    let closed = live::close(&empty, plan.at).unwrap().0;
    assert_eq!(closed.end, Some(live::SessionEnd::TableUnjoined));
    // A person sat (and sat out): the policy's idle limit applies.
    let out = live::request(&sit, 1, Request::SitOut, Millis(6_000))
        .unwrap()
        .0;
    assert!(!out.nobody_joined());
    let plan = live::driver::next(&out, timing, &SECRET).unwrap();
    assert_eq!(plan.at, Millis(6_000 + 86_400_000));
}

//! "No last word" (docs/spec.md §20): with every other input of a hand fixed,
//! the last seat to reveal its per-hand value can change the deck only by
//! withholding, and withholding is visible in the hand's record, in the
//! table's public messages and to `fairseed verify`'s checks. Also the
//! round's refusals: no value before the commits are in, no value but the
//! committed one, no seat change while a round is open.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use fairseed_core::selfpoker;
use fairseed_core::selfpoker_v3::{self, HandValue};
use fairseed_holdem::live::round::{self, Phase};
use fairseed_holdem::live::{self, driver, LiveError, LiveTable, Message, Request, RoundNotice};
use fairseed_holdem::live::{Policy, Scheme, Session};
use fairseed_holdem::{verdict, HandRecord, TableConfig};
use fairseed_play::Millis;
use proptest::prelude::*;

const SECRET: [u8; 32] = [0x3c; 32];
const ACTION_MS: i64 = 5_000;
/// The humans: (player id, seat); seat 1 is an AI.
const HUMANS: [(i64, usize); 3] = [(1, 0), (2, 2), (3, 3)];

fn table() -> LiveTable {
    let config = TableConfig {
        seats: 4,
        small_blind: 10,
        big_blind: 20,
        starting_stack: 400,
        action_ms: ACTION_MS,
    };
    let policy = Policy {
        config,
        ais: vec![2],
        ai_seats: Vec::new(),
        idle_close_ms: 60_000,
        public: false,
    };
    let session = Session {
        scheme: Scheme::SelfpokerV3,
        commit: Some(selfpoker_v3::session_commit(&SECRET)),
        revealed: None,
    };
    let mut live = LiveTable::open("t1".into(), policy, session).unwrap();
    for (player, seat) in HUMANS {
        let sit = Request::Sit {
            seat,
            client_seed: format!("seed of {player}"),
            invitation: None,
            house: false,
        };
        live = live::request(&live, player, sit, Millis(0)).unwrap().0;
    }
    live
}

/// What the last seat to reveal does once the others have revealed.
#[derive(Debug, Clone)]
enum Last {
    /// Tries these other values (each refused), then reveals its own.
    Reveals(Vec<[u8; 32]>),
    /// Tries these other values (each refused), then lets the deadline pass.
    Withholds(Vec<[u8; 32]>),
}

/// A hand's round where every human commits to its value and all but the
/// last (seat 3) reveal, then the last does `last`; returns the table once
/// the hand is dealt and every message of the round and the deal.
fn play_round(values: &[[u8; 32]; 3], last: &Last) -> (LiveTable, Vec<Message>) {
    let mut live = table();
    let mut messages = Vec::new();
    let mut run = |live: &mut LiveTable, step: Result<(LiveTable, Vec<Message>), LiveError>| {
        let (next, more) = step.unwrap();
        *live = next;
        messages.extend(more);
    };
    let now = Millis(10);
    let step = round::open(&live, now);
    run(&mut live, step);
    let values: Vec<HandValue> = values.iter().map(|v| HandValue::from_bytes(*v)).collect();
    for ((player, _), value) in HUMANS.iter().zip(&values) {
        let commit = Request::Commit {
            hand: 1,
            commit: value.commit(),
        };
        let step = live::request(&live, *player, commit, now);
        run(&mut live, step);
    }
    for ((player, _), value) in HUMANS.iter().zip(&values).take(2) {
        let reveal = Request::Reveal {
            hand: 1,
            value: value.as_hex().to_owned(),
        };
        let step = live::request(&live, *player, reveal, now);
        run(&mut live, step);
    }
    let (tries, reveals) = match last {
        Last::Reveals(tries) => (tries, true),
        Last::Withholds(tries) => (tries, false),
    };
    for other in tries {
        let other = HandValue::from_bytes(*other);
        let refused = live::request(&live, 3, reveal_of(&other), now);
        if other == values[2] {
            // The committed value itself: the round takes it.
            let step = refused;
            run(&mut live, step);
            break;
        }
        assert_eq!(refused.unwrap_err(), LiveError::ValueMismatch(1));
    }
    if reveals && !live.round.as_ref().unwrap().values.contains_key(&3) {
        let step = live::request(&live, 3, reveal_of(&values[2]), now);
        run(&mut live, step);
    }
    let plan = driver::next(&live, driver::Timing::default(), &SECRET).unwrap();
    assert_eq!(plan.due, driver::Due::StartHand);
    let deadline = live.round.as_ref().unwrap().deadline;
    let step = round::deal(&live, &SECRET, plan.at.max(deadline));
    run(&mut live, step);
    (live, messages)
}

fn reveal_of(value: &HandValue) -> Request {
    Request::Reveal {
        hand: 1,
        value: value.as_hex().to_owned(),
    }
}

/// Plays the dealt hand to its end by the driver (people time out) and
/// returns its record with the session secret revealed.
fn finish(mut live: LiveTable) -> HandRecord {
    for _ in 0..200 {
        let plan = driver::next(&live, driver::Timing::default(), &SECRET).unwrap();
        let driver::Due::Command(command) = plan.due else {
            panic!("the hand ends before anything else is due: {:?}", plan.due);
        };
        let (next, messages) = live::apply(&live, command, plan.at).unwrap();
        live = next;
        for m in messages {
            if let Message::HandEnd { record, .. } = m {
                let mut record = *record;
                if let Some(deal) = record.deal.as_mut() {
                    deal.session_secret = Some("3c".repeat(32));
                }
                return record;
            }
        }
    }
    panic!("the hand did not end");
}

fn deck(live: &LiveTable) -> [u8; 52] {
    selfpoker::deck(live.table.hand.as_ref().expect("a hand is dealt").seed)
}

fn withheld_notices(messages: &[Message]) -> Vec<usize> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::Round {
                notice: RoundNotice::Withheld { seat, .. },
                ..
            } => Some(*seat),
            _ => None,
        })
        .collect()
}

fn last() -> impl Strategy<Value = Last> {
    let tries = proptest::collection::vec(any::<[u8; 32]>(), 0..4);
    prop_oneof![
        tries.clone().prop_map(Last::Reveals),
        tries.prop_map(Last::Withholds),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the last seat sends once the others revealed, the deck is
    /// the one every value gives, or — only when it withheld — the one the
    /// others' values give; a withheld seat is in the record, the messages
    /// and the verdict, and the hand verifies either way.
    #[test]
    fn the_last_to_reveal_can_only_withhold_in_plain_sight(
        values in any::<[[u8; 32]; 3]>(),
        last in last(),
    ) {
        prop_assume!(values[0] != values[1] && values[1] != values[2] && values[0] != values[2]);
        let (honest, _) = play_round(&values, &Last::Reveals(vec![]));
        let (held, _) = play_round(&values, &Last::Withholds(vec![]));
        prop_assert_ne!(deck(&honest), deck(&held));
        let (live, messages) = play_round(&values, &last);
        let withheld = live.round.as_ref().unwrap().withheld();
        if withheld.is_empty() {
            prop_assert_eq!(deck(&live), deck(&honest));
            prop_assert!(withheld_notices(&messages).is_empty());
        } else {
            prop_assert_eq!(&withheld, &vec![3]);
            prop_assert_eq!(deck(&live), deck(&held));
            prop_assert_eq!(withheld_notices(&messages), vec![3]);
            prop_assert!(live.table.seats[3].as_ref().unwrap().sitting_out);
        }
        let record = finish(live);
        let deal = record.deal.clone().unwrap();
        prop_assert_eq!(&deal.withheld, &withheld);
        prop_assert_eq!(deal.hand_commits.len(), 3);
        prop_assert_eq!(deal.hand_values.len(), 3 - withheld.len());
        prop_assert_eq!(record.seats.iter().any(|s| s.seat == 3), withheld.is_empty());
        let v = verdict::verdict(&record);
        prop_assert!(v.valid, "{:?}", v.checks);
        let names: Vec<&str> = v.checks.iter().map(|c| c.name.as_ref()).collect();
        if withheld.is_empty() {
            prop_assert_eq!(&names[..4], &["session_secret", "reveals", "withheld", "derivation"]);
            prop_assert!(v.warnings.is_empty());
        } else {
            // A withheld seat is a warning on the hand, never an `ok`.
            prop_assert_eq!(&names[..3], &["session_secret", "reveals", "derivation"]);
            prop_assert_eq!(v.warnings.len(), 1);
            let warning = &v.warnings[0];
            prop_assert_eq!(warning.name.as_ref(), "withheld");
            prop_assert!(warning.detail.starts_with("hand 1: seat 3 committed to a per-hand value and withheld it"), "{}", warning.detail);
            let count_as = warning.count_as.as_deref().unwrap_or_default();
            prop_assert!(count_as.starts_with("table t1 (session ") && count_as.ends_with("…): seat 3 withheld its per-hand value"), "{}", count_as);
            let text = fairseed_core::report::render(0, &v);
            prop_assert!(text.contains("\n  warn withheld: hand 1: seat 3 committed"), "{}", text);
            prop_assert!(!text.contains("ok   withheld"), "{}", text);
        }
    }
}

#[test]
fn no_value_is_taken_before_the_commits_are_in_and_no_seat_moves_meanwhile() {
    let mut live = table();
    live = round::open(&live, Millis(10)).unwrap().0;
    let value = HandValue::from_bytes([1; 32]);
    let early = live::request(&live, 1, reveal_of(&value), Millis(11)).unwrap_err();
    assert!(matches!(early, LiveError::Round(_)), "{early}");
    for request in [Request::SitOut, Request::Leave, Request::TopUp] {
        let refused = live::request(&live, 1, request, Millis(11)).unwrap_err();
        assert_eq!(refused, LiveError::RoundOpen(1));
    }
    let sit = Request::Sit {
        seat: 1,
        client_seed: "x".into(),
        invitation: None,
        house: false,
    };
    assert!(live::request(&live, 9, sit, Millis(11)).is_err());
    let bad = Request::Commit {
        hand: 1,
        commit: "zz".into(),
    };
    let bad = live::request(&live, 1, bad, Millis(11)).unwrap_err();
    assert!(matches!(bad, LiveError::HandValue(_)), "{bad}");
    let wrong_hand = Request::Commit {
        hand: 2,
        commit: value.commit(),
    };
    assert!(live::request(&live, 1, wrong_hand, Millis(11)).is_err());
}

#[test]
fn a_seat_that_does_not_commit_is_sat_out_and_the_rest_play() {
    let mut live = table();
    live = round::open(&live, Millis(10)).unwrap().0;
    for player in [1, 2] {
        let value = HandValue::from_bytes([player as u8; 32]);
        let commit = Request::Commit {
            hand: 1,
            commit: value.commit(),
        };
        live = live::request(&live, player, commit, Millis(11)).unwrap().0;
    }
    let plan = driver::next(&live, driver::Timing::default(), &SECRET).unwrap();
    assert_eq!(plan.due, driver::Due::CloseCommits);
    assert_eq!(plan.at, Millis(10 + ACTION_MS));
    let (after, messages) = round::close_commits(&live, plan.at).unwrap();
    assert!(messages.iter().any(|m| matches!(
        m,
        Message::Round {
            notice: RoundNotice::NotCommitted { seat: 3, .. },
            ..
        }
    )));
    assert!(after.table.seats[3].as_ref().unwrap().sitting_out);
    let round = after.round.as_ref().unwrap();
    assert_eq!(round.phase, Phase::Reveal);
    assert_eq!(round.deadline, Millis(10 + 2 * ACTION_MS));
}

#[test]
fn a_restart_gives_the_round_its_full_clock() {
    let mut live = table();
    live = round::open(&live, Millis(10)).unwrap().0;
    let resumed = live::resume(&live, Millis(1_000_000));
    assert_eq!(
        resumed.round.as_ref().unwrap().deadline,
        Millis(1_000_000 + ACTION_MS)
    );
}

/// The verdict of `record` after `tamper`: its first failing check's name
/// and text.
fn first_failure(record: &HandRecord, tamper: impl Fn(&mut HandRecord)) -> (String, String) {
    let mut changed = record.clone();
    tamper(&mut changed);
    let v = verdict::verdict(&changed);
    assert!(!v.valid, "{:?}", v.checks);
    let failed = v.checks.iter().find(|c| !c.ok).expect("a failing check");
    (failed.name.to_string(), failed.detail.to_string())
}

#[test]
fn a_forged_round_fails_its_named_check() {
    let values = [[1; 32], [2; 32], [3; 32]];
    let (live, _) = play_round(&values, &Last::Withholds(vec![]));
    let record = finish(live);
    assert!(verdict::verdict(&record).valid);
    let deal = |r: &mut HandRecord| r.deal.as_mut().unwrap().clone();

    let (name, detail) = first_failure(&record, |r| {
        let mut d = deal(r);
        d.hand_values
            .insert(0, HandValue::from_bytes([9; 32]).as_hex().to_owned());
        r.deal = Some(d);
    });
    assert_eq!(name, "reveals");
    assert!(
        detail.starts_with("hand 1: seat 0's revealed value hashes to "),
        "{detail}"
    );

    let (name, detail) = first_failure(&record, |r| {
        let mut d = deal(r);
        d.withheld = vec![0];
        d.hand_values.remove(&0);
        r.deal = Some(d);
    });
    assert_eq!(name, "withheld");
    assert_eq!(detail, "hand 1: seat 0 withheld its value and is dealt in");

    // Withheld seat 3's value put back: a derivation over other inputs.
    let (name, detail) = first_failure(&record, |r| {
        let mut d = deal(r);
        d.withheld.clear();
        d.hand_values
            .insert(3, HandValue::from_bytes([3; 32]).as_hex().to_owned());
        r.deal = Some(d);
    });
    assert_eq!(name, "derivation");
    assert_eq!(
        detail,
        "hand 1: seat 3 has a revealed value and is not dealt in"
    );

    let (name, detail) = first_failure(&record, |r| r.seed ^= 1);
    assert_eq!(name, "derivation");
    assert!(detail.contains("the record says"), "{detail}");
}

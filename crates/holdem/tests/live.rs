//! Property tests of the live table: random mixes of people's requests,
//! AI turns, timeouts and deals. For every state and every viewer, changing
//! any card the viewer may not see (other seats' cards not shown, the board
//! to come, the seed before the hand ends) leaves the view byte for byte the
//! same; a spectator never sees a hole card while a hand is played; the seat
//! to act alone gets its legal actions; every finished hand's record replays.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use fairseed_core::selfpoker_v2;
use fairseed_holdem::deal::DealStatus;
use fairseed_holdem::live::machine::{Input, Machine};
use fairseed_holdem::live::{
    self, driver, sealed, view, LiveTable, Message, Policy, Request, Scheme, Session,
};
use fairseed_holdem::record::{check_deal, replay_hand};
use fairseed_holdem::{replay, Action, Card, Command, HandRecord, Player, TableConfig};
use fairseed_play::{Millis, Viewer};
use harness::{Harness, Persona};
use proptest::prelude::*;

mod harness;

/// Players 1 and 2 may sit; 3 never does.
const PEOPLE: [i64; 3] = [1, 2, 3];

/// The session secret of the `selfpoker_v2` tables of these tests.
const SECRET: [u8; 32] = [0x5a; 32];

/// [`SECRET`] as a record carries it.
fn hex_secret() -> String {
    "5a".repeat(32)
}

fn new_table(seats: usize, ais: &[u8]) -> LiveTable {
    table_with(seats, ais, false)
}

/// A table of `seats` with AIs of `ais` (as many as fit) from seat 1 on.
fn table_with(seats: usize, ais: &[u8], v2: bool) -> LiveTable {
    let policy = Policy {
        config: TableConfig {
            seats,
            small_blind: 10,
            big_blind: 20,
            starting_stack: 400,
            action_ms: 1_000,
        },
        ais: ais.iter().copied().take(seats - 1).collect(),
        ai_seats: Vec::new(),
        idle_close_ms: 600_000,
        public: false,
    };
    let session = Session {
        scheme: if v2 {
            Scheme::SelfpokerV2
        } else {
            Scheme::Selfpoker
        },
        commit: v2.then(|| selfpoker_v2::session_commit(&SECRET)),
        revealed: None,
    };
    LiveTable::open("t1".into(), policy, session).unwrap()
}

fn viewers() -> Vec<Viewer> {
    let mut v: Vec<Viewer> = PEOPLE.iter().map(|&p| Viewer::Player(p)).collect();
    v.extend([Viewer::Public, Viewer::Operator]);
    v
}

fn card(x: u64) -> Card {
    Card::new((x % 52) as u8).unwrap()
}

/// `live` with every card `viewer` may not see replaced, drawn from `noise`.
fn scramble(live: &LiveTable, viewer: Viewer, noise: u64) -> LiveTable {
    let mut out = live.clone();
    let mut n = noise;
    let mut draw = || {
        n = n
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        n >> 33
    };
    let own = match viewer {
        Viewer::Player(id) => live.seat_of(id),
        _ => None,
    };
    if let Some(hand) = out.table.hand.as_mut() {
        hand.seed = draw() & ((1 << 63) - 1);
        let dealt = hand.street.board_len();
        for c in &mut hand.board[dealt..] {
            *c = card(draw());
        }
        for p in &mut hand.players {
            if Some(p.seat) != own {
                p.hole = [card(draw()), card(draw())];
            }
        }
    }
    if let Some(last) = out.last.as_mut() {
        let shown: Vec<usize> = last.result.shown.iter().map(|(s, _)| *s).collect();
        for h in &mut last.holes {
            if Some(h.seat) != own && !shown.contains(&h.seat) {
                h.hole = [card(draw()), card(draw())];
            }
        }
    }
    out
}

fn check_views(live: &LiveTable, noise: u64) {
    for viewer in viewers() {
        let seen = serde_json::to_string(&view(live, viewer)).unwrap();
        let other = serde_json::to_string(&view(&scramble(live, viewer, noise), viewer)).unwrap();
        assert_eq!(seen, other, "{viewer:?} sees a card it may not");
        let v = view(live, viewer);
        if let Some(hand) = &v.hand {
            assert_eq!(hand.commit.len(), 64, "every hand state carries its commit");
            assert_eq!(
                hand.legal.is_some(),
                v.you.is_some() && v.you == hand.to_act
            );
            let holes = v
                .seats
                .iter()
                .flatten()
                .filter(|s| s.hole.is_some())
                .count();
            assert!(
                holes <= usize::from(v.you.is_some()),
                "{viewer:?}: {holes} holes"
            );
        }
    }
}

/// One step of a random table life, picked by `choice`: a person's request,
/// or the clock jumping to what the table does next by itself, both through
/// the machine the service runs.
fn step(live: &LiveTable, now: &mut Millis, choice: u64) -> Option<(LiveTable, Vec<Message>)> {
    let machine = Machine {
        secret: &SECRET,
        pacing: driver::Timing::default(),
    };
    let who = PEOPLE[(choice % 2) as usize];
    let arg = choice >> 8;
    let request = match (choice >> 4) % 18 {
        0 => Request::Sit {
            seat: (arg % 6) as usize,
            client_seed: format!("seed {arg}"),
            invitation: None,
            house: false,
        },
        1 => Request::SitOut,
        2 => Request::SitIn,
        3 => Request::TopUp,
        4 => Request::Leave,
        5 => Request::Act(Action::Fold),
        6 => Request::Act(Action::Check),
        7 => Request::Act(Action::Call),
        8 => Request::Act(Action::RaiseTo(arg % 800)),
        _ => {
            *now = Millis(now.0.max(machine.due(live)?.0));
            let out = machine.handle(live, Input::Tick, *now).ok()?;
            return Some((out.next, out.messages));
        }
    };
    *now = Millis(now.0 + 1);
    let input = Input::Request {
        player: who,
        request,
    };
    let out = machine.handle(live, input, *now).ok()?;
    Some((out.next, out.messages))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn views_hide_what_the_viewer_may_not_see(
        seats in 2usize..=6,
        ais in proptest::collection::vec(1u8..=3, 0..5),
        choices in proptest::collection::vec(any::<u64>(), 1..300),
        noise in any::<u64>(),
        v2 in any::<bool>(),
    ) {
        let mut live = table_with(seats, &ais, v2);
        let mut now = Millis(0);
        let mut seq = 0;
        for choice in choices {
            check_views(&live, noise ^ choice);
            let (stripped, seed) = sealed::strip(&live);
            prop_assert_eq!(sealed::restore(&stripped, seed).unwrap(), live.clone());
            if v2 {
                // The service re-derives the stripped cards from the session secret.
                prop_assert_eq!(live::running_seed(&stripped, &SECRET).unwrap(), seed);
            }
            let Some((next, messages)) = step(&live, &mut now, choice) else { continue };
            for m in &messages {
                seq += 1;
                prop_assert_eq!(m.seq(), seq, "messages numbered without gaps");
                let text = serde_json::to_string(m).unwrap();
                prop_assert!(!text.contains("\"hole\""), "no message carries hole cards");
                if let Message::HandEnd { record, fairplay, .. } = m {
                    let hand: &HandRecord = record;
                    prop_assert_eq!(&fairplay.commit, &hand.commit);
                    prop_assert_eq!(fairplay.seed.parse::<u64>().unwrap(), hand.seed);
                    prop_assert_eq!(hand.deal.is_some(), v2);
                    if v2 {
                        // Unrevealed until the session ends; then the whole
                        // record checks, derivation included.
                        prop_assert_eq!(check_deal(hand), Ok(Some(DealStatus::Unrevealed)));
                        prop_assert!(replay_hand(hand).is_ok(), "{:?}", replay_hand(hand));
                        let mut revealed = hand.clone();
                        if let Some(deal) = revealed.deal.as_mut() {
                            deal.session_secret = Some(hex_secret());
                        }
                        prop_assert!(replay(&revealed).is_ok(), "{:?}", replay(&revealed));
                    } else {
                        prop_assert!(replay(hand).is_ok(), "{:?}", replay(hand));
                    }
                }
            }
            prop_assert_eq!(next.seq, seq);
            live = next;
        }
        check_views(&live, noise);
    }
}

#[test]
fn a_human_and_ais_play_hands_to_the_end_driven_by_the_machine() {
    let mut h = Harness::new(
        new_table(6, &[1, 3, 2, 1, 2]),
        SECRET,
        driver::Timing::default(),
    );
    h.sit(7, 0, Persona::Caller);
    assert!(h.run_until(3_600_000, |h| h.hand_ends().len() == 5));
    assert_eq!(h.live.table.hands_played, 5);
    let v = view(&h.live, Viewer::Player(7));
    assert_eq!(v.you, Some(0));
    let badges: Vec<_> = v
        .seats
        .iter()
        .flatten()
        .filter_map(|s| s.badge.clone())
        .collect();
    assert_eq!(badges[0], "AI · level 1");
    assert_eq!(badges.len(), 5);
}

#[test]
fn an_ai_waits_its_delay_and_a_person_their_clock() {
    let mut live = new_table(2, &[2]);
    live = live::request(
        &live,
        7,
        Request::Sit {
            seat: 0,
            client_seed: "s".into(),
            invitation: None,
            house: false,
        },
        Millis(5),
    )
    .unwrap()
    .0;
    let timing = driver::Timing {
        ai_delay_ms: 300,
        next_hand_ms: 2_000,
        idle_close_ms: 60_000,
    };
    let plan = driver::next(&live, timing, &SECRET).unwrap();
    assert_eq!(plan.due, driver::Due::StartHand);
    live = live::apply(&live, Command::StartHand { seed: 42 }, Millis(100))
        .unwrap()
        .0;
    let hand = live.table.hand.as_ref().unwrap();
    let plan = driver::next(&live, timing, &SECRET).unwrap();
    if hand.seat_to_act() == 0 {
        assert_eq!(plan.at, Millis(100 + 1_000));
        assert_eq!(plan.due, driver::Due::Command(Command::Timeout { seat: 0 }));
    } else {
        assert_eq!(plan.at, Millis(100 + 300));
    }
}

#[test]
fn a_table_nobody_can_be_dealt_into_closes_after_a_quiet_spell() {
    let timing = driver::Timing {
        ai_delay_ms: 10,
        next_hand_ms: 10,
        idle_close_ms: 5_000,
    };
    let mut live = new_table(3, &[1, 2]);
    live.policy.idle_close_ms = 5_000;
    assert_eq!(
        driver::next(&live, timing, &SECRET),
        None,
        "never closes before anyone came"
    );
    let sit = Request::Sit {
        seat: 0,
        client_seed: "s".into(),
        invitation: None,
        house: false,
    };
    live = live::request(&live, 7, sit, Millis(100)).unwrap().0;
    live = live::request(&live, 7, Request::SitOut, Millis(200))
        .unwrap()
        .0;
    let plan = driver::next(&live, timing, &SECRET).unwrap();
    assert_eq!(
        plan,
        driver::Plan {
            at: Millis(5_200),
            due: driver::Due::Close
        }
    );
    let (closed, messages) = live::close(&live, Millis(5_200)).unwrap();
    assert!(closed.closed && closed.humans().is_empty());
    assert!(matches!(
        &messages[..],
        [Message::Event {
            event: fairseed_holdem::Event::Left { seat: 0 },
            ..
        }]
    ));
    assert_eq!(driver::next(&closed, timing, &SECRET), None);
    let again = live::request(&closed, 8, Request::SitIn, Millis(6_000));
    assert_eq!(again.unwrap_err(), live::LiveError::Closed);
}

/// A process that starts serving a table gives the running turn its full
/// clock back and starts the quiet spell again: time counts only while the
/// table is served (docs/spec.md §19.1). Nothing else changes.
#[test]
fn resuming_gives_the_running_clock_and_the_quiet_spell_back() {
    let mut live = new_table(2, &[2]);
    let sit = Request::Sit {
        seat: 0,
        client_seed: "s".into(),
        invitation: None,
        house: false,
    };
    live = live::request(&live, 7, sit, Millis(5)).unwrap().0;
    live = live::apply(&live, Command::StartHand { seed: 42 }, Millis(100))
        .unwrap()
        .0;
    let before = live.table.hand.clone().unwrap();
    assert_eq!(before.deadline, Millis(100 + 1_000));
    let resumed = live::resume(&live, Millis(50_000));
    let after = resumed.table.hand.clone().unwrap();
    assert_eq!(after.deadline, Millis(51_000));
    assert_eq!(resumed.quiet_since, Some(Millis(50_000)));
    assert_eq!(after.players, before.players, "no card or chip changes");
    assert_eq!(after.log, before.log);
    assert_eq!(resumed.seq, live.seq, "no message");
    let plan = driver::next(&resumed, driver::Timing::default(), &SECRET).unwrap();
    if after.seat_to_act() == 0 {
        assert_eq!(plan.due, driver::Due::Command(Command::Timeout { seat: 0 }));
        assert_eq!(plan.at, Millis(51_000), "the full clock from the restart");
    } else {
        assert_eq!(
            plan.at,
            Millis(50_000 + 700),
            "the AI's delay from the restart"
        );
    }
}

/// A `hand_end` as the service logs it reads back as the hand's record
/// (the same JSON written again); any other message reads back as none.
#[test]
fn a_logged_hand_end_reads_back_as_its_record_and_other_messages_as_none() {
    let opened = table_with(2, &[1], true);
    let sit = Request::Sit {
        seat: 0,
        client_seed: "mine".into(),
        invitation: None,
        house: false,
    };
    let seated = live::request(&opened, 7, sit, Millis(0)).unwrap().0;
    let seed = live::derived_seed(&seated, &SECRET).expect("a human seated");
    let (dealt, mut messages) =
        live::apply(&seated, Command::StartHand { seed }, Millis(1)).expect("two seats");
    let hand = dealt.table.hand.as_ref().expect("a hand in play");
    let (seat, deadline) = (hand.seat_to_act(), hand.deadline);
    let ended =
        live::apply(&dealt, Command::Timeout { seat }, deadline).expect("the clock ran out");
    messages.extend(ended.1);
    let mut records = Vec::new();
    for message in &messages {
        let text = serde_json::to_string(message).expect("a message serializes");
        let read = live::logged_record(&text).expect("a logged message reads back");
        match message {
            Message::HandEnd { record, .. } => {
                assert_eq!(read.as_ref(), Some(&**record));
                let logged: serde_json::Value =
                    serde_json::from_str(&text).expect("a message is JSON");
                let again = serde_json::to_value(&read).expect("a record serializes");
                assert_eq!(again, logged["record"]);
                records.extend(read);
            }
            _ => assert_eq!(read, None, "{text}"),
        }
    }
    let [record] = records.as_slice() else {
        panic!("one hand ended: {records:?}");
    };
    assert_eq!(record.humans(), [7], "the AI reads no record");
    assert!(record
        .seats
        .iter()
        .any(|s| matches!(s.player, Player::Ai { .. })));
    let revealed = record.clone().with_session_secret(&hex_secret());
    let deal = revealed.deal.as_ref().expect("a selfpoker_v2 deal");
    assert_eq!(deal.session_secret, Some(hex_secret()));
    assert_eq!(
        fairseed_holdem::record::revealed_secret(&revealed)
            .expect("the secret matches the deal's commitment")
            .map(|(s, _)| s),
        Some(SECRET)
    );
    assert!(
        live::logged_record(r#"{"type":"hand_end","seq":3}"#).is_err(),
        "a hand_end carries its record"
    );
}

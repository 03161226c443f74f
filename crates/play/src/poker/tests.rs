//! One test per rule, and the leaver's proofs hand by hand.

use fairseed_core::poker::{self as core_poker, verify_proof};
use fairseed_core::{ClientSeed, Ident, ServerSeed};

use super::*;
use crate::{Millis, RuleViolation, Viewer};

pub(super) fn seed(byte: u8) -> ServerSeed {
    ServerSeed::from_bytes([byte; 32])
}

pub(super) fn client(text: &str) -> ClientSeed {
    ClientSeed::parse(text).unwrap()
}

const T0: Millis = Millis(1_000_000);

fn table() -> State {
    State::open(Ident::parse("t1").unwrap(), seed(7), T0).unwrap()
}

fn sit(state: State, player: i64, seat: u8) -> Result<(State, Vec<Event>), PokerError> {
    let shown = state.seed.commitment();
    apply(
        state,
        Command::Sit {
            player,
            seat,
            client_seed: client(&format!("c{player}")),
            shown,
        },
        T0,
    )
}

fn run(state: State, command: Command) -> State {
    apply(state, command, T0).unwrap().0
}

/// Three players at seats 1, 4, 7, two hands started; hand 2 at preflop.
fn three_at_hand_two() -> State {
    let mut s = table();
    for (p, seat) in [(1, 1), (2, 4), (3, 7)] {
        s = sit(s, p, seat).unwrap().0;
    }
    s = run(s, Command::StartHand);
    for _ in 0..3 {
        s = run(s, Command::DealStreet { n: 1 });
    }
    run(s, Command::StartHand)
}

fn leave(state: State, player: i64) -> (State, Vec<Event>) {
    apply(
        state,
        Command::Leave {
            player,
            next_seed: seed(9),
        },
        T0,
    )
    .unwrap()
}

/// The deck of hand `n` as the core deals it from the session's seed.
fn core_deck(state: &State, n: u64) -> core_poker::PokerDeck {
    let hand = state.session.hand(n).unwrap();
    let value = core_poker::hand_value(&seed(7), &state.session.table, &state.session.session, n);
    core_poker::deal(
        &value,
        &state.session.table,
        &state.session.session,
        n,
        &hand.seats,
    )
    .unwrap()
}

fn code(result: Result<(State, Vec<Event>), PokerError>) -> &'static str {
    result.err().map_or("ok", |e| e.code().as_str())
}

#[test]
fn sitting_checks_commitment_seat_and_place() {
    let s = table();
    let wrong = seed(8).commitment();
    let mismatch = apply(
        s.clone(),
        Command::Sit {
            player: 1,
            seat: 0,
            client_seed: client("a"),
            shown: wrong,
        },
        T0,
    );
    assert_eq!(code(mismatch), "commitment_mismatch");
    assert_eq!(code(sit(s.clone(), 1, 10)), "invalid_seat");
    let (s, events) = sit(s, 1, 3).unwrap();
    assert_eq!(events, vec![Event::Sat { seat: 3, player: 1 }]);
    assert_eq!(code(sit(s.clone(), 2, 3)), "seat_taken");
    assert_eq!(code(sit(s.clone(), 1, 4)), "already_seated");
    // The same seat again is a re-seed, not an error.
    assert_eq!(code(sit(s, 1, 3)), "ok");
}

#[test]
fn a_hand_needs_two_ready_seats_and_publishes_its_commitments() {
    let s = sit(table(), 1, 0).unwrap().0;
    assert_eq!(
        code(apply(s.clone(), Command::StartHand, T0)),
        "not_enough_players"
    );
    let s = sit(s, 2, 5).unwrap().0;
    let (s, events) = apply(s, Command::StartHand, T0).unwrap();
    assert_eq!(events, vec![Event::HandStarted { n: 1 }]);
    let hand = s.session.hand(1).unwrap();
    let value = core_poker::hand_value(&seed(7), &s.session.table, &s.session.session, 1);
    assert_eq!(hand.hand_commitment, value.commitment());
    assert_eq!(hand.deck_root.to_hex(), core_deck(&s, 1).root());
    assert_eq!(hand.street, Street::Preflop);
}

#[test]
fn streets_go_flop_turn_river_on_the_latest_hand_only() {
    let s = three_at_hand_two();
    assert_eq!(
        code(apply(s.clone(), Command::DealStreet { n: 1 }, T0)),
        "hand_over"
    );
    assert_eq!(
        code(apply(s.clone(), Command::DealStreet { n: 3 }, T0)),
        "not_found"
    );
    assert_eq!(
        code(apply(s.clone(), Command::DealStreet { n: 0 }, T0)),
        "not_found"
    );
    let mut s = s;
    for street in [Street::Flop, Street::Turn, Street::River] {
        let (next, events) = apply(s, Command::DealStreet { n: 2 }, T0).unwrap();
        assert_eq!(events, vec![Event::StreetDealt { n: 2, street }]);
        let board = view_hand(&next, 2, Viewer::Public).unwrap().board;
        assert_eq!(board, core_deck(&next, 2).board()[..street.board_len()]);
        s = next;
    }
    assert_eq!(
        code(apply(s, Command::DealStreet { n: 2 }, T0)),
        "hand_over"
    );
}

#[test]
fn a_seated_player_sees_their_holes_and_nobody_elses() {
    let s = three_at_hand_two();
    let deck = core_deck(&s, 2);
    let holes = deck.holes();
    for (player, seat) in [(1, 1), (2, 4), (3, 7)] {
        let v = view_hand(&s, 2, Viewer::Player(player)).unwrap();
        assert_eq!(v.seat, Some(seat));
        assert_eq!(v.hole, holes.get(&seat).copied());
        assert!(v.proofs.is_empty(), "a seated player has no proof yet");
        assert!(v.board.is_empty());
    }
    for viewer in [Viewer::Public, Viewer::Operator, Viewer::Player(99)] {
        let v = view_hand(&s, 2, viewer).unwrap();
        assert_eq!((v.seat, v.hole), (None, None));
    }
}

/// Positions a proof list covers, checked against the root on the way.
fn proven(view: &HandView) -> Vec<usize> {
    view.proofs
        .iter()
        .map(|p| {
            verify_proof(&view.deck_root, p).unwrap();
            p.i
        })
        .collect()
}

#[test]
fn leaving_at_preflop_proves_the_holes_only() {
    let (s, events) = leave(three_at_hand_two(), 3);
    let [Event::Left {
        seat: 7,
        player: 3,
        proofs,
    }] = &events[..]
    else {
        panic!("one leave at seat 7: {events:?}");
    };
    let left: Vec<u64> = proofs.iter().map(|v| v.n).collect();
    assert_eq!(left, vec![1, 2]);
    assert_eq!(proofs[1], view_hand(&s, 2, Viewer::Player(3)).unwrap());
    // Seat 7 is the third seat ascending: positions 4 and 5; the board starts at 6.
    let hand2 = view_hand(&s, 2, Viewer::Player(3)).unwrap();
    assert_eq!(proven(&hand2), vec![4, 5]);
    // Hand 1 reached the river before they left: its whole board is public.
    let hand1 = view_hand(&s, 1, Viewer::Player(3)).unwrap();
    assert_eq!(proven(&hand1), vec![4, 5, 6, 7, 8, 9, 10]);
    // Later streets are public to all, and add nothing to the proofs.
    let s = run(s, Command::DealStreet { n: 2 });
    let later = view_hand(&s, 2, Viewer::Player(3)).unwrap();
    assert_eq!(proven(&later), vec![4, 5]);
    assert_eq!(later.board.len(), 3);
}

#[test]
fn leaving_at_the_flop_proves_the_holes_and_three_board_cards() {
    let s = run(three_at_hand_two(), Command::DealStreet { n: 2 });
    let (s, _) = leave(s, 3);
    let v = view_hand(&s, 2, Viewer::Player(3)).unwrap();
    assert_eq!(proven(&v), vec![4, 5, 6, 7, 8]);
    let deck = core_deck(&s, 2);
    let cards: Vec<u8> = v.proofs.iter().map(|p| p.card).collect();
    assert_eq!(cards, [4, 5, 6, 7, 8].map(|i| deck.deck()[i]));
    let record = v.proof_record().unwrap().to_value();
    assert!(fairseed_core::verify_value(&record).valid);
}

#[test]
fn leaving_twice_is_not_seated_and_the_last_leaver_rotates() {
    let (s, _) = leave(three_at_hand_two(), 3);
    assert_eq!(
        code(apply(
            s.clone(),
            Command::Leave {
                player: 3,
                next_seed: seed(9)
            },
            T0
        )),
        "not_seated"
    );
    let (s, _) = leave(s, 2);
    let (s, events) = leave(s, 1);
    let Some(Event::Rotated(rotated)) = events.last() else {
        panic!("the last leaver rotates the session: {events:?}");
    };
    assert_eq!(rotated.why, RotateWhy::Empty);
    assert_eq!(rotated.server_seed(), &seed(7));
    assert_eq!(s.session.session.as_str(), "s2");
    assert_eq!(s.seed.commitment(), seed(9).commitment());
    let record = session_record(rotated).unwrap();
    assert_eq!(record["server_seed"], seed(7).reveal());
    assert_eq!(record["hands"].as_array().map(Vec::len), Some(2));
}

#[test]
fn rotation_opens_the_next_session_and_seats_re_seed() {
    let s = three_at_hand_two();
    let (s, events) = apply(
        s,
        Command::Rotate {
            why: RotateWhy::Restart,
            next_seed: seed(9),
        },
        Millis(5),
    )
    .unwrap();
    assert!(matches!(&events[..], [Event::Rotated(r)] if r.why == RotateWhy::Restart));
    assert_eq!(s.table.session_no, 2);
    assert_eq!(s.session.opened, Millis(5));
    assert!(s.session.hands.is_empty());
    assert!(s.table.seats.values().all(|seat| !seat.ready()));
    assert_eq!(code(apply(s, Command::StartHand, T0)), "not_enough_players");
}

#[test]
fn a_session_is_due_after_500_hands_or_24_hours() {
    let mut s = sit(sit(table(), 1, 0).unwrap().0, 2, 1).unwrap().0;
    assert_eq!(due(&s, T0), None);
    assert_eq!(due(&s, Millis(T0.0 + MAX_AGE_MS)), Some(RotateWhy::Age));
    assert_eq!(
        code(apply(
            s.clone(),
            Command::StartHand,
            Millis(T0.0 + MAX_AGE_MS)
        )),
        "session_rotated"
    );
    for _ in 0..MAX_HANDS {
        s = run(s, Command::StartHand);
    }
    assert_eq!(due(&s, T0), Some(RotateWhy::Hands));
    assert_eq!(code(apply(s, Command::StartHand, T0)), "session_rotated");
}

/// The limits at their edges: the 500th hand starts and the 501st is
/// refused; a session open for 24 hours less 1 ms starts a hand and one 24
/// hours old is refused.
#[test]
fn the_rotation_limits_hold_at_their_edges() {
    let seated = sit(sit(table(), 1, 0).unwrap().0, 2, 1).unwrap().0;
    let just_short = Millis(T0.0 + MAX_AGE_MS - 1);
    assert_eq!(due(&seated, just_short), None);
    assert!(apply(seated.clone(), Command::StartHand, just_short).is_ok());
    let at_limit = Millis(T0.0 + MAX_AGE_MS);
    assert_eq!(due(&seated, at_limit), Some(RotateWhy::Age));
    assert_eq!(
        apply(seated.clone(), Command::StartHand, at_limit).unwrap_err(),
        PokerError::SessionDue(RotateWhy::Age)
    );
    let mut s = seated;
    for _ in 0..MAX_HANDS - 1 {
        s = run(s, Command::StartHand);
    }
    assert_eq!(s.session.hands.len(), 499);
    assert_eq!(due(&s, T0), None);
    let (s, events) = apply(s, Command::StartHand, T0).expect("the 500th hand");
    assert!(
        matches!(&events[..], [Event::HandStarted { n: 500 }]),
        "{events:?}"
    );
    assert_eq!(due(&s, T0), Some(RotateWhy::Hands));
    assert_eq!(
        apply(s, Command::StartHand, T0).unwrap_err(),
        PokerError::SessionDue(RotateWhy::Hands)
    );
}

#[test]
fn stored_state_reads_back_and_is_checked() {
    let s = leave(three_at_hand_two(), 3).0;
    let table: Table = serde_json::from_str(&serde_json::to_string(&s.table).unwrap()).unwrap();
    let session: Session =
        serde_json::from_str(&serde_json::to_string(&s.session).unwrap()).unwrap();
    let seed = SessionSeed::unsealed(s.seed.commitment(), seed(7)).unwrap();
    assert_eq!(
        State::load(table.clone(), session.clone(), seed).unwrap(),
        s
    );
    assert!(SessionSeed::unsealed(s.seed.commitment(), super::tests::seed(8)).is_err());
    let mut other = table;
    other.session_no = 2;
    let seed = SessionSeed::unsealed(s.seed.commitment(), super::tests::seed(7)).unwrap();
    assert!(State::load(other, session, seed).is_err());
    let bad = r#"{"table":"t:1","session_no":1,"seats":{}}"#;
    assert!(serde_json::from_str::<Table>(bad).is_err());
}

#[test]
fn public_events_carry_no_card_and_no_seed_before_rotation() {
    let s = three_at_hand_two();
    let (s, events) = apply(s, Command::DealStreet { n: 2 }, T0).unwrap();
    let text = public_event(&s, &events[0]).unwrap().to_string();
    assert!(!text.contains(seed(7).reveal()));
    let board: Vec<u8> = core_deck(&s, 2).board()[..3].to_vec();
    assert_eq!(
        public_event(&s, &events[0]).unwrap()["board"],
        serde_json::json!(board)
    );
    let (s, events) = apply(
        s,
        Command::Rotate {
            why: RotateWhy::Age,
            next_seed: seed(9),
        },
        T0,
    )
    .unwrap();
    let rotated = public_event(&s, &events[0]).unwrap();
    assert_eq!(rotated["server_seed"], seed(7).reveal());
    assert!(!rotated.to_string().contains(seed(9).reveal()));
}

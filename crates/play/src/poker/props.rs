//! Random command sequences: every view of every reached state shows a
//! viewer only their own cards and what is already public, never a seed
//! before its rotation, and does not change when everything else does.

use std::collections::BTreeSet;

use fairseed_core::poker::{self as core_poker, verify_proof, LeafProof, PokerDeck};
use proptest::prelude::*;

use super::hand_view::{hand_view, Cards};
use super::tests::{client, seed};
use super::*;
use crate::{Millis, Viewer};

#[derive(Debug, Clone)]
enum Step {
    Sit { player: i64, seat: u8, honest: bool },
    Start,
    Street { back: u64 },
    Leave { player: i64 },
    Rotate,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (1..=4i64, 0..=10u8, prop::bool::weighted(0.9))
            .prop_map(|(player, seat, honest)| Step::Sit { player, seat, honest }),
        2 => Just(Step::Start),
        3 => (0..=1u64).prop_map(|back| Step::Street { back }),
        1 => (1..=4i64).prop_map(|player| Step::Leave { player }),
        1 => Just(Step::Rotate),
    ]
}

fn command(state: &State, step: &Step, k: u8) -> Command {
    match *step {
        Step::Sit {
            player,
            seat,
            honest,
        } => Command::Sit {
            player,
            seat,
            client_seed: client(&format!("p{player}k{k}")),
            shown: if honest {
                state.seed.commitment()
            } else {
                seed(0).commitment()
            },
        },
        Step::Start => Command::StartHand,
        Step::Street { back } => Command::DealStreet {
            n: (state.session.hands.len() as u64).saturating_sub(back),
        },
        Step::Leave { player } => Command::Leave {
            player,
            next_seed: seed(k),
        },
        Step::Rotate => Command::Rotate {
            why: RotateWhy::Restart,
            next_seed: seed(k),
        },
    }
}

const VIEWERS: [Viewer; 7] = [
    Viewer::Public,
    Viewer::Operator,
    Viewer::Player(1),
    Viewer::Player(2),
    Viewer::Player(3),
    Viewer::Player(4),
    Viewer::Player(99),
];

/// The deck dealt independently of the view code, from the core.
fn deck_of(state: &State, seed: &fairseed_core::ServerSeed, hand: &Hand) -> PokerDeck {
    let s = &state.session;
    let value = core_poker::hand_value(seed, &s.table, &s.session, hand.n);
    core_poker::deal(&value, &s.table, &s.session, hand.n, &hand.seats).unwrap()
}

/// Positions `viewer` may see in `hand`: its own holes and the board dealt.
fn visible(hand: &Hand, viewer: Viewer) -> BTreeSet<usize> {
    let p = hand.seats.len();
    let mut out: BTreeSet<usize> = (2 * p..2 * p + hand.street.board_len()).collect();
    if let Viewer::Player(player) = viewer {
        if let Some(seat) = hand.seat_of(player) {
            let j = hand.seats.keys().position(|s| *s == seat).unwrap();
            out.extend([2 * j, 2 * j + 1]);
        }
    }
    out
}

/// The real deck at visible positions; every other card and salt changed.
struct Mutated<'a> {
    deck: &'a PokerDeck,
    visible: &'a BTreeSet<usize>,
}

impl Cards for Mutated<'_> {
    fn card(&self, i: usize) -> u8 {
        let card = self.deck.deck()[i];
        if self.visible.contains(&i) {
            card
        } else {
            (card + 1) % 52
        }
    }
    fn proof(&self, i: usize) -> LeafProof {
        let mut proof = self.deck.proof(i);
        if !self.visible.contains(&i) {
            proof.card = self.card(i);
            proof.salt = "00".repeat(32);
        }
        proof
    }
}

fn check_hand(state: &State, server_seed: &fairseed_core::ServerSeed, hand: &Hand) {
    let deck = deck_of(state, server_seed, hand);
    let value = core_poker::hand_value(
        server_seed,
        &state.session.table,
        &state.session.session,
        hand.n,
    );
    for viewer in VIEWERS {
        let view = view_hand(state, hand.n, viewer).unwrap();
        let allowed = visible(hand, viewer);
        // Every card shown is at an allowed position, and is the real card there.
        let board_at = 2 * hand.seats.len();
        assert_eq!(
            view.board,
            deck.deck()[board_at..board_at + hand.street.board_len()]
        );
        match (viewer, view.seat) {
            (Viewer::Player(p), Some(seat)) => {
                assert_eq!(hand.seat_of(p), Some(seat));
                assert_eq!(view.hole, deck.holes().get(&seat).copied());
            }
            (_, seat) => {
                assert_eq!(seat, None);
                assert_eq!(view.hole, None);
            }
        }
        // Proofs: only a leaver, only what was dealt when they left, each checking.
        let left_at = view.seat.and_then(|s| hand.left.get(&s));
        let mut proven = BTreeSet::new();
        for proof in &view.proofs {
            verify_proof(&hand.deck_root, proof).unwrap();
            assert!(
                allowed.contains(&proof.i),
                "{viewer:?} got a proof of position {}",
                proof.i
            );
            proven.insert(proof.i);
        }
        match left_at {
            None => assert!(
                view.proofs.is_empty(),
                "{viewer:?} has proofs without leaving"
            ),
            Some(street) => {
                assert!(*street <= hand.street);
                assert_eq!(proven.len(), 2 + street.board_len());
                assert!(proven.iter().all(|i| *i < board_at + street.board_len()));
            }
        }
        // No seed and no hand value in anything shown.
        let text = serde_json::to_string(&view).unwrap();
        assert!(!text.contains(server_seed.reveal()));
        assert!(!text.contains(value.reveal()));
        // Changing every position the viewer may not see changes nothing.
        let mutated = Mutated {
            deck: &deck,
            visible: &allowed,
        };
        assert_eq!(hand_view(&state.session, hand, viewer, &mutated), view);
    }
}

fn check_state(state: &State, server_seed: &fairseed_core::ServerSeed) {
    for hand in &state.session.hands {
        check_hand(state, server_seed, hand);
    }
    for viewer in VIEWERS {
        let text = serde_json::to_string(&view(state, viewer)).unwrap();
        assert!(!text.contains(server_seed.reveal()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn views_show_only_what_is_the_viewers_or_public(steps in prop::collection::vec(step(), 1..40)) {
        let mut state = State::open(fairseed_core::Ident::parse("t").unwrap(), seed(200), Millis(0)).unwrap();
        let mut server_seed = seed(200);
        for (k, step) in steps.iter().enumerate() {
            let k = u8::try_from(k + 1).unwrap();
            let before = state.clone();
            match apply(state, command(&before, step, k), Millis(i64::from(k))) {
                Err(_) => state = before,
                Ok((next, events)) => {
                    for event in &events {
                        let public = public_event(&next, event).unwrap().to_string();
                        match event {
                            Event::Rotated(rotated) => {
                                assert_eq!(rotated.server_seed(), &server_seed);
                                assert!(public.contains(server_seed.reveal()));
                                let record = session_record(rotated).unwrap();
                                prop_assert_eq!(&record["server_seed"], server_seed.reveal());
                                server_seed = seed(k);
                            }
                            _ => prop_assert!(!public.contains(server_seed.reveal())),
                        }
                    }
                    // The next session's seed (used or not) is never public yet.
                    prop_assert!(!public_texts(&next, &events).contains(seed(k).reveal()));
                    state = next;
                }
            }
            check_state(&state, &server_seed);
        }
    }
}

/// The public events of one step, joined (the next session's seed must not be among them).
fn public_texts(state: &State, events: &[Event]) -> String {
    events
        .iter()
        .map(|e| public_event(state, e).unwrap().to_string())
        .collect()
}

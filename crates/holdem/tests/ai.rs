//! The AI sees only its seat: changing any card it cannot see never
//! changes a decision; every decision is legal.
#![allow(clippy::unwrap_used)] // tests: a panic is a failure

mod common;

use common::hands::{scenario, with_unseen_changed};
use fairseed_holdem::ai::{decide, Level, SeatView};
use fairseed_holdem::Action;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn hidden_cards_never_change_a_decision((hand, decision_seed, swaps) in scenario()) {
        let Some(hand) = hand else { return Ok(()) };
        let me = hand.to_act;
        let view = SeatView::of(&hand);
        let decisions: Vec<Action> = Level::ALL.iter().map(|&l| decide(l, &view, decision_seed)).collect();
        // Swap the cards this seat cannot see: other seats' holes and the board to come.
        let other = with_unseen_changed(&hand, me, &swaps);
        let other_view = SeatView::of(&other);
        prop_assert_eq!(&other_view, &view);
        for (l, &want) in Level::ALL.iter().zip(&decisions) {
            prop_assert_eq!(decide(*l, &other_view, decision_seed), want);
        }
        // Every decision is within what the rules allow the seat.
        for action in decisions {
            let legal = hand.legal();
            match action {
                Action::Check => prop_assert_eq!(legal.to_call, 0),
                Action::Call => prop_assert!(legal.to_call > 0),
                Action::RaiseTo(to) => {
                    let (min, max) = legal.raise.unwrap();
                    prop_assert!((min..=max).contains(&to));
                }
                Action::Fold => {}
            }
        }
    }

    /// Every seat's view, on its turn or not (the coach's input), is unchanged
    /// by the cards it cannot see.
    #[test]
    fn every_seats_view_ignores_what_it_cannot_see((hand, _seed, swaps) in scenario()) {
        let Some(hand) = hand else { return Ok(()) };
        for (k, p) in hand.players.iter().enumerate() {
            let view = SeatView::for_seat(&hand, p.seat).unwrap();
            prop_assert_eq!(view.hole, p.hole);
            let other = with_unseen_changed(&hand, k, &swaps);
            prop_assert_ne!(&other.players, &hand.players);
            prop_assert_eq!(SeatView::for_seat(&other, p.seat).unwrap(), view);
        }
    }
}

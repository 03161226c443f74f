//! The coach sees only its seat: changing any card the seat cannot see never
//! changes the advice. Its equity is right: exact answers equal a brute-force
//! count with the independent reference evaluator, sampled answers agree with
//! known equities within their standard error.
#![allow(clippy::unwrap_used)] // tests: a panic is a failure

mod common;

use common::hands::{scenario, with_unseen_changed};
use common::reference;
use fairseed_holdem::ai::SeatView;
use fairseed_holdem::coach::{advise, check, measure, Method};
use fairseed_holdem::{Action, Card, CardSet};
use proptest::prelude::*;

/// Cards by name: "As Kd 7h".
fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|n| {
            let b = n.as_bytes();
            let rank = b"23456789TJQKA".iter().position(|&r| r == b[0]).unwrap();
            let suit = b"cdhs".iter().position(|&s| s == b[1]).unwrap();
            Card::of(rank as u8, suit as u8).unwrap()
        })
        .collect()
}

fn hole(text: &str) -> [Card; 2] {
    let c = cards(text);
    [c[0], c[1]]
}

/// The share of the pot against one random holding, every run-out and
/// holding counted by the reference evaluator: (wins + ties / 2) / cases.
fn brute_force_heads_up(mine: [Card; 2], board: &[Card]) -> (f64, u64) {
    let unseen = CardSet::of(board).with(mine[0]).with(mine[1]).complement();
    let mut runouts: Vec<Vec<Card>> = vec![vec![]];
    for _ in board.len()..5 {
        runouts = runouts
            .into_iter()
            .flat_map(|r| {
                let last = r.last().copied();
                unseen
                    .iter()
                    .filter(move |&&c| last.is_none_or(|l| c > l))
                    .map(move |&c| [r.clone(), vec![c]].concat())
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    let (mut won2, mut cases) = (0u64, 0u64);
    for runout in &runouts {
        let full: Vec<Card> = [board, runout].concat();
        let me = reference::best(&[full.clone(), mine.to_vec()].concat());
        let left: Vec<Card> = unseen
            .iter()
            .copied()
            .filter(|c| !runout.contains(c))
            .collect();
        for (i, &a) in left.iter().enumerate() {
            for &b in &left[i + 1..] {
                let them = reference::best(&[full.clone(), vec![a, b]].concat());
                won2 += match me.cmp(&them) {
                    core::cmp::Ordering::Greater => 2,
                    core::cmp::Ordering::Equal => 1,
                    core::cmp::Ordering::Less => 0,
                };
                cases += 1;
            }
        }
    }
    (won2 as f64 / 2.0 / cases as f64, cases)
}

#[test]
fn river_heads_up_is_exact_and_matches_a_brute_force_count() {
    for (mine, board) in [
        ("Ah Kh", "Qh Jh 2c 7d 9s"),
        ("7c 2d", "As Ks Qd Jc 3h"),
        ("5s 5d", "5h 9c 9d Kc 2s"),
        ("Tc Td", "Ah Kh Qh Jh 9h"),
    ] {
        let (want, want_cases) = brute_force_heads_up(hole(mine), &cards(board));
        let (got, method) = measure(hole(mine), &cards(board), 1, 0);
        assert_eq!(
            method,
            Method::Exact { cases: want_cases },
            "{mine} on {board}"
        );
        assert!(
            (got - want).abs() < 1e-12,
            "{mine} on {board}: {got} vs {want}"
        );
    }
}

#[test]
fn turn_heads_up_is_exact_and_matches_a_brute_force_count() {
    let (mine, board) = (hole("Ah 2h"), cards("Kh 7h 3c 8d"));
    let (want, want_cases) = brute_force_heads_up(mine, &board);
    let (got, method) = measure(mine, &board, 1, 0);
    assert_eq!(want_cases, 46 * 990);
    assert_eq!(method, Method::Exact { cases: want_cases });
    assert!((got - want).abs() < 1e-12, "{got} vs {want}");
}

/// A sampled equity, its standard error, checked within four standard errors
/// (plus the published figure's rounding).
fn assert_near(mine: &str, board: &str, opponents: usize, want: f64) {
    let (got, method) = measure(hole(mine), &cards(board), opponents, 42);
    let Method::MonteCarlo { std_error, samples } = method else {
        panic!("{mine}: expected a sampled answer, got {method:?}");
    };
    assert!(
        samples >= 10_000 && std_error > 0.0 && std_error < 0.006,
        "{std_error}"
    );
    assert!(
        (got - want).abs() < 4.0 * std_error + 0.005,
        "{mine} vs {opponents}: {got} ± {std_error}, published {want}"
    );
}

#[test]
fn preflop_equities_match_published_figures() {
    // Against one random hand: AA 85.2 %, KK 82.4 %, 72o 34.6 %; AA against
    // four random hands 55.9 % (standard preflop equity tables).
    assert_near("As Ad", "", 1, 0.852);
    assert_near("Ks Kd", "", 1, 0.824);
    assert_near("7c 2d", "", 1, 0.346);
    assert_near("As Ad", "", 4, 0.559);
}

#[test]
fn sampled_answers_are_deterministic_in_the_seed() {
    let a = measure(hole("9s 8s"), &cards("7s 6d 2c"), 2, 5);
    assert_eq!(a, measure(hole("9s 8s"), &cards("7s 6d 2c"), 2, 5));
    assert_ne!(a, measure(hole("9s 8s"), &cards("7s 6d 2c"), 2, 6));
}

#[test]
fn the_nuts_on_the_river_raises_and_air_folds_to_a_big_bet() {
    let view = |mine: &str, to_call: u64, raise: Option<(u64, u64)>| SeatView {
        seat: 0,
        hole: hole(mine),
        board: cards("Qh Jh Th 2c 7d"),
        street: fairseed_holdem::Street::River,
        button: 1,
        big_blind: 100,
        seats: [(0, 0), (1, to_call)]
            .map(|(seat, bet)| fairseed_holdem::ai::PublicSeat {
                seat,
                stack: 5000,
                street_bet: bet,
                total: 1000 + bet,
                folded: false,
            })
            .to_vec(),
        actions: vec![],
        to_call,
        raise,
    };
    assert_eq!(check(&view("Ah Kh", 0, None)), Ok(()));
    let mut twice = view("Qh Kh", 0, None);
    assert_eq!(check(&twice).map_err(|e| e.field), Err("hole"));
    twice.board.pop();
    assert_eq!(check(&twice).map_err(|e| e.field), Err("board"));
    let nuts = advise(&view("Ah Kh", 0, Some((100, 5000))), 1);
    assert_eq!(nuts.equity, 1.0);
    assert!(
        matches!(nuts.action, Action::RaiseTo(to) if (100..=5000).contains(&to)),
        "{nuts:?}"
    );
    let air = advise(&view("3c 4d", 2000, None), 1);
    assert_eq!(air.action, Action::Fold, "{air:?}");
    assert_eq!(air.pot_odds, 2000.0 / (4000.0 + 2000.0));
    assert!(air.line.contains("fold"), "{}", air.line);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// For every seat dealt in, on its turn or not, the advice is the same
    /// when every card it cannot see (other holes, the board to come) changes.
    #[test]
    fn hidden_cards_never_change_the_advice((hand, seed, swaps) in scenario()) {
        let Some(hand) = hand else { return Ok(()) };
        for (k, p) in hand.players.iter().enumerate() {
            let view = SeatView::for_seat(&hand, p.seat).unwrap();
            prop_assert_eq!(check(&view), Ok(()));
            let advice = advise(&view, seed);
            let other = with_unseen_changed(&hand, k, &swaps);
            prop_assert_ne!(&other.players, &hand.players);
            let again = advise(&SeatView::for_seat(&other, p.seat).unwrap(), seed);
            prop_assert_eq!(&again, &advice);
            // Whatever the coach suggests on the seat's turn is legal.
            if hand.seat_to_act() == p.seat {
                let legal = hand.legal();
                match advice.action {
                    Action::Check => prop_assert_eq!(legal.to_call, 0),
                    Action::Call => prop_assert!(legal.to_call > 0),
                    Action::RaiseTo(to) => {
                        let (min, max) = legal.raise.unwrap();
                        prop_assert!((min..=max).contains(&to));
                    }
                    Action::Fold => prop_assert!(legal.to_call > 0),
                }
            }
        }
    }
}

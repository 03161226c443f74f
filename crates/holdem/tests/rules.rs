//! Property tests of the rules: random legal and illegal commands.
//!
//! Every hand conserves chips and ends; every final stack equals what an
//! independent settlement says: chips layered one unit at a time, each
//! layer to the best hands (brute-force evaluator) among the seats that
//! reached it, odd chips to the first winners left of the button.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

mod common;

use common::reference;
use fairseed_holdem::rules::{HandState, Legal};
use fairseed_holdem::{apply, Action, Card, Command, Event, Player, Table, TableConfig};
use fairseed_play::{Millis, RuleViolation};
use proptest::prelude::*;

const CONFIG: TableConfig = TableConfig {
    seats: 6,
    small_blind: 10,
    big_blind: 20,
    starting_stack: 2_000,
    action_ms: 1_000,
};

/// A table with `stacks.len()` seats taken, stacks as given.
fn table(stacks: &[u64]) -> Table {
    let mut t = Table::new(TableConfig {
        seats: stacks.len().max(2),
        ..CONFIG
    })
    .unwrap();
    for (seat, &stack) in stacks.iter().enumerate() {
        t = apply(
            &t,
            Command::Sit {
                seat,
                player: Player::Ai { level: 1 },
            },
            Millis(0),
        )
        .unwrap()
        .0;
        t.seats[seat].as_mut().unwrap().stack = stack;
    }
    t
}

/// A command picked by `choice`: mostly legal, sometimes anything.
fn pick(hand: &HandState, legal: Legal, choice: u32) -> Command {
    let seat = legal.seat;
    let roll = choice % 100;
    let arg = u64::from(choice / 100);
    let act = |action| Command::Act { seat, action };
    match roll {
        0..=9 => act(Action::Fold),
        10..=49 if legal.to_call == 0 => act(Action::Check),
        10..=49 => act(Action::Call),
        50..=69 => match legal.raise {
            Some((min, max)) => act(Action::RaiseTo(min + arg % (max - min + 1))),
            None => act(Action::Call),
        },
        70..=77 => match legal.raise {
            Some((_, max)) => act(Action::RaiseTo(max)),
            None => act(Action::Fold),
        },
        // Anything: a raise of any size, another seat, the wrong verb, the clock.
        78..=83 => act(Action::RaiseTo(arg % 5_000)),
        84..=87 => Command::Act {
            seat: (arg % 7) as usize,
            action: Action::Check,
        },
        88..=90 => act(if legal.to_call == 0 {
            Action::Call
        } else {
            Action::Check
        }),
        91..=95 => Command::Timeout {
            seat: hand.players[(arg as usize) % hand.players.len()].seat,
        },
        96..=97 => Command::TopUp {
            seat: (arg % 6) as usize,
        },
        _ => Command::StartHand { seed: arg },
    }
}

/// The independent settlement: final stack of each player in the hand.
fn settle(
    start: &[(usize, u64)],
    put_in: &[u64],
    folded: &[bool],
    holes: &[[Card; 2]],
    board: &[Card],
    button: usize,
) -> Vec<u64> {
    let n = start.len();
    let values: Vec<reference::Value> = holes
        .iter()
        .map(|h| {
            let mut cards = board.to_vec();
            cards.extend_from_slice(h);
            reference::best(&cards)
        })
        .collect();
    let mut won = vec![0u64; n];
    let top = put_in.iter().copied().max().unwrap_or(0);
    // Group unit layers with the same set of seats able to win them into pots.
    let mut pots: Vec<(Vec<usize>, u64)> = Vec::new();
    for level in 1..=top {
        let reached: Vec<usize> = (0..n).filter(|&i| put_in[i] >= level).collect();
        // A layer only one seat reached is returned to it, folded or not.
        let eligible: Vec<usize> = if reached.len() == 1 {
            reached.clone()
        } else {
            reached.iter().copied().filter(|&i| !folded[i]).collect()
        };
        assert!(
            !eligible.is_empty(),
            "chips at level {level} that no live seat reached: {put_in:?} {folded:?}"
        );
        let chips = reached.len() as u64;
        match pots.last_mut() {
            Some((set, amount)) if *set == eligible => *amount += chips,
            _ => pots.push((eligible, chips)),
        }
    }
    for (eligible, amount) in pots {
        let best = eligible.iter().map(|&i| &values[i]).max().cloned();
        let button_index = start.iter().position(|s| s.0 == button).unwrap();
        let winners: Vec<usize> = (1..=n)
            .map(|k| (button_index + k) % n)
            .filter(|i| {
                eligible.contains(i) && (eligible.len() == 1 || Some(&values[*i]) == best.as_ref())
            })
            .collect();
        let k = winners.len() as u64;
        for (order, &i) in winners.iter().enumerate() {
            won[i] += amount / k + u64::from((order as u64) < amount % k);
        }
    }
    (0..n).map(|i| start[i].1 - put_in[i] + won[i]).collect()
}

/// What one hand's events say each player put in and whether it folded.
#[derive(Default)]
struct Tally {
    put_in: Vec<u64>,
    folded: Vec<bool>,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn hands_conserve_chips_end_and_pay_the_independent_settlement(
        stacks in prop::collection::vec(1u64..3_000, 2..=6),
        seeds in prop::collection::vec(0u64..(1 << 63), 3),
        choices in prop::collection::vec(any::<u32>(), 600),
    ) {
        let mut t = table(&stacks);
        let mut now = Millis(0);
        let mut choices = choices.into_iter();
        for seed in seeds {
            let mut total = t.chips_in_play();
            let (next, events) = match apply(&t, Command::StartHand { seed }, now) {
                Ok(r) => r,
                Err(e) => {
                    prop_assert_eq!(e.code(), "not_enough_players");
                    break;
                }
            };
            t = next;
            let mut all = events;
            let Some(hand) = t.hand.clone() else {
                // Everyone was all-in from the blinds: the hand ended at once.
                let ended = matches!(all.last(), Some(Event::HandEnded { .. }));
                prop_assert!(ended, "the hand ended at once");
                continue;
            };
            let start: Vec<(usize, u64)> = hand.players.iter().map(|p| (p.seat, p.stack + p.total)).collect();
            let holes: Vec<[Card; 2]> = hand.players.iter().map(|p| p.hole).collect();
            // The deal is the seed document's: holes 2j, 2j+1, then the board.
            let deal = fairseed_core::selfpoker::deal(seed, start.len()).unwrap();
            for (j, h) in holes.iter().enumerate() {
                prop_assert_eq!([h[0].id(), h[1].id()], deal.holes[j]);
            }
            prop_assert_eq!(hand.board.map(Card::id), deal.board);
            let (board, button) = (hand.board, hand.button);
            let mut steps = 0;
            while let Some(hand) = t.hand.clone() {
                steps += 1;
                prop_assert!(steps < 2_000, "hand {} did not end", hand.number);
                now = Millis(now.0 + 400);
                let command = match choices.next() {
                    Some(c) => pick(&hand, hand.legal(), c),
                    // Out of choices: check or call down, which always ends a hand.
                    None => Command::Act {
                        seat: hand.seat_to_act(),
                        action: if hand.legal().to_call == 0 { Action::Check } else { Action::Call },
                    },
                };
                match apply(&t, command, now) {
                    Ok((next, events)) => {
                        t = next;
                        // Top-ups are the one way chips enter.
                        for e in &events {
                            if let Event::ToppedUp { amount, .. } = e {
                                total += amount;
                            }
                        }
                        all.extend(events);
                    }
                    Err(e) => {
                        prop_assert!(!e.code().as_str().is_empty() && !e.to_string().is_empty());
                    }
                }
                prop_assert_eq!(t.chips_in_play(), total, "chips changed after {:?}", command);
            }
            let mut tally = Tally { put_in: vec![0; start.len()], folded: vec![false; start.len()] };
            let index = |seat: usize| start.iter().position(|s| s.0 == seat).unwrap();
            let mut ended = None;
            for e in &all {
                match e {
                    Event::BlindPosted { seat, amount } => tally.put_in[index(*seat)] += amount,
                    Event::Acted { seat, action, paid, .. } => {
                        tally.put_in[index(*seat)] += paid;
                        if *action == Action::Fold {
                            tally.folded[index(*seat)] = true;
                        }
                    }
                    Event::HandEnded { stacks, .. } => ended = Some(stacks.clone()),
                    _ => {}
                }
            }
            let ended = ended.expect("a hand that left the table ended");
            let expected = settle(&start, &tally.put_in, &tally.folded, &holes, &board, button);
            let got: Vec<u64> = ended.iter().map(|s| s.1).collect();
            prop_assert_eq!(got, expected);
        }
    }
}

#[test]
fn heads_up_the_button_posts_the_small_blind_and_acts_first() {
    let t = table(&[1_000, 1_000]);
    let (t, events) = apply(&t, Command::StartHand { seed: 7 }, Millis(0)).unwrap();
    let hand = t.hand.as_ref().unwrap();
    assert_eq!(hand.button, 0);
    assert_eq!(
        events[1],
        Event::BlindPosted {
            seat: 0,
            amount: 10
        }
    );
    assert_eq!(
        events[2],
        Event::BlindPosted {
            seat: 1,
            amount: 20
        }
    );
    assert_eq!(hand.seat_to_act(), 0);
    // The button calls, the big blind checks: the flop is dealt and the big blind acts first.
    let (t, _) = apply(
        &t,
        Command::Act {
            seat: 0,
            action: Action::Call,
        },
        Millis(1),
    )
    .unwrap();
    let (t, _) = apply(
        &t,
        Command::Act {
            seat: 1,
            action: Action::Check,
        },
        Millis(2),
    )
    .unwrap();
    assert_eq!(t.hand.as_ref().unwrap().board_dealt().len(), 3);
    assert_eq!(t.hand.as_ref().unwrap().seat_to_act(), 1);
}

#[test]
fn a_short_all_in_does_not_reopen_the_betting() {
    // Seat 2 is short: its all-in raise is less than a full raise.
    let t = table(&[5_000, 5_000, 150, 5_000]);
    let (t, _) = apply(&t, Command::StartHand { seed: 1 }, Millis(0)).unwrap();
    // Button 0, blinds 1 and 2 ... with 4 seats: SB 1, BB 2, seat 3 first.
    let hand = t.hand.as_ref().unwrap();
    assert_eq!(hand.seat_to_act(), 3);
    let step = |t: &Table, seat, action| {
        apply(t, Command::Act { seat, action }, Millis(1))
            .unwrap()
            .0
    };
    let t = step(&t, 3, Action::RaiseTo(100)); // a full raise of 80
    let t = step(&t, 0, Action::Call);
    let t = step(&t, 1, Action::Fold);
    let t = step(&t, 2, Action::RaiseTo(150)); // all-in, 50 more: short
    let hand = t.hand.as_ref().unwrap();
    assert_eq!(hand.seat_to_act(), 3);
    assert_eq!(
        hand.legal().raise,
        None,
        "seat 3 already acted on a full raise"
    );
    let err = apply(
        &t,
        Command::Act {
            seat: 3,
            action: Action::RaiseTo(400),
        },
        Millis(2),
    )
    .unwrap_err();
    assert_eq!(err.code(), "raise_closed");
    assert_eq!(
        err.to_string(),
        "preflop: seat 3 may only call or fold, the betting is not open to it"
    );
}

#[test]
fn a_raise_below_the_minimum_is_named() {
    let t = table(&[5_000, 5_000, 5_000]);
    let (t, _) = apply(&t, Command::StartHand { seed: 3 }, Millis(0)).unwrap();
    let step = |t: &Table, seat, action| apply(t, Command::Act { seat, action }, Millis(1));
    let t = step(&t, 0, Action::RaiseTo(600)).unwrap().0; // raise of 580
    let err = step(&t, 1, Action::RaiseTo(900)).unwrap_err();
    assert_eq!(err.code(), "raise_too_small");
    assert_eq!(
        err.to_string(),
        "preflop: seat 1's raise to 900 is below the minimum raise 1,180"
    );
}

#[test]
fn the_clock_checks_when_free_and_folds_otherwise() {
    let t = table(&[1_000, 1_000, 1_000]);
    let (t, _) = apply(&t, Command::StartHand { seed: 11 }, Millis(0)).unwrap();
    let early = apply(&t, Command::Timeout { seat: 0 }, Millis(999)).unwrap_err();
    assert_eq!(early.code(), "clock_running");
    let (t, events) = apply(&t, Command::Timeout { seat: 0 }, Millis(1_000)).unwrap();
    assert!(matches!(
        events[0],
        Event::Acted {
            seat: 0,
            action: Action::Fold,
            timed_out: true,
            ..
        }
    ));
    let (t, _) = apply(
        &t,
        Command::Act {
            seat: 1,
            action: Action::Call,
        },
        Millis(1_001),
    )
    .unwrap();
    let (_, events) = apply(&t, Command::Timeout { seat: 2 }, Millis(5_000)).unwrap();
    assert!(matches!(
        events[0],
        Event::Acted {
            seat: 2,
            action: Action::Check,
            timed_out: true,
            ..
        }
    ));
}

#[test]
fn sitting_out_and_top_ups_apply_between_hands() {
    let t = table(&[1_000, 1_000, 300]);
    let (t, _) = apply(&t, Command::SitOut { seat: 1 }, Millis(0)).unwrap();
    let (t, events) = apply(&t, Command::StartHand { seed: 5 }, Millis(0)).unwrap();
    assert!(
        matches!(&events[0], Event::HandStarted { stacks, .. } if stacks.iter().all(|s| s.0 != 1))
    );
    assert_eq!(
        apply(&t, Command::TopUp { seat: 2 }, Millis(0))
            .unwrap_err()
            .code(),
        "in_hand"
    );
    // Seat 1 sits out of this hand, so it may top up during it.
    let (t, _) = apply(&t, Command::TopUp { seat: 1 }, Millis(0)).unwrap();
    assert_eq!(t.seats[1].as_ref().unwrap().stack, CONFIG.starting_stack);
}

/// The random commands of the property test reach the rare endings: side
/// pots, split pots, odd chips and mucked hands (the same `pick`, the same
/// stack sizes, 400 tables).
#[test]
fn random_play_reaches_side_pots_splits_odd_chips_and_mucks() {
    let mut rng = fairseed_holdem::ai::Rng::new(99);
    let (mut side, mut split, mut odd, mut muck) = (0, 0, 0, 0);
    for _ in 0..400 {
        let n = 2 + rng.below(5);
        let stacks: Vec<u64> = (0..n).map(|_| 1 + rng.next_u64() % 3_000).collect();
        let mut t = table(&stacks);
        for _ in 0..3 {
            let Ok((next, mut events)) = apply(
                &t,
                Command::StartHand {
                    seed: rng.next_u64() >> 1,
                },
                Millis(0),
            ) else {
                break;
            };
            t = next;
            while let Some(hand) = t.hand.clone() {
                let command = pick(&hand, hand.legal(), rng.next_u64() as u32);
                if let Ok((next, more)) = apply(&t, command, Millis(1 << 40)) {
                    t = next;
                    events.extend(more);
                }
            }
            for e in &events {
                match e {
                    Event::Awarded { pot, winners, .. } => {
                        side += usize::from(*pot > 0);
                        split += usize::from(winners.len() > 1);
                        odd += usize::from(winners.windows(2).any(|w| w[0].1 != w[1].1));
                    }
                    Event::Mucked { .. } => muck += 1,
                    _ => {}
                }
            }
        }
    }
    assert!(
        side > 0 && split > 0 && odd > 0 && muck > 0,
        "side {side}, split {split}, odd {odd}, muck {muck}"
    );
    eprintln!("side pots {side}, split pots {split}, odd chips {odd}, mucks {muck}");
}

#[test]
fn debug_output_keeps_the_seed_and_hidden_cards_out() {
    let t = table(&[1_000, 1_000, 1_000]);
    let seed = 4_242_424_242_424_242;
    let (t, _) = apply(&t, Command::StartHand { seed }, Millis(0)).unwrap();
    let text = format!("{t:?}");
    assert!(!text.contains(&seed.to_string()), "{text}");
    let hand = t.hand.as_ref().unwrap();
    // Before the flop no card is public: none may be printed.
    assert!(!text.contains("Card("), "{text}");
    assert!(text.contains(&hand.commit));
}

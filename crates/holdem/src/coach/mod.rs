//! The coach: advice for one seat from its own view only.
//!
//! [`advise`] measures the seat's equity — its average share of the pot
//! against the live opponents holding random hands — exactly, by enumerating
//! every run-out and every holding, when there are few enough cases (the
//! river or turn against one opponent), and otherwise by Monte Carlo with its
//! standard error, deterministic in the seed passed in. It compares the
//! equity with the pot odds and suggests an action with a one-line reason.
//!
//! The input is a [`SeatView`]: nothing else reaches the function, so no
//! card the seat cannot see can change the advice (the property tests build
//! hands that differ only in unseen cards and compare the advice).

mod enumerate;
mod sample;
mod spot;

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::ai::SeatView;
use crate::card::{Card, CardSet};
use crate::eval::Hand;
use crate::rules::{Action, MAX_SEATS};
use spot::Spot;

/// Exact enumeration when it visits at most this many (run-out, holdings)
/// cases: the river (990) and the turn (45,540) against one opponent. The
/// next sizes up, the river against two (893,970) and the flop against one
/// (1,070,190), take 23 and 36 ms in the browser, too close to the 50 ms an
/// answer may take (docs/decisions/0004-coach-exact-or-sampled.md); they
/// are sampled.
pub const EXACT_LIMIT: u64 = 100_000;

/// Monte Carlo deals when enumeration would be too long: a standard error
/// of at most 0.5 percentage points.
pub const SAMPLES: usize = 10_000;

/// How the equity was measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Method {
    /// Every case counted once: the equity is exact.
    Exact {
        /// Run-outs × opponents' holdings visited.
        cases: u64,
    },
    /// Random deals of the unseen cards.
    MonteCarlo {
        /// Deals drawn.
        samples: usize,
        /// The standard error of the equity estimate.
        std_error: f64,
    },
}

/// Why the suggestion is what it is, with the numbers the sentence needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// Every opponent folded: the pot is the seat's.
    Alone,
    /// Well ahead of a fair share: build the pot.
    Ahead {
        /// The seat's equity.
        equity: f64,
        /// Its share with equal chances, 1 / (opponents + 1).
        fair_share: f64,
    },
    /// Not far enough ahead to bet, and checking costs nothing.
    FreeCard {
        /// The seat's equity.
        equity: f64,
    },
    /// The equity pays for the call.
    Priced {
        /// The seat's equity.
        equity: f64,
        /// The equity a call needs (the pot odds).
        needed: f64,
    },
    /// The equity does not pay for the call.
    Behind {
        /// The seat's equity.
        equity: f64,
        /// The equity a call needs (the pot odds).
        needed: f64,
    },
}

impl fmt::Display for Reason {
    /// The reason in one English line (the page words it in its own languages).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        match *self {
            Reason::Alone => f.write_str("everyone else folded: the pot is yours"),
            Reason::Ahead { equity, fair_share } => write!(
                f,
                "equity {} is well above a fair share of {}: bet for value",
                pct(equity),
                pct(fair_share)
            ),
            Reason::FreeCard { equity } => write!(
                f,
                "equity {} is not enough to bet, and checking is free",
                pct(equity)
            ),
            Reason::Priced { equity, needed } => write!(
                f,
                "equity {} covers the {} the pot odds ask for: call",
                pct(equity),
                pct(needed)
            ),
            Reason::Behind { equity, needed } => write!(
                f,
                "equity {} is below the {} the pot odds ask for: fold",
                pct(equity),
                pct(needed)
            ),
        }
    }
}

/// The coach's answer for one seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    /// The seat's average share of the pot against random holdings, 0 to 1.
    pub equity: f64,
    /// How it was measured (exact, or sampled with a standard error).
    pub method: Method,
    /// Live opponents the equity is measured against.
    pub opponents: usize,
    /// Chips in the middle.
    pub pot: u64,
    /// Chips a call costs (0: checking is free).
    pub to_call: u64,
    /// The equity a call needs to break even: to_call / (pot + to_call).
    pub pot_odds: f64,
    /// What to do.
    pub action: Action,
    /// Why, as data.
    pub reason: Reason,
    /// Why, in one English line.
    pub line: String,
}

/// Why a view sent from outside (the page builds it from its table view)
/// cannot be advised on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ViewError {
    /// The view's field.
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: String,
}

/// Checks a view that did not come from [`SeatView::for_seat`]: a board of
/// 0, 3, 4 or 5 cards matching the street, no card twice, 2 to
/// [`MAX_SEATS`] seats, its own seat among them.
///
/// # Errors
/// [`ViewError`] naming the first field that is wrong.
pub fn check(view: &SeatView) -> Result<(), ViewError> {
    let bad = |field, reason: String| Err(ViewError { field, reason });
    if view.board.len() != view.street.board_len() {
        return bad(
            "board",
            format!(
                "{} cards on the {}, expected {}",
                view.board.len(),
                view.street,
                view.street.board_len()
            ),
        );
    }
    let all: Vec<Card> = view.hole.iter().chain(&view.board).copied().collect();
    if CardSet::of(&all).len() as usize != all.len() {
        return bad(
            "hole",
            "a card appears twice among the hole and board cards".into(),
        );
    }
    if !(2..=MAX_SEATS).contains(&view.seats.len()) {
        return bad(
            "seats",
            format!("{} seats, expected 2 to {MAX_SEATS}", view.seats.len()),
        );
    }
    if !view.seats.iter().any(|s| s.seat == view.seat) {
        return bad("seat", format!("seat {} is not among the seats", view.seat));
    }
    Ok(())
}

/// Advice for the seat of `view`, a function of the view and `seed` only
/// (the seed drives the Monte Carlo deals; exact answers ignore it).
pub fn advise(view: &SeatView, seed: u64) -> Advice {
    let opponents = view.opponents();
    let (equity, method) = measure(view.hole, &view.board, opponents, seed);
    let pot = view.pot();
    let to_call = view.to_call;
    let pot_odds = if to_call == 0 {
        0.0
    } else {
        to_call as f64 / (pot + to_call) as f64
    };
    let (action, reason) = suggest(view, opponents, equity, pot_odds);
    Advice {
        equity,
        method,
        opponents,
        pot,
        to_call,
        pot_odds,
        action,
        line: reason.to_string(),
        reason,
    }
}

/// The equity of `hole` on `board` against `opponents` random holdings.
pub fn measure(hole: [Card; 2], board: &[Card], opponents: usize, seed: u64) -> (f64, Method) {
    if opponents == 0 {
        return (1.0, Method::Exact { cases: 1 });
    }
    let unseen = CardSet::of(board).with(hole[0]).with(hole[1]).complement();
    let cases = enumerate::cases(unseen.len(), 5 - board.len().min(5), opponents);
    let spot = Spot {
        mine: Hand::of(board).add(hole[0]).add(hole[1]),
        board: Hand::of(board),
        to_come: 5 - board.len().min(5),
        opponents,
    };
    match cases {
        Some(n) if n <= EXACT_LIMIT => {
            let (total, cases) = enumerate::exact(&spot, &unseen);
            (total / cases as f64, Method::Exact { cases })
        }
        _ => {
            let (mean, std_error) = sample::monte_carlo(&spot, unseen, SAMPLES, seed);
            (
                mean,
                Method::MonteCarlo {
                    samples: SAMPLES,
                    std_error,
                },
            )
        }
    }
}

/// The suggested action and its reason.
fn suggest(view: &SeatView, opponents: usize, equity: f64, pot_odds: f64) -> (Action, Reason) {
    let free = view.to_call == 0;
    if opponents == 0 {
        let action = if free { Action::Check } else { Action::Call };
        return (action, Reason::Alone);
    }
    let fair_share = 1.0 / (opponents + 1) as f64;
    // Well ahead: a third of the way from a fair share to certainty.
    if equity >= fair_share + (1.0 - fair_share) / 3.0 {
        if let Some((min, max)) = view.raise {
            let reason = Reason::Ahead { equity, fair_share };
            return (Action::RaiseTo(value_bet(view).clamp(min, max)), reason);
        }
    }
    if free {
        return (Action::Check, Reason::FreeCard { equity });
    }
    if equity >= pot_odds {
        (
            Action::Call,
            Reason::Priced {
                equity,
                needed: pot_odds,
            },
        )
    } else {
        (
            Action::Fold,
            Reason::Behind {
                equity,
                needed: pot_odds,
            },
        )
    }
}

/// A raise of two thirds of the pot on top of calling, as the total the seat
/// would have in front of it.
fn value_bet(view: &SeatView) -> u64 {
    let after_call = view.pot() + view.to_call;
    view.me().street_bet + view.to_call + after_call * 2 / 3
}

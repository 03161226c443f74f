//! How each level decides: the rock's chart, the calculator's pot odds,
//! the reader's ranges, each from a seat's view and a seed only.

use serde::{Deserialize, Serialize};

use super::equity::{chen, equity, Range};
use super::rng::Rng;
use super::view::SeatView;
use crate::eval::{evaluator, Category, Hand};
use crate::rules::{Action, Street};

/// An AI's strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Level {
    /// The rock: a tight-passive chart player.
    One = 1,
    /// The calculator: equity against random hands versus pot odds.
    Two = 2,
    /// The reader: equity against ranges, position and sizing.
    Three = 3,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::One, Level::Two, Level::Three];

    /// The level numbered `n` (1 to 3).
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.into_iter().find(|l| *l as u8 == n)
    }
}

/// The action `level` takes in `view`, deterministic in `(view, seed)` and
/// always legal for the view.
pub fn decide(level: Level, view: &SeatView, seed: u64) -> Action {
    let mut rng = Rng::new(seed);
    let wanted = match level {
        Level::One => rock(view),
        Level::Two => calculator(view, &mut rng),
        Level::Three => reader(view, &mut rng),
    };
    legalize(view, wanted)
}

/// What a strategy wants, before it is fitted to the legal actions.
enum Want {
    /// Check if free, else fold.
    Passive,
    /// Check if free, else call.
    Call,
    /// Bet or raise to about this total (clamped to the legal range), else call.
    RaiseTo(u64),
}

fn legalize(view: &SeatView, want: Want) -> Action {
    let free = view.to_call == 0;
    match want {
        Want::Passive if free => Action::Check,
        Want::Passive => Action::Fold,
        Want::Call if free => Action::Check,
        Want::Call => Action::Call,
        Want::RaiseTo(to) => match view.raise {
            Some((min, max)) => Action::RaiseTo(to.clamp(min, max)),
            None if free => Action::Check,
            None => Action::Call,
        },
    }
}

/// A raise to `fraction` of the pot on top of calling.
fn pot_raise(view: &SeatView, fraction: f64) -> u64 {
    let me = view.me();
    let pot_after_call = view.pot() + view.to_call;
    me.street_bet + view.to_call + (pot_after_call as f64 * fraction) as u64
}

/// The category of the seat's best hand, and whether its hole cards play a part.
fn made_hand(view: &SeatView) -> (Category, bool) {
    let ev = evaluator();
    let board = Hand::of(&view.board);
    let mine = ev
        .rank(board.add(view.hole[0]).add(view.hole[1]))
        .category();
    // With five board cards, the board alone is a hand too: a made hand
    // that is only the board's is no help.
    let board_only = if view.board.len() == 5 {
        Some(ev.rank(board).category())
    } else {
        None
    };
    (mine, board_only.is_none_or(|b| mine > b))
}

fn rock(view: &SeatView) -> Want {
    let bb = view.big_blind;
    if view.street == Street::Preflop {
        let score = chen(view.hole);
        return if score >= 14.0 {
            Want::RaiseTo(3 * bb + view.me().street_bet.max(view.to_call))
        } else if (score >= 9.0 && view.to_call <= 10 * bb) || (score >= 7.0 && view.to_call <= bb)
        {
            Want::Call
        } else {
            Want::Passive
        };
    }
    let (category, mine) = made_hand(view);
    if !mine {
        return Want::Passive;
    }
    match category {
        c if c >= Category::ThreeOfAKind => Want::RaiseTo(pot_raise(view, 0.5)),
        Category::TwoPair => Want::Call,
        Category::OnePair if view.to_call * 2 <= view.pot() => Want::Call,
        _ => Want::Passive,
    }
}

fn calculator(view: &SeatView, rng: &mut Rng) -> Want {
    let eq = equity(
        view.hole,
        &view.board,
        view.opponents().max(1),
        Range::ANY,
        200,
        rng,
    );
    let price = view.to_call as f64 / (view.pot() + view.to_call) as f64;
    // A bet against it is worth a discount on equity measured against random hands.
    let facing = view.raises_on_street_by_others() as f64;
    if eq > 0.62 + 0.18 * facing {
        Want::RaiseTo(pot_raise(view, 0.66))
    } else if eq >= price + 0.15 * facing {
        Want::Call
    } else {
        Want::Passive
    }
}

fn reader(view: &SeatView, rng: &mut Rng) -> Want {
    // Opponents who raised before the flop hold better starting hands, and
    // one who bets after the flop has paired the board: sample their hands so.
    let raises = view.preflop_raises_by_others();
    let range = Range {
        min_chen: match raises {
            0 => f64::MIN,
            1 => 6.0,
            _ => 9.0,
        },
        paired: view.street != Street::Preflop && view.raises_on_street_by_others() > 0,
    };
    let opponents = view.opponents().max(1);
    let eq = equity(view.hole, &view.board, opponents, range, 400, rng);
    let price = view.to_call as f64 / (view.pot() + view.to_call) as f64;
    // Out of position a call needs a margin: the seat acts first on every later street.
    let margin = if view.in_position() { 0.0 } else { 0.03 };
    let share = 1.0 / (opponents + 1) as f64;
    if view.street == Street::Preflop {
        let score = chen(view.hole);
        let first_in = raises == 0;
        return if score >= 11.0 || (first_in && score >= 7.0) {
            Want::RaiseTo(3 * view.big_blind + 2 * view.me().street_bet.max(view.to_call))
        } else if eq >= price + margin {
            Want::Call
        } else {
            Want::Passive
        };
    }
    // Value bets sized by strength; no bluffs against players who call by equity.
    if eq > share + 0.38 {
        Want::RaiseTo(pot_raise(view, 1.0))
    } else if eq > share + 0.26 {
        Want::RaiseTo(pot_raise(view, 0.66))
    } else if eq >= price + margin {
        Want::Call
    } else {
        Want::Passive
    }
}

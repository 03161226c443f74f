//! No-limit Texas hold'em for 2 to 6 seats as a pure state machine:
//! [`apply`]`(table, command, now)` returns the next table and what happened.
//!
//! The rules where hold'em leaves a choice:
//! - **Button and blinds.** The button moves to the next seat dealt in; the
//!   small and big blinds are the next two seats dealt in after it. Heads-up,
//!   the button posts the small blind and acts first before the flop, last
//!   after. No dead or missed blinds (play chips). A stack shorter than its
//!   blind posts all it has; the bet to call is still the big blind.
//! - **The deal.** Seats dealt in take cards 2j and 2j+1 of
//!   `default_rng(seed).permutation(52)` in seat order (j = 0 for the lowest
//!   seat); the board is cards 2n..2n+4; no burns.
//! - **Minimum raise.** A bet is at least the big blind; a raise adds at
//!   least the last full bet or raise of the street. A seat may go all-in for
//!   less. A short all-in does not reopen the betting: a seat that already
//!   acted may raise again only if the bets since its last action add up to
//!   a full raise. Nobody may raise when no other seat has chips to call.
//! - **Uncalled chips** go back to the bettor before the pots are made.
//! - **Side pots** are layered by what each seat put in; each pot goes to
//!   the best hand among the seats that put in its full layer.
//! - **Split pots and odd chips.** A pot splits evenly among its best
//!   hands; the chips that do not divide go one each to the winners in
//!   seat order starting left of the button.
//! - **Showdown.** The last seat to bet or raise on the river shows first;
//!   with no river bet, the first seat left of the button. Then clockwise,
//!   a seat shows if its hand wins or ties some pot it can win against the
//!   hands already shown, and mucks otherwise. A seat that wins uncontested
//!   shows nothing.
//! - **Clock.** Each turn has `action_ms`; after it, a [`Command::Timeout`]
//!   checks if checking is free and folds otherwise.
//! - **Sitting out, leaving, top-ups** happen between hands for seats in
//!   the hand (sitting out during a hand counts from the next one). A
//!   top-up refills a stack to the starting stack, free.

mod error;
mod event;
mod hand;
mod pots;
mod table;

use core::fmt;

use serde::{Deserialize, Serialize};

pub use error::HoldemError;
pub use event::Event;
pub use hand::{HandState, InHand, Legal, Logged};
pub use table::{apply, Command, Seat, Table, TableConfig, MAX_SEATS};

use fairseed_play::PlayerId;

/// A betting round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Street {
    /// Before the flop.
    Preflop,
    /// Three board cards.
    Flop,
    /// The fourth.
    Turn,
    /// The fifth.
    River,
}

impl Street {
    /// Board cards visible during this street.
    pub const fn board_len(self) -> usize {
        match self {
            Street::Preflop => 0,
            Street::Flop => 3,
            Street::Turn => 4,
            Street::River => 5,
        }
    }

    /// The street after this one.
    pub const fn next(self) -> Option<Street> {
        match self {
            Street::Preflop => Some(Street::Flop),
            Street::Flop => Some(Street::Turn),
            Street::Turn => Some(Street::River),
            Street::River => None,
        }
    }
}

impl fmt::Display for Street {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Street::Preflop => "preflop",
            Street::Flop => "flop",
            Street::Turn => "turn",
            Street::River => "river",
        })
    }
}

/// What a seat does on its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "to", rename_all = "snake_case")]
pub enum Action {
    /// Give up the hand.
    Fold,
    /// Pass with nothing to call.
    Check,
    /// Match the bet (all-in for less if short).
    Call,
    /// Bet (first bet of the street) or raise so that the seat has this
    /// total in front of it on this street.
    RaiseTo(u64),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fold => f.write_str("fold"),
            Action::Check => f.write_str("check"),
            Action::Call => f.write_str("call"),
            Action::RaiseTo(to) => write!(f, "raise to {}", chips(*to)),
        }
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Player {
    /// A person, by account id.
    Human {
        /// The account.
        id: PlayerId,
    },
    /// A program playing from its seat's view; shown with an "AI · level N" badge.
    Ai {
        /// 1 to 3 (see [`crate::ai::Level`]).
        level: u8,
    },
}

/// `1,200`: chip amounts in messages.
pub fn chips(amount: u64) -> String {
    let digits = amount.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::chips;

    #[test]
    fn chip_amounts_group_thousands() {
        assert_eq!(chips(0), "0");
        assert_eq!(chips(900), "900");
        assert_eq!(chips(1200), "1,200");
        assert_eq!(chips(1_234_567), "1,234,567");
    }
}

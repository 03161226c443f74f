//! The terms a hand is told in: its streets, the actions a seat takes, who
//! sits in a seat, and how an amount of chips is written.

use core::fmt;

use serde::{Deserialize, Serialize};

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

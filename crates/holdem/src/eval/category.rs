//! The nine hand categories and the comparable rank that carries one.

use core::fmt;

use serde::{Deserialize, Serialize};

/// A hand's category, weakest first (a royal flush is the best straight flush).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// No pair, no straight, no flush.
    HighCard = 0,
    /// One pair.
    OnePair = 1,
    /// Two pairs.
    TwoPair = 2,
    /// Three of a kind.
    ThreeOfAKind = 3,
    /// Five ranks in a row (A-2-3-4-5 is the lowest).
    Straight = 4,
    /// Five cards of one suit.
    Flush = 5,
    /// Three of a kind and a pair.
    FullHouse = 6,
    /// Four of a kind.
    FourOfAKind = 7,
    /// A straight in one suit.
    StraightFlush = 8,
}

impl Category {
    /// Every category, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The category numbered `n` (0 = high card … 8 = straight flush).
    pub const fn from_index(n: u16) -> Option<Category> {
        if (n as usize) < Category::ALL.len() {
            Some(Category::ALL[n as usize])
        } else {
            None
        }
    }

    /// Words for a report: "full house".
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::OnePair => "one pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The strength of a hand's best five cards: a larger rank wins, equal ranks split.
///
/// The category sits in the top four bits (`rank >> 12`) and the order
/// inside the category in the low twelve, dense from 0, so the 7,462
/// distinct five-card strengths fit in a `u16`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HandRank(pub(crate) u16);

impl HandRank {
    /// The category of the best five cards.
    pub fn category(self) -> Category {
        // The tables only hold ranks built from a category index below 9.
        Category::from_index(self.0 >> 12).unwrap_or(Category::HighCard)
    }

    /// The raw comparable value.
    pub const fn value(self) -> u16 {
        self.0
    }
}

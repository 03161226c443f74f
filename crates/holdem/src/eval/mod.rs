//! Seven-card hand strength: a table lookup per hand.
//!
//! A [`Hand`] is a sum of per-card keys (rank bases in the low 32 bits,
//! suit counters above) and a mask of cards by suit, so adding a card is one
//! addition and one `or`. [`Evaluator::rank`] tests the suit counters for a
//! flush, then reads either the flush table (by the suit's rank mask) or the
//! perfect-hash table (by the rank sum). Results are [`HandRank`]s: compare
//! them, or read their [`Category`].

mod category;
mod offsets;
mod tables;
mod value;

use std::sync::OnceLock;

pub use category::{Category, HandRank};

use crate::card::Card;
use tables::{Tables, RANK_BASES, ROW_SHIFT};

/// Suit counters start at 3 so that a fifth card of a suit sets the counter's top bit.
const SUIT_COUNTERS_START: u64 = 0x3333 << 32;
/// The top bit of each suit's four-bit counter.
const FLUSH_BITS: u64 = 0x8888 << 32;

/// Each card's key: its rank base plus one in its suit's counter.
const CARD_KEYS: [u64; 52] = {
    let mut keys = [0u64; 52];
    let mut id = 0;
    while id < 52 {
        keys[id] = RANK_BASES[id / 4] as u64 + (1u64 << (32 + 4 * (id % 4)));
        id += 1;
    }
    keys
};

/// Each card's bit in a [`Hand`]'s mask: 16 bits per suit, rank order inside.
const CARD_BITS: [u64; 52] = {
    let mut bits = [0u64; 52];
    let mut id = 0;
    while id < 52 {
        bits[id] = 1u64 << (16 * (id % 4) + id / 4);
        id += 1;
    }
    bits
};

/// Up to seven cards, combined so that evaluation is a lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand {
    key: u64,
    mask: u64,
}

impl Default for Hand {
    fn default() -> Self {
        Hand::EMPTY
    }
}

impl Hand {
    /// No cards.
    pub const EMPTY: Hand = Hand {
        key: SUIT_COUNTERS_START,
        mask: 0,
    };

    /// The hand with `card` added. Adding a card twice, or an eighth card,
    /// gives a hand whose rank is meaningless (never a panic).
    #[inline]
    #[must_use]
    pub const fn add(self, card: Card) -> Hand {
        let id = card.id() as usize;
        Hand {
            key: self.key.wrapping_add(CARD_KEYS[id]),
            mask: self.mask | CARD_BITS[id],
        }
    }

    /// The hand of `cards`.
    pub fn of(cards: &[Card]) -> Hand {
        cards.iter().fold(Hand::EMPTY, |h, &c| h.add(c))
    }

    /// How many distinct cards the hand holds.
    pub const fn len(self) -> u32 {
        self.mask.count_ones()
    }

    /// Whether the hand holds no card.
    pub const fn is_empty(self) -> bool {
        self.mask == 0
    }
}

/// Why a list of cards cannot be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// Fewer than five or more than seven cards.
    #[error("{0} cards, expected 5 to 7")]
    Count(usize),
    /// The same card twice.
    #[error("card {0} appears twice")]
    Duplicate(Card),
}

/// The lookup tables (about 200 KB), built once.
pub struct Evaluator {
    tables: Tables,
}

impl core::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Evaluator")
            .field("lookup_entries", &self.tables.lookup.len())
            .finish()
    }
}

impl Evaluator {
    /// Builds the tables. Most callers want the shared [`evaluator`].
    pub fn new() -> Evaluator {
        Evaluator {
            tables: Tables::build(),
        }
    }

    /// The rank of a hand of five to seven distinct cards.
    #[inline]
    pub fn rank(&self, hand: Hand) -> HandRank {
        let flush = hand.key & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush >> 32).trailing_zeros() / 4;
            let ranks = (hand.mask >> (16 * suit)) as usize & 0x1fff;
            HandRank(self.tables.flush[ranks])
        } else {
            // Mixed keys are below 2^24, so the row is below 4096.
            let key = tables::mix(hand.key as u32);
            let row = (key >> ROW_SHIFT) as usize & 0xfff;
            let slot = self.tables.offsets[row] as usize + (key as usize & ((1 << ROW_SHIFT) - 1));
            // The table is padded by a row: every slot reads inside it.
            HandRank(self.tables.lookup.get(slot).copied().unwrap_or(0))
        }
    }

    /// The rank of `cards`, checked: five to seven distinct cards.
    ///
    /// # Errors
    /// [`EvalError`] for a wrong count or a repeated card.
    pub fn evaluate(&self, cards: &[Card]) -> Result<HandRank, EvalError> {
        if !(5..=7).contains(&cards.len()) {
            return Err(EvalError::Count(cards.len()));
        }
        let mut hand = Hand::EMPTY;
        for &card in cards {
            let next = hand.add(card);
            if next.len() == hand.len() {
                return Err(EvalError::Duplicate(card));
            }
            hand = next;
        }
        Ok(self.rank(hand))
    }
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new()
    }
}

/// The shared evaluator: its tables are a constant, computed on first use.
pub fn evaluator() -> &'static Evaluator {
    static SHARED: OnceLock<Evaluator> = OnceLock::new();
    SHARED.get_or_init(Evaluator::new)
}

/// The table generator's building blocks, for `examples/eval_offsets.rs`.
#[doc(hidden)]
pub mod internal {
    pub use super::tables::{displace, rank_multisets, rank_sum, KEY_MASK};
}

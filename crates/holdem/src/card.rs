//! A card in the selfpoker layout: `id = rank × 4 + suit`, rank 0 = deuce … 12 = ace,
//! suit 0..3 = ♣♦♥♠ (the order NumPy's deck is read in, docs/spec.md §9).

use core::fmt;

use serde::{Deserialize, Serialize};

/// One of the 52 cards, by its selfpoker id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Card(u8);

const RANK_NAMES: &[u8; 13] = b"23456789TJQKA";
const SUIT_NAMES: &[u8; 4] = b"cdhs";

impl Card {
    /// The card with id `id`, if it is below 52.
    pub const fn new(id: u8) -> Option<Card> {
        if id < 52 {
            Some(Card(id))
        } else {
            None
        }
    }

    /// The card of `rank` (0 = deuce … 12 = ace) and `suit` (0..3 = ♣♦♥♠).
    pub const fn of(rank: u8, suit: u8) -> Option<Card> {
        if rank < 13 && suit < 4 {
            Some(Card(rank * 4 + suit))
        } else {
            None
        }
    }

    /// The card of a deck entry (always below 52; reduced mod 52 for safety).
    pub(crate) const fn from_deck(id: u8) -> Card {
        Card(id % 52)
    }

    /// The selfpoker id, `rank × 4 + suit`.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// 0 = deuce … 12 = ace.
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// 0..3 = clubs, diamonds, hearts, spades.
    pub const fn suit(self) -> u8 {
        self.0 % 4
    }

    /// All 52 cards in id order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl TryFrom<u8> for Card {
    type Error = String;

    fn try_from(id: u8) -> Result<Self, Self::Error> {
        Card::new(id).ok_or_else(|| format!("card id {id} is out of range, expected 0 to 51"))
    }
}

impl From<Card> for u8 {
    fn from(card: Card) -> u8 {
        card.0
    }
}

impl fmt::Display for Card {
    /// `As`, `Td`, `2c`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = RANK_NAMES[usize::from(self.rank())] as char;
        let suit = SUIT_NAMES[usize::from(self.suit())] as char;
        write!(f, "{rank}{suit}")
    }
}

/// A set of cards as a 52-bit mask (bit `id`), for dealing the unseen cards quickly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set of `cards`.
    pub fn of(cards: &[Card]) -> CardSet {
        cards.iter().fold(CardSet::EMPTY, |set, &c| set.with(c))
    }

    /// This set and `card`.
    #[must_use]
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.0)
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 == 1
    }

    /// How many cards the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards not in this set, in id order.
    pub fn complement(self) -> Vec<Card> {
        Card::all().filter(|&c| !self.contains(c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_selfpoker_layout() {
        // The seed document: value = card // 4 (0 = 2 … 12 = ace), suit = card % 4 (♣♦♥♠).
        assert_eq!(Card::new(51).map(|c| c.to_string()), Some("As".into()));
        assert_eq!(Card::new(0).map(|c| c.to_string()), Some("2c".into()));
        assert_eq!(Card::new(33).map(|c| c.to_string()), Some("Td".into()));
        assert_eq!(Card::new(52), None);
        assert_eq!(Card::of(12, 3), Card::new(51));
        let text: Vec<String> = Card::all().map(|c| c.to_string()).collect();
        assert_eq!(
            text.iter().collect::<std::collections::HashSet<_>>().len(),
            52
        );
        for card in Card::all() {
            assert_eq!(
                fairseed_core::cards::selfpoker(u64::from(card.id())),
                card.to_string()
            );
        }
    }
}

//! Baloot's two distributions over the 32-card deck.

use crate::error::Error;
use crate::shuffle::shuffle;
use crate::stream::DrawSource;

/// Cards dealt in the first distribution, per seat.
const FIRST: usize = 5;
/// Index of the face-up card.
const FACE_UP: usize = 20;

/// The first distribution: `deck = shuffle([0..31])`, seat `i` gets
/// `deck[5i .. 5i+4]`, and `deck[20]` is the face-up card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalootFirst {
    /// The whole shuffled deck.
    pub deck: [u8; 32],
    /// Five cards per seat.
    pub hands: [[u8; 5]; 4],
    /// The card turned face up.
    pub face_up: u8,
}

impl BalootFirst {
    pub(crate) fn from_deck(deck: [u8; 32]) -> Self {
        let mut hands = [[0u8; FIRST]; 4];
        for (hand, cards) in hands.iter_mut().zip(deck.chunks_exact(FIRST)) {
            hand.copy_from_slice(cards);
        }
        Self {
            deck,
            hands,
            face_up: deck[FACE_UP],
        }
    }

    /// `rest = shuffle(deck[21..31])`; seats 0..3 in turn take from its front,
    /// the buyer 2 cards (it also holds the face-up card), every other seat 3.
    pub(crate) fn second(
        &self,
        src: &mut impl DrawSource,
        buyer: usize,
    ) -> Result<[Vec<u8>; 4], Error> {
        if buyer > 3 {
            return Err(Error::invalid(
                "buyer",
                format!("seat {buyer} cannot buy, expected a seat 0 to 3 or null"),
            ));
        }
        let mut rest = self.deck[FACE_UP + 1..].to_vec();
        shuffle(src, &mut rest);
        let mut from = rest.into_iter();
        Ok(core::array::from_fn(|seat| {
            let take = if seat == buyer { 2 } else { 3 };
            from.by_ref().take(take).collect()
        }))
    }
}

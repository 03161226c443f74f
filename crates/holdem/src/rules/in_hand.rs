//! A seat dealt into a hand: its cards, its chips, what it put in.

use serde::{Deserialize, Serialize};

use crate::card::Card;

/// A seat dealt into the hand (its `Debug` leaves the hole cards out).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InHand {
    /// The table seat.
    pub seat: usize,
    /// Its two cards (secret to everyone else until shown).
    pub hole: [Card; 2],
    /// Chips behind, not yet put in.
    pub stack: u64,
    /// Chips put in on this street.
    pub street_bet: u64,
    /// Chips put in during the whole hand.
    pub total: u64,
    /// Whether it folded.
    pub folded: bool,
    /// The bet to match when it last acted on this street (`None`: not yet).
    pub acted_at: Option<u64>,
}

impl core::fmt::Debug for InHand {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("InHand")
            .field("seat", &self.seat)
            .field("stack", &self.stack)
            .field("street_bet", &self.street_bet)
            .field("total", &self.total)
            .field("folded", &self.folded)
            .finish_non_exhaustive()
    }
}

impl InHand {
    /// Still contesting the pot with chips behind.
    pub(super) fn can_bet(&self) -> bool {
        !self.folded && self.stack > 0
    }
}

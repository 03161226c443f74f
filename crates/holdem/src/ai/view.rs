//! What one seat may know: its own two cards, the board dealt so far, and
//! the public actions and chips. Nothing else is in the type, so a decision
//! made from it cannot depend on another seat's cards or on cards to come.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::rules::{HandState, InHand, Logged, Street};

/// Another seat's public state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicSeat {
    /// The seat.
    pub seat: usize,
    /// Chips behind.
    pub stack: u64,
    /// Chips in front of it on this street.
    pub street_bet: u64,
    /// Chips it put in this hand.
    pub total: u64,
    /// Whether it folded.
    pub folded: bool,
}

/// A seat's view of the hand, when it is its turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat.
    pub seat: usize,
    /// Its two cards.
    pub hole: [Card; 2],
    /// The board dealt so far (0, 3, 4 or 5 cards).
    pub board: Vec<Card>,
    /// The street.
    pub street: Street,
    /// The button's seat.
    pub button: usize,
    /// The big blind.
    pub big_blind: u64,
    /// Every seat dealt in, seat order, public state only.
    pub seats: Vec<PublicSeat>,
    /// The hand's actions so far.
    pub actions: Vec<Logged>,
    /// Chips a call costs (0: checking is free).
    pub to_call: u64,
    /// The smallest and largest raise-to totals, if raising is open.
    pub raise: Option<(u64, u64)>,
}

impl SeatView {
    /// The view of the seat to act in `hand`.
    pub fn of(hand: &HandState) -> SeatView {
        let legal = hand.legal();
        SeatView::build(hand, &hand.players[hand.to_act], legal.to_call, legal.raise)
    }

    /// The view of `seat` in `hand`, whether or not it is its turn (the
    /// coach's input); `None` if the seat is not dealt in. `to_call` is what
    /// the seat would owe; `raise` is set only on its turn.
    pub fn for_seat(hand: &HandState, seat: usize) -> Option<SeatView> {
        let me = hand.players.iter().find(|p| p.seat == seat)?;
        if hand.seat_to_act() == seat {
            return Some(SeatView::of(hand));
        }
        let to_call = hand.current_bet.saturating_sub(me.street_bet).min(me.stack);
        Some(SeatView::build(hand, me, to_call, None))
    }

    fn build(hand: &HandState, me: &InHand, to_call: u64, raise: Option<(u64, u64)>) -> SeatView {
        SeatView {
            seat: me.seat,
            hole: me.hole,
            board: hand.board_dealt().to_vec(),
            street: hand.street,
            button: hand.button,
            big_blind: hand.big_blind,
            seats: hand
                .players
                .iter()
                .map(|p| PublicSeat {
                    seat: p.seat,
                    stack: p.stack,
                    street_bet: p.street_bet,
                    total: p.total,
                    folded: p.folded,
                })
                .collect(),
            actions: hand.log.clone(),
            to_call,
            raise,
        }
    }

    /// Chips in the middle.
    pub fn pot(&self) -> u64 {
        self.seats.iter().map(|s| s.total).sum()
    }

    /// This seat's public state.
    pub fn me(&self) -> &PublicSeat {
        self.seats
            .iter()
            .find(|s| s.seat == self.seat)
            .unwrap_or(&self.seats[0])
    }

    /// Seats other than this one still in the hand.
    pub fn opponents(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| s.seat != self.seat && !s.folded)
            .count()
    }

    /// Raises by other seats before the flop.
    pub fn preflop_raises_by_others(&self) -> usize {
        self.actions
            .iter()
            .filter(|a| {
                a.seat != self.seat
                    && a.street == Street::Preflop
                    && matches!(a.action, crate::rules::Action::RaiseTo(_))
            })
            .count()
    }

    /// Bets and raises by other seats on this street.
    pub fn raises_on_street_by_others(&self) -> usize {
        self.actions
            .iter()
            .filter(|a| {
                a.seat != self.seat
                    && a.street == self.street
                    && matches!(a.action, crate::rules::Action::RaiseTo(_))
            })
            .count()
    }

    /// Whether this seat acts after every live opponent on later streets.
    pub fn in_position(&self) -> bool {
        let n = self.seats.len();
        let button = self
            .seats
            .iter()
            .position(|s| s.seat == self.button)
            .unwrap_or(0);
        // Clockwise from left of the button, the last live seat acts last.
        let last = (1..=n)
            .map(|k| (button + k) % n)
            .rfind(|&i| !self.seats[i].folded);
        last.map(|i| self.seats[i].seat) == Some(self.seat)
    }
}

//! What a command did, in public terms: hole cards appear only when shown.

use fairseed_play::Millis;
use serde::{Deserialize, Serialize};

use super::terms::{Action, Player, Street};
use crate::card::Card;
use crate::eval::Category;

/// One thing that happened at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A player took a seat with the starting stack.
    Seated {
        /// The seat.
        seat: usize,
        /// Who.
        player: Player,
        /// Chips brought.
        stack: u64,
    },
    /// A player left; their chips leave with them.
    Left {
        /// The seat.
        seat: usize,
    },
    /// The seat will not be dealt in from the next hand on.
    SatOut {
        /// The seat.
        seat: usize,
    },
    /// The seat will be dealt in again from the next hand on.
    SatIn {
        /// The seat.
        seat: usize,
    },
    /// Free play chips, up to the starting stack.
    ToppedUp {
        /// The seat.
        seat: usize,
        /// Chips added.
        amount: u64,
    },
    /// A hand was dealt: its number, commitment, button and the seats dealt in.
    HandStarted {
        /// Hands are numbered from 1 per table.
        number: u64,
        /// `sha256("selfpoker:" + seed)`.
        commit: String,
        /// The button's seat.
        button: usize,
        /// Seats dealt in with their chips, seat order.
        stacks: Vec<(usize, u64)>,
    },
    /// A blind was posted (all-in if the stack was shorter).
    BlindPosted {
        /// The seat.
        seat: usize,
        /// Chips posted.
        amount: u64,
    },
    /// A seat acted; `paid` chips moved from its stack.
    Acted {
        /// The seat.
        seat: usize,
        /// The street.
        street: Street,
        /// The action.
        action: Action,
        /// Chips put in by this action.
        paid: u64,
        /// Whether the seat has no chips left behind.
        all_in: bool,
        /// Whether the clock chose the action.
        timed_out: bool,
        /// When the clock chose it: the moment the table counted the
        /// seat's clock run out (docs/spec.md §20.7); absent for an action
        /// the seat chose.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Millis>,
    },
    /// Board cards were dealt.
    Dealt {
        /// The street they open.
        street: Street,
        /// The new cards.
        cards: Vec<Card>,
    },
    /// The part of a bet nobody called went back.
    Returned {
        /// The seat.
        seat: usize,
        /// Chips returned.
        amount: u64,
    },
    /// A seat showed its cards at showdown.
    Showed {
        /// The seat.
        seat: usize,
        /// Its hole cards.
        cards: [Card; 2],
        /// The best five cards' category.
        category: Category,
    },
    /// A seat threw its cards away unseen at showdown.
    Mucked {
        /// The seat.
        seat: usize,
    },
    /// A pot (0 = main) went to its winners.
    Awarded {
        /// 0 for the main pot, then side pots in order.
        pot: usize,
        /// The pot's size.
        amount: u64,
        /// Who could win it.
        eligible: Vec<usize>,
        /// Who got what, seat order; odd chips included.
        winners: Vec<(usize, u64)>,
    },
    /// The hand is over: the seed is revealed and stacks are final.
    HandEnded {
        /// The hand's number.
        number: u64,
        /// The seed behind the commitment.
        seed: u64,
        /// Every seat dealt in with its chips after the hand.
        stacks: Vec<(usize, u64)>,
    },
}

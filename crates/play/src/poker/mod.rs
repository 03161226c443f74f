//! A `poker_hmac_v1` table (docs/spec.md §7): seats, seed sessions, hands and
//! streets, leaving and rotation, as one pure state machine.
//!
//! [`State`] is a table with its current seed session, the session's server
//! seed unsealed by the caller. [`apply`] runs one [`Command`]; every seed a
//! command needs (the next session's, when one may open) is an argument, and
//! time is a [`Millis`](crate::Millis). Nothing leaves the state but through [`view`] and
//! [`view_hand`]: a seated player sees their own hole cards and the board
//! dealt so far; a player who left also gets proofs of exactly what they saw
//! (their holes and the board already dealt when they left); the operator
//! and the public see commitments and dealt boards; a seed only in the
//! record of a rotated session.

mod error;
mod hand_view;
mod rotation;
mod rules;
mod state;
mod view;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

pub use error::PokerError;
pub use hand_view::{view_hand, HandView};
pub use rotation::{RotateWhy, MAX_AGE_MS, MAX_HANDS};
pub use rules::{apply, due, Command, Event};
pub use state::{
    session_ident, Hand, RotatedSession, Seat, Session, SessionSeed, State, Street, Table, MAX_SEAT,
};
pub use view::{public_event, session_record, view, HandSummary, SeatView, TableView};

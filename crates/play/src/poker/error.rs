//! The rules a poker command can break, each with its documented code.

use crate::{Code, RuleViolation};

/// A refused poker command: nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PokerError {
    /// The seat is not 0..9.
    #[error("seat: {0} is not 0..9")]
    InvalidSeat(u8),
    /// Another player sits there.
    #[error("seat: {0} is taken")]
    SeatTaken(u8),
    /// The player already sits at another seat.
    #[error("you already sit at seat {0}")]
    AlreadySeated(u8),
    /// The client seed was chosen against another session's commitment.
    #[error("commitment: not the table's current session commitment")]
    CommitmentMismatch,
    /// The player has no seat at this table.
    #[error("you are not seated at this table")]
    NotSeated,
    /// Fewer than two seats have a client seed for this session.
    #[error("{0} seated player(s) with a client seed for this session, need 2")]
    NotEnoughPlayers(usize),
    /// The session reached its hand or age limit: it rotates before another hand.
    #[error("the session reached {} and rotates first; players give client seeds for the new commitment", .0.limit())]
    SessionDue(super::rotation::RotateWhy),
    /// No hand with that number in the current session.
    #[error("hand {0} not found")]
    NoSuchHand(u64),
    /// Only the latest hand deals, and only up to the river.
    #[error("{0}")]
    HandOver(&'static str),
    /// A stored state that contradicts itself (a bug or a damaged row, never the caller's fault).
    #[error("poker state: {0}")]
    Corrupt(String),
}

impl RuleViolation for PokerError {
    fn code(&self) -> Code {
        match self {
            Self::InvalidSeat(_) => Code::InvalidSeat,
            Self::SeatTaken(_) => Code::SeatTaken,
            Self::AlreadySeated(_) => Code::AlreadySeated,
            Self::CommitmentMismatch => Code::CommitmentMismatch,
            Self::NotSeated => Code::NotSeated,
            Self::NotEnoughPlayers(_) => Code::NotEnoughPlayers,
            Self::SessionDue(_) => Code::SessionRotated,
            Self::NoSuchHand(_) => Code::NotFound,
            Self::HandOver(_) => Code::HandOver,
            Self::Corrupt(_) => Code::Internal,
        }
    }
}

impl From<fairseed_core::Error> for PokerError {
    /// The core refused an input the state had already checked.
    fn from(err: fairseed_core::Error) -> Self {
        Self::Corrupt(err.to_string())
    }
}

//! The rules of the table, as errors a player or caller can act on.

use fairseed_play::{Code, RuleViolation};

use super::terms::{chips, Street};

/// A command the table refuses. Seats are numbered 0 to 5.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HoldemError {
    /// The table's settings are unusable.
    #[error("{field}: {reason}")]
    Config {
        /// The setting's name.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A seat number outside the table.
    #[error("seat {seat} does not exist, expected 0 to {last}")]
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// The last seat of the table.
        last: usize,
    },
    /// Someone already sits there.
    #[error("seat {0} is taken")]
    SeatTaken(usize),
    /// Nobody sits there.
    #[error("seat {0} is empty")]
    SeatEmpty(usize),
    /// The command needs the hand to be over.
    #[error("hand {0} is still being played")]
    HandRunning(u64),
    /// The seat is in the hand being played and cannot leave or top up now.
    #[error("seat {0} is in the hand being played")]
    InHand(usize),
    /// There is no hand being played.
    #[error("no hand is being played")]
    NoHand,
    /// Fewer than two seats can be dealt in.
    #[error("{0} seats can be dealt in, expected at least 2 (sitting in, with chips)")]
    NotEnoughPlayers(usize),
    /// The seed is not a selfpoker seed.
    #[error("seed {0} is out of range, expected 0 to 2^63-1")]
    Seed(u64),
    /// Another seat is to act.
    #[error("{street}: seat {seat} acted, but seat {to_act} is to act")]
    NotYourTurn {
        /// The street.
        street: Street,
        /// Who tried.
        seat: usize,
        /// Who is to act.
        to_act: usize,
    },
    /// A check facing a bet.
    #[error("{street}: seat {seat} cannot check, {to_call} to call", to_call = chips(*to_call))]
    CannotCheck {
        /// The street.
        street: Street,
        /// Who tried.
        seat: usize,
        /// What a call would cost.
        to_call: u64,
    },
    /// A call with nothing to call.
    #[error("{street}: seat {seat} has nothing to call, check instead")]
    NothingToCall {
        /// The street.
        street: Street,
        /// Who tried.
        seat: usize,
    },
    /// A bet or raise smaller than the minimum, and not all-in.
    #[error("{street}: seat {seat}'s {word} to {to} is below the minimum {word} {min}", word = if *is_bet { "bet" } else { "raise" }, to = chips(*to), min = chips(*min))]
    RaiseTooSmall {
        /// The street.
        street: Street,
        /// Who tried.
        seat: usize,
        /// Whether it was the street's first bet.
        is_bet: bool,
        /// The total the seat tried to have in front of it.
        to: u64,
        /// The smallest legal total.
        min: u64,
    },
    /// A bet or raise beyond the seat's chips.
    #[error("{street}: seat {seat}'s raise to {to} is more than its {max} in chips", to = chips(*to), max = chips(*max))]
    RaiseTooLarge {
        /// The street.
        street: Street,
        /// Who tried.
        seat: usize,
        /// The total tried.
        to: u64,
        /// The seat's chips, including what it has in front of it.
        max: u64,
    },
    /// Raising is closed: a short all-in did not reopen it, or nobody is left to call.
    #[error("{street}: seat {seat} may only call or fold, the betting is not open to it")]
    RaiseClosed {
        /// The street.
        street: Street,
        /// Who tried.
        seat: usize,
    },
    /// A timeout claimed before the seat's clock ran out.
    #[error("seat {seat}'s clock runs {left_ms} ms more")]
    ClockRunning {
        /// The seat whose clock it is.
        seat: usize,
        /// Time left.
        left_ms: i64,
    },
    /// A top-up with chips already at the starting stack.
    #[error("seat {seat} has {stack}, a top-up only fills up to {cap}", stack = chips(*stack), cap = chips(*cap))]
    TopUpNotNeeded {
        /// The seat.
        seat: usize,
        /// Its chips.
        stack: u64,
        /// The starting stack.
        cap: u64,
    },
}

impl RuleViolation for HoldemError {
    fn code(&self) -> Code {
        match self {
            HoldemError::Config { .. } => Code::ConfigInvalid,
            HoldemError::NoSuchSeat { .. } => Code::SeatInvalid,
            HoldemError::SeatTaken(_) => Code::SeatTaken,
            HoldemError::SeatEmpty(_) => Code::SeatEmpty,
            HoldemError::HandRunning(_) => Code::HandRunning,
            HoldemError::InHand(_) => Code::InHand,
            HoldemError::NoHand => Code::NoHand,
            HoldemError::NotEnoughPlayers(_) => Code::NotEnoughPlayers,
            HoldemError::Seed(_) => Code::SeedInvalid,
            HoldemError::NotYourTurn { .. } => Code::NotYourTurn,
            HoldemError::CannotCheck { .. } => Code::CannotCheck,
            HoldemError::NothingToCall { .. } => Code::NothingToCall,
            HoldemError::RaiseTooSmall { .. } => Code::RaiseTooSmall,
            HoldemError::RaiseTooLarge { .. } => Code::RaiseTooLarge,
            HoldemError::RaiseClosed { .. } => Code::RaiseClosed,
            HoldemError::ClockRunning { .. } => Code::ClockRunning,
            HoldemError::TopUpNotNeeded { .. } => Code::TopUpNotNeeded,
        }
    }
}

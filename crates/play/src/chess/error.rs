//! The rules a chess command can break, each with the code `docs/api.md` documents.

use crate::{Code, PlayerId, RuleViolation};

/// A chess command refused by the seeds' state; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChessError {
    /// The seed, seek or game is not the caller's to use (or not there):
    /// answered as "not found", so nobody learns of others' seeds.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The commitment the player was shown is not the seed's.
    #[error("commitment: not this seed's commitment")]
    CommitmentMismatch,
    /// The seed is in another phase than the command needs.
    #[error("the seed is {status}, expected {expected}")]
    WrongStatus {
        /// The seed's status word.
        status: &'static str,
        /// What the command needs.
        expected: &'static str,
    },
    /// A player accepting their own seek.
    #[error("a player cannot accept their own seek")]
    OwnSeek,
    /// A player challenging themselves.
    #[error("opponent: {0} is the challenger; challenge another player")]
    OwnChallenge(PlayerId),
    /// A challenge to an account that does not exist.
    #[error("opponent: player {0} does not exist")]
    UnknownOpponent(PlayerId),
    /// A seek past its time.
    #[error("the seek expired; seek again with a new seed")]
    SeekExpired,
    /// A server seed handed in is not the committed one: the stored secret
    /// and the commitment disagree, and nothing may be drawn.
    #[error("the stored server seed does not match the seed's commitment")]
    SeedMismatch,
}

impl RuleViolation for ChessError {
    fn code(&self) -> Code {
        match self {
            Self::NotFound(_) => Code::NotFound,
            Self::CommitmentMismatch => Code::CommitmentMismatch,
            Self::WrongStatus { .. } => Code::WrongStatus,
            Self::OwnSeek => Code::OwnSeek,
            Self::OwnChallenge(_) => Code::OwnChallenge,
            Self::UnknownOpponent(_) => Code::UnknownOpponent,
            Self::SeekExpired => Code::SeekExpired,
            // Not a rule: a stored state that contradicts itself.
            Self::SeedMismatch => Code::Internal,
        }
    }
}

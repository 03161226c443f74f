//! The rules a match command can break, each with the code `docs/api.md` documents.

use crate::{Code, RuleViolation};

/// A match command refused by the match's state; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The commitment a player was shown is not the match's.
    #[error("commitment: '{0}' is not this match's commitment; show the player the match's commitment first")]
    CommitmentMismatch(String),
    /// A player index outside `0..n`.
    #[error("{field}: {index} is not a player of this {players}-player match")]
    InvalidIndex {
        /// The field holding the index (`index`, `players.2`).
        field: String,
        /// The index given.
        index: usize,
        /// The match's number of players.
        players: usize,
    },
    /// A client seed for a `match_seed_v1` match, which mixes in none.
    #[error("client_seed: a match_seed_v1 match takes no client seeds")]
    NoClientSeeds,
    /// A second client seed for the same player.
    #[error("index: player {0} already gave a client seed")]
    SeedAlreadySet(usize),
    /// The command needs another phase.
    #[error("cannot {doing}: the match is {status}, expected {expected}")]
    WrongStatus {
        /// What was asked.
        doing: &'static str,
        /// The match's status word.
        status: &'static str,
        /// The status the command needs.
        expected: &'static str,
    },
    /// Start before every client seed is in.
    #[error("players {0:?} have not given a client seed")]
    ClientSeedsMissing(Vec<usize>),
    /// A draw that does not fit the game or the moment.
    #[error("step: '{step}' {why}")]
    InvalidStep {
        /// The step's name.
        step: &'static str,
        /// Why not now.
        why: String,
    },
    /// Baloot: a buyer that is not a seat.
    #[error("buyer: {0} is not a seat 0..3")]
    InvalidBuyer(usize),
    /// Mahjong: every tile of the wall is drawn.
    #[error("the {0}-tile wall is empty; start a new hand")]
    WallEmpty(usize),
    /// The verifier's bound on deals, games, hands or moves.
    #[error("the match already has {limit} {what}; finish it")]
    TooLong {
        /// What reached the bound.
        what: &'static str,
        /// The bound.
        limit: usize,
    },
    /// The server seed handed in is not the committed one: the stored
    /// secret and the commitment disagree, and nothing may be drawn.
    #[error("the stored server seed does not match the match's commitment")]
    SeedMismatch,
    /// The core refused to replay a match the rules accepted: a bug, reported.
    #[error("the match does not replay: {0}")]
    Replay(String),
}

impl RuleViolation for MatchError {
    fn code(&self) -> Code {
        match self {
            Self::CommitmentMismatch(_) => Code::CommitmentMismatch,
            Self::InvalidIndex { .. } => Code::InvalidIndex,
            Self::SeedAlreadySet(_) => Code::SeedAlreadySet,
            Self::NoClientSeeds => Code::NoClientSeeds,
            Self::WrongStatus { .. } => Code::WrongStatus,
            Self::ClientSeedsMissing(_) => Code::ClientSeedsMissing,
            Self::InvalidStep { .. } => Code::InvalidStep,
            Self::InvalidBuyer(_) => Code::InvalidBuyer,
            Self::WallEmpty(_) => Code::WallEmpty,
            Self::TooLong { .. } => Code::MatchTooLong,
            // Not rules: a stored state that contradicts itself.
            Self::SeedMismatch | Self::Replay(_) => Code::Internal,
        }
    }
}

//! Why a live table refuses a request: [`LiveError`], each refusal with
//! its cause, and the code a service answers it with.

use fairseed_play::{Code, RuleViolation};

use super::hand_round::Phase;
use crate::rules::HoldemError;

/// A request the table refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LiveError {
    /// A rule of the game.
    #[error(transparent)]
    Rules(#[from] HoldemError),
    /// The player has no seat at this table.
    #[error("you have no seat at this table")]
    NotSeated,
    /// The player sits here already.
    #[error("you already sit at seat {0}")]
    AlreadySeated(usize),
    /// The client seed is unusable (the core's refusal names why).
    #[error(transparent)]
    ClientSeed(fairseed_core::Error),
    /// A private table refuses the seat: no invitation, or not this
    /// table's (the reason, after the field `invitation`).
    #[error("invitation: {0}")]
    Invitation(&'static str),
    /// The session's seeds cannot be derived.
    #[error(transparent)]
    Derivation(#[from] DerivationError),
    /// The table closed when its last human left.
    #[error("the table is closed; open a new one")]
    Closed,
    /// The round of the next hand is open: seats stay as they are until
    /// it is dealt (docs/spec.md §20.2).
    #[error("hand {0} is being dealt; try again once it has started")]
    RoundOpen(u64),
    /// A commit or reveal that the round does not take.
    #[error(transparent)]
    Round(#[from] RoundRefusal),
    /// A commit or value the round cannot take as it is.
    #[error(transparent)]
    HandValue(#[from] HandValueError),
    /// The revealed value is not the one the seat committed to.
    #[error("value: its sha256 is not your commit for hand {0}; send the value you committed to")]
    ValueMismatch(u64),
    /// What the driver planned is not due on this table (a caller's bug).
    #[error("nothing of the kind is due at this table")]
    NotDue,
}

impl RuleViolation for LiveError {
    fn code(&self) -> Code {
        match self {
            LiveError::Rules(e) => e.code(),
            LiveError::NotSeated => Code::NotSeated,
            LiveError::AlreadySeated(_) => Code::AlreadySeated,
            LiveError::ClientSeed(_) => Code::ClientSeedInvalid,
            LiveError::Invitation(_) => Code::InvitationRefused,
            LiveError::Derivation(_) => Code::DerivationFailed,
            LiveError::Closed => Code::TableClosed,
            LiveError::RoundOpen(_) => Code::RoundOpen,
            LiveError::Round(_) => Code::NotInRound,
            LiveError::HandValue(_) => Code::HandValueInvalid,
            LiveError::ValueMismatch(_) => Code::HandValueMismatch,
            LiveError::NotDue => Code::Internal,
        }
    }
}

/// Why a hand's seed cannot be derived.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DerivationError {
    /// An input is out of form or range: no client seed is seated, a seed
    /// or value is malformed, or the table id is not an identifier.
    #[error(transparent)]
    Input(fairseed_core::Error),
    /// A `selfpoker_v3` hand is played with no round of its own.
    #[error("hand {hand} has no round")]
    NoRound {
        /// The hand.
        hand: u64,
    },
    /// A seat dealt in revealed no value.
    #[error("seat {seat} has no revealed value")]
    NoValue {
        /// The seat.
        seat: usize,
    },
    /// The humans ready to be dealt in are not the seats that revealed.
    #[error("the humans ready ({ready:?}) are not the seats that revealed ({revealed:?})")]
    ReadyNotRevealed {
        /// The humans ready, ascending.
        ready: Vec<usize>,
        /// The seats that revealed, ascending.
        revealed: Vec<usize>,
    },
}

/// Why the round of a `selfpoker_v3` hand does not take a commit or a
/// reveal, or cannot end its phase (docs/spec.md §20.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RoundRefusal {
    /// No round is open.
    #[error("no round is open for hand {hand}")]
    NoneOpen {
        /// The hand asked about.
        hand: u64,
    },
    /// The open round is another hand's.
    #[error("the open round is hand {open}'s, not hand {hand}'s")]
    OtherHand {
        /// The hand of the open round.
        open: u64,
        /// The hand asked about.
        hand: u64,
    },
    /// The round is in the other phase.
    #[error("the round of hand {hand} {}", takes(*phase))]
    OtherPhase {
        /// The hand.
        hand: u64,
        /// The phase the round is in.
        phase: Phase,
    },
    /// No round is in its commit phase.
    #[error("no round takes commits")]
    NoCommitPhase,
    /// No round is in its reveal phase.
    #[error("no round takes values")]
    NoRevealPhase,
    /// The seat is not among the round's.
    #[error("seat {seat} is not in the round of hand {hand}")]
    NotInRound {
        /// The seat.
        seat: usize,
        /// The hand.
        hand: u64,
    },
    /// The seat committed already.
    #[error("seat {seat} committed for hand {hand} already")]
    CommittedAlready {
        /// The seat.
        seat: usize,
        /// The hand.
        hand: u64,
    },
    /// The seat did not commit, so it has nothing to reveal.
    #[error("seat {seat} did not commit for hand {hand}")]
    NotCommitted {
        /// The seat.
        seat: usize,
        /// The hand.
        hand: u64,
    },
    /// The seat revealed already.
    #[error("seat {seat} revealed for hand {hand} already")]
    RevealedAlready {
        /// The seat.
        seat: usize,
        /// The hand.
        hand: u64,
    },
}

/// What a round in `phase` takes, in words.
const fn takes(phase: Phase) -> &'static str {
    match phase {
        Phase::Commit => "takes commits",
        Phase::Reveal | Phase::Dealt => "takes values",
    }
}

/// Why a commit or a revealed value is refused before it is held to the round.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HandValueError {
    /// Not 64 hex characters (the core's refusal names the field).
    #[error(transparent)]
    Form(fairseed_core::Error),
    /// The commit was made in an earlier round of the hand, which ended
    /// without it: its value may be known by now (docs/spec.md §20.2).
    #[error("commit: this value was committed to in an earlier round of hand {hand}, which ended without it; draw a fresh value")]
    SpentCommit {
        /// The hand.
        hand: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal reaches a client as its words alone: each reason reads as
    /// the words the table has always sent, and keeps its code.
    #[test]
    fn each_refusal_reads_in_the_words_clients_know() {
        let cases: [(LiveError, &str, Code); 8] = [
            (
                RoundRefusal::OtherHand { open: 3, hand: 2 }.into(),
                "the open round is hand 3's, not hand 2's",
                Code::NotInRound,
            ),
            (
                RoundRefusal::OtherPhase {
                    hand: 2,
                    phase: Phase::Commit,
                }
                .into(),
                "the round of hand 2 takes commits",
                Code::NotInRound,
            ),
            (
                RoundRefusal::OtherPhase {
                    hand: 2,
                    phase: Phase::Reveal,
                }
                .into(),
                "the round of hand 2 takes values",
                Code::NotInRound,
            ),
            (
                RoundRefusal::NotInRound { seat: 4, hand: 2 }.into(),
                "seat 4 is not in the round of hand 2",
                Code::NotInRound,
            ),
            (
                HandValueError::SpentCommit { hand: 2 }.into(),
                "commit: this value was committed to in an earlier round of hand 2, which ended without it; draw a fresh value",
                Code::HandValueInvalid,
            ),
            (
                DerivationError::ReadyNotRevealed {
                    ready: vec![0, 1],
                    revealed: vec![1],
                }
                .into(),
                "the humans ready ([0, 1]) are not the seats that revealed ([1])",
                Code::DerivationFailed,
            ),
            (
                DerivationError::NoRound { hand: 5 }.into(),
                "hand 5 has no round",
                Code::DerivationFailed,
            ),
            (
                LiveError::ClientSeed(fairseed_core::Error::invalid("client_seed", "empty")),
                "client_seed: empty",
                Code::ClientSeedInvalid,
            ),
        ];
        for (error, words, code) in cases {
            assert_eq!(error.to_string(), words);
            assert_eq!(error.code(), code, "{words}");
        }
    }
}

//! Why a hand record does not replay to its own results ([`ReplayError`]),
//! and the scheme name it must carry: what the record's replay and its
//! deal's check both answer with, so neither depends on the other's module.

use crate::ai::Engine;
use crate::rules::{HoldemError, Street};

/// The scheme name a hand record carries.
pub const SCHEME: &str = "holdem_hand_v1";

/// Why a record does not replay to its own results.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// Not a hold'em hand record.
    #[error("hand {hand}: scheme '{scheme}', expected {SCHEME}")]
    Scheme {
        /// The hand.
        hand: u64,
        /// The scheme found.
        scheme: String,
    },
    /// The commitment is not the seed's.
    #[error("hand {0}: commit does not match sha256(\"selfpoker:\" + seed)")]
    Commit(u64),
    /// An AI's recorded action is not what its engine and level decide from
    /// its own seat's view with the session's seed for that decision.
    #[error("hand {hand}, {street}: seat {seat} (AI level {level}, {engine}) {did}; from its own seat it {decides}", engine = engine.as_str())]
    Ai {
        /// The hand.
        hand: u64,
        /// The street.
        street: Street,
        /// The AI's seat.
        seat: usize,
        /// Its level.
        level: u8,
        /// Its engine.
        engine: Engine,
        /// What the record says it did, in words ("called").
        did: String,
        /// What it decides, in words ("folds").
        decides: String,
    },
    /// An AI seat that names no engine, or a level no engine has, at a
    /// table whose AI decisions derive from the session secret.
    #[error("hand {hand}: seat {seat} {problem}")]
    AiSeat {
        /// The hand.
        hand: u64,
        /// The seat.
        seat: usize,
        /// What is wrong, in words.
        problem: String,
    },
    /// A field of the record is malformed (the error names it).
    #[error("hand {hand}: {error}")]
    Input {
        /// The hand.
        hand: u64,
        /// The field and what is wrong with it.
        error: fairseed_core::Error,
    },
    /// The `selfpoker_v2` session is still open: its secret is not revealed.
    #[error("hand {0}: the session secret is not revealed yet; the seed's derivation is checked once the session ends")]
    Unrevealed(u64),
    /// The revealed secret is not the one the session committed to.
    #[error("hand {hand}: sha256(session_secret) is {hashed}, the record says session_commit {recorded}")]
    SessionCommit {
        /// The hand.
        hand: u64,
        /// The hash of the revealed secret.
        hashed: String,
        /// The recorded commitment.
        recorded: String,
    },
    /// A human dealt in has no client seed, or an AI has one.
    #[error("hand {hand}: {difference}")]
    ClientSeeds {
        /// The hand.
        hand: u64,
        /// Which seat, in words.
        difference: String,
    },
    /// v3: a revealed per-hand value is not the one its seat committed to
    /// (docs/spec.md §20.5, `reveals`).
    #[error("hand {hand}: seat {seat}{problem}")]
    Reveal {
        /// The hand.
        hand: u64,
        /// The seat.
        seat: usize,
        /// What is wrong, in words, after the seat ("'s revealed value hashes to …").
        problem: String,
    },
    /// v3: a withheld seat is dealt in, revealed, or never committed
    /// (docs/spec.md §20.5, `withheld`).
    #[error("hand {hand}: seat {seat} {problem}")]
    Withheld {
        /// The hand.
        hand: u64,
        /// The seat.
        seat: usize,
        /// What is wrong, in words.
        problem: &'static str,
    },
    /// The seed is not the one the secret and the client seeds derive.
    #[error("hand {hand}: the seed derived from the session secret, the table, the hand number and the client seeds is {derived}, the record says {recorded}")]
    Derivation {
        /// The hand.
        hand: u64,
        /// The derived seed.
        derived: u64,
        /// The recorded seed.
        recorded: u64,
    },
    /// The table or seats cannot be set up as recorded.
    #[error("hand {hand}: {error}")]
    Setup {
        /// The hand.
        hand: u64,
        /// The rule that refused the set-up.
        error: HoldemError,
    },
    /// An action breaks the rules.
    #[error("hand {hand}, {error}")]
    Rule {
        /// The hand.
        hand: u64,
        /// Which rule (the message names street, seat and amounts).
        error: HoldemError,
    },
    /// The actions stop before the hand ends.
    #[error("hand {hand}: the actions stop on the {street} with seat {seat} to act")]
    Unfinished {
        /// The hand.
        hand: u64,
        /// The street.
        street: Street,
        /// Who was to act.
        seat: usize,
    },
    /// An action after the hand ended.
    #[error("hand {hand}: action {index} (seat {seat}) comes after the hand ended")]
    AfterEnd {
        /// The hand.
        hand: u64,
        /// Its 1-based position in the log.
        index: usize,
        /// Its seat.
        seat: usize,
    },
    /// A seat or setting of the hand is not what the table's policy,
    /// committed at open, says (docs/spec.md §19.3).
    #[error("hand {hand}: {problem}")]
    Policy {
        /// The hand.
        hand: u64,
        /// What differs, in words.
        problem: String,
    },
    /// The replayed results differ from the recorded ones.
    #[error("hand {hand}: {difference}")]
    Mismatch {
        /// The hand.
        hand: u64,
        /// The first difference, in words.
        difference: String,
    },
}

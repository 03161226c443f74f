//! The round before each hand of a `selfpoker_v3` table as data: where it
//! stands, its commits and values, the notices it makes public and how long
//! each phase lasts (docs/spec.md §20.2). What a round does is in
//! [`super::round`].

use std::collections::BTreeMap;

use fairseed_play::Millis;
use serde::{Deserialize, Serialize};

/// Where a round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Commits are accepted; no value is.
    Commit,
    /// Values are accepted from the seats that committed.
    Reveal,
    /// The hand was dealt from the values revealed.
    Dealt,
}

/// The round of one hand: its seats, their commits and revealed values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandRound {
    /// The hand's number.
    pub hand: u64,
    /// The humans ready to be dealt in when the round opened, ascending.
    pub seats: Vec<usize>,
    /// Seat → commit (64 lowercase hex), as accepted.
    pub commits: BTreeMap<usize, String>,
    /// Seat → revealed value (64 lowercase hex), each matching its commit.
    pub values: BTreeMap<usize, String>,
    /// Where the round stands.
    pub phase: Phase,
    /// When the current phase ends (the table's `action_ms` after it began).
    pub deadline: Millis,
}

impl HandRound {
    /// Whether commits or values are still accepted.
    pub fn is_open(&self) -> bool {
        self.phase != Phase::Dealt
    }

    /// The seats that committed and did not reveal, ascending.
    pub fn withheld(&self) -> Vec<usize> {
        self.commits
            .keys()
            .filter(|s| !self.values.contains_key(s))
            .copied()
            .collect()
    }

    /// Every seat that committed has revealed: the hand can be dealt now.
    pub fn all_revealed(&self) -> bool {
        self.phase == Phase::Reveal && self.values.len() == self.commits.len()
    }
}

/// A public message about a round, in the table's log with the events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoundNotice {
    /// The round of `hand` opened for `seats`; commits until `deadline`.
    Opened {
        /// The hand.
        hand: u64,
        /// Its seats.
        seats: Vec<usize>,
        /// The end of the commit phase.
        deadline: Millis,
    },
    /// `seat` committed to `commit`.
    Committed {
        /// The hand.
        hand: u64,
        /// The seat.
        seat: usize,
        /// Its commit.
        commit: String,
    },
    /// The commits are in: values until `deadline`.
    Revealing {
        /// The hand.
        hand: u64,
        /// The end of the reveal phase.
        deadline: Millis,
    },
    /// `seat` revealed a value matching its commit (the value is in the
    /// hand's record).
    Revealed {
        /// The hand.
        hand: u64,
        /// The seat.
        seat: usize,
    },
    /// `seat` did not commit in time: sat out, not in the hand.
    NotCommitted {
        /// The hand.
        hand: u64,
        /// The seat.
        seat: usize,
    },
    /// `seat` committed and did not reveal in time: sat out, dealt without.
    Withheld {
        /// The hand.
        hand: u64,
        /// The seat.
        seat: usize,
    },
    /// Fewer than two seats were left to deal in: no hand; the next round
    /// for `hand` starts afresh, with fresh values.
    NoHand {
        /// The hand.
        hand: u64,
        /// Why.
        why: NoHandWhy,
    },
}

/// Why a round ended without its hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoHandWhy {
    /// No seat committed before the commit phase's deadline.
    NobodyCommitted,
    /// Once the seats that did not commit or withheld were sat out, fewer
    /// than two seats, or no human, were ready.
    TooFewReady,
}

impl NoHandWhy {
    /// The reason as the log writes it (docs/spec.md §20.6).
    pub const fn as_str(self) -> &'static str {
        match self {
            NoHandWhy::NobodyCommitted => "nobody_committed",
            NoHandWhy::TooFewReady => "too_few_ready",
        }
    }
}

/// The longest a round's phase lasts, whatever the turn clock: the page
/// commits and reveals with no click, so a phase needs seconds, and a seat
/// that does not answer stalls a hand by at most two phases (docs/spec.md
/// §20.2).
pub const MAX_PHASE_MS: i64 = 30_000;

/// How long each phase of a round lasts at a table whose turn clock is
/// `action_ms`: as long as a turn, and at most [`MAX_PHASE_MS`].
pub fn phase_ms(action_ms: i64) -> i64 {
    action_ms.min(MAX_PHASE_MS)
}

//! What an audit found wrong, each named precisely enough to act on.

use serde::Serialize;

/// The kind of a finding: a stable name for scripts, beside the sentence for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// The checkpoint's signature does not verify, or the note is not a checkpoint.
    BadCheckpoint,
    /// A checkpoint is not consistent with one seen before (a fork or a rollback).
    Inconsistent,
    /// A tile is missing, has the wrong length, or does not hash to its parent or the root.
    BadTile,
    /// An entry bundle does not match its hash tile.
    BadBundle,
    /// An entry that does not decode, or whose ids or values break its scheme's layout.
    BadEntry,
    /// A reveal that does not match its commitment.
    RevealMismatch,
    /// A reveal with no commitment before it, or a second reveal.
    UnexpectedReveal,
    /// A commitment not revealed within its scheme's policy.
    Overdue,
    /// A seed session ended for a reason outside its policy, or a live
    /// table closed as idle sooner than its policy and service explain.
    EarlyEnd,
    /// A player's clock ran out sooner than the table's policy and the time
    /// it was served explain, or its timeout was logged before the moment
    /// it says the clock ran out.
    EarlyTimeout,
    /// A commitment value, or a commitment's ids, seen twice.
    DuplicateCommitment,
    /// A dice nonce used twice, or skipped.
    Nonce,
    /// A bet whose recorded payout is not the one its revealed roll gives.
    WrongPayout,
    /// A statistic far outside what a fair service gives (p below [`crate::ALARM_P`]).
    Statistics,
    /// A seat committed to a per-hand value and withheld it, so its hand
    /// was dealt without it (docs/spec.md §20): allowed, and shown, with how
    /// often each seat did it.
    WithheldReveal,
}

/// One thing wrong with the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What kind of problem.
    pub kind: FindingKind,
    /// The leaf index it was found at, when it belongs to one entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf: Option<u64>,
    /// The precise sentence: which tile, checkpoint, pair, nonce.
    pub message: String,
}

impl Finding {
    /// A finding about the log as a whole (a checkpoint, a tile).
    pub fn new(kind: FindingKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            leaf: None,
            message: message.into(),
        }
    }

    /// A finding about the entry at `leaf`.
    pub fn at(kind: FindingKind, leaf: u64, message: impl Into<String>) -> Self {
        Self {
            kind,
            leaf: Some(leaf),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.leaf {
            Some(leaf) => write!(f, "entry {leaf}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Findings as they are made, keeping the first [`Findings::KEEP`] in full and counting the rest,
/// so a log that is wrong everywhere still audits in bounded memory.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Findings {
    /// The first findings, in the order found.
    pub first: Vec<Finding>,
    /// How many findings in all, kept or not.
    pub total: u64,
}

impl Findings {
    /// How many findings are kept in full.
    pub const KEEP: usize = 1000;

    /// Records one finding.
    pub fn push(&mut self, finding: Finding) {
        self.total += 1;
        if self.first.len() < Self::KEEP {
            self.first.push(finding);
        }
    }

    /// Adds every finding of `other`, kept or only counted there.
    pub fn merge(&mut self, other: Findings) {
        let uncounted = other.total - other.first.len() as u64;
        for finding in other.first {
            self.push(finding);
        }
        self.total += uncounted;
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

//! A table's seed session: how its hand seeds are made, the humans' client
//! seeds they derive from, and why the session ended.

use serde::{Deserialize, Serialize};

/// How a table's hand seeds are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// A fresh 63-bit seed per hand from the OS CSPRNG.
    Selfpoker,
    /// Derived from a committed session secret, the table, the hand number
    /// and the seated humans' client seeds (docs/spec.md).
    SelfpokerV2,
    /// As `selfpoker_v2` over the humans dealt in, each with a per-hand
    /// value committed before any was revealed (docs/spec.md §20).
    SelfpokerV3,
}

impl Scheme {
    /// The scheme's name in messages and records.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scheme::Selfpoker => "selfpoker",
            Scheme::SelfpokerV2 => "selfpoker_v2",
            Scheme::SelfpokerV3 => "selfpoker_v3",
        }
    }
}

/// The table's seed session: its scheme, the session secret's commitment
/// (v2) and, once the session ended, the secret itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// How hand seeds are made.
    pub scheme: Scheme,
    /// `sha256` of the session secret, hex (v2); public from the start.
    pub commit: Option<String>,
    /// The session secret, hex, once revealed (when the table closed).
    pub revealed: Option<String>,
}

/// A seat's client seed for the v2 derivation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientSeed {
    /// The seat.
    pub seat: usize,
    /// The seed as the player's browser gave it.
    pub seed: String,
}

/// Why a table's session ended: both are its policy, and the transparency
/// log carries the reason with the revealed secret (docs/spec.md §17.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionEnd {
    /// The last human left.
    TableEmpty,
    /// Nobody could be dealt in for the table's idle limit.
    TableIdle,
    /// Nobody sat down within [`super::driver::UNJOINED_CLOSE_MS`] of served time
    /// after the table opened, whatever its idle limit: a table nobody
    /// joined holds a place among the service's tables for a minute at most.
    TableUnjoined,
}

impl SessionEnd {
    /// The reason as the log and the spec write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            SessionEnd::TableEmpty => "table_empty",
            SessionEnd::TableIdle => "table_idle",
            SessionEnd::TableUnjoined => "table_unjoined",
        }
    }
}

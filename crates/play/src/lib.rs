//! Every game flow of the fairseed service as a pure state machine, and
//! the one door through which anything leaves it.
//!
//! [`dice`] settles a dice bet against the balance and the pair's nonces.
//!
//! Each flow (a poker table and its seed sessions and hands, a table-game
//! match, a chess seek and game, a selfpoker hand) is a module with:
//!
//! - a typed `State` (enums, not status strings) that holds everything,
//!   secrets included, once the caller has unsealed them;
//! - `apply(state, command, now) -> Result<(State, Vec<Event>), Error>`: no
//!   I/O, no clock, no randomness inside — time comes in as [`Millis`] and
//!   every seed is an argument of the command that needs it, so a flow
//!   replays exactly in a test or in a verifier;
//! - an `Error` enum of the flow's rules (each variant has a stable
//!   [`RuleViolation::code`], mapped to `409` at the HTTP edge);
//! - `view(state, viewer)`: what a [`Viewer`] may see. Responses, events
//!   and records are built from views only, so a card, seed, salt or proof
//!   can reach a viewer only when the state says it is public to them.
//!
//! `log_entries` (feature `log`) builds the transparency-log entries of the dice pairs,
//! the rounds and the poker hands from the values their records carry.
//!
//! The crate builds for `wasm32-unknown-unknown`; the server, the CLI and
//! the browser call the same functions.

#![forbid(unsafe_code)]

pub mod chess;
mod code;
mod codec;
pub mod dice;
#[cfg(feature = "log")]
pub mod log_entries;
pub mod matches;
pub mod poker;
pub mod selfpoker;

use serde::{Deserialize, Serialize};

pub use code::Code;

/// A point in time, Unix milliseconds, passed in by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Millis(pub i64);

impl Millis {
    /// Milliseconds from `earlier` to `self`, zero if `earlier` is later.
    pub fn since(self, earlier: Millis) -> i64 {
        self.0.saturating_sub(earlier.0).max(0)
    }
}

/// A player account id, as the service numbers them.
pub type PlayerId = i64;

/// Who is looking. A player's relation to a game (seated, left, never
/// there) is read from the state, not claimed by the viewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player, by id: sees what is public plus what the state says is theirs.
    Player(PlayerId),
    /// The operator running the service.
    Operator,
    /// Anyone: commitments and revealed values only.
    Public,
}

/// A broken game rule: something the caller may fix or retry, never a bug.
pub trait RuleViolation: std::error::Error {
    /// The stable code (`seat_taken`, `hand_over`, …), documented in
    /// `docs/api.md` and returned with HTTP status 409 (`404` for
    /// [`Code::NotFound`], `500` for [`Code::Internal`]).
    fn code(&self) -> Code;
}

/// A record a flow made, to be stored once with the players allowed to
/// read it (the operator reads every record).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The record's scheme (`match_seed_v2`, `chess_colour_v1`, …).
    pub scheme: &'static str,
    /// The record object, as `fairseed verify` reads it.
    pub body: serde_json::Value,
    /// The accounts that may read it, ascending, without repeats.
    pub readers: Vec<PlayerId>,
}

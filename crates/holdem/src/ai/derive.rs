//! Where a live AI's randomness comes from: the committed session secret
//! (docs/spec.md §18). Each decision's seed is HMAC-SHA256, keyed as the
//! hand seeds are, over the table, the hand, the seat and the decision's
//! index in the hand's action log; so once the secret is revealed anyone
//! replays every AI decision from its seat's view.
//!
//! The AI is versioned like a scheme: [`Engine::V1`] is [`super::decide`] as
//! it is today; a stronger AI is a new engine, and this one stays, so a hand
//! recorded under it verifies under it for ever.

use fairseed_core::selfpoker_v2;
use serde::{Deserialize, Serialize};

use super::decide::{decide, Level};
use super::view::SeatView;
use crate::rules::Action;

/// An AI engine's version, as a hand record names it (`"v1"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Engine {
    /// The three levels of [`super::decide`], seeded by [`decision_seed`].
    #[serde(rename = "v1")]
    V1,
}

impl Engine {
    /// The version as records and messages write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Engine::V1 => "v1",
        }
    }
}

/// The engine every AI seat of a live table plays under today.
pub const ENGINE_V1: Engine = Engine::V1;

/// The message's domain, so no other HMAC of the session collides with it.
pub const DOMAIN: &str = "fairseed/holdem-ai/v1";

/// The HMAC message of one decision: `DOMAIN`, a zero byte, the table id's
/// byte length (u32 big-endian) and bytes, the hand number (u64 big-endian),
/// the seat (u32 big-endian) and the decision's index in the hand's action
/// log, counting from 0 (u32 big-endian).
pub fn decision_message(table_id: &str, hand: u64, seat: usize, index: usize) -> Vec<u8> {
    let mut msg = Vec::with_capacity(DOMAIN.len() + 21 + table_id.len());
    msg.extend_from_slice(DOMAIN.as_bytes());
    msg.push(0);
    msg.extend_from_slice(&as_u32(table_id.len()).to_be_bytes());
    msg.extend_from_slice(table_id.as_bytes());
    msg.extend_from_slice(&hand.to_be_bytes());
    msg.extend_from_slice(&as_u32(seat).to_be_bytes());
    msg.extend_from_slice(&as_u32(index).to_be_bytes());
    msg
}

fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The seed of one decision: the first 8 bytes, big-endian, of
/// HMAC-SHA256 keyed by the secret's 64 lowercase hex characters over
/// [`decision_message`].
pub fn decision_seed(
    secret: &[u8; 32],
    table_id: &str,
    hand: u64,
    seat: usize,
    index: usize,
) -> u64 {
    let mac = selfpoker_v2::session_hmac(secret, &decision_message(table_id, hand, seat, index));
    let mut first = [0u8; 8];
    first.copy_from_slice(&mac[..8]);
    u64::from_be_bytes(first)
}

/// Where an AI seat's decisions come from: the session and the table.
#[derive(Debug, Clone, Copy)]
pub struct DecisionKey<'a> {
    /// The session secret.
    pub secret: &'a [u8; 32],
    /// The table the session deals at.
    pub table_id: &'a str,
}

impl DecisionKey<'_> {
    /// What `engine` at `level` decides in hand `hand` from `view` alone
    /// (the decision's index is the number of actions in the view).
    pub fn decide(&self, engine: Engine, level: Level, hand: u64, view: &SeatView) -> Action {
        match engine {
            Engine::V1 => {
                let seed = decision_seed(
                    self.secret,
                    self.table_id,
                    hand,
                    view.seat,
                    view.actions.len(),
                );
                decide(level, view, seed)
            }
        }
    }
}

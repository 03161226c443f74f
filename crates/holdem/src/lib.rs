//! No-limit Texas hold'em for fairseed, pure: no I/O, no clock, no randomness
//! of its own. Time and seeds are arguments, so every hand replays exactly.
//!
//! - [`eval`]: seven-card hand strength by table lookup;
//! - [`card`]: the selfpoker card layout (`rank × 4 + suit`);
//! - [`rules`]: no-limit hold'em for 2 to 6 seats, `apply(table, command, now)`;
//! - [`ai`]: three AI levels deciding from a seat's view only;
//! - [`coach`]: equity, pot odds and a suggested action from a seat's view only;
//! - [`record`]: hand records that replay and check every chip, and [`deal`]: their
//!   `selfpoker_v2` seed derivation; [`mod@simulate`]: AI-only tables;
//! - [`policy_check`]: a hand held to the policy its table committed to;
//! - `evidence` (feature `evidence`): what a live table signed for a seat, held to its hand record;
//! - [`verdict`]: `fairseed verify`'s verdicts on hand records;
//! - [`live`]: a table open to people and AIs, its views and what it does next;
//! - [`phh`]: hand records in the Poker Hand History format, for other tools.

#![forbid(unsafe_code)]

pub mod ai;
pub mod card;
pub mod coach;
pub mod deal;
pub mod eval;
#[cfg(feature = "evidence")]
pub mod evidence;
pub mod live;
pub mod phh;
pub mod policy_check;
pub mod record;
mod replay_error;
pub mod rules;
pub mod simulate;
pub mod verdict;

pub use card::{Card, CardSet};
pub use eval::{evaluator, Category, EvalError, Evaluator, Hand, HandRank};
pub use record::{replay, HandRecord, Outcome, ReplayError};
pub use rules::{apply, Action, Command, Event, HoldemError, Player, Street, Table, TableConfig};
pub use simulate::{simulate, simulate_session, SessionV2};

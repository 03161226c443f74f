//! No-limit Texas hold'em for fairseed, pure: no I/O, no clock, no randomness
//! of its own. Time and seeds are arguments, so every hand replays exactly.
//!
//! - [`eval`]: seven-card hand strength by table lookup;
//! - [`card`]: the selfpoker card layout (`rank × 4 + suit`);
//! - [`rules`]: no-limit hold'em for 2 to 6 seats, `apply(table, command, now)`.

#![forbid(unsafe_code)]

pub mod card;
pub mod eval;

pub use card::{Card, CardSet};
pub use eval::{evaluator, Category, EvalError, Evaluator, Hand, HandRank};
pub mod rules;

pub use rules::{apply, Action, Command, Event, HoldemError, Player, Street, Table, TableConfig};

//! AI opponents: three levels, three different ways of playing, each deciding
//! from a [`SeatView`] and a seed only.
//!
//! - **Level 1, the rock:** a tight-passive hand chart. Plays only good
//!   starting hands, rarely raises, continues after the flop with a pair or
//!   better and gives up otherwise.
//! - **Level 2, the calculator:** Monte Carlo equity against random hands,
//!   compared with the pot odds: calls when the price is right, bets two
//!   thirds of the pot when well ahead.
//! - **Level 3, the reader:** Monte Carlo equity against ranges narrowed by
//!   the opponents' actions (preflop raisers hold better starting hands,
//!   a bettor after the flop has paired the board), a calling margin out of
//!   position, and value bets sized by strength.

mod decide;
pub mod derive;
mod equity;
mod rng;
mod view;

pub use decide::{decide, Level};
pub use derive::{decision_seed, DecisionKey, Engine, ENGINE_V1};
pub use equity::{chen, equity, Range};
pub use rng::Rng;
pub use view::{PublicSeat, SeatView};

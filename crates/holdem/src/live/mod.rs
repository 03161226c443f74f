//! A live table as the service keeps it: the rules' [`Table`](crate::rules::Table) plus what a
//! table open to people needs around it — its id, its seed session, the
//! humans' client seeds, a counter of public messages, the events of the
//! hand being played (its record is built from them) and the last hand's
//! result while the next one is awaited.
//!
//! Pure like the rest of the crate: [`apply`] and [`request`] take the time
//! and every seed as arguments; [`view()`] cuts what one viewer may see;
//! [`driver::next`] says what the table does next by itself (an AI's turn,
//! the clock, the next deal). The service stores the state with
//! [`sealed::strip`] (no card and no seed in the stored text) and
//! supplies the time and the OS-random seeds.
//!
//! This module only declares the live table's modules and re-exports what
//! they define, for the crate's users: inside the crate a module takes an
//! item from the module that defines it, so no module depends on these
//! re-exports (and through them on every module re-exported).

pub(crate) mod arrival;
mod command;
pub mod driver;
#[cfg(feature = "log")]
pub mod entries;
mod error;
#[cfg(test)]
mod fixtures;
mod hand_round;
mod last_hand;
#[cfg(feature = "log")]
pub mod machine;
mod message;
pub mod policy;
mod requests;
pub mod round;
pub mod sealed;
mod seed;
pub mod service_log;
pub(crate) mod session;
mod table;
mod view;
#[cfg(feature = "wire")]
pub mod wire;

pub use arrival::{Arrival, MAX_INVITATION};
pub use command::apply;
pub use error::{DerivationError, HandValueError, LiveError, RoundRefusal};
pub use hand_round::{HandRound, NoHandWhy, RoundNotice};
pub use last_hand::{LastHand, LastHole, LastResult};
pub use message::{deal, logged_record, Fairplay, Message};
pub use policy::Policy;
pub use requests::{close, request, resume, Request};
pub use seed::{derived_seed, running_seed};
pub use session::{ClientSeed, Scheme, Session, SessionEnd};
pub use table::{ends_session, LiveTable, SinceLastHand};
pub use view::{
    view, HandView, LegalView, RoundView, SeatPlayer, SeatView, SessionView, TableView,
};

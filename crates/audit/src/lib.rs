//! fairseed-audit: the monitor of fairseed's transparency log (docs/spec.md §16).
//!
//! Given the log's signed checkpoint, its verifier key, the checkpoints seen
//! on earlier runs and a way to fetch tiles, [`audit`] checks that the log is
//! what it claims and that the service kept its word:
//!
//! - the checkpoint's Ed25519 signature; every hash tile against the root;
//!   consistency with every checkpoint seen before (a fork or a rollback is
//!   named with both sizes);
//! - every entry bundle against its hash tile, every entry decoded;
//! - every reveal against its commitment by the scheme's own rule
//!   (`fairseed-core`), every commitment revealed within its policy,
//!   duplicate commitments, reused or skipped dice nonces, recorded payouts;
//! - every timed-out action and `table_idle` end of a live hold'em table
//!   against the policy it logged and the time it was logged as served;
//! - the statistics an auditor asks for, right at any number of rolls or
//!   deals (docs/decisions/0021-exact-cell-tests.md): exact binomial tests of
//!   the dice rolls in 1 % ranges and of card position × card over revealed
//!   deals, the return to player with its 99 % interval against the rules'
//!   99 %, each with the smallest bias it would catch, in words in English,
//!   Portuguese and Spanish ([`words`]).
//!
//! Pure: no I/O, clock or global state. Entries are streamed tile by tile;
//! what is held is what is still open (unrevealed commitments and their bets)
//! and one fingerprint per commitment.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod binomial;
mod cells;
pub mod checker;
pub mod context;
mod entry;
mod finding;
mod log;
mod rtp;
pub mod sample;
pub mod schemes;
pub mod stats;
mod summary;
pub mod time;
pub mod witness;
pub mod words;
pub mod writer;

pub use checker::Checker;
pub use context::GRACE_MS;
pub use entry::{Entry, Kind};
pub use finding::{Finding, FindingKind, Findings};
pub use log::{audit, audit_following, carried, Report, Seen, State};
pub use stats::{CellTest, RtpSummary, Uniformity, ALARM_P};
pub use summary::{EntryCounts, Summary};

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
//! - the statistics an auditor asks for: chi-square of the dice rolls,
//!   card position × card over revealed deals, return to player with its
//!   99 % confidence interval against the rules' 99 %.
//!
//! Pure: no I/O, clock or global state. Entries are streamed tile by tile;
//! what is held is what is still open (unrevealed commitments and their bets)
//! and one fingerprint per commitment.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod checker;
mod entry;
mod finding;
mod log;
pub mod sample;
pub mod schemes;
pub mod stats;
mod summary;
pub mod time;
pub mod witness;
pub mod writer;

pub use checker::{Checker, GRACE_MS};
pub use entry::{Entry, Kind};
pub use finding::{Finding, FindingKind, Findings};
pub use log::{audit, Report, Seen, State};
pub use stats::{ChiSquare, RtpSummary, ALARM_P};
pub use summary::{EntryCounts, Summary};

//! Live hold'em tables (`fairseed_holdem::live`): one versioned round per
//! table ([`rows`]), a task per table driving its AIs, its clock and its
//! deals ([`drive`]), and a WebSocket per viewer ([`ws`]).
//!
//! Every change is a step on the table's round (compare-and-swap, retried
//! on a lost race) whose public messages are appended to the round's log,
//! so a message's `seq` is its place in the log and a viewer resumes from
//! any `seq`. After each commit a `{"seq": N}` notice goes out on the
//! table's topic (`holdem:<T>`, across processes on PostgreSQL), and
//! `{"seq": N, "served": true}` when a process starts serving the table;
//! each viewer then reads the log and the table and sends its own view. No card
//! and no seed ever travels in a notice.
//!
//! The process that opened a table, or took it over through its lease
//! (`holdem_table:<T>`), drives it; any process serves its viewers.

pub mod caps;
mod drive;
pub mod hands;
pub mod rows;
pub(crate) mod tables;
pub mod viewers;
pub mod ws;

#[cfg(test)]
mod archive_tests;

pub(crate) use drive::{archive, close_restored};
pub use drive::{hand_records, load, record_json, row};

use std::time::Duration;

use fairseed_store::LeaseGrant;

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::state::AppState;

/// Takes `table`'s lease and drives it from this process, unless another
/// live process holds the lease or this one drives it already.
///
/// # Errors
/// The store failed.
pub async fn claim_and_drive(state: &AppState, table: &str) -> Result<(), ApiError> {
    let fleet = state.fleet();
    let grant = state
        .store()
        .acquire_lease(
            &rows::round_id(table),
            fleet.owner(),
            now_ms(),
            fleet.ttl_ms(),
        )
        .await?;
    match grant {
        LeaseGrant::HeldBy(owner) => {
            tracing::debug!(table, owner, "a hold'em table driven by another process");
        }
        LeaseGrant::Granted { took_over_from } => {
            if let Some(gone) = &took_over_from {
                tracing::info!(
                    table,
                    gone,
                    "took over a hold'em table whose process is gone"
                );
            }
            if state.holdem().start(table) {
                drive::spawn(state.clone(), table.to_owned(), took_over_from);
            }
        }
    }
    Ok(())
}

/// Drives every table still open (or closed but not yet archived) whose
/// lease is free, expired or this process's own: at start, then three
/// times per lease lifetime (the fleet heartbeat renews the leases).
pub fn spawn_sweep(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let third = u64::try_from(state.fleet().ttl_ms() / 3).unwrap_or(1);
        loop {
            if let Err(e) = sweep(&state).await {
                tracing::warn!(code = e.code(), error = %e.chain(), "looking for hold'em tables to drive");
            }
            tokio::time::sleep(Duration::from_millis(third.max(1))).await;
        }
    })
}

async fn sweep(state: &AppState) -> Result<(), ApiError> {
    for status in [rows::OPEN, rows::CLOSED] {
        for id in state.store().rounds_with_status(rows::KIND, status).await? {
            if let Some(table) = id.strip_prefix(rows::PREFIX) {
                claim_and_drive(state, table).await?;
            }
        }
    }
    Ok(())
}

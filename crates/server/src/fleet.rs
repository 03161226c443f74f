//! Which process serves each poker table: a lease in the database.
//!
//! A table's seed sessions rotate "when the server restarts" (docs/spec.md §7.8); in a
//! fleet that means when the process serving the table is gone. Each
//! process has an owner id and holds a lease on every table it opened or
//! took over (`poker_table:<T>`), renewed on a heartbeat. A process never
//! rotates a session whose lease another live process holds:
//!
//! - at start it rotates the open sessions whose lease is free, expired,
//!   or its own (the same owner id at every start: a process alone on its
//!   database, see [`crate::Fleet::alone`]);
//! - on every heartbeat it takes over the tables whose lease expired (their
//!   owner stopped renewing) and rotates their session.
//!
//! Any process answers calls on any table (each step is a compare-and-swap
//! on the rows); the lease only decides who rotates a session at restart.
//! This process's owner id and lease lifetime are [`crate::Fleet`].

use std::time::Duration;

use fairseed_play::poker::{RotateWhy, Session};
use fairseed_store::LeaseGrant;

use crate::clock::now_ms;
use crate::error::{ApiError, ErrorCode};
use crate::rounds::poker::{OPEN, SESSION_KIND, TABLE_KIND};
use crate::service::poker as tables;
use crate::state::AppState;

/// Rotates `table`'s session at a restart; a session rotated meanwhile by
/// another step is left as it is.
async fn rotate(state: &AppState, table: &str) -> Result<bool, ApiError> {
    match tables::rotate(state, table, RotateWhy::Restart).await {
        Ok(()) => Ok(true),
        Err(e) if e.is(ErrorCode::SESSION_ROTATED) || e.is(ErrorCode::NOT_FOUND) => Ok(false),
        Err(e) => Err(e),
    }
}

/// At start: rotates every open session whose table's lease is free,
/// expired or this process's own; leaves those a live process holds,
/// unless the database was `restored` from a backup (then every lease in it
/// was copied from the backup, and every session rotates).
/// Returns how many rotated.
///
/// # Errors
/// The store failed.
pub async fn rotate_open_sessions(state: &AppState, restored: bool) -> Result<usize, ApiError> {
    let ids = state.store().rounds_with_status(SESSION_KIND, OPEN).await?;
    let mut rotated = 0;
    for id in ids {
        let row = state.store().round(&id).await?;
        let session: Session = serde_json::from_str(&row.state).map_err(ApiError::internal)?;
        let table = session.table.as_str();
        let [current, _] = tables::current_ids(state, table).await?;
        if current != id {
            continue;
        }
        match tables::acquire(state, table).await? {
            LeaseGrant::HeldBy(owner) if !restored => {
                tracing::info!(table, owner, "poker session served by a live process: kept");
                continue;
            }
            LeaseGrant::HeldBy(owner) => take_restored(state, table, &owner).await?,
            LeaseGrant::Granted { .. } => {}
        }
        if rotate(state, table).await? {
            rotated += 1;
        }
    }
    Ok(rotated)
}

/// Takes `table`'s lease from `owner` in a restored database. The lease was
/// copied from the backup, so no live process holds it; left in place, it
/// would expire later and the heartbeat would take the table over and
/// rotate the session a second time, under a deal running on the new
/// session (which then failed with `409 session_rotated`).
async fn take_restored(state: &AppState, table: &str, owner: &str) -> Result<(), ApiError> {
    state.store().release_leases(owner, now_ms()).await?;
    match tables::acquire(state, table).await? {
        LeaseGrant::Granted { .. } => {
            tracing::info!(
                table,
                owner,
                "restored poker table's lease taken from the backup's process"
            );
            Ok(())
        }
        LeaseGrant::HeldBy(other) => Err(ApiError::internal(format!(
            "the restored poker table {table}'s lease is held by {other} after it was ended"
        ))),
    }
}

/// Takes over the tables whose lease expired (their process is gone) and
/// rotates their session. Returns how many rotated.
///
/// # Errors
/// The store failed.
pub async fn take_over_expired(state: &AppState) -> Result<usize, ApiError> {
    let mut unrotated = Vec::new();
    let rotated = sweep(state, &mut unrotated).await?;
    match unrotated.first() {
        None => Ok(rotated),
        Some(table) => Err(ApiError::internal(format!(
            "table {table} was taken over but did not rotate"
        ))),
    }
}

/// One sweep: first the tables taken over earlier whose rotation failed
/// (held by us now, so no later sweep would list them), then the expired
/// leases. Tables whose rotation fails again stay in `unrotated`.
async fn sweep(state: &AppState, unrotated: &mut Vec<String>) -> Result<usize, ApiError> {
    let prefix = format!("{TABLE_KIND}:");
    let expired = state.store().expired_leases(&prefix, now_ms()).await?;
    let mut todo = std::mem::take(unrotated);
    for resource in expired {
        let Some(table) = resource.strip_prefix(&prefix) else {
            continue;
        };
        // Our own lease expired only if our heartbeat ran late: we are alive.
        if let LeaseGrant::Granted {
            took_over_from: Some(gone),
        } = tables::acquire(state, table).await?
        {
            tracing::info!(table, gone, "took over a poker table whose process is gone");
            todo.push(table.to_owned());
        }
    }
    let mut rotated = 0;
    for table in todo {
        match rotate(state, &table).await {
            Ok(true) => rotated += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(
                    table,
                    code = e.code(),
                    error = %e.chain(),
                    "rotating a taken-over poker session; retried next beat"
                );
                unrotated.push(table);
            }
        }
    }
    Ok(rotated)
}

/// The heartbeat: renews this process's leases and takes over expired
/// ones, three times per lease lifetime, until the process ends.
pub fn spawn_heartbeat(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let third = u64::try_from(state.fleet().ttl_ms() / 3).unwrap_or(1);
        let beat = Duration::from_millis(third.max(1));
        let mut unrotated = Vec::new();
        loop {
            tokio::time::sleep(beat).await;
            let fleet = state.fleet();
            let renewed = state
                .store()
                .renew_leases(fleet.owner(), now_ms(), fleet.ttl_ms())
                .await
                .unwrap_or_else(|e| {
                    tracing::warn!(error = %crate::error::Chain(&e), "renewing poker table leases");
                    0
                });
            let rotated = sweep(&state, &mut unrotated).await.unwrap_or_else(|e| {
                tracing::warn!(code = e.code(), error = %e.chain(), "taking over expired poker leases");
                0
            });
            if rotated > 0 {
                tracing::info!(
                    sessions = rotated,
                    "rotated poker sessions of a process that is gone"
                );
            }
            tracing::debug!(renewed, rotated, "fleet heartbeat");
        }
    })
}

//! Whether the database commits, watched: one probe at a time (a
//! transaction durable like a change's, through the store's own writer or
//! pool), so `/healthz` answers from memory at once and tells "serving"
//! from "cannot commit" within [`STALLED_AFTER`] plus a probe's pause, and
//! a stalled or failing database is said in the log and in `/metrics`.
//!
//! One probe in flight at most: a commit stuck behind a missing
//! synchronous standby holds one connection, not one per second.

use std::time::Duration;

use crate::db_health::{REMIND_EVERY, STALLED_AFTER};
use crate::error::Chain;
use crate::state::AppState;

/// The pause between two probes.
const EVERY: Duration = Duration::from_millis(500);

/// Says when every connection of the pool is in use (again every
/// [`REMIND_EVERY`] while it lasts): requests then wait up to 2 s for one.
fn note_pool(state: &AppState, said: &mut Option<std::time::Instant>) {
    let Some((in_use, max)) = state.store().pool_use() else {
        return;
    };
    if in_use < max {
        *said = None;
        return;
    }
    if said.is_none_or(|at| at.elapsed() >= REMIND_EVERY) {
        tracing::warn!(
            in_use,
            max,
            "every connection of the database pool is in use: requests wait for one"
        );
        *said = Some(std::time::Instant::now());
    }
}

/// Probes until the process ends.
pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let health = state.metrics().db();
        let mut down_since = None;
        let mut pool_full_said = None;
        loop {
            health.probe_started();
            let probe = state.store().can_commit();
            tokio::pin!(probe);
            let result = loop {
                match tokio::time::timeout(STALLED_AFTER, &mut probe).await {
                    Ok(result) => break result,
                    Err(_) => health.note(&mut down_since),
                }
            };
            health.probe_ended(result.map_err(|e| Chain(&e).to_string()));
            health.note(&mut down_since);
            note_pool(&state, &mut pool_full_said);
            tokio::time::sleep(EVERY).await;
        }
    })
}

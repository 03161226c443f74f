//! WAL checkpoints off the bet path.
//!
//! SQLite's automatic checkpoint runs inside the committing writer, so every
//! thousand pages one bet batch would also copy the WAL into the database
//! and sync it — a latency spike for every bet in that batch. The writer's
//! auto-checkpoint is off; this thread runs a `PASSIVE` checkpoint (which
//! never blocks the writer) from its own connection twice a second.

use std::path::Path;
use std::sync::Weak;
use std::time::Duration;

use rusqlite::Connection;

use crate::error::{StoreError, StoreResult};

const EVERY: Duration = Duration::from_millis(500);

/// Starts the checkpoint thread; it stops once `alive` can no longer be upgraded.
pub(crate) fn spawn(path: &Path, alive: Weak<()>) -> StoreResult<()> {
    let conn = Connection::open(path)?;
    conn.execute_batch("PRAGMA busy_timeout = 5000;")?;
    std::thread::Builder::new()
        .name("fairseed-sqlite-checkpoint".into())
        .spawn(move || {
            while alive.upgrade().is_some() {
                std::thread::sleep(EVERY);
                if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                    tracing::warn!(error = %e, "sqlite checkpoint failed");
                }
            }
        })
        .map(drop)
        .map_err(StoreError::other)
}

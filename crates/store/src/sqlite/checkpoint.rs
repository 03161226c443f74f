//! WAL checkpoints: most of the copying off the bet path, and a hard bound
//! on the WAL's size.
//!
//! SQLite's automatic checkpoint runs inside the committing writer, so every
//! thousand pages one bet batch would also copy the WAL into the database
//! and sync it — a latency spike for every bet in that batch. The writer's
//! auto-checkpoint is off; a thread runs a `PASSIVE` checkpoint (which never
//! blocks the writer) from its own connection twice a second.
//!
//! A `PASSIVE` checkpoint alone never lets the WAL shrink under steady
//! traffic: the log restarts from its beginning only when a checkpoint has
//! caught up with the last commit, and new commits keep arriving while it
//! copies. So the writer itself, between two group commits (when no commit
//! can arrive), runs a `RESTART` checkpoint once the log passes
//! [`SqliteTuning::wal_checkpoint_bytes`]: the background thread has already
//! copied most pages, so it copies only the tail, and the next commit writes
//! from the start of the file again. `journal_size_limit` then keeps the file
//! itself at about that size.

use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::error::{StoreError, StoreResult};
use crate::settings::SqliteTuning;

const EVERY: Duration = Duration::from_millis(500);

/// How long the writer's checkpoint waits for a reader still on old WAL
/// frames before giving up until the next batch (bets wait meanwhile).
const RESTART_WAIT: Duration = Duration::from_millis(20);

/// The writer connection's ordinary busy timeout.
pub(crate) const BUSY_WAIT: Duration = Duration::from_secs(5);

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

/// What the WAL bound did, for metrics. Shared by the writer and readers.
#[derive(Debug, Default)]
pub struct WalStats {
    checkpoints: AtomicU64,
    checkpoint_micros: AtomicU64,
    deferred: AtomicU64,
    wal_bytes: AtomicU64,
}

impl WalStats {
    /// `RESTART` checkpoints the writer completed.
    pub fn checkpoints(&self) -> u64 {
        self.checkpoints.load(Ordering::Relaxed)
    }

    /// Their total duration, in seconds.
    pub fn checkpoint_seconds(&self) -> f64 {
        self.checkpoint_micros.load(Ordering::Relaxed) as f64 / 1e6
    }

    /// Checkpoints that a reader kept from completing (retried at the next batch).
    pub fn deferred(&self) -> u64 {
        self.deferred.load(Ordering::Relaxed)
    }

    /// Bytes of log written since the WAL last restarted.
    pub fn wal_bytes(&self) -> u64 {
        self.wal_bytes.load(Ordering::Relaxed)
    }
}

thread_local! {
    /// Pages in the WAL after the last commit on this thread's connection
    /// (only the writer thread commits, so this is the writer's).
    static WAL_PAGES: Cell<i32> = const { Cell::new(0) };
}

fn record_wal_pages(_: &rusqlite::hooks::Wal, pages: std::ffi::c_int) -> rusqlite::Result<()> {
    WAL_PAGES.with(|p| p.set(pages));
    Ok(())
}

/// The writer's side of the bound: watches the log's length after each
/// commit and restarts it past the threshold.
pub(crate) struct WalBound {
    threshold_pages: i64,
    page_size: i64,
    stats: Arc<WalStats>,
}

impl WalBound {
    /// Installs the commit hook on the writer's connection.
    pub(crate) fn install(
        conn: &Connection,
        tuning: SqliteTuning,
        stats: Arc<WalStats>,
    ) -> StoreResult<Self> {
        let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        let threshold = i64::try_from(tuning.wal_checkpoint_bytes).unwrap_or(i64::MAX);
        conn.wal_hook(Some(record_wal_pages));
        Ok(Self {
            threshold_pages: (threshold / page_size.max(1)).max(1),
            page_size,
            stats,
        })
    }

    /// Called by the writer between batches (no transaction open).
    pub(crate) fn after_batch(&self, conn: &Connection) {
        let pages = i64::from(WAL_PAGES.with(Cell::get));
        self.stats
            .wal_bytes
            .store((pages * self.page_size).unsigned_abs(), Ordering::Relaxed);
        if pages < self.threshold_pages {
            return;
        }
        let started = Instant::now();
        match self.restart(conn) {
            Ok(true) => {
                WAL_PAGES.with(|p| p.set(0));
                self.stats.wal_bytes.store(0, Ordering::Relaxed);
                self.stats.checkpoints.fetch_add(1, Ordering::Relaxed);
                let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
                self.stats
                    .checkpoint_micros
                    .fetch_add(micros, Ordering::Relaxed);
                tracing::debug!(pages, micros, "wal restarted");
            }
            Ok(false) => {
                self.stats.deferred.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => tracing::warn!(error = %e, "sqlite restart checkpoint failed"),
        }
    }

    /// `RESTART` with a short wait for readers; whether it completed.
    fn restart(&self, conn: &Connection) -> rusqlite::Result<bool> {
        conn.busy_timeout(RESTART_WAIT)?;
        let busy = conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |r| r.get::<_, i64>(0));
        conn.busy_timeout(BUSY_WAIT)?;
        Ok(busy? == 0)
    }
}

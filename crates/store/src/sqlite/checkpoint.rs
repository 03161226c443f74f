//! WAL checkpoints: the copying off the bet path, and a hard bound on the
//! WAL's size.
//!
//! SQLite's automatic checkpoint runs inside the committing writer, so every
//! thousand pages one bet batch would also copy the WAL into the database
//! and sync it — a latency spike for every bet in that batch. The writer's
//! auto-checkpoint is off; a thread copies the log into the database with
//! `PASSIVE` checkpoints from its own connection, which never block the
//! writer.
//!
//! A `PASSIVE` checkpoint alone never lets the WAL shrink under steady
//! traffic: the log restarts from its beginning only when a checkpoint has
//! caught up with the last commit, and new commits keep arriving while it
//! copies. So the writer itself, between two group commits (when no commit
//! can arrive), runs a `RESTART` checkpoint once the log passes
//! [`SqliteTuning::wal_checkpoint_bytes`], and the next commit writes from
//! the start of the file again. `journal_size_limit` then keeps the file
//! itself at about that size.
//!
//! What that restart costs the bets queued behind it is the database sync
//! of the pages it still has to copy: a sync of a thousand scattered pages
//! takes tens of milliseconds, of a few dozen, one or two. So the two
//! threads hand over ([`Handoff`]): past the threshold the writer asks, the
//! checkpoint thread runs passes back to back until one finds almost nothing
//! left to copy, then pauses, and only then does the writer restart — over a
//! tail of a few commits.

use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::error::{StoreError, StoreResult};
use crate::settings::SqliteTuning;

/// The checkpoint thread's pace when the writer has not asked: the WAL is
/// then below the threshold and copying it early only syncs pages twice.
const EVERY: Duration = Duration::from_millis(500);

/// A pass that copied at most this many frames leaves the writer a tail
/// short enough to restart over.
const SHORT_PASS_FRAMES: i64 = 64;

/// Passes run back to back before the thread pauses for the writer anyway
/// (a commit rate faster than the copy would otherwise never let it).
const MAX_PASSES: u32 = 8;

/// How long the writer's checkpoint waits for a reader still on old WAL
/// frames before giving up until the next batch (bets wait meanwhile).
const RESTART_WAIT: Duration = Duration::from_millis(20);

/// The writer connection's ordinary busy timeout.
pub(crate) const BUSY_WAIT: Duration = Duration::from_secs(5);

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

/// The writer's request for a restart and the checkpoint thread's answer.
#[derive(Debug, Default)]
pub(crate) struct Handoff {
    /// The writer wants to restart: the thread should catch up and pause.
    wanted: Mutex<bool>,
    changed: Condvar,
    /// The thread is paused for the writer: no checkpoint of its own runs.
    paused: AtomicBool,
}

impl Handoff {
    fn ask(&self) {
        if let Ok(mut wanted) = self.wanted.lock() {
            if !*wanted {
                *wanted = true;
                self.changed.notify_all();
            }
        }
    }

    fn release(&self) {
        if let Ok(mut wanted) = self.wanted.lock() {
            *wanted = false;
            self.changed.notify_all();
        }
    }

    fn is_wanted(&self) -> bool {
        self.wanted.lock().map(|w| *w).unwrap_or(false)
    }

    /// Waits up to `pace`, or less once the writer asks; whether it asked.
    fn wait_for_ask(&self, pace: Duration) -> bool {
        let Ok(wanted) = self.wanted.lock() else {
            return false;
        };
        self.changed
            .wait_timeout_while(wanted, pace, |w| !*w)
            .map(|(w, _)| *w)
            .unwrap_or(false)
    }

    /// Pauses while the writer wants the log (checking `alive` now and then).
    fn pause(&self, alive: &Weak<()>) {
        self.paused.store(true, Ordering::Release);
        if let Ok(mut wanted) = self.wanted.lock() {
            while *wanted && alive.strong_count() > 0 {
                wanted = match self.changed.wait_timeout(wanted, EVERY) {
                    Ok((w, _)) => w,
                    Err(_) => break,
                };
            }
        }
        self.paused.store(false, Ordering::Release);
    }
}

/// Starts the checkpoint thread; it stops once `alive` can no longer be upgraded.
pub(crate) fn spawn(path: &Path, alive: Weak<()>, handoff: Arc<Handoff>) -> StoreResult<()> {
    let conn = Connection::open(path)?;
    conn.execute_batch("PRAGMA busy_timeout = 5000;")?;
    std::thread::Builder::new()
        .name("fairseed-sqlite-checkpoint".into())
        .spawn(move || {
            while alive.strong_count() > 0 {
                if handoff.wait_for_ask(EVERY) {
                    catch_up(&conn, &handoff);
                    handoff.pause(&alive);
                } else {
                    passive(&conn);
                }
            }
        })
        .map(drop)
        .map_err(StoreError::other)
}

/// Passes back to back until one copies a short tail (or [`MAX_PASSES`]).
fn catch_up(conn: &Connection, handoff: &Handoff) {
    let mut done = -1;
    for _ in 0..MAX_PASSES {
        let Some(copied) = passive(conn) else { return };
        let short = done >= 0 && copied.saturating_sub(done) <= SHORT_PASS_FRAMES;
        if short || !handoff.is_wanted() {
            return;
        }
        done = copied;
    }
}

/// One `PASSIVE` checkpoint; the frames copied so far in this log.
fn passive(conn: &Connection) -> Option<i64> {
    match conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(2)) {
        Ok(copied) => Some(copied),
        Err(e) => {
            tracing::warn!(error = %crate::error::Chain(&e), "sqlite checkpoint failed");
            None
        }
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
    handoff: Arc<Handoff>,
}

impl WalBound {
    /// Installs the commit hook on the writer's connection.
    pub(crate) fn install(
        conn: &Connection,
        tuning: SqliteTuning,
        stats: Arc<WalStats>,
        handoff: Arc<Handoff>,
    ) -> StoreResult<Self> {
        let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        let threshold = i64::try_from(tuning.wal_checkpoint_bytes).unwrap_or(i64::MAX);
        conn.wal_hook(Some(record_wal_pages));
        Ok(Self {
            threshold_pages: (threshold / page_size.max(1)).max(1),
            page_size,
            stats,
            handoff,
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
        // Until the checkpoint thread has caught up and paused, bets go on;
        // at twice the threshold the writer restarts regardless.
        if !self.handoff.paused.load(Ordering::Acquire) && pages < 2 * self.threshold_pages {
            self.handoff.ask();
            return;
        }
        let started = Instant::now();
        let restarted = self.restart(conn);
        match restarted {
            Ok(true) => {
                WAL_PAGES.with(|p| p.set(0));
                self.stats.wal_bytes.store(0, Ordering::Relaxed);
                self.stats.checkpoints.fetch_add(1, Ordering::Relaxed);
                let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
                self.stats
                    .checkpoint_micros
                    .fetch_add(micros, Ordering::Relaxed);
                tracing::debug!(pages, micros, "wal restarted");
                self.handoff.release();
            }
            Ok(false) => {
                self.stats.deferred.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                tracing::warn!(error = %crate::error::Chain(&e), "sqlite restart checkpoint failed")
            }
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

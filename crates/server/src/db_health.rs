//! What the database watch ([`crate::db_watch`]) saw last: whether the
//! database commits, read at once by `/healthz` and `/metrics`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::clock::now_ms;

/// A probe unanswered this long means the database cannot commit now.
pub const STALLED_AFTER: Duration = Duration::from_secs(1);
/// While it cannot commit, the log says so again this often.
pub const REMIND_EVERY: Duration = Duration::from_secs(10);

/// What the watch saw last.
#[derive(Debug, Default)]
pub struct DbHealth {
    /// Since when (ms) a probe is unanswered; 0: none is.
    waiting_since_ms: AtomicU64,
    /// The last probe's failure, if it failed.
    failed: Mutex<Option<String>>,
    /// When (ms) a probe last committed.
    committed_at_ms: AtomicU64,
    /// Times the database went from committing to not.
    stalls: AtomicU64,
}

impl DbHealth {
    /// `Ok` while the database commits, else why not (for `/healthz`).
    ///
    /// # Errors
    /// A probe failed, or has been waiting longer than [`STALLED_AFTER`].
    pub fn commits(&self) -> Result<(), String> {
        let since = self.waiting_since_ms.load(Ordering::Relaxed);
        let waited = u64::try_from(now_ms()).unwrap_or(0).saturating_sub(since);
        if since > 0 && u128::from(waited) > STALLED_AFTER.as_millis() {
            return Err(format!("a commit has waited {waited} ms"));
        }
        match self.failed.lock().ok().and_then(|f| f.clone()) {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    /// When a probe last committed (Unix seconds; 0: never).
    pub fn committed_at_secs(&self) -> u64 {
        self.committed_at_ms.load(Ordering::Relaxed) / 1000
    }

    /// Times the database stopped committing since the start.
    pub fn stalls(&self) -> u64 {
        self.stalls.load(Ordering::Relaxed)
    }

    /// A probe starts now.
    pub fn probe_started(&self) {
        let started = u64::try_from(now_ms()).unwrap_or(0).max(1);
        self.waiting_since_ms.store(started, Ordering::Relaxed);
    }

    /// The probe ended: committed, or failed with `why`.
    pub fn probe_ended(&self, result: Result<(), String>) {
        self.waiting_since_ms.store(0, Ordering::Relaxed);
        if result.is_ok() {
            let now = u64::try_from(now_ms()).unwrap_or(0);
            self.committed_at_ms.store(now, Ordering::Relaxed);
        }
        if let Ok(mut slot) = self.failed.lock() {
            *slot = result.err();
        }
    }

    /// Logs a change between committing and not (and reminds while not).
    pub fn note(&self, down_since: &mut Option<std::time::Instant>) {
        match (self.commits(), down_since.as_ref()) {
            (Err(why), None) => {
                self.stalls.fetch_add(1, Ordering::Relaxed);
                tracing::error!(reason = %why, "the database cannot commit: /healthz answers 503");
                *down_since = Some(std::time::Instant::now());
            }
            (Err(why), Some(at)) if at.elapsed() >= REMIND_EVERY => {
                tracing::error!(reason = %why, "the database still cannot commit");
                *down_since = Some(std::time::Instant::now());
            }
            (Ok(()), Some(_)) => {
                tracing::info!("the database commits again: /healthz answers 200");
                *down_since = None;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_or_long_probe_means_cannot_commit() {
        let health = DbHealth::default();
        assert!(health.commits().is_ok(), "before the first probe");
        let now = u64::try_from(now_ms()).expect("after 1970");
        health.waiting_since_ms.store(now, Ordering::Relaxed);
        assert!(health.commits().is_ok(), "a probe just started");
        health
            .waiting_since_ms
            .store(now - 5_000, Ordering::Relaxed);
        let why = health.commits().expect_err("waited 5 s");
        assert!(why.starts_with("a commit has waited"), "{why}");
        health.waiting_since_ms.store(0, Ordering::Relaxed);
        *health.failed.lock().expect("lock") = Some("connection refused".into());
        assert_eq!(health.commits(), Err("connection refused".into()));
        let mut down = None;
        health.note(&mut down);
        assert_eq!(health.stalls(), 1);
        health.note(&mut down);
        assert_eq!(health.stalls(), 1, "one stall, however long");
    }
}

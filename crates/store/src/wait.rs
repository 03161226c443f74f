//! Every wait on the database is bounded: a transaction that has not
//! answered within [`DB_WAIT`] (a killed server, a lost network, a commit
//! waiting for a synchronous standby that is gone) is given up with an
//! error instead of holding its caller, and counted, and said in the log.
//!
//! A transaction given up this way may still commit later: its caller's
//! answer is an error, and a retry under the same idempotency key returns
//! what was committed, if anything was.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::error::{StoreError, StoreResult};

/// Longest wait for one transaction, from asking for a connection to its
/// commit. Ordinary ones take milliseconds; the service's own stop (10 s
/// for requests in flight) must fit one whole wait.
pub const DB_WAIT: Duration = Duration::from_secs(5);

/// Longest wait for a connection from PostgreSQL's pool, which includes
/// opening one when none is idle.
pub const CONNECT_WAIT: Duration = Duration::from_secs(2);

/// Waits given up since the process started (all stores of the process).
static TIMED_OUT: AtomicU64 = AtomicU64::new(0);
/// When the last of them was logged (ms since the epoch), so an outage
/// writes a line a second, not one per request.
static LOGGED_AT_MS: AtomicU64 = AtomicU64::new(0);

/// Database waits given up since the process started.
pub fn timed_out() -> u64 {
    TIMED_OUT.load(Ordering::Relaxed)
}

/// `wait` (a transaction named `what`), given up after [`DB_WAIT`].
pub(crate) async fn bounded<R>(
    what: &'static str,
    wait: impl Future<Output = StoreResult<R>>,
) -> StoreResult<R> {
    match tokio::time::timeout(DB_WAIT, wait).await {
        Ok(done) => done,
        Err(_) => {
            let n = TIMED_OUT.fetch_add(1, Ordering::Relaxed) + 1;
            let now = u64::try_from(crate::time::now_ms()).unwrap_or(0);
            let last = LOGGED_AT_MS.load(Ordering::Relaxed);
            if now.saturating_sub(last) >= 1000
                && LOGGED_AT_MS
                    .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                tracing::error!(
                    wait = what,
                    seconds = DB_WAIT.as_secs(),
                    timed_out_total = n,
                    "the database did not answer in time; the request fails (it may still commit)"
                );
            }
            Err(StoreError::other(format!(
                "{what}: the database did not answer within {} s",
                DB_WAIT.as_secs()
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_wait_that_never_ends_is_given_up_and_counted() {
        let before = timed_out();
        let never = std::future::pending::<StoreResult<()>>();
        let err = bounded("test", never).await.expect_err("given up");
        assert!(
            err.to_string().contains("did not answer within 5 s"),
            "{err}"
        );
        assert!(timed_out() > before);
        assert_eq!(bounded("test", async { Ok(7) }).await.ok(), Some(7));
    }
}

//! The single SQLite writer: one thread, one connection, group commit.
//!
//! Every write is a job. The thread takes all jobs waiting (up to
//! [`MAX_BATCH`]), runs each inside its own savepoint of one `BEGIN
//! IMMEDIATE` transaction, commits once (one WAL fsync with
//! `synchronous=FULL`) and only then answers every job. A job that fails is
//! rolled back to its savepoint alone; a failed commit fails every job of the
//! batch. So each answer is given only after its write is on disk, and the
//! fsync cost is shared by every bet that arrived meanwhile. Between two
//! batches the writer may restart the WAL ([`WalBound`]), so the log stays
//! bounded however steady the traffic.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rusqlite::{Connection, DropBehavior, TransactionBehavior};
use tokio::sync::{mpsc, oneshot};

use super::checkpoint::WalBound;
use crate::error::{Chain, StoreError, StoreResult};

/// Most jobs committed together.
const MAX_BATCH: usize = 512;

/// How a batch ended, given to each of its jobs: the commit's own error
/// is shared, so every job's caller sees its whole chain.
type Commit = Result<(), Arc<rusqlite::Error>>;

type Deliver = Box<dyn FnOnce(Commit) + Send>;
type Job = Box<dyn FnOnce(&mut rusqlite::Transaction<'_>) -> Deliver + Send>;

/// A handle to the writer thread.
#[derive(Clone)]
pub(crate) struct Writer {
    jobs: mpsc::UnboundedSender<Job>,
}

impl Writer {
    /// Starts the writer thread over `conn`; it stops when every handle is
    /// dropped. `bound` (file databases) keeps the WAL short.
    pub(crate) fn spawn(conn: Connection, bound: Option<WalBound>) -> StoreResult<Self> {
        let (jobs, rx) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("fairseed-sqlite-writer".into())
            .spawn(move || run(conn, rx, bound))
            .map_err(StoreError::other)?;
        Ok(Self { jobs })
    }

    /// Runs `f` in the next batch; resolves after the batch committed.
    pub(crate) async fn submit<R, F>(&self, f: F) -> StoreResult<R>
    where
        R: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<R> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |tx| {
            let result = run_in_savepoint(tx, f);
            Box::new(move |commit: Commit| {
                let out = match (result, commit) {
                    (Ok(value), Ok(())) => Ok(value),
                    (Ok(_), Err(e)) => Err(StoreError::context("commit failed", e)),
                    (Err(e), _) => Err(e),
                };
                // The caller may have gone away (client disconnected); the
                // write stands either way.
                let _ = reply.send(out);
            })
        });
        self.jobs
            .send(job)
            .map_err(|_| StoreError::other("the sqlite writer has stopped"))?;
        answer
            .await
            .map_err(|_| StoreError::other("the sqlite writer dropped a job"))?
    }
}

fn run_in_savepoint<R, F>(tx: &mut rusqlite::Transaction<'_>, f: F) -> StoreResult<R>
where
    F: FnOnce(&Connection) -> StoreResult<R>,
{
    let mut sp = tx.savepoint()?;
    sp.set_drop_behavior(DropBehavior::Rollback);
    let result = catch_unwind(AssertUnwindSafe(|| f(&sp)))
        .unwrap_or_else(|_| Err(StoreError::other("a storage job panicked")));
    match result {
        Ok(value) => {
            sp.commit()?;
            Ok(value)
        }
        Err(e) => {
            sp.finish()?;
            Err(e)
        }
    }
}

fn run(mut conn: Connection, mut rx: mpsc::UnboundedReceiver<Job>, bound: Option<WalBound>) {
    while let Some(first) = rx.blocking_recv() {
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let mut delivers = Vec::with_capacity(jobs.len());
        let outcome = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
            Ok(mut tx) => {
                for job in jobs {
                    delivers.push(job(&mut tx));
                }
                tx.commit().map_err(Arc::new)
            }
            // Jobs never ran: dropping them tells each caller.
            Err(e) => {
                tracing::error!(error = %Chain(&e), "sqlite writer could not begin a transaction");
                Err(Arc::new(e))
            }
        };
        if let Err(e) = &outcome {
            tracing::error!(error = %Chain(&**e), jobs = delivers.len(), "sqlite batch failed");
        }
        for deliver in delivers {
            deliver(outcome.clone());
        }
        if let Some(bound) = &bound {
            bound.after_batch(&conn);
        }
    }
}

//! Signs receipts in batches, as the SQLite writer commits in groups: one
//! task takes every request waiting, signs one note over the batch's tree
//! (`fairseed_tlog::sign_receipts`) and answers each. Alone, a request is a
//! batch of one; under load one Ed25519 signature serves many bets.

use std::sync::Arc;

use fairseed_tlog::{sign_receipts, BatchReceipt, Hash};
use tokio::sync::{mpsc, oneshot};

use super::key::LogKey;
use crate::error::ApiError;

/// Requests one batch takes at most.
const MAX_BATCH: usize = 1024;

/// Yields to the runtime at most while gathering one batch.
const GATHER_YIELDS: usize = 4;

/// Requests waiting at most, beyond which callers wait to send.
const QUEUE: usize = 4096;

struct Job {
    leaves: Vec<Hash>,
    reply: oneshot::Sender<Result<Vec<BatchReceipt>, String>>,
}

/// The handle of the signing task. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Signer {
    jobs: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("leaves", &self.leaves.len())
            .finish()
    }
}

impl Signer {
    /// Starts the signing task with `key` (on the current Tokio runtime).
    pub fn spawn(key: Arc<LogKey>) -> Self {
        let (jobs, mut queue) = mpsc::channel::<Job>(QUEUE);
        tokio::spawn(async move {
            while let Some(first) = queue.recv().await {
                let mut batch = vec![first];
                gather(&mut queue, &mut batch).await;
                sign_batch(&key, batch);
            }
        });
        Self { jobs }
    }

    /// The receipts of the entries with these leaf hashes, in order.
    ///
    /// # Errors
    /// The signing task is gone, or could not sign.
    pub async fn sign(&self, leaves: Vec<Hash>) -> Result<Vec<BatchReceipt>, ApiError> {
        if leaves.is_empty() {
            return Ok(Vec::new());
        }
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job { leaves, reply })
            .await
            .map_err(|_| ApiError::internal("the receipt signer stopped"))?;
        answer
            .await
            .map_err(|_| ApiError::internal("the receipt signer stopped"))?
            .map_err(ApiError::internal)
    }
}

/// Adds the jobs waiting to `batch`, yielding to the runtime between takes:
/// the bets of one group commit wake together, and a yield lets the rest of
/// them reach the queue, so one signature serves the group instead of the
/// first bet alone.
async fn gather(queue: &mut mpsc::Receiver<Job>, batch: &mut Vec<Job>) {
    for _ in 0..GATHER_YIELDS {
        tokio::task::yield_now().await;
        let before = batch.len();
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if batch.len() == before {
            return;
        }
    }
}

/// Signs every job's leaves as one batch and hands each job its receipts.
fn sign_batch(key: &LogKey, batch: Vec<Job>) {
    let leaves: Vec<Hash> = batch
        .iter()
        .flat_map(|j| j.leaves.iter().copied())
        .collect();
    match sign_receipts(key.note_key(), &leaves) {
        Ok(receipts) => {
            let mut rest = receipts.into_iter();
            for job in batch {
                let mine: Vec<BatchReceipt> = rest.by_ref().take(job.leaves.len()).collect();
                let _ = job.reply.send(Ok(mine));
            }
        }
        Err(e) => {
            for job in batch {
                let _ = job.reply.send(Err(e.to_string()));
            }
        }
    }
}

//! The sequencer: one process of a fleet (the holder of the `log:sequencer`
//! lease) turns the queue into leaves and signs a checkpoint, at least every
//! [`INTERVAL`] while entries wait.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use fairseed_store::{LeaseGrant, SignFn, StoreError, MAX_LOG_BATCH};
use fairseed_tlog::{checkpoint, sign_checkpoint, Hash};

use super::LogKey;
use crate::fleet::now_ms;
use crate::state::AppState;

/// The lease only one process holds.
pub const LEASE: &str = "log:sequencer";

/// How often the queue is sequenced.
pub const INTERVAL: Duration = Duration::from_millis(500);

/// How often the holder of the lease wakes the witness task though nothing
/// new was signed, so a witness that was down, or one added at a restart of
/// an idle log, still gets the latest checkpoint. The task asks a witness
/// only for what it has not cosigned, so a wake-up with nothing to do costs
/// two reads.
pub const WITNESS_RETRY: Duration = Duration::from_secs(30);

/// What one [`step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stepped {
    /// Whether this process holds the sequencer's lease.
    pub holds: bool,
    /// How many checkpoints it signed.
    pub signed: u64,
}

fn signer(key: Arc<LogKey>) -> SignFn {
    Box::new(move |size, root| {
        let body = checkpoint(key.origin(), size, Hash(root), &[]).map_err(StoreError::other)?;
        sign_checkpoint(key.note_key(), &body).map_err(StoreError::other)
    })
}

/// One round: if this process holds (or takes) the lease, sequences until
/// the queue is empty.
///
/// # Errors
/// The store failed.
pub async fn step(state: &AppState, key: &Arc<LogKey>) -> Result<Stepped, StoreError> {
    let fleet = state.fleet();
    let grant = state
        .store()
        .acquire_lease(LEASE, fleet.owner(), now_ms(), fleet.ttl_ms())
        .await?;
    if let LeaseGrant::HeldBy(_) = grant {
        return Ok(Stepped {
            holds: false,
            signed: 0,
        });
    }
    let mut signed = 0;
    while state
        .store()
        .sequence_log(MAX_LOG_BATCH, signer(Arc::clone(key)))
        .await?
        .is_some()
    {
        signed += 1;
    }
    Ok(Stepped {
        holds: true,
        signed,
    })
}

/// Runs [`step`] every [`INTERVAL`] until the process ends. While this
/// process holds the lease it wakes `witnesses` (the witness task, if any)
/// after each step that signed, at its first step as the holder (a start or
/// a takeover) and at least every [`WITNESS_RETRY`].
pub fn spawn(
    state: AppState,
    key: Arc<LogKey>,
    witnesses: Option<Arc<Notify>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut woken: Option<Instant> = None;
        loop {
            match step(&state, &key).await {
                Ok(Stepped { holds: false, .. }) => woken = None,
                Ok(Stepped { signed, .. }) => {
                    let due = signed > 0 || woken.is_none_or(|at| at.elapsed() >= WITNESS_RETRY);
                    if due {
                        if let Some(witnesses) = &witnesses {
                            witnesses.notify_one();
                        }
                        woken = Some(Instant::now());
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "sequencing the transparency log; retried next tick");
                }
            }
            tokio::time::sleep(INTERVAL).await;
        }
    })
}

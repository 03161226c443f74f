//! The sequencer: one process of a fleet (the holder of the `log:sequencer`
//! lease) turns the queue into leaves and signs a checkpoint, at least every
//! [`INTERVAL`] while entries wait.

use std::sync::Arc;
use std::time::Duration;

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

fn signer(key: Arc<LogKey>) -> SignFn {
    Box::new(move |size, root| {
        let body = checkpoint(key.origin(), size, Hash(root), &[]).map_err(StoreError::other)?;
        sign_checkpoint(key.note_key(), &body).map_err(StoreError::other)
    })
}

/// One round: if this process holds (or takes) the lease, sequences until
/// the queue is empty; how many checkpoints it signed.
///
/// # Errors
/// The store failed.
pub async fn step(state: &AppState, key: &Arc<LogKey>) -> Result<u64, StoreError> {
    let fleet = state.fleet();
    let grant = state
        .store()
        .acquire_lease(LEASE, fleet.owner(), now_ms(), fleet.ttl_ms())
        .await?;
    if let LeaseGrant::HeldBy(_) = grant {
        return Ok(0);
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
    Ok(signed)
}

/// Runs [`step`] every [`INTERVAL`] until the process ends, waking
/// `signed` (the witness task, if any) after each step that signed.
pub fn spawn(
    state: AppState,
    key: Arc<LogKey>,
    signed: Option<Arc<Notify>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match step(&state, &key).await {
                Ok(0) => {}
                Ok(_) => {
                    if let Some(signed) = &signed {
                        signed.notify_one();
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

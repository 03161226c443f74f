//! The sequencer: one process of a fleet (the holder of the `log:sequencer`
//! lease) turns the queue into leaves and signs a checkpoint, at least every
//! [`INTERVAL`] while entries wait.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use fairseed_store::{LeaseGrant, LogStep, SignFn, StoreError, MAX_LOG_BATCH};
use fairseed_tlog::{checkpoint, sign_checkpoint, Hash};

use super::LogKey;
use crate::clock::now_ms;
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

/// One round: if this process holds (or takes) the lease, sequences what
/// was queued when it looked, in steps of [`MAX_LOG_BATCH`] entries.
///
/// Entries queued while a step runs wait for the next round, at most
/// [`INTERVAL`] later: under steady load, going on until the queue is empty
/// would never stop, and each step costs a signature, a read snapshot and
/// a write however few entries it takes.
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
    let signed = round(|| {
        state
            .store()
            .sequence_log(MAX_LOG_BATCH, signer(Arc::clone(key)))
    })
    .await?;
    Ok(Stepped {
        holds: true,
        signed,
    })
}

/// Runs `next` (one sequencing step) while each step takes a full batch;
/// returns how many checkpoints were signed.
async fn round<F, Step>(mut next: F) -> Result<u64, StoreError>
where
    F: FnMut() -> Step,
    Step: Future<Output = Result<Option<LogStep>, StoreError>>,
{
    let mut signed = 0;
    while let Some(taken) = next().await? {
        signed += 1;
        if taken.appended < MAX_LOG_BATCH {
            break;
        }
    }
    Ok(signed)
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
            let stepped = step(&state, &key).await;
            state.metrics().sequenced(stepped.is_ok());
            match stepped {
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
                    tracing::warn!(error = %crate::error::Chain(&e), "sequencing the transparency log; retried next tick");
                }
            }
            tokio::time::sleep(INTERVAL).await;
        }
    })
}

#[cfg(test)]
mod tests {
    use fairseed_store::{LogCheckpoint, SeedCipher, SqliteStore};

    use super::*;
    use crate::state::ServiceOptions;

    /// Creates players `from..to`, each queueing its pair's commitment.
    async fn queue_players(state: &AppState, from: usize, to: usize) {
        for i in from..to {
            let pair = crate::secrets::new_seed_pair().expect("pair");
            state
                .store()
                .create_player(&crate::secrets::token_hash(&format!("seq-{i}")), 1, pair)
                .await
                .unwrap_or_else(|e| panic!("player {i}: {e:?}"));
        }
    }

    async fn tree_size(state: &AppState) -> u64 {
        let latest = state.store().log_checkpoint().await.expect("read");
        latest.expect("signed").size
    }

    /// On a real store: a round sequences a backlog past one step in a full
    /// step and a short one, a small queue in one short step, and signs
    /// nothing when nothing waits. (That a round stops at its short step
    /// under steady load is the next test's.)
    #[tokio::test]
    async fn a_round_takes_full_steps_then_stops() {
        let store = SqliteStore::open_memory(SeedCipher::random().expect("cipher"))
            .expect("open")
            .with_log(true);
        let key = Arc::new(LogKey::new("seq.test/log", &[7; 32]).expect("key"));
        let options = ServiceOptions {
            log: Some(Arc::clone(&key)),
            ..ServiceOptions::default()
        };
        let state = AppState::with_options(Arc::new(store), "op", 1, 0, options);
        let first = step(&state, &key).await.expect("empty tree");
        assert_eq!(
            (first.holds, first.signed),
            (true, 1),
            "signs the empty tree"
        );
        let waiting = MAX_LOG_BATCH as usize + 3;
        queue_players(&state, 0, waiting).await;
        let full = step(&state, &key).await.expect("step");
        assert_eq!(full.signed, 2, "a full step, then the rest");
        assert_eq!(tree_size(&state).await, waiting as u64);
        queue_players(&state, waiting, waiting + 2).await;
        let short = step(&state, &key).await.expect("step");
        assert_eq!(short.signed, 1, "one short step");
        assert_eq!(tree_size(&state).await, waiting as u64 + 2);
        let idle = step(&state, &key).await.expect("step");
        assert_eq!(idle.signed, 0, "nothing waits");
    }

    /// Under steady load a step always finds new entries; a round still
    /// ends at the first step that was not full.
    #[tokio::test]
    async fn a_round_ends_at_its_first_short_step_however_steady_the_load() {
        let mut appended = vec![MAX_LOG_BATCH, MAX_LOG_BATCH, 7, 9, 11].into_iter();
        let mut size = 0;
        let signed = round(|| {
            let appended = appended.next().expect("a step past the first short one");
            size += u64::from(appended);
            std::future::ready(Ok(Some(LogStep {
                checkpoint: LogCheckpoint {
                    size,
                    note: String::new(),
                    cosignatures: Vec::new(),
                    signed_at_ms: 0,
                },
                appended,
            })))
        })
        .await
        .expect("round");
        assert_eq!((signed, size), (3, 2 * u64::from(MAX_LOG_BATCH) + 7));
        let idle = round(|| std::future::ready(Ok(None))).await;
        assert_eq!(idle.expect("idle"), 0);
    }
}

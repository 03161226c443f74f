//! Witness cosigning (docs/spec.md §16.9): after the sequencer signs a
//! checkpoint, the latest one goes to each `--witness` with C2SP
//! `add-checkpoint` (<https://c2sp.org/tlog-witness>): `old <size>` (the size
//! that witness last cosigned, from the store), the consistency proof from
//! that size read from the stored hashes, a blank line, the signed note.
//!
//! A witness answering 409 holds another size (it restarted on other state,
//! or the store lost a line): the request is made again once from the size
//! it names. The answer's cosignature line is verified against the witness's
//! configured key before it is stored; nothing unverified is published.
//! Failures are logged and retried with the next checkpoint: they never hold
//! up sequencing or a bet, which run apart from this task.

use std::sync::Arc;
use std::time::Duration;

use fairseed_store::{BoxError, LogCheckpoint};
use fairseed_tlog::{open_note, prove_consistency};
use tokio::sync::Notify;

use super::receipt::base64_hashes;
use super::{read, LogKey};
use crate::args::WitnessArg;
use crate::error::Chain;
use crate::state::AppState;

/// How long one request to a witness may take, connecting included.
const TIMEOUT: Duration = Duration::from_secs(10);

/// The largest answer read from a witness.
const MAX_ANSWER: u64 = 64 * 1024;

/// Starts the task that cosigns each checkpoint the sequencer signs; the
/// sequencer wakes it through the returned [`Notify`] (wake-ups while a
/// round runs fold into one more round).
pub fn spawn(
    state: AppState,
    key: Arc<LogKey>,
    witnesses: Vec<WitnessArg>,
) -> (Arc<Notify>, tokio::task::JoinHandle<()>) {
    let wake = Arc::new(Notify::new());
    let signal = Arc::clone(&wake);
    let task = tokio::spawn(async move {
        loop {
            signal.notified().await;
            for witness in &witnesses {
                let cosigned = cosign(&state, &key, witness).await;
                state.metrics().witnessed(cosigned.is_ok());
                if let Err(e) = cosigned {
                    tracing::warn!(witness = %witness.url, error = %Chain(&*e),
                        "witness cosigning failed; retried with the next checkpoint");
                }
            }
        }
    });
    (wake, task)
}

/// Sends the latest checkpoint to `witness` unless it already cosigned it,
/// and stores its verified cosignature.
async fn cosign(state: &AppState, key: &LogKey, witness: &WitnessArg) -> Result<(), BoxError> {
    let store = state.store();
    let head = read::latest(store).await?;
    let vkey = witness.key.vkey();
    let old = store.log_cosigned_size(vkey).await?.unwrap_or(0);
    if old >= head.size && store_has_line(&head, witness) {
        return Ok(());
    }
    let line = match add_checkpoint(state, witness, &head, old).await? {
        Answer::Cosigned(body) => body,
        Answer::Conflict(held) if held <= head.size => {
            tracing::info!(witness = %witness.url, held, "witness holds another size; asking again from it");
            match add_checkpoint(state, witness, &head, held).await? {
                Answer::Cosigned(body) => body,
                Answer::Conflict(again) => {
                    return Err(format!("409 again, holding size {again}").into())
                }
            }
        }
        Answer::Conflict(held) => {
            return Err(format!(
                "the witness holds size {held}, past this log's {}",
                head.size
            )
            .into())
        }
    };
    let text = open_note(head.note.as_bytes(), key.vkey())?;
    let verified = line
        .lines()
        .find(|l| witness.key.verify_line(&text, l).is_ok())
        .ok_or_else(|| {
            format!(
                "no valid cosignature by {} in the answer",
                witness.key.name()
            )
        })?;
    store
        .add_log_cosignature(head.size, vkey, &format!("{verified}\n"))
        .await?;
    tracing::debug!(witness = %witness.url, size = head.size, "checkpoint cosigned");
    Ok(())
}

/// The tree size `witness` holds for this log, asked with an
/// `add-checkpoint` of `head` from `head`'s own size: a witness holding it
/// cosigns again (200), one holding another size answers 409 with it. For
/// the check of a restored database before it signs (`fork_guard`).
pub(crate) async fn held_size(
    state: &AppState,
    witness: &WitnessArg,
    head: &LogCheckpoint,
) -> Result<u64, BoxError> {
    match add_checkpoint(state, witness, head, head.size).await? {
        Answer::Cosigned(_) => Ok(head.size),
        Answer::Conflict(held) => Ok(held),
    }
}

/// Whether the stored checkpoint already carries a line by this witness.
fn store_has_line(head: &LogCheckpoint, witness: &WitnessArg) -> bool {
    let prefix = format!("— {} ", witness.key.name());
    head.cosignatures.iter().any(|l| l.starts_with(&prefix))
}

/// What a witness answered that the protocol gives meaning to.
enum Answer {
    /// 200: the body (cosignature lines).
    Cosigned(String),
    /// 409: the size it last cosigned.
    Conflict(u64),
}

/// One `add-checkpoint` request from `old`; other statuses are errors.
async fn add_checkpoint(
    state: &AppState,
    witness: &WitnessArg,
    head: &LogCheckpoint,
    old: u64,
) -> Result<Answer, BoxError> {
    let proof = if old == 0 || old == head.size {
        Vec::new()
    } else {
        read::hashes(state.store(), |h| prove_consistency(h, old, head.size)).await?
    };
    let mut body = format!("old {old}\n");
    for hash in base64_hashes(&proof) {
        body.push_str(&hash);
        body.push('\n');
    }
    body.push('\n');
    body.push_str(&head.note);
    let url = format!("{}/add-checkpoint", witness.url);
    let (status, text) = tokio::task::spawn_blocking(move || post(&url, body))
        .await
        .map_err(|e| format!("the request task failed: {e}"))??;
    match status {
        200 => Ok(Answer::Cosigned(text)),
        409 => text
            .trim()
            .parse()
            .map(Answer::Conflict)
            .map_err(|_| format!("409 without a size: {:?}", first_line(&text)).into()),
        other => Err(format!("HTTP {other}: {}", first_line(&text)).into()),
    }
}

/// A short, printable piece of a witness's answer for the log line.
fn first_line(text: &str) -> String {
    text.lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(200)
        .collect()
}

/// POSTs `body`; the status and the body of the answer.
fn post(url: &str, body: String) -> Result<(u16, String), String> {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(TIMEOUT))
        .build()
        .new_agent();
    let mut answer = agent
        .post(url)
        .header("Content-Type", "text/plain; charset=utf-8")
        .send(body)
        .map_err(|e| format!("{url}: {e}"))?;
    let status = answer.status().as_u16();
    let text = answer
        .body_mut()
        .with_config()
        .limit(MAX_ANSWER)
        .read_to_string()
        .map_err(|e| format!("{url}: reading the answer: {e}"))?;
    Ok((status, text))
}

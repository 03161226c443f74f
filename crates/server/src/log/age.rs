//! How old the log's newest checkpoint is, and the newest one a witness
//! cosigned: gauges on `/metrics` (the alert rules compare them) and a
//! warning in the log once either falls behind.
//!
//! A checkpoint is signed only when entries wait, so an idle log's newest
//! checkpoint grows old and nothing is wrong. What is wrong is a checkpoint
//! older than what players were shown: a dice bet this process acknowledged
//! more than [`WARN_AFTER`] after the newest checkpoint was signed means
//! its entry has waited that long for one (the sequencer's holder is stuck,
//! or its signing fails). With witnesses, the newest cosigned checkpoint
//! more than [`WARN_AFTER`] older than the newest checkpoint means the
//! witnesses stopped following the log.

use std::time::Duration;

use crate::error::Chain;
use crate::state::AppState;

/// How far behind a checkpoint may fall before a warning (and the alert
/// rules' threshold, packaging/prometheus/fairseed-alerts.yml).
pub const WARN_AFTER: Duration = Duration::from_secs(300);

/// How often the checkpoints are read.
const EVERY: Duration = Duration::from_secs(1);

/// Which warnings were given and not yet cleared.
#[derive(Debug, Default)]
pub struct Warned {
    checkpoint: bool,
    cosigned: bool,
}

/// Reads the checkpoints every second until the process ends.
pub fn spawn(state: AppState, witnessed: bool) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut warned = Warned::default();
        loop {
            check(&state, witnessed, &mut warned).await;
            tokio::time::sleep(EVERY).await;
        }
    })
}

/// One look: the gauges set, a warning when a checkpoint fell behind (once
/// until it caught up again).
pub async fn check(state: &AppState, witnessed: bool, warned: &mut Warned) {
    let metrics = state.metrics();
    let signed = match state.store().log_checkpoint().await {
        Ok(Some(head)) => head.signed_at_ms,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %Chain(&e), "reading the newest checkpoint's age");
            return;
        }
    };
    let signed_s = u64::try_from(signed / 1000).unwrap_or(0);
    metrics.checkpoint_signed(signed_s);
    let behind = metrics.last_bet_secs().saturating_sub(signed_s);
    let late = behind > WARN_AFTER.as_secs();
    if late && !warned.checkpoint {
        tracing::warn!(
            seconds = behind,
            "the newest signed checkpoint is older than bets acknowledged since: the log's \
             sequencer has not signed what players were shown"
        );
    }
    warned.checkpoint = late;
    if !witnessed {
        return;
    }
    let cosigned = match state.store().log_cosigned_checkpoint(1).await {
        Ok(head) => head.map_or(0, |h| u64::try_from(h.signed_at_ms / 1000).unwrap_or(0)),
        Err(e) => {
            tracing::warn!(error = %Chain(&e), "reading the newest cosigned checkpoint");
            return;
        }
    };
    metrics.cosigned_signed(cosigned);
    let behind = signed_s.saturating_sub(cosigned);
    let late = behind > WARN_AFTER.as_secs();
    if late && !warned.cosigned {
        tracing::warn!(
            seconds = behind,
            "the newest checkpoint a witness cosigned is older than the newest checkpoint: \
             the witnesses do not follow the log"
        );
    }
    warned.cosigned = late;
}

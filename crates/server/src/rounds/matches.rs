//! Table-game matches between the store and the pure machine
//! ([`fairseed_play::matches`]): a round's row and unsealed secret become a
//! [`Match`] and its seed; the machine's new state and events become one
//! versioned write (state, status, log entries from the operator's view of
//! each event, the reveal, the record with its readers).

use fairseed_core::ServerSeed;
use fairseed_play::matches::{Event, Match, Phase};
use fairseed_play::Viewer;
use fairseed_store::{LoadedRound, NewRound, RoundChange, RoundWrite, SecretSeed};

use super::{record_out, unseal};
use crate::error::ApiError;

/// The round kind of a match.
pub const KIND: &str = "match";

/// The round id of match `match_id`.
pub fn round_id(match_id: &str) -> String {
    format!("match:{match_id}")
}

/// The new round of a match just opened with `seed`.
pub fn create(state: &Match, seed: &ServerSeed) -> Result<NewRound, ApiError> {
    Ok(NewRound {
        id: round_id(state.match_id.as_str()),
        kind: KIND.into(),
        commitment: state.commitment.to_hex(),
        secret: SecretSeed::new(seed.reveal().to_owned()),
        key: None,
        state: serde_json::to_string(state).map_err(ApiError::internal)?,
        status: state.status().into(),
    })
}

/// The match a round holds, and its seed: unsealed while unrevealed, the
/// revealed one after (so a late command meets the machine's own refusal).
pub fn load(round: &LoadedRound) -> Result<(Match, ServerSeed), ApiError> {
    let state: Match = serde_json::from_str(&round.row.state)
        .map_err(|e| ApiError::internal(format!("match round {}: {e}", round.row.id)))?;
    let seed = match (&round.secret, &state.phase) {
        (Some(secret), _) => unseal(secret)?,
        (None, Phase::Revealed { server_seed, .. } | Phase::Withdrawn { server_seed, .. }) => {
            server_seed.clone()
        }
        (None, _) => return Err(ApiError::internal("an unrevealed match without its secret")),
    };
    Ok((state, seed))
}

/// The write that takes `round` to `next` with `events`.
pub fn write(round: &LoadedRound, next: &Match, events: &[Event]) -> Result<RoundWrite, ApiError> {
    let log = events
        .iter()
        .filter_map(|e| e.view(Viewer::Operator))
        .map(|v| v.to_string())
        .collect();
    let records = events
        .iter()
        .filter_map(|e| match e {
            Event::Finished { record } => Some(record_out(record)),
            _ => None,
        })
        .collect();
    Ok(RoundWrite {
        id: round.row.id.clone(),
        expected_version: round.row.version,
        change: RoundChange {
            state: serde_json::to_string(next).map_err(ApiError::internal)?,
            status: next.status().into(),
            log,
            reveal: matches!(next.phase, Phase::Revealed { .. } | Phase::Withdrawn { .. }),
            records,
            fold: None,
        },
    })
}

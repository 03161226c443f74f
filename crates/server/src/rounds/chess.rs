//! Chess seeds between the store and the pure machine
//! ([`fairseed_play::chess`]): one round per committed seed, its state a
//! [`Seed`]; a step loads one or two rounds, applies the command and writes
//! each changed seed back at the version it was read.

use fairseed_core::ServerSeed;
use fairseed_play::chess::{Event, Seed, SeedPhase};
use fairseed_store::{LoadedRound, NewRound, RoundChange, RoundWrite, SecretSeed};
use serde_json::json;

use super::{record_out, unseal};
use crate::error::ApiError;

/// The round kind of a chess seed.
pub const KIND: &str = "chess";

/// The status of an open seek, as the store lists it.
pub const SEEKING: &str = "seeking";

/// The round id of seed `seed_id`, or `404` for an id no seed can have.
pub fn round_id(seed_id: &str) -> Result<String, ApiError> {
    let ok = !seed_id.is_empty()
        && seed_id.len() <= 64
        && seed_id.bytes().all(|b| b.is_ascii_alphanumeric());
    if !ok {
        return Err(ApiError::not_found("chess seed"));
    }
    Ok(format!("chess:{seed_id}"))
}

/// The new round of a seed just committed.
pub fn create(state: &Seed, seed: &ServerSeed) -> Result<NewRound, ApiError> {
    Ok(NewRound {
        id: round_id(&state.id)?,
        kind: KIND.into(),
        commitment: state.commitment.to_hex(),
        secret: SecretSeed::new(seed.reveal().to_owned()),
        key: None,
        state: serde_json::to_string(state).map_err(ApiError::internal)?,
        status: status(state).into(),
    })
}

/// The stored status word: the phase, time aside (an expired seek is
/// still `seeking` in the store; the machine refuses it by its time).
fn status(state: &Seed) -> &'static str {
    match state.phase {
        SeedPhase::Committed => "committed",
        SeedPhase::Seeking(_) => SEEKING,
        SeedPhase::Playing(_) => "playing",
        SeedPhase::Finished { .. } => "finished",
        SeedPhase::Withdrawn { .. } => "withdrawn",
    }
}

/// The seed a round holds.
pub fn load(round: &LoadedRound) -> Result<Seed, ApiError> {
    serde_json::from_str(&round.row.state)
        .map_err(|e| ApiError::internal(format!("chess round {}: {e}", round.row.id)))
}

/// The round's server seed: unsealed while unrevealed, the revealed one
/// after (so a late command meets the machine's own refusal).
pub fn secret(round: &LoadedRound) -> Result<ServerSeed, ApiError> {
    match (&round.secret, &round.row.revealed) {
        (Some(secret), _) => unseal(secret),
        (None, Some(revealed)) => ServerSeed::parse(revealed)
            .map_err(|_| ApiError::internal("a revealed chess seed does not parse")),
        (None, None) => Err(ApiError::internal("a chess round without its seed")),
    }
}

/// The write that takes `round` to `next`; the events go to the log of
/// the round they name (every changed round logs them).
pub fn write(
    round: &LoadedRound,
    next: &Seed,
    events: &[Event],
    records: bool,
) -> Result<RoundWrite, ApiError> {
    let log = events
        .iter()
        .map(|e| match e {
            Event::Sought { opponent } => json!({"event": "seek", "opponent": opponent}),
            Event::Paired { white, bot } => {
                json!({"event": "paired", "white": white.as_str(), "bot": bot})
            }
            Event::Withdrawn(why) => json!({"event": "withdrawn", "why": why}),
            Event::Finished { .. } => json!({"event": "finished"}),
        })
        .map(|v| v.to_string())
        .collect();
    let records = if records {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Finished { record } => Some(record_out(record)),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(RoundWrite {
        id: round.row.id.clone(),
        expected_version: round.row.version,
        change: RoundChange {
            state: serde_json::to_string(next).map_err(ApiError::internal)?,
            status: status(next).into(),
            log,
            reveal: matches!(
                next.phase,
                SeedPhase::Finished { .. } | SeedPhase::Withdrawn { .. }
            ),
            records,
            fold: None,
        },
    })
}

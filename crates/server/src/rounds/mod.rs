//! How each flow's rounds are stored. `poker` and `selfpoker` translate
//! between rows and the pure state machines of `fairseed_play` (the rules
//! and the views are there) and turn a step's result into one versioned
//! commit; `matches` and `chess` do the same for their flows.

pub mod chess;
pub mod matches;
pub mod poker;
pub mod selfpoker;

use fairseed_store::StoreError;
use serde::Serialize;

/// Writes a round's state or log entry.
pub(crate) fn save<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(StoreError::other)
}

pub(crate) use crate::clock::now;

/// A round's unsealed secret as the server seed it is.
pub(crate) fn unseal(
    secret: &fairseed_store::SecretSeed,
) -> Result<fairseed_core::ServerSeed, crate::error::ApiError> {
    fairseed_core::ServerSeed::parse(secret.expose())
        .map_err(|_| crate::error::ApiError::internal("a stored server seed does not parse"))
}

/// A flow's record as the store keeps it: once, with its readers.
pub(crate) fn record_out(record: &fairseed_play::Record) -> fairseed_store::RecordOut {
    fairseed_store::RecordOut {
        record: fairseed_store::NewRecord {
            scheme: record.scheme.to_owned(),
            body: record.body.to_string(),
        },
        readers: record.readers.clone(),
    }
}

/// Whether `id` is an existing player's account: a fact a pure step is
/// handed (a challenge's opponent, a match's linked players), looked up here.
pub(crate) async fn player_exists(
    state: &crate::state::AppState,
    id: i64,
) -> Result<bool, crate::error::ApiError> {
    if id <= 0 {
        return Ok(false);
    }
    match state.store().player(id).await {
        Ok(_) => Ok(true),
        Err(StoreError::NotFound(_)) => Ok(false),
        Err(other) => Err(other.into()),
    }
}

//! How each flow's rounds are stored. `poker` and `selfpoker` translate
//! between rows and the pure state machines of `fairseed_play` (the rules
//! and the views are there) and turn a step's result into one versioned
//! commit; `matches` and `chess` still hold their steps as closures the
//! store runs inside the round's transaction.

pub mod chess;
pub mod matches;
pub mod poker;
pub mod selfpoker;

use fairseed_store::StoreError;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Reads a round's state.
pub(crate) fn load<T: DeserializeOwned>(state: &str) -> Result<T, StoreError> {
    serde_json::from_str(state).map_err(|e| StoreError::other(format!("round state: {e}")))
}

/// Writes a round's state or log entry.
pub(crate) fn save<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(StoreError::other)
}

/// A core error inside a step: the input was checked before, so this is a bug.
pub(crate) fn core_bug(err: fairseed_core::Error) -> StoreError {
    StoreError::other(format!("core refused a checked input: {err}"))
}

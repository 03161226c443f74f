//! Conversions between SQL's integers and text and the store's types. A
//! stored value out of range is a corrupt database, never the caller's fault.

use fairseed_core::dice::Condition;

use crate::error::{StoreError, StoreResult};

/// A stored non-negative integer (nonce, amount, length, version).
pub(crate) fn to_u64(v: i64, what: &str) -> StoreResult<u64> {
    u64::try_from(v).map_err(|_| StoreError::other(format!("stored {what} {v} is negative")))
}

/// A `u64` the spec bounds to 2^53 − 1, as SQL's `i64`.
pub(crate) fn to_i64(v: u64, what: &str) -> StoreResult<i64> {
    i64::try_from(v)
        .map_err(|_| StoreError::other(format!("{what} {v} does not fit a database integer")))
}

/// A stored decimal amount (balances and payouts can pass 2^64).
pub(crate) fn parse_u128(text: &str, what: &str) -> StoreResult<u128> {
    text.parse()
        .map_err(|_| StoreError::other(format!("stored {what} '{text}' is not an integer")))
}

/// A stored small integer (target, roll).
pub(crate) fn to_u16(v: i64, what: &str) -> StoreResult<u16> {
    u16::try_from(v).map_err(|_| StoreError::other(format!("stored {what} {v} is out of range")))
}

/// A stored bet condition.
pub(crate) fn to_condition(text: &str) -> StoreResult<Condition> {
    Condition::parse_field(text, "condition")
        .map_err(|_| StoreError::other(format!("stored condition '{text}' is unknown")))
}

/// A page size clamped to something sane.
pub(crate) fn limit(limit: u32) -> i64 {
    i64::from(limit.clamp(1, 1000))
}

/// Readers as the SQL backends aggregate them: ids joined by commas.
pub(crate) fn parse_readers(joined: Option<&str>) -> StoreResult<Vec<i64>> {
    let mut readers = joined
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_err(|_| StoreError::other(format!("stored reader '{s}' is not an id")))
        })
        .collect::<StoreResult<Vec<i64>>>()?;
    readers.sort_unstable();
    Ok(readers)
}

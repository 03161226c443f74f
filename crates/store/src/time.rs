//! Wall-clock timestamps for rows (milliseconds since the Unix epoch).

/// Now, in Unix milliseconds; a clock before 1970 reads as 0.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

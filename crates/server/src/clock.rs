//! The system clock, read in one place: the rules take time as an argument.

/// Unix milliseconds from the system clock.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// The moment a pure step is applied at.
pub fn now() -> fairseed_play::Millis {
    fairseed_play::Millis(now_ms())
}

//! What writes a change's log entry: present in a store whose log runs,
//! absent when it is off, so write paths ask their transaction for it
//! instead of carrying a switch.

use fairseed_tlog::LogEntry;

use crate::error::{StoreError, StoreResult};

/// What writes the entries of changes to the log. A store holds one unless
/// its log is off, decided once when it opens (`with_log`), and hands it to
/// every transaction it runs ([`crate::translog::LogTx::appender`]): a write path asks its
/// transaction, so none carries a switch of its own.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Appender;

impl Appender {
    /// The bytes `entry` is queued as, its time set to `now`.
    pub(crate) fn encode(self, entry: LogEntry, now: i64) -> StoreResult<Vec<u8>> {
        entry_bytes(entry, now)
    }
}

/// The bytes of `entry` with its time set to `now`.
pub(crate) fn entry_bytes(mut entry: LogEntry, now: i64) -> StoreResult<Vec<u8>> {
    entry.time_ms = u64::try_from(now).unwrap_or(0);
    entry
        .encode()
        .map_err(|e| StoreError::context("a log entry does not encode", e))
}

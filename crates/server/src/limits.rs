//! Limits and defaults several modules share.

/// Largest accepted request body.
pub const BODY_LIMIT: usize = 64 * 1024;

/// How long a lease lasts without a heartbeat, by default.
pub const DEFAULT_LEASE_TTL_MS: i64 = 30_000;

/// How many hold'em tables may be open (`--holdem-max-tables-per-player`,
/// `--holdem-max-tables`); 0 turns one off.
#[derive(Debug, Clone, Copy)]
pub struct TableCaps {
    /// Open tables one player may have opened.
    pub per_player: usize,
    /// Open tables in all.
    pub in_all: usize,
}

impl Default for TableCaps {
    fn default() -> Self {
        Self {
            per_player: 4,
            in_all: 1000,
        }
    }
}

//! Limits and defaults several modules share.

/// Largest accepted request body.
pub const BODY_LIMIT: usize = 64 * 1024;

/// How long a lease lasts without a heartbeat, by default.
pub const DEFAULT_LEASE_TTL_MS: i64 = 30_000;

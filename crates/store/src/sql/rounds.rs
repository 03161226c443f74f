//! The statements that fold a round's log, for both backends.

use crate::sql::statement::Statement;

/// Drops a round's log rows before a `seq`.
pub(crate) static DELETE_LOG_BEFORE: Statement =
    Statement::new("DELETE FROM round_log WHERE round_id = ?1 AND seq < ?2");

/// Drops the idempotency entries of a scope whose key starts with a prefix
/// (compared as text, whatever the database's collation).
pub(crate) static DELETE_IDEMPOTENT_PREFIX: Statement =
    Statement::new("DELETE FROM idempotency WHERE scope = ?1 AND substr(key, 1, length(?2)) = ?2");

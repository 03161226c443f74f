//! The statements of rounds: versioned rows, their sealed keys and their
//! logs, for both backends.

use crate::sql::statement::Statement;

/// The rounds of a list of ids (unordered): id, kind, commitment, sealed
/// seed, revealed seed, state, status, log length, version, sealed key.
pub(crate) static ROUNDS: Statement = Statement::new(
    "SELECT id, kind, commitment, sealed_seed, revealed_seed, state, status, log_len, version,
            (SELECT sealed_key FROM round_keys WHERE round_keys.round_id = rounds.id) AS sealed_key
     FROM rounds WHERE id = ANY(?1)",
);

/// The ids of the rounds of a kind with a status, oldest first.
pub(crate) static ROUNDS_WITH_STATUS: Statement =
    Statement::new("SELECT id FROM rounds WHERE kind = ?1 AND status = ?2 ORDER BY created_at, id");

/// A new round at version 0 with an empty log, unless its id is taken.
pub(crate) static INSERT_ROUND: Statement = Statement::new(
    "INSERT INTO rounds (id, kind, commitment, sealed_seed, state, status, log_len,
                         version, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 0, ?7, ?7) ON CONFLICT (id) DO NOTHING",
);

/// A new round's sealed key.
pub(crate) static INSERT_ROUND_KEY: Statement =
    Statement::new("INSERT INTO round_keys (round_id, sealed_key) VALUES (?1, ?2)");

/// Writes a round if it is still at the version read, the next version;
/// a seed given (`?5`) is revealed and the sealed one dropped.
pub(crate) static UPDATE_ROUND: Statement = Statement::new(
    "UPDATE rounds SET state = ?1, status = ?2, log_len = ?3, updated_at = ?4,
            version = version + 1,
            revealed_seed = COALESCE(?5, revealed_seed),
            sealed_seed = CASE WHEN CAST(?5 AS TEXT) IS NULL THEN sealed_seed ELSE NULL END
     WHERE id = ?6 AND version = ?7",
);

/// One line of a round's log.
pub(crate) static INSERT_LOG_LINE: Statement = Statement::new(
    "INSERT INTO round_log (round_id, seq, body, created_at) VALUES (?1, ?2, ?3, ?4)",
);

/// Up to a limit of a round's log lines from a sequence number on.
pub(crate) static LOG_LINES: Statement = Statement::new(
    "SELECT seq, body FROM round_log WHERE round_id = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3",
);

/// Drops a round's log rows before a `seq` (an archived table's fold).
pub(crate) static DELETE_LOG_BEFORE: Statement =
    Statement::new("DELETE FROM round_log WHERE round_id = ?1 AND seq < ?2");

/// Every statement here.
#[cfg(test)]
pub(crate) const ALL: [&Statement; 8] = [
    &ROUNDS,
    &ROUNDS_WITH_STATUS,
    &INSERT_ROUND,
    &INSERT_ROUND_KEY,
    &UPDATE_ROUND,
    &INSERT_LOG_LINE,
    &LOG_LINES,
    &DELETE_LOG_BEFORE,
];

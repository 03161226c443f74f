//! The statements of idempotent calls' stored answers, for both backends.

use crate::sql::statement::Statement;

/// Stores an answer under a scope and key unless the key is taken.
pub(crate) static INSERT_ANSWER: Statement = Statement::new(
    "INSERT INTO idempotency (scope, key, request_hash, response, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (scope, key) DO NOTHING",
);

/// The answer stored under a scope and key: the request's hash, the answer.
pub(crate) static ANSWER: Statement =
    Statement::new("SELECT request_hash, response FROM idempotency WHERE scope = ?1 AND key = ?2");

/// Drops the answers of a scope whose key starts with a prefix (compared
/// as text, whatever the database's collation): an archived table's socket
/// keys.
pub(crate) static DELETE_PREFIX: Statement =
    Statement::new("DELETE FROM idempotency WHERE scope = ?1 AND substr(key, 1, length(?2)) = ?2");

/// Every statement here.
#[cfg(test)]
pub(crate) const ALL: [&Statement; 3] = [&INSERT_ANSWER, &ANSWER, &DELETE_PREFIX];

//! The one error type of every storage backend.

/// Why a storage operation did not happen.
///
/// Backends map their own errors into these three so the server can answer
/// without knowing which database is underneath.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The thing asked for does not exist (or is not the caller's).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The state refused the change; nothing was written.
    #[error("{message}")]
    Conflict {
        /// A stable machine word, e.g. `insufficient_balance`.
        code: &'static str,
        /// What happened, for people.
        message: String,
    },
    /// The database failed; the message is for the log, never for a client.
    #[error("storage failure: {0}")]
    Other(String),
}

impl StoreError {
    /// A refusal with a stable code and a readable message.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::Conflict {
            code,
            message: message.into(),
        }
    }

    /// Wraps any backend failure.
    pub fn other(err: impl std::fmt::Display) -> Self {
        Self::Other(err.to_string())
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        match err {
            rusqlite::Error::QueryReturnedNoRows => Self::NotFound("row"),
            rusqlite::Error::SqliteFailure(code, _)
                if code.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Self::conflict("constraint", "the change conflicts with stored data")
            }
            other => Self::other(other),
        }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        match err {
            sqlx::Error::RowNotFound => Self::NotFound("row"),
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                Self::conflict("constraint", "the change conflicts with stored data")
            }
            other => Self::other(other),
        }
    }
}

/// Shorthand for results of storage operations.
pub type StoreResult<T> = Result<T, StoreError>;

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
        /// Why, as a stable code.
        code: Refusal,
        /// What happened, for people.
        message: String,
    },
    /// The database failed. The cause is kept as the error's source, for
    /// the log; a client is never shown it.
    #[error("storage failure")]
    Backend(#[source] BoxError),
}

/// A backend's own error, kept whole so its chain of causes can be logged.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

impl StoreError {
    /// A refusal with a stable code and a readable message.
    pub fn conflict(code: Refusal, message: impl Into<String>) -> Self {
        Self::Conflict {
            code,
            message: message.into(),
        }
    }

    /// Wraps any backend failure, or a sentence saying what failed.
    pub fn other(err: impl Into<BoxError>) -> Self {
        Self::Backend(err.into())
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        match err {
            rusqlite::Error::QueryReturnedNoRows => Self::NotFound("row"),
            rusqlite::Error::SqliteFailure(code, _)
                if code.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Self::conflict(Refusal::Constraint, "the change conflicts with stored data")
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
                Self::conflict(Refusal::Constraint, "the change conflicts with stored data")
            }
            other => Self::other(other),
        }
    }
}

/// Why a change was refused. Each has a stable snake_case [`Refusal::code`]
/// that the service answers with (`docs/api.md` lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Refusal {
    /// A round changed since it was loaded: load it again and decide again.
    VersionConflict,
    /// A round with this id exists already.
    RoundExists,
    /// One commit names the same round twice (a caller bug).
    DuplicateRound,
    /// A concurrent call stored the same idempotency key first.
    IdempotencyKeyUsed,
    /// A retry under an idempotency key asked for something else.
    IdempotencyMismatch,
    /// A uniqueness rule of the database refused the row.
    Constraint,
    /// A balance would pass 2^128 − 1.
    BalanceOverflow,
    /// Another process created the same operator player first.
    OperatorPlayerRace,
    /// A bet's stake is more than the balance (the caller's settlement says so).
    InsufficientBalance,
    /// The seed pair has used every nonce.
    NonceExhausted,
}

impl Refusal {
    /// The stable code, as the API answers it.
    pub fn code(self) -> &'static str {
        match self {
            Self::VersionConflict => "version_conflict",
            Self::RoundExists => "round_exists",
            Self::DuplicateRound => "duplicate_round",
            Self::IdempotencyKeyUsed => "idempotency_key_used",
            Self::IdempotencyMismatch => "idempotency_mismatch",
            Self::Constraint => "constraint",
            Self::BalanceOverflow => "balance_overflow",
            Self::OperatorPlayerRace => "operator_player_race",
            Self::InsufficientBalance => "insufficient_balance",
            Self::NonceExhausted => "nonce_exhausted",
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Shorthand for results of storage operations.
pub type StoreResult<T> = Result<T, StoreError>;

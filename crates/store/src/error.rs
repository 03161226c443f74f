//! The one error type of every storage backend.

/// Why a storage operation did not happen.
///
/// Backends map their own errors into these three so the server can answer
/// without knowing which database is underneath.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The thing asked for does not exist (or is not the caller's).
    NotFound(&'static str),
    /// The state refused the change; nothing was written.
    Conflict {
        /// Why, as a stable code.
        code: Refusal,
        /// What happened, for people.
        message: String,
    },
    /// The database failed: for the log and the operator, never a client.
    /// It reads "storage failure: " and its cause, and its
    /// [`source`](std::error::Error::source) is the cause's own source, so
    /// the chain of causes is whole and says each link once.
    Backend(BoxError),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotFound(what) => write!(f, "{what} not found"),
            Self::Conflict { message, .. } => f.write_str(message),
            Self::Backend(cause) => write!(f, "storage failure: {cause}"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Backend(cause) => cause.source(),
            _ => None,
        }
    }
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

    /// A backend failure while doing `what` (`migration 3`, `database
    /// URL`): it reads "storage failure: " and `what`, and `cause` stays
    /// its source, so the log shows the whole chain.
    pub fn context(what: impl Into<String>, cause: impl Into<BoxError>) -> Self {
        Self::Backend(Box::new(Context {
            what: what.into(),
            cause: cause.into(),
        }))
    }
}

/// What was being done when a cause failed; the cause is the source.
#[derive(Debug)]
struct Context {
    what: String,
    cause: BoxError,
}

impl std::fmt::Display for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Context {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.cause)
    }
}

/// An error and each of its causes, `: `-separated, for a log line.
pub struct Chain<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(e) = cause {
            write!(f, ": {e}")?;
            cause = e.source();
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A backend failure says its cause, and its chain names each link once.
    #[test]
    fn a_backend_failure_reads_with_its_cause_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("the network is down")]
        struct Net(#[source] std::io::Error);
        let err = StoreError::other(Net(std::io::Error::other("cable cut")));
        assert_eq!(err.to_string(), "storage failure: the network is down");
        let source = std::error::Error::source(&err).map(ToString::to_string);
        assert_eq!(source.as_deref(), Some("cable cut"));
    }

    /// A failure in context reads with what was being done, and its cause
    /// follows in the chain, whole.
    #[test]
    fn a_failure_in_context_keeps_its_cause_as_the_source() {
        #[derive(Debug, thiserror::Error)]
        #[error("the network is down")]
        struct Net(#[source] std::io::Error);
        let err = StoreError::context("migration 3", Net(std::io::Error::other("cable cut")));
        assert_eq!(err.to_string(), "storage failure: migration 3");
        assert_eq!(
            Chain(&err).to_string(),
            "storage failure: migration 3: the network is down: cable cut"
        );
    }
}

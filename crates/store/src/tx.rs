//! The SQL primitives a backend provides inside one transaction.
//!
//! Everything a transaction decides (ordering, version checks, which rows to
//! write) is written once, in the modules over this trait (`rounds`,
//! `leases`); each backend implements only these statements in its dialect.
//! SQLite runs them synchronously on its writer thread (see [`run_ready`]),
//! PostgreSQL over `sqlx`.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::error::{StoreError, StoreResult};
use crate::types::{Idempotent, NewRecord, NewRound, RoundRow};

/// A stored round with its sealed secret (present until revealed).
#[derive(Debug, Clone)]
pub(crate) struct RoundRaw {
    pub(crate) row: RoundRow,
    pub(crate) sealed: Option<Vec<u8>>,
}

/// The new values of a round after a step.
#[derive(Debug)]
pub(crate) struct RoundSet<'a> {
    pub(crate) id: &'a str,
    /// The version the write was computed from; the update matches only it.
    pub(crate) expected_version: u64,
    pub(crate) state: &'a str,
    pub(crate) status: &'a str,
    pub(crate) log_len: u64,
    /// The secret to reveal (the sealed copy is dropped with it).
    pub(crate) reveal: Option<&'a str>,
    pub(crate) now: i64,
}

/// A lease as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LeaseRow {
    pub(crate) owner: String,
    pub(crate) expires_at: i64,
}

/// The statements of one transaction (or one read connection).
pub(crate) trait Tx {
    /// The rounds among `ids` that exist, in any order. `lock`: hold them
    /// until the transaction ends (PostgreSQL row locks; SQLite's single
    /// writer holds everything anyway).
    async fn rounds(&mut self, ids: &[String], lock: bool) -> StoreResult<Vec<RoundRaw>>;

    /// Inserts a round at version 0; `false` if the id exists.
    async fn insert_round(
        &mut self,
        round: &NewRound,
        sealed: &[u8],
        now: i64,
    ) -> StoreResult<bool>;

    /// Writes a step and bumps the version; `false` if the version moved.
    async fn update_round(&mut self, set: &RoundSet<'_>) -> StoreResult<bool>;

    /// Appends one log entry.
    async fn insert_log(
        &mut self,
        round_id: &str,
        seq: u64,
        body: &str,
        now: i64,
    ) -> StoreResult<()>;

    /// Stores a record; its id.
    async fn insert_record(&mut self, record: &NewRecord, now: i64) -> StoreResult<i64>;

    /// Lets `player_id` read `record_id`.
    async fn insert_reader(&mut self, record_id: i64, player_id: i64) -> StoreResult<()>;

    /// Stores an idempotent response; `false` if the key is already stored.
    async fn insert_idempotent(&mut self, entry: &Idempotent, now: i64) -> StoreResult<bool>;

    /// A stored idempotent entry: `(request_hash, response)`.
    async fn idempotent(&mut self, scope: &str, key: &str)
        -> StoreResult<Option<(String, String)>>;

    /// The lease on `resource`, if any.
    async fn lease(&mut self, resource: &str) -> StoreResult<Option<LeaseRow>>;

    /// Sets `resource`'s lease to `owner` until `expires_at` unless another
    /// owner holds it past `now`; `false` when that other owner keeps it.
    async fn take_lease(
        &mut self,
        resource: &str,
        owner: &str,
        now: i64,
        expires_at: i64,
    ) -> StoreResult<bool>;

    /// Extends every lease of `owner`; how many.
    async fn renew_leases(&mut self, owner: &str, expires_at: i64) -> StoreResult<u64>;

    /// Resources starting with `prefix` whose lease ended before `now`.
    async fn expired_leases(&mut self, prefix: &str, now: i64) -> StoreResult<Vec<String>>;

    /// Drops `owner`'s lease on `resource` (nothing if another owner holds it).
    async fn release_lease(&mut self, resource: &str, owner: &str) -> StoreResult<()>;
}

/// Runs a future that never waits — the SQLite primitives are synchronous
/// calls wrapped in `async fn` — to completion on the calling thread.
pub(crate) fn run_ready<F: Future>(future: F) -> StoreResult<F::Output> {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(out) => Ok(out),
        Poll::Pending => Err(StoreError::other(
            "a synchronous storage step tried to wait",
        )),
    }
}

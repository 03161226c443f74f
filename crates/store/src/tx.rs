//! The SQL primitives a backend provides inside one transaction.
//!
//! Everything a transaction decides (ordering, version checks, which rows to
//! write) is written once, in the modules over this trait (`accounts`,
//! `rounds`, `leases`); each backend implements only these statements in its
//! dialect.
//! SQLite runs them synchronously on its writer thread (see [`run_ready`]),
//! PostgreSQL over `sqlx`.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::types::RecordReader;
use crate::types::{
    BetRow, Idempotent, LogRow, NewRecord, NewRound, Page, RecordRow, RevealedPair, RoundRow,
    SeedPair,
};

/// A new seed pair with its server seed sealed, ready to insert.
#[derive(Debug, Clone)]
pub(crate) struct SealedPair {
    pub(crate) commitment: String,
    pub(crate) sealed: Vec<u8>,
    pub(crate) client_seed: String,
}

/// A bet as a backend reads it, before range checks.
#[derive(Debug)]
pub(crate) struct BetRaw {
    pub(crate) id: i64,
    pub(crate) player_id: i64,
    pub(crate) pair_id: i64,
    pub(crate) nonce: i64,
    pub(crate) amount: i64,
    pub(crate) condition: String,
    pub(crate) target: i64,
    pub(crate) roll: i64,
    pub(crate) win: bool,
    pub(crate) payout: String,
    pub(crate) balance_after: String,
    pub(crate) idempotency_key: String,
    /// When it was stored (ms), also its outcome entry's time.
    pub(crate) created_at: i64,
}

impl BetRaw {
    pub(crate) fn check(self) -> StoreResult<BetRow> {
        Ok(BetRow {
            id: self.id,
            player_id: self.player_id,
            pair_id: self.pair_id,
            nonce: convert::to_u64(self.nonce, "nonce")?,
            amount: convert::to_u64(self.amount, "amount")?,
            condition: convert::to_condition(&self.condition)?,
            target: convert::to_u16(self.target, "target")?,
            roll: convert::to_u16(self.roll, "roll")?,
            win: self.win,
            payout: convert::parse_u128(&self.payout, "payout")?,
            balance_after: convert::parse_u128(&self.balance_after, "balance")?,
            idempotency_key: self.idempotency_key,
        })
    }
}

/// Which records a viewer may read: `Some(player)`, or `None` for the
/// operator (every record). Bound as the first parameter of record queries.
pub(crate) fn reader(viewer: RecordReader) -> Option<i64> {
    match viewer {
        RecordReader::Player(id) => Some(id),
        RecordReader::Operator => None,
    }
}

/// A stored round with its sealed secret (present until revealed).
#[derive(Debug, Clone)]
pub(crate) struct RoundRaw {
    pub(crate) row: RoundRow,
    pub(crate) sealed: Option<Vec<u8>>,
    /// The sealed key of `round_keys`, if the round has one.
    pub(crate) sealed_key: Option<Vec<u8>>,
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
pub(crate) trait Tx: crate::translog::LogTx {
    /// A trivial query: the database answers.
    async fn ping(&mut self) -> StoreResult<()>;

    /// Makes the transaction one whose commit is durable like a change's:
    /// on PostgreSQL it writes the `commit_probe` row of `meta` (the time
    /// of the probe), so its commit is flushed and waits for a synchronous
    /// standby; on SQLite it takes a place in the writer's next batch.
    async fn commit_probe(&mut self) -> StoreResult<()>;

    /// Inserts a player; their id.
    async fn insert_player(
        &mut self,
        token_hash: &str,
        balance: u128,
        now: i64,
    ) -> StoreResult<i64>;

    /// `(id, stored token hash, balance)` of the player with this token hash.
    async fn player_by_token(
        &mut self,
        token_hash: &str,
    ) -> StoreResult<Option<(i64, String, u128)>>;

    /// A player's balance; `lock`: serialize this player's writes (PostgreSQL).
    async fn balance(&mut self, player_id: i64, lock: bool) -> StoreResult<Option<u128>>;

    /// Sets a player's balance.
    async fn set_balance(&mut self, player_id: i64, balance: u128) -> StoreResult<()>;

    /// The player the operator created for its user `external_id`;
    /// `lock`: serialize writes to that player (PostgreSQL).
    async fn operator_player_id(
        &mut self,
        external_id: &str,
        lock: bool,
    ) -> StoreResult<Option<i64>>;

    /// Whether the operator created `player_id` for one of its users: a
    /// player of the house's.
    async fn is_operator_player(&mut self, player_id: i64) -> StoreResult<bool>;

    /// Links `external_id` to `player_id`; `false` if it is linked already.
    async fn insert_operator_player(
        &mut self,
        external_id: &str,
        player_id: i64,
        now: i64,
    ) -> StoreResult<bool>;

    /// Replaces a player's token hash; the hash it replaced.
    async fn replace_token_hash(&mut self, player_id: i64, token_hash: &str)
        -> StoreResult<String>;

    /// The player's chip grant under `key`: `(id, amount, balance after)`,
    /// the two numbers as stored decimal text.
    async fn chip_grant(
        &mut self,
        player_id: i64,
        key: &str,
    ) -> StoreResult<Option<(i64, String, String)>>;

    /// Inserts a chip grant; its id.
    async fn insert_chip_grant(
        &mut self,
        player_id: i64,
        key: &str,
        amount: u128,
        balance_after: u128,
        now: i64,
    ) -> StoreResult<i64>;

    /// Inserts a seed pair; its id.
    async fn insert_pair(
        &mut self,
        player_id: i64,
        pair: &SealedPair,
        now: i64,
    ) -> StoreResult<i64>;

    /// The player's unrevealed pair with its sealed seed.
    async fn current_pair(
        &mut self,
        player_id: i64,
        lock: bool,
    ) -> StoreResult<Option<(SeedPair, Vec<u8>)>>;

    /// Sets the client seed of the player's current pair if it still has
    /// `commitment` and no bet; `false` otherwise.
    async fn set_client_seed(
        &mut self,
        player_id: i64,
        commitment: &str,
        client_seed: &str,
    ) -> StoreResult<bool>;

    /// A pair's commitment and client seed (fixed from its first bet on),
    /// from which its bets' outcome entries are rebuilt.
    async fn pair_seeds(&mut self, pair_id: i64) -> StoreResult<Option<(String, String)>>;

    /// Moves a pair to its next nonce.
    async fn bump_nonce(&mut self, pair_id: i64) -> StoreResult<()>;

    /// Reveals a pair: stores its seed in the clear, drops the sealed copy.
    async fn reveal_pair(&mut self, pair_id: i64, server_seed: &str, now: i64) -> StoreResult<()>;

    /// The player's revealed pairs, newest first.
    async fn revealed_pairs(
        &mut self,
        player_id: i64,
        page: Page,
    ) -> StoreResult<Vec<RevealedPair>>;

    /// Ids of the players whose current pair is unrevealed, above `after`,
    /// ascending, at most `limit`.
    async fn players_with_unrevealed_pair(
        &mut self,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<i64>>;

    /// The player's bet under an idempotency key.
    async fn bet_by_key(&mut self, player_id: i64, key: &str) -> StoreResult<Option<BetRaw>>;

    /// Inserts a bet (its `id` is ignored); the id it got. A `logged` bet
    /// is its own outcome entry: its row is marked, nothing is queued beside
    /// it, and the sequencer and a replay (`accounts::replay`) rebuild the
    /// entry from the row and its pair.
    async fn insert_bet(&mut self, bet: &BetRow, logged: bool, now: i64) -> StoreResult<i64>;

    /// The player's bets, newest first, optionally of one pair.
    async fn bets(
        &mut self,
        player_id: i64,
        pair_id: Option<i64>,
        page: Page,
    ) -> StoreResult<Vec<BetRaw>>;

    /// A page of a pair's bets by nonce: at most `limit`, with nonce above
    /// `after` (from the first when `None`). Keyset paging, so a rotation
    /// reads a pair of any size in pages of bounded memory.
    async fn pair_bets(
        &mut self,
        pair_id: i64,
        after: Option<u64>,
        limit: u32,
    ) -> StoreResult<Vec<BetRaw>>;

    /// The records the viewer may read among `ids`, in no order.
    async fn records_with_ids(
        &mut self,
        viewer: RecordReader,
        ids: &[i64],
    ) -> StoreResult<Vec<RecordRow>>;

    /// Records the viewer may read, newest first.
    async fn records(&mut self, viewer: RecordReader, page: Page) -> StoreResult<Vec<RecordRow>>;

    /// Records the viewer may read with id above `after`, oldest first.
    async fn records_after(
        &mut self,
        viewer: RecordReader,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<RecordRow>>;

    /// A round's log from `from_seq` on.
    async fn round_log(&mut self, id: &str, from_seq: u64, limit: u32) -> StoreResult<Vec<LogRow>>;

    /// Ids of the rounds of `kind` with `status`, oldest first.
    async fn rounds_with_status(&mut self, kind: &str, status: &str) -> StoreResult<Vec<String>>;

    /// The rounds among `ids` that exist, in any order (no lock: writes
    /// compare versions instead).
    async fn rounds(&mut self, ids: &[String]) -> StoreResult<Vec<RoundRaw>>;

    /// Inserts a round at version 0, with its sealed key in `round_keys`
    /// when it has one; `false` if the id exists.
    async fn insert_round(
        &mut self,
        round: &NewRound,
        sealed: &[u8],
        sealed_key: Option<&[u8]>,
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

    /// Drops the rows of a round's log before `before_seq`.
    async fn delete_log_before(&mut self, round_id: &str, before_seq: u64) -> StoreResult<()>;

    /// Stores a record; its id.
    async fn insert_record(&mut self, record: &NewRecord, now: i64) -> StoreResult<i64>;

    /// Lets `player_id` read `record_id`.
    async fn insert_reader(&mut self, record_id: i64, player_id: i64) -> StoreResult<()>;

    /// Stores an idempotent response; `false` if the key is already stored.
    async fn insert_idempotent(&mut self, entry: &Idempotent, now: i64) -> StoreResult<bool>;

    /// Drops the idempotent entries of `scope` whose key starts with `prefix`.
    async fn delete_idempotent_prefix(&mut self, scope: &str, prefix: &str) -> StoreResult<()>;

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

    /// Sets when every lease of `owner` expires; how many.
    async fn set_leases_expiry(&mut self, owner: &str, expires_at: i64) -> StoreResult<u64>;

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

//! Durable storage for the fairseed service.
//!
//! One [`Store`] trait, two backends: [`SqliteStore`] (embedded, the
//! default) and [`PgStore`] (PostgreSQL, for several server processes).
//! What each operation does is written once (`accounts`, `rounds`,
//! `leases`, over the `tx::Tx` primitives); a backend supplies only its SQL
//! dialect, its connections and its migrations. The store keeps data atomic
//! and versioned; it runs no game rule. Unrevealed server seeds are sealed
//! with a [`SeedCipher`] whose key lives outside the database.

#![forbid(unsafe_code)]

mod accounts;
mod convert;
mod error;
mod leases;
pub mod operator;
mod postgres;
mod rounds;
mod seal;
mod settings;
mod sqlite;
mod store_impl;
mod time;
mod translog;
mod tx;
mod types;

use async_trait::async_trait;

pub use error::{Refusal, StoreError, StoreResult};
pub use operator::{ChipGrant, OperatorPlayer};
pub use postgres::PgStore;
pub use seal::{write_private, SecretSeed, SeedCipher};
pub use settings::{DbSettings, SqliteTuning};
pub use sqlite::{SqliteStore, WalStats};
pub use translog::{
    entry_name as log_entry_name, LogCheckpoint, LogStep, LoggedEntry, SignFn,
    MAX_BATCH as MAX_LOG_BATCH,
};
pub use types::{
    fill_record_ids, record_id_slot, BetDraw, BetReceipt, BetRequest, BetRow, Commit, Condition,
    Idempotent, LeaseGrant, LoadedRound, LogRow, NewRecord, NewRound, NewSeedPair, Page, Player,
    RecordOut, RecordRow, RecordsFn, RevealedPair, Rotation, RoundChange, RoundRow, RoundUpdate,
    RoundWrite, SeedPair, SettleFn, Settled, ROTATION_PAGE,
};

/// Compares two secrets' hex digests in constant time.
pub(crate) fn ct_eq_str(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The meta key under which the sealing key's fingerprint is kept.
pub(crate) const KEY_FINGERPRINT: &str = "seal_key_fingerprint";

/// Who is reading records: a player sees only their own, the operator all.
/// (Who looks at a game's state is `fairseed_play::Viewer`, another question.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordReader {
    /// A player, by id.
    Player(i64),
    /// The operator.
    Operator,
}

/// Every durable operation of the service. Each method is one transaction.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Checks that the database answers.
    async fn health(&self) -> StoreResult<()>;

    /// Creates a player with `balance` chips and a first seed pair.
    async fn create_player(
        &self,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<(Player, SeedPair)>;

    /// Finds a player by the SHA-256 of their token (compared in constant time).
    async fn player_by_token(&self, token_hash: &str) -> StoreResult<Player>;

    /// A player by id.
    async fn player(&self, id: i64) -> StoreResult<Player>;

    /// The player's current, unrevealed seed pair.
    async fn current_pair(&self, player_id: i64) -> StoreResult<SeedPair>;

    /// Changes the client seed of the current pair if it is still the pair
    /// with `commitment` and no bet used it yet; `None` (nothing changed)
    /// otherwise.
    async fn set_client_seed(
        &self,
        player_id: i64,
        commitment: &str,
        client_seed: &str,
    ) -> StoreResult<Option<SeedPair>>;

    /// Places a bet atomically: a key already used returns its first bet
    /// (`replayed`); otherwise the settle function decides on the next nonce
    /// and the nonce, balance and bet commit together.
    async fn place_bet(&self, bet: BetRequest) -> StoreResult<BetReceipt>;

    /// The player's bets, newest first, optionally of one pair.
    async fn bets(
        &self,
        player_id: i64,
        pair_id: Option<i64>,
        page: Page,
    ) -> StoreResult<Vec<BetRow>>;

    /// Reveals the current pair, stores its records and commits `next`.
    async fn rotate(
        &self,
        player_id: i64,
        next: NewSeedPair,
        records: RecordsFn,
    ) -> StoreResult<Rotation>;

    /// The player's revealed pairs, newest first.
    async fn revealed_pairs(&self, player_id: i64, page: Page) -> StoreResult<Vec<RevealedPair>>;

    /// One record the viewer may see.
    async fn record(&self, viewer: RecordReader, id: i64) -> StoreResult<RecordRow>;

    /// Records the viewer may see, newest first.
    async fn records(&self, viewer: RecordReader, page: Page) -> StoreResult<Vec<RecordRow>>;

    /// Records the viewer may see with id above `after`, oldest first (export).
    async fn records_after(
        &self,
        viewer: RecordReader,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<RecordRow>>;

    /// A round (its secret only if revealed).
    async fn round(&self, id: &str) -> StoreResult<RoundRow>;

    /// The rounds in the given order, with their secrets while unrevealed;
    /// `NotFound("round")` if any is missing. A read: no lock is held after.
    async fn load_rounds(&self, ids: &[String]) -> StoreResult<Vec<LoadedRound>>;

    /// All or nothing: the idempotency entry, the new rounds and every write.
    /// A version that moved → `Conflict` `version_conflict` (retryable: load
    /// again, decide again); an id in `creates` that exists → `round_exists`;
    /// an idempotency key already stored → `idempotency_key_used`. One update
    /// per create, then one per write, in the order given.
    async fn commit(&self, commit: Commit) -> StoreResult<Vec<RoundUpdate>>;

    /// Stores one record alone (an import), with its readers and an
    /// optional idempotency entry (record-id slots filled): all or nothing;
    /// a key already stored → `idempotency_key_used`.
    async fn import_record(
        &self,
        record: RecordOut,
        idempotent: Option<Idempotent>,
    ) -> StoreResult<RecordRow>;

    /// A stored idempotent response: `(request_hash, response)`.
    async fn idempotent_response(
        &self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>>;

    /// Takes `resource` for `owner` until `now_ms + ttl_ms` if it is free,
    /// expired or already `owner`'s.
    async fn acquire_lease(
        &self,
        resource: &str,
        owner: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> StoreResult<LeaseGrant>;

    /// Extends every lease `owner` holds to `now_ms + ttl_ms`; how many.
    async fn renew_leases(&self, owner: &str, now_ms: i64, ttl_ms: i64) -> StoreResult<u64>;

    /// Resources starting with `prefix` whose lease expired before `now_ms`
    /// (their owner is gone).
    async fn expired_leases(&self, prefix: &str, now_ms: i64) -> StoreResult<Vec<String>>;

    /// Gives up `owner`'s lease on `resource`.
    async fn release_lease(&self, resource: &str, owner: &str) -> StoreResult<()>;

    /// Log entries of a round from `from_seq` on.
    async fn round_log(&self, id: &str, from_seq: u64, limit: u32) -> StoreResult<Vec<LogRow>>;

    /// Ids of the rounds of `kind` with `status`, oldest first.
    async fn rounds_with_status(&self, kind: &str, status: &str) -> StoreResult<Vec<String>>;

    /// The log entries a dice pair's commitment queued (none if the pair
    /// was committed while the log was off, or before pairs were keyed).
    async fn pair_log_entries(&self, pair_id: i64) -> StoreResult<Vec<Vec<u8>>>;

    /// The log entries queued under any of `names` ([`log_entry_name`]), in
    /// queue order (none for those queued while the log was off).
    async fn named_log_entries(&self, names: Vec<String>) -> StoreResult<Vec<Vec<u8>>>;

    /// Sends live events (opaque texts), in order, to every process on this
    /// database, the sender's own feed included. Nothing on SQLite, whose
    /// database one process owns.
    async fn broadcast_events(&self, payloads: &[String]) -> StoreResult<()>;

    /// The live events every process broadcasts from now on, as they
    /// arrive; `None` when no other process can share this database.
    /// Delivery is best effort: an event sent while the feed reconnects is
    /// lost (live events are a convenience; the logs are the record).
    async fn event_feed(&self) -> StoreResult<Option<EventFeed>>;

    /// The operator's player for its user `external_id`, created with
    /// `token_hash`, `balance` and `pair` if new (see [`operator`]).
    async fn operator_player(
        &self,
        external_id: &str,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<OperatorPlayer>;

    /// Replaces the token of `external_id`'s player (`None`: revokes it);
    /// the player id and the hash it replaced.
    async fn set_operator_player_token(
        &self,
        external_id: &str,
        token_hash: Option<&str>,
    ) -> StoreResult<(i64, String)>;

    /// Grants free play chips to `external_id`'s player, once per `key`.
    async fn grant_chips(
        &self,
        external_id: &str,
        key: &str,
        amount: u128,
    ) -> StoreResult<ChipGrant>;

    /// Gives up to `max` queued log entries their leaf indexes and stores
    /// the checkpoint `sign` signs for the grown tree (docs/spec.md §16);
    /// `None` if nothing was queued since the last one.
    async fn sequence_log(&self, max: u32, sign: SignFn) -> StoreResult<Option<LogStep>>;

    /// The latest signed checkpoint, with the cosignatures stored for it.
    async fn log_checkpoint(&self) -> StoreResult<Option<LogCheckpoint>>;

    /// The newest checkpoint with at least `min` witness cosignatures, with them.
    async fn log_cosigned_checkpoint(&self, min: u32) -> StoreResult<Option<LogCheckpoint>>;

    /// Stores a witness's cosignature line on the checkpoint of `size`; the
    /// caller has verified it against `witness` (its verifier key).
    async fn add_log_cosignature(&self, size: u64, witness: &str, line: &str) -> StoreResult<()>;

    /// The largest checkpoint size `witness` (its verifier key) cosigned.
    async fn log_cosigned_size(&self, witness: &str) -> StoreResult<Option<u64>>;

    /// The log's stored hashes among `indexes` (`stored_hash_index` order of
    /// Go's `sumdb/tlog`); a missing one is left out.
    async fn log_hashes(&self, indexes: &[u64]) -> StoreResult<Vec<(u64, [u8; 32])>>;

    /// The entries of leaves `from .. from + count`, in order.
    async fn log_leaves(&self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>>;

    /// The log entries the idempotent call `scope`/`key` queued, in queue
    /// order (for its replay's receipts).
    async fn idempotent_log_entries(&self, scope: &str, key: &str) -> StoreResult<Vec<Vec<u8>>>;

    /// A log entry by its leaf hash, queued or sequenced.
    async fn log_entry(&self, leaf_hash: [u8; 32]) -> StoreResult<Option<LoggedEntry>>;
}

/// Live events from every process on the database, as broadcast.
pub type EventFeed = tokio::sync::mpsc::Receiver<String>;

//! The PostgreSQL backend, through `sqlx`.
//!
//! Several server processes may share one database: every bet locks its
//! player's row (`SELECT … FOR UPDATE`) first, so bets of one player are
//! serialized across processes and each takes the next nonce exactly once.
//! Durability is PostgreSQL's own: a transaction is answered after its
//! commit, which with the default `synchronous_commit = on` is flushed.

mod players;
mod queries;
mod tx;

use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};

use crate::error::{StoreError, StoreResult};
use crate::seal::SeedCipher;
use crate::time::now_ms;
use crate::tx::Tx;
use crate::types::{
    BetReceipt, BetRequest, BetRow, Commit, LeaseGrant, LoadedRound, LogRow, NewRecord, NewRound,
    NewSeedPair, Page, Player, RecordOut, RecordRow, RecordsFn, RevealedPair, Rotation, RoundFn,
    RoundRow, RoundUpdate, RoundsFn, SeedPair,
};
use crate::{leases, rounds, Store, Viewer};
use tx::PgTx;

const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/postgres/0001_dice.sql")),
    (2, include_str!("../../migrations/postgres/0002_rounds.sql")),
    (
        3,
        include_str!("../../migrations/postgres/0003_versions.sql"),
    ),
    (
        4,
        include_str!("../../migrations/postgres/0004_players.sql"),
    ),
];

/// An arbitrary constant naming the advisory lock that serializes migrations
/// of processes starting together.
const MIGRATION_LOCK: i64 = 0x00fa_15ee_d000_0001;

/// The PostgreSQL store. Cheap to clone.
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    cipher: Arc<SeedCipher>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").finish_non_exhaustive()
    }
}

/// Checks a schema name before it is spliced into SQL.
fn check_schema(schema: &str) -> StoreResult<()> {
    let ok = !schema.is_empty()
        && schema.len() <= 63
        && schema
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(StoreError::other(format!(
            "schema name '{schema}' must be 1..63 of [a-z0-9_]"
        )))
    }
}

impl PgStore {
    /// Connects, creating `schema` if given, and migrates.
    pub async fn connect(url: &str, schema: Option<&str>, cipher: SeedCipher) -> StoreResult<Self> {
        let mut options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::other(format!("database URL: {e}")))?
            .log_statements(tracing::log::LevelFilter::Trace);
        if let Some(schema) = schema {
            check_schema(schema)?;
            let mut conn = options.connect().await?;
            sqlx::raw_sql(&format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\""))
                .execute(&mut conn)
                .await
                .or_else(ignore_duplicate)?;
            conn.close().await?;
            options = options.options([("search_path", schema)]);
        }
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .connect_with(options)
            .await?;
        migrate(&pool, &cipher).await?;
        Ok(Self {
            pool,
            cipher: Arc::new(cipher),
        })
    }

    /// Drops `schema` and everything in it (test clean-up).
    #[doc(hidden)]
    pub async fn drop_schema(url: &str, schema: &str) -> StoreResult<()> {
        check_schema(schema)?;
        let mut conn = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::other(format!("database URL: {e}")))?
            .connect()
            .await?;
        sqlx::raw_sql(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
            .execute(&mut conn)
            .await?;
        conn.close().await?;
        Ok(())
    }

    /// Runs shared transaction logic in one transaction, committed if it succeeds.
    async fn write_tx<R>(
        &self,
        f: impl AsyncFnOnce(&mut PgTx<'_>) -> StoreResult<R>,
    ) -> StoreResult<R> {
        let mut tx = self.pool.begin().await?;
        let out = f(&mut PgTx(&mut tx)).await?;
        tx.commit().await?;
        Ok(out)
    }

    /// Runs shared read logic on a pooled connection.
    async fn read_tx<R>(
        &self,
        f: impl AsyncFnOnce(&mut PgTx<'_>) -> StoreResult<R>,
    ) -> StoreResult<R> {
        let mut conn = self.pool.acquire().await?;
        f(&mut PgTx(&mut conn)).await
    }

    /// Closes the pool.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Two processes creating the same schema at once: the loser's error is fine.
fn ignore_duplicate(e: sqlx::Error) -> Result<sqlx::postgres::PgQueryResult, sqlx::Error> {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => Ok(Default::default()),
        _ => Err(e),
    }
}

async fn migrate(pool: &PgPool, cipher: &SeedCipher) -> StoreResult<()> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *tx)
        .await?;
    sqlx::raw_sql("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)")
        .execute(&mut *tx)
        .await?;
    for (version, sql) in MIGRATIONS {
        let done: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)",
        )
        .bind(version)
        .fetch_one(&mut *tx)
        .await?;
        if !done {
            sqlx::raw_sql(sql).execute(&mut *tx).await?;
            sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
                .bind(version)
                .execute(&mut *tx)
                .await?;
        }
    }
    let stored: Option<String> = sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
        .bind(crate::KEY_FINGERPRINT)
        .fetch_optional(&mut *tx)
        .await?;
    match stored {
        None => {
            sqlx::query("INSERT INTO meta (key, value) VALUES ($1, $2)")
                .bind(crate::KEY_FINGERPRINT)
                .bind(cipher.fingerprint())
                .execute(&mut *tx)
                .await?;
        }
        Some(stored) if stored == cipher.fingerprint() => {}
        Some(stored) => {
            return Err(StoreError::other(format!(
                "the seed key (fingerprint {}) is not the one this database was created with ({stored})",
                cipher.fingerprint()
            )))
        }
    }
    tx.commit().await?;
    Ok(())
}

#[async_trait]
impl Store for PgStore {
    async fn health(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn create_player(
        &self,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<(Player, SeedPair)> {
        let sealed = self.cipher.seal(&pair.server_seed, &pair.commitment)?;
        let mut tx = self.pool.begin().await?;
        let out = queries::create_player(&mut tx, token_hash, balance, &pair, &sealed).await?;
        tx.commit().await?;
        Ok(out)
    }

    async fn player_by_token(&self, token_hash: &str) -> StoreResult<Player> {
        queries::player_by_token(&self.pool, token_hash).await
    }

    async fn player(&self, id: i64) -> StoreResult<Player> {
        queries::player(&self.pool, id, false).await
    }

    async fn current_pair(&self, player_id: i64) -> StoreResult<SeedPair> {
        let mut conn = self.pool.acquire().await?;
        Ok(queries::current_pair(&mut conn, player_id, false).await?.0)
    }

    async fn set_client_seed(
        &self,
        player_id: i64,
        commitment: &str,
        client_seed: &str,
    ) -> StoreResult<SeedPair> {
        let mut tx = self.pool.begin().await?;
        let pair = queries::set_client_seed(&mut tx, player_id, commitment, client_seed).await?;
        tx.commit().await?;
        Ok(pair)
    }

    async fn place_bet(&self, bet: BetRequest) -> StoreResult<BetReceipt> {
        let mut tx = self.pool.begin().await?;
        let receipt = queries::place_bet(&mut tx, &self.cipher, bet).await?;
        tx.commit().await?;
        Ok(receipt)
    }

    async fn bets(
        &self,
        player_id: i64,
        pair_id: Option<i64>,
        page: Page,
    ) -> StoreResult<Vec<BetRow>> {
        queries::bets(&self.pool, player_id, pair_id, page).await
    }

    async fn rotate(
        &self,
        player_id: i64,
        next: NewSeedPair,
        records: RecordsFn,
    ) -> StoreResult<Rotation> {
        let sealed = self.cipher.seal(&next.server_seed, &next.commitment)?;
        let mut tx = self.pool.begin().await?;
        let rotation =
            queries::rotate(&mut tx, &self.cipher, player_id, &next, &sealed, records).await?;
        tx.commit().await?;
        Ok(rotation)
    }

    async fn revealed_pairs(&self, player_id: i64, page: Page) -> StoreResult<Vec<RevealedPair>> {
        queries::revealed_pairs(&self.pool, player_id, page).await
    }

    async fn insert_records(
        &self,
        owner: Option<i64>,
        records: Vec<NewRecord>,
    ) -> StoreResult<Vec<RecordRow>> {
        let now = now_ms();
        self.write_tx(async |tx| {
            let mut rows = Vec::with_capacity(records.len());
            for record in records {
                let out = RecordOut {
                    record,
                    readers: owner.into_iter().collect(),
                };
                rows.push(rounds::insert_record(tx, &out, now).await?);
            }
            Ok(rows)
        })
        .await
    }

    async fn record(&self, viewer: Viewer, id: i64) -> StoreResult<RecordRow> {
        queries::record(&self.pool, viewer, id).await
    }

    async fn records(&self, viewer: Viewer, page: Page) -> StoreResult<Vec<RecordRow>> {
        queries::records(&self.pool, viewer, page).await
    }

    async fn records_after(
        &self,
        viewer: Viewer,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<RecordRow>> {
        queries::records_after(&self.pool, viewer, after, limit).await
    }

    async fn create_round(&self, round: NewRound) -> StoreResult<RoundRow> {
        let sealed = self.cipher.seal(&round.secret, &round.commitment)?;
        self.write_tx(async |tx| rounds::create_round(tx, &round, &sealed, now_ms()).await)
            .await
    }

    async fn round(&self, id: &str) -> StoreResult<RoundRow> {
        self.read_tx(async |tx| rounds::round(tx, id).await).await
    }

    async fn update_round(&self, id: &str, step: RoundFn) -> StoreResult<RoundUpdate> {
        let step: RoundsFn = Box::new(move |rounds| {
            let (row, secret) = rounds.first().ok_or(StoreError::NotFound("round"))?;
            Ok(vec![step(row, secret.as_ref())?])
        });
        let mut updates = self.update_rounds(vec![id.to_owned()], step).await?;
        updates.pop().ok_or(StoreError::NotFound("round"))
    }

    async fn update_rounds(
        &self,
        ids: Vec<String>,
        step: RoundsFn,
    ) -> StoreResult<Vec<RoundUpdate>> {
        self.write_tx(async |tx| {
            rounds::update_rounds(tx, &self.cipher, &ids, step, now_ms()).await
        })
        .await
    }

    async fn load_rounds(&self, ids: &[String]) -> StoreResult<Vec<LoadedRound>> {
        self.read_tx(async |tx| rounds::load_rounds(tx, &self.cipher, ids).await)
            .await
    }

    async fn commit(&self, commit: Commit) -> StoreResult<Vec<RoundUpdate>> {
        let sealed = rounds::seal_commit(&self.cipher, commit)?;
        self.write_tx(async |tx| rounds::commit(tx, &self.cipher, sealed, now_ms()).await)
            .await
    }

    async fn idempotent_response(
        &self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>> {
        self.read_tx(async |tx| tx.idempotent(scope, key).await)
            .await
    }

    async fn acquire_lease(
        &self,
        resource: &str,
        owner: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> StoreResult<LeaseGrant> {
        self.write_tx(async |tx| leases::acquire(tx, resource, owner, now_ms, ttl_ms).await)
            .await
    }

    async fn renew_leases(&self, owner: &str, now_ms: i64, ttl_ms: i64) -> StoreResult<u64> {
        self.write_tx(async |tx| tx.renew_leases(owner, now_ms.saturating_add(ttl_ms)).await)
            .await
    }

    async fn expired_leases(&self, prefix: &str, now_ms: i64) -> StoreResult<Vec<String>> {
        self.read_tx(async |tx| tx.expired_leases(prefix, now_ms).await)
            .await
    }

    async fn release_lease(&self, resource: &str, owner: &str) -> StoreResult<()> {
        self.write_tx(async |tx| tx.release_lease(resource, owner).await)
            .await
    }

    async fn round_log(&self, id: &str, from_seq: u64, limit: u32) -> StoreResult<Vec<LogRow>> {
        queries::round_log(&self.pool, id, from_seq, limit).await
    }

    async fn rounds_with_status(&self, kind: &str, status: &str) -> StoreResult<Vec<String>> {
        queries::rounds_with_status(&self.pool, kind, status).await
    }

    async fn operator_player(
        &self,
        external_id: &str,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<crate::OperatorPlayer> {
        let sealed = self.cipher.seal(&pair.server_seed, &pair.commitment)?;
        players::find_or_create(&self.pool, external_id, token_hash, balance, &pair, &sealed).await
    }

    async fn set_operator_player_token(
        &self,
        external_id: &str,
        token_hash: Option<&str>,
    ) -> StoreResult<(i64, String)> {
        players::set_token(&self.pool, external_id, token_hash).await
    }

    async fn grant_chips(
        &self,
        external_id: &str,
        key: &str,
        amount: u128,
    ) -> StoreResult<crate::ChipGrant> {
        players::grant(&self.pool, external_id, key, amount).await
    }
}

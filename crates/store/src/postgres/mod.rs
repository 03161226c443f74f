//! The PostgreSQL backend, through `sqlx`.
//!
//! Several server processes may share one database: every bet's write
//! locks its player's and pair's rows and checks they are still what the
//! bet was drawn from (`bet`), so bets of one player are serialized across
//! processes and each takes the next nonce exactly once.
//! Durability is PostgreSQL's own: a transaction is answered after its
//! commit, which with the default `synchronous_commit = on` is flushed.

#[macro_use]
mod deferred;
mod bet;
mod events;
mod floors;
mod last_states;
mod log_tx;
mod tx;

use std::str::FromStr;
use std::sync::Arc;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};

use crate::error::{StoreError, StoreResult};
use crate::seal::SeedCipher;
use crate::translog::bet_leaves::BetLeaves;
use crate::translog::Appender;
use tx::PgTx;

const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        include_str!("../../migrations/postgres/0001_baseline.sql"),
    ),
    (
        2,
        include_str!("../../migrations/postgres/0002_one_log_layout.sql"),
    ),
    (
        3,
        include_str!("../../migrations/postgres/0003_round_keys.sql"),
    ),
];

/// Connections of a process's pool.
const MAX_CONNECTIONS: u32 = 16;

/// An arbitrary constant naming the advisory lock that serializes migrations
/// of processes starting together.
const MIGRATION_LOCK: i64 = 0x00fa_15ee_d000_0001;

/// The PostgreSQL store. Cheap to clone.
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    cipher: Arc<SeedCipher>,
    /// The `NOTIFY` channel of live events in this store's schema.
    events: String,
    /// What queues changes' transparency log entries; none with the log
    /// off (on unless turned off).
    appender: Option<Appender>,
    /// Each player's state after their last bet here (a hint, see `bet`).
    last: Arc<last_states::LastStates>,
    /// The leaf hashes of the bets placed here still waiting for a leaf.
    leaves: Arc<BetLeaves>,
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
            .map_err(|e| StoreError::context("database URL", e))?
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
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(crate::wait::CONNECT_WAIT)
            .connect_with(options)
            .await?;
        migrate(&pool, &cipher).await?;
        Ok(Self {
            events: events::channel(&pool).await?,
            pool,
            cipher: Arc::new(cipher),
            appender: Some(Appender),
            last: Arc::default(),
            leaves: Arc::default(),
        })
    }

    /// Turns the transparency log's entries off (`false`) or on: for
    /// measuring what the log costs, never for a public service.
    #[must_use]
    pub fn with_log(mut self, on: bool) -> Self {
        self.appender = on.then_some(Appender);
        self
    }

    /// Drops `schema` and everything in it (test clean-up).
    #[doc(hidden)]
    pub async fn drop_schema(url: &str, schema: &str) -> StoreResult<()> {
        check_schema(schema)?;
        let mut conn = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::context("database URL", e))?
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
        crate::wait::bounded("a transaction", async {
            let mut tx = self.pool.begin().await?;
            let mut pg = PgTx::new(&mut tx, &self.leaves, self.appender);
            let out = f(&mut pg).await?;
            pg.finish().await?;
            tx.commit().await?;
            Ok(out)
        })
        .await
    }

    /// Runs shared read logic on a pooled connection.
    async fn read_tx<R>(
        &self,
        f: impl AsyncFnOnce(&mut PgTx<'_>) -> StoreResult<R>,
    ) -> StoreResult<R> {
        crate::wait::bounded("a read", async {
            let mut conn = self.pool.acquire().await?;
            f(&mut PgTx::new(&mut conn, &self.leaves, self.appender)).await
        })
        .await
    }

    async fn send_events(&self, payloads: &[String]) -> StoreResult<()> {
        crate::wait::bounded(
            "live events",
            events::send(&self.pool, &self.events, payloads),
        )
        .await
    }

    /// `(in use, most)` connections of the pool.
    #[allow(clippy::unnecessary_wraps)] // SQLite's has none: the trait's shape
    fn pool_in_use(&self) -> Option<(u32, u32)> {
        let idle = u32::try_from(self.pool.num_idle()).unwrap_or(u32::MAX);
        Some((self.pool.size().saturating_sub(idle), MAX_CONNECTIONS))
    }

    async fn listen_events(&self) -> StoreResult<Option<crate::types::EventFeed>> {
        events::listen(&self.pool, &self.events).await.map(Some)
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
            sqlx::raw_sql(sql)
                .execute(&mut *tx)
                .await
                .map_err(|e| StoreError::context(format!("migration {version}"), e))?;
            sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
                .bind(version)
                .execute(&mut *tx)
                .await?;
        }
    }
    let stored: Option<String> = sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
        .bind(crate::seal::KEY_FINGERPRINT)
        .fetch_optional(&mut *tx)
        .await?;
    match stored {
        None => {
            sqlx::query("INSERT INTO meta (key, value) VALUES ($1, $2)")
                .bind(crate::seal::KEY_FINGERPRINT)
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

crate::api::impl_store!(PgStore);

#[cfg(test)]
#[path = "../../../../tests/support/skip.rs"]
mod skip;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shared statement's PostgreSQL text prepares against the
    /// schema, in a schema of its own dropped after.
    #[tokio::test]
    async fn every_shared_statement_prepares() {
        let test = "postgres::tests::every_shared_statement_prepares";
        let Some(url) = std::env::var("FAIRSEED_TEST_DB_URI")
            .ok()
            .filter(|u| !u.is_empty())
        else {
            skip::skip(test, "FAIRSEED_REQUIRE_POSTGRES", "needs PostgreSQL");
            return;
        };
        let schema = format!("fairseed_store_prepare_{}", std::process::id());
        let store = PgStore::connect(&url, Some(&schema), SeedCipher::from_key([7; 32]))
            .await
            .expect("connect");
        let mut conn = store.pool.acquire().await.expect("a connection");
        let mut failed = Vec::new();
        for statement in crate::sql::all() {
            let text = statement.postgres();
            if let Err(e) = sqlx::Executor::prepare(&mut *conn, text).await {
                failed.push(format!("{e}: {text}"));
            }
        }
        drop(conn);
        store.pool.close().await;
        PgStore::drop_schema(&url, &schema).await.expect("clean up");
        assert!(failed.is_empty(), "{failed:#?}");
    }
}

//! The embedded backend: SQLite through `rusqlite`.
//!
//! Why rusqlite and not sqlx's SQLite driver: every write goes through one
//! dedicated thread that batches transactions (group commit, see
//! [`writer`]), which needs direct control of one connection and its
//! savepoints; a blocking pool of read-only connections serves reads
//! concurrently thanks to WAL.
//!
//! Durability: `journal_mode=WAL` with `synchronous=FULL` syncs the WAL at
//! every commit, so an answered bet survives a process kill and a power
//! loss. (`NORMAL` would survive a kill but could lose the last commits on
//! power loss, which would let a player see a roll that later "never
//! happened".) Group commit keeps the cost to one fsync per batch.

mod checkpoint;
mod files;
mod log_tx;
mod record_body;
mod tx;
mod upgrade;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OpenFlags};
use tokio::sync::Semaphore;

use crate::error::{StoreError, StoreResult};
use crate::seal::SeedCipher;
use crate::settings::SqliteTuning;
use crate::translog::bet_leaves::BetLeaves;
use crate::translog::Appender;
use crate::tx::run_ready;
pub use checkpoint::WalStats;
use checkpoint::{Handoff, WalBound};
use tx::SqliteTx;
use writer::Writer;

/// A numbered migration: its SQL, then the step SQL cannot take alone (in
/// the same transaction).
type Migration = (
    i64,
    &'static str,
    Option<fn(&Connection) -> StoreResult<()>>,
);

const MIGRATIONS: &[Migration] = &[
    (
        1,
        include_str!("../../migrations/sqlite/0001_baseline.sql"),
        None,
    ),
    (
        2,
        include_str!("../../migrations/sqlite/0002_one_log_layout.sql"),
        Some(upgrade::one_log_layout),
    ),
    (
        3,
        include_str!("../../migrations/sqlite/0003_round_keys.sql"),
        None,
    ),
];

/// Read connections kept open.
const READERS: usize = 4;

/// The SQLite store. Cheap to clone.
#[derive(Clone)]
pub struct SqliteStore {
    /// Dropped with the last clone; the checkpoint thread then stops.
    _alive: Arc<()>,
    writer: Writer,
    wal: Option<Arc<WalStats>>,
    readers: Option<Arc<Readers>>,
    cipher: Arc<SeedCipher>,
    /// What queues changes' transparency log entries; none with the log
    /// off (on unless turned off).
    appender: Option<Appender>,
    /// Committed bets' leaf hashes, until sequenced.
    bet_leaves: Arc<BetLeaves>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("file", &self.readers.as_ref().map(|r| &r.path))
            .finish_non_exhaustive()
    }
}

struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    permits: Semaphore,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and migrates it.
    pub fn open(path: &Path, cipher: SeedCipher) -> StoreResult<Self> {
        Self::open_tuned(path, cipher, SqliteTuning::default())
    }

    /// [`Self::open`] with the WAL bound given; the files are made 0600.
    pub fn open_tuned(path: &Path, cipher: SeedCipher, tuning: SqliteTuning) -> StoreResult<Self> {
        files::make_private(path)?;
        let conn = Connection::open(path)?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = FULL;
             PRAGMA busy_timeout = 5000;
             PRAGMA foreign_keys = ON;
             PRAGMA wal_autocheckpoint = 0;
             PRAGMA journal_size_limit = 67108864;
             PRAGMA cache_size = -32768;",
        )?;
        migrate(&conn, &cipher)?;
        let alive = Arc::new(());
        let handoff = Arc::new(Handoff::default());
        checkpoint::spawn(path, Arc::downgrade(&alive), Arc::clone(&handoff))?;
        let wal = Arc::new(WalStats::default());
        let bound = WalBound::install(&conn, tuning, Arc::clone(&wal), handoff)?;
        Ok(Self {
            _alive: alive,
            writer: Writer::spawn(conn, Some(bound))?,
            wal: Some(wal),
            readers: Some(Arc::new(Readers {
                path: path.to_owned(),
                idle: Mutex::new(Vec::new()),
                permits: Semaphore::new(READERS),
            })),
            cipher: Arc::new(cipher),
            appender: Some(Appender),
            bet_leaves: Arc::default(),
        })
    }

    /// Turns the transparency log's entries off (`false`) or on: for
    /// measuring what the log costs, never for a public service.
    #[must_use]
    pub fn with_log(mut self, on: bool) -> Self {
        self.appender = on.then_some(Appender);
        self
    }

    /// An in-memory database (tests): every operation goes through the writer.
    pub fn open_memory(cipher: SeedCipher) -> StoreResult<Self> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch("PRAGMA foreign_keys = ON;")?;
        migrate(&conn, &cipher)?;
        Ok(Self {
            _alive: Arc::new(()),
            writer: Writer::spawn(conn, None)?,
            wal: None,
            readers: None,
            cipher: Arc::new(cipher),
            appender: Some(Appender),
            bet_leaves: Arc::default(),
        })
    }

    /// A bet in one write transaction: the writer thread serializes every
    /// bet, so nothing can change between its read and its write.
    async fn place_bet_at(
        &self,
        req: crate::types::BetRequest,
        now: i64,
    ) -> StoreResult<crate::types::BetReceipt> {
        let cipher = Arc::clone(&self.cipher);
        let placed = self
            .write_tx(async move |tx| crate::accounts::place_bet(tx, &cipher, req, now).await)
            .await?;
        // Committed now: its leaf hash may be remembered.
        self.bet_leaves.remember_placed(&placed);
        Ok(placed)
    }

    /// Runs shared transaction logic on the writer, in its own savepoint.
    async fn write_tx<R, F>(&self, f: F) -> StoreResult<R>
    where
        R: Send + 'static,
        F: AsyncFnOnce(&mut SqliteTx<'_>) -> StoreResult<R> + Send + 'static,
    {
        let (leaves, appender) = (Arc::clone(&self.bet_leaves), self.appender);
        let write = self
            .writer
            .submit(move |c| run_ready(f(&mut SqliteTx(c, &leaves, appender)))?);
        crate::wait::bounded("a transaction", write).await
    }

    /// Runs shared read logic on a reader.
    async fn read_tx<R, F>(&self, f: F) -> StoreResult<R>
    where
        R: Send + 'static,
        F: AsyncFnOnce(&mut SqliteTx<'_>) -> StoreResult<R> + Send + 'static,
    {
        let (leaves, appender) = (Arc::clone(&self.bet_leaves), self.appender);
        let read = self.read(move |c| run_ready(f(&mut SqliteTx(c, &leaves, appender)))?);
        crate::wait::bounded("a read", read).await
    }

    /// No pool: one writer, readers opened on demand.
    #[allow(clippy::unused_self)] // PostgreSQL's has one: the trait's shape
    fn pool_in_use(&self) -> Option<(u32, u32)> {
        None
    }

    /// One process owns an SQLite database: its events stay in it.
    async fn send_events(&self, _payloads: &[String]) -> StoreResult<()> {
        Ok(())
    }

    async fn listen_events(&self) -> StoreResult<Option<crate::types::EventFeed>> {
        Ok(None)
    }

    /// The WAL bound's counters (none for an in-memory database).
    pub fn wal_stats(&self) -> Option<Arc<WalStats>> {
        self.wal.clone()
    }

    /// Copies the whole WAL into the database file and empties it, once
    /// every write queued before the call has committed.
    ///
    /// For a graceful stop: the process exits without closing its
    /// connections, so SQLite's own last-close checkpoint never runs and the
    /// newest commits would live only in the `-wal` file. After this the
    /// database file alone holds every acknowledged write, which is what an
    /// operator copying or moving it expects of a stopped service. Writes
    /// that still arrive afterwards go to the WAL as before.
    ///
    /// # Errors
    /// The writer has stopped, or a reader still inside a transaction kept
    /// the checkpoint from finishing within the busy timeout.
    pub async fn checkpoint_to_file(&self) -> StoreResult<()> {
        // The writer runs jobs in order: once this one committed, so has
        // every write queued before it.
        self.writer.submit(|_| Ok(())).await?;
        let Some(readers) = &self.readers else {
            return Ok(());
        };
        let path = readers.path.clone();
        tokio::task::spawn_blocking(move || truncate_wal(&path))
            .await
            .map_err(StoreError::other)?
    }

    /// The `-wal` file's size on disk now, if there is one.
    pub fn wal_file_bytes(&self) -> Option<u64> {
        let readers = self.readers.as_ref()?;
        let mut wal = readers.path.as_os_str().to_owned();
        wal.push("-wal");
        std::fs::metadata(wal).ok().map(|m| m.len())
    }

    async fn read<R, F>(&self, f: F) -> StoreResult<R>
    where
        R: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<R> + Send + 'static,
    {
        let Some(readers) = &self.readers else {
            return self.writer.submit(f).await;
        };
        let _permit = readers
            .permits
            .acquire()
            .await
            .map_err(|_| StoreError::other("reader pool closed"))?;
        let readers = Arc::clone(readers);
        tokio::task::spawn_blocking(move || {
            let conn = match readers.idle.lock().map(|mut idle| idle.pop()) {
                Ok(Some(conn)) => conn,
                _ => open_reader(&readers.path)?,
            };
            let result = f(&conn);
            // A reader left inside a transaction would answer from its old
            // snapshot ever after, and keep the writer from restarting the
            // WAL: closing it ends the transaction.
            if !conn.is_autocommit() {
                tracing::error!("an SQLite reader was left inside a transaction; closed");
            } else if let Ok(mut idle) = readers.idle.lock() {
                idle.push(conn);
            }
            result
        })
        .await
        .map_err(StoreError::other)?
    }
}

/// `PRAGMA wal_checkpoint(TRUNCATE)` from a connection of its own (the
/// writer's is always inside a batch's transaction).
fn truncate_wal(path: &Path) -> StoreResult<()> {
    let conn = Connection::open(path)?;
    conn.execute_batch("PRAGMA busy_timeout = 5000;")?;
    let (busy, wal_frames, copied): (i64, i64, i64) =
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
    if busy != 0 {
        return Err(StoreError::other(format!(
            "the WAL checkpoint was blocked: {copied} of {wal_frames} frames copied"
        )));
    }
    Ok(())
}

fn open_reader(path: &Path) -> StoreResult<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.execute_batch("PRAGMA busy_timeout = 5000;")?;
    Ok(conn)
}

fn migrate(conn: &Connection, cipher: &SeedCipher) -> StoreResult<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
    )?;
    for (version, sql, then) in MIGRATIONS {
        let done: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?1)",
            [version],
            |r| r.get(0),
        )?;
        if !done {
            let tx = rusqlite::Transaction::new_unchecked(
                conn,
                rusqlite::TransactionBehavior::Immediate,
            )?;
            let step = || -> StoreResult<()> {
                tx.execute_batch(sql)?;
                if let Some(then) = then {
                    then(&tx)?;
                }
                Ok(())
            };
            step().map_err(|e| StoreError::context(format!("migration {version}"), e))?;
            tx.execute(
                "INSERT INTO schema_migrations (version) VALUES (?1)",
                [version],
            )?;
            tx.commit()?;
        }
    }
    check_fingerprint(conn, cipher)
}

/// Refuses to start with a key file that did not seal this database's seeds.
fn check_fingerprint(conn: &Connection, cipher: &SeedCipher) -> StoreResult<()> {
    use rusqlite::OptionalExtension;
    let stored: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = ?1",
            [crate::seal::KEY_FINGERPRINT],
            |r| r.get(0),
        )
        .optional()?;
    match stored {
        None => {
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                [crate::seal::KEY_FINGERPRINT, cipher.fingerprint()],
            )?;
            Ok(())
        }
        Some(stored) if stored == cipher.fingerprint() => Ok(()),
        Some(stored) => Err(StoreError::other(format!(
            "the seed key (fingerprint {}) is not the one this database was created with ({stored})",
            cipher.fingerprint()
        ))),
    }
}

crate::api::impl_store!(SqliteStore);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shared statement's SQLite text prepares against the schema.
    #[test]
    fn every_shared_statement_prepares() {
        let conn = Connection::open_in_memory().expect("open");
        migrate(&conn, &SeedCipher::from_key([7; 32])).expect("migrate");
        for statement in crate::sql::all() {
            let text = statement.sqlite();
            if let Err(e) = conn.prepare(text) {
                panic!("{e}: {text}");
            }
        }
    }
}

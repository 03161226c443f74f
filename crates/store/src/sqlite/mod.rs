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
mod players;
mod queries;
mod tx;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use rusqlite::{Connection, OpenFlags};
use tokio::sync::Semaphore;

use crate::error::{StoreError, StoreResult};
use crate::seal::SeedCipher;
use crate::settings::SqliteTuning;
use crate::time::now_ms;
use crate::tx::{run_ready, Tx};
use crate::types::{
    BetReceipt, BetRequest, BetRow, Commit, LeaseGrant, LoadedRound, LogRow, NewRecord, NewRound,
    NewSeedPair, Page, Player, RecordOut, RecordRow, RecordsFn, RevealedPair, Rotation, RoundFn,
    RoundRow, RoundUpdate, RoundsFn, SeedPair,
};
use crate::{leases, rounds, Store, Viewer};
use checkpoint::WalBound;
pub use checkpoint::WalStats;
use queries::SealedPair;
use tx::SqliteTx;
use writer::Writer;

const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/sqlite/0001_dice.sql")),
    (2, include_str!("../../migrations/sqlite/0002_rounds.sql")),
    (3, include_str!("../../migrations/sqlite/0003_versions.sql")),
    (4, include_str!("../../migrations/sqlite/0004_players.sql")),
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
             PRAGMA journal_size_limit = 67108864;",
        )?;
        migrate(&conn, &cipher)?;
        let alive = Arc::new(());
        checkpoint::spawn(path, Arc::downgrade(&alive))?;
        let wal = Arc::new(WalStats::default());
        let bound = WalBound::install(&conn, tuning, Arc::clone(&wal))?;
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
        })
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
        })
    }

    /// The WAL bound's counters (none for an in-memory database).
    pub fn wal_stats(&self) -> Option<Arc<WalStats>> {
        self.wal.clone()
    }

    /// The `-wal` file's size on disk now, if there is one.
    pub fn wal_file_bytes(&self) -> Option<u64> {
        let readers = self.readers.as_ref()?;
        let mut wal = readers.path.as_os_str().to_owned();
        wal.push("-wal");
        std::fs::metadata(wal).ok().map(|m| m.len())
    }

    /// Runs shared transaction logic on the writer.
    async fn write_tx<R, F>(&self, f: F) -> StoreResult<R>
    where
        R: Send + 'static,
        F: AsyncFnOnce(&mut SqliteTx<'_>) -> StoreResult<R> + Send + 'static,
    {
        self.writer
            .submit(move |c| run_ready(f(&mut SqliteTx(c)))?)
            .await
    }

    /// Runs shared read logic on a reader.
    async fn read_tx<R, F>(&self, f: F) -> StoreResult<R>
    where
        R: Send + 'static,
        F: AsyncFnOnce(&mut SqliteTx<'_>) -> StoreResult<R> + Send + 'static,
    {
        self.read(move |c| run_ready(f(&mut SqliteTx(c)))?).await
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
            if let Ok(mut idle) = readers.idle.lock() {
                idle.push(conn);
            }
            result
        })
        .await
        .map_err(StoreError::other)?
    }

    fn seal(&self, pair: &NewSeedPair) -> StoreResult<SealedPair> {
        Ok(SealedPair {
            sealed: self.cipher.seal(&pair.server_seed, &pair.commitment)?,
            commitment: pair.commitment.clone(),
            client_seed: pair.client_seed.clone(),
        })
    }
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
    for (version, sql) in MIGRATIONS {
        let done: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?1)",
            [version],
            |r| r.get(0),
        )?;
        if !done {
            conn.execute_batch(&format!(
                "BEGIN IMMEDIATE; {sql}; INSERT INTO schema_migrations (version) VALUES ({version}); COMMIT;"
            ))?;
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
            [crate::KEY_FINGERPRINT],
            |r| r.get(0),
        )
        .optional()?;
    match stored {
        None => {
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                [crate::KEY_FINGERPRINT, cipher.fingerprint()],
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

#[async_trait]
impl Store for SqliteStore {
    async fn health(&self) -> StoreResult<()> {
        self.read(|c| Ok(c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?))
            .await
            .map(drop)
    }

    async fn create_player(
        &self,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<(Player, SeedPair)> {
        let sealed = self.seal(&pair)?;
        let token_hash = token_hash.to_owned();
        self.writer
            .submit(move |c| queries::create_player(c, &token_hash, balance, &sealed))
            .await
    }

    async fn player_by_token(&self, token_hash: &str) -> StoreResult<Player> {
        let token_hash = token_hash.to_owned();
        self.read(move |c| queries::player_by_token(c, &token_hash))
            .await
    }

    async fn player(&self, id: i64) -> StoreResult<Player> {
        self.read(move |c| queries::player(c, id)).await
    }

    async fn current_pair(&self, player_id: i64) -> StoreResult<SeedPair> {
        self.read(move |c| queries::current_pair(c, player_id))
            .await
    }

    async fn set_client_seed(
        &self,
        player_id: i64,
        commitment: &str,
        client_seed: &str,
    ) -> StoreResult<SeedPair> {
        let (commitment, client_seed) = (commitment.to_owned(), client_seed.to_owned());
        self.writer
            .submit(move |c| queries::set_client_seed(c, player_id, &commitment, &client_seed))
            .await
    }

    async fn place_bet(&self, bet: BetRequest) -> StoreResult<BetReceipt> {
        let cipher = Arc::clone(&self.cipher);
        self.writer
            .submit(move |c| queries::place_bet(c, &cipher, bet))
            .await
    }

    async fn bets(
        &self,
        player_id: i64,
        pair_id: Option<i64>,
        page: Page,
    ) -> StoreResult<Vec<BetRow>> {
        self.read(move |c| queries::bets(c, player_id, pair_id, page))
            .await
    }

    async fn rotate(
        &self,
        player_id: i64,
        next: NewSeedPair,
        records: RecordsFn,
    ) -> StoreResult<Rotation> {
        let sealed = self.seal(&next)?;
        let cipher = Arc::clone(&self.cipher);
        self.writer
            .submit(move |c| queries::rotate(c, &cipher, player_id, &sealed, records))
            .await
    }

    async fn revealed_pairs(&self, player_id: i64, page: Page) -> StoreResult<Vec<RevealedPair>> {
        self.read(move |c| queries::revealed_pairs(c, player_id, page))
            .await
    }

    async fn insert_records(
        &self,
        owner: Option<i64>,
        records: Vec<NewRecord>,
    ) -> StoreResult<Vec<RecordRow>> {
        let records: Vec<RecordOut> = records
            .into_iter()
            .map(|record| RecordOut {
                record,
                readers: owner.into_iter().collect(),
            })
            .collect();
        self.writer
            .submit(move |c| queries::insert_records(c, &records))
            .await
    }

    async fn record(&self, viewer: Viewer, id: i64) -> StoreResult<RecordRow> {
        self.read(move |c| queries::record(c, viewer, id)).await
    }

    async fn records(&self, viewer: Viewer, page: Page) -> StoreResult<Vec<RecordRow>> {
        self.read(move |c| queries::records(c, viewer, page)).await
    }

    async fn records_after(
        &self,
        viewer: Viewer,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<RecordRow>> {
        self.read(move |c| queries::records_after(c, viewer, after, limit))
            .await
    }

    async fn create_round(&self, round: NewRound) -> StoreResult<RoundRow> {
        let sealed = self.cipher.seal(&round.secret, &round.commitment)?;
        self.write_tx(async move |tx| rounds::create_round(tx, &round, &sealed, now_ms()).await)
            .await
    }

    async fn round(&self, id: &str) -> StoreResult<RoundRow> {
        let id = id.to_owned();
        self.read_tx(async move |tx| rounds::round(tx, &id).await)
            .await
    }

    async fn update_round(&self, id: &str, step: RoundFn) -> StoreResult<RoundUpdate> {
        let ids = vec![id.to_owned()];
        let step: RoundsFn = Box::new(move |rounds| {
            let (row, secret) = rounds.first().ok_or(StoreError::NotFound("round"))?;
            Ok(vec![step(row, secret.as_ref())?])
        });
        let mut updates = self.update_rounds(ids, step).await?;
        updates.pop().ok_or(StoreError::NotFound("round"))
    }

    async fn update_rounds(
        &self,
        ids: Vec<String>,
        step: RoundsFn,
    ) -> StoreResult<Vec<RoundUpdate>> {
        let cipher = Arc::clone(&self.cipher);
        self.write_tx(async move |tx| {
            rounds::update_rounds(tx, &cipher, &ids, step, now_ms()).await
        })
        .await
    }

    async fn load_rounds(&self, ids: &[String]) -> StoreResult<Vec<LoadedRound>> {
        let ids = ids.to_vec();
        let cipher = Arc::clone(&self.cipher);
        self.read_tx(async move |tx| rounds::load_rounds(tx, &cipher, &ids).await)
            .await
    }

    async fn commit(&self, commit: Commit) -> StoreResult<Vec<RoundUpdate>> {
        let sealed = rounds::seal_commit(&self.cipher, commit)?;
        let cipher = Arc::clone(&self.cipher);
        self.write_tx(async move |tx| rounds::commit(tx, &cipher, sealed, now_ms()).await)
            .await
    }

    async fn idempotent_response(
        &self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>> {
        let (scope, key) = (scope.to_owned(), key.to_owned());
        self.read_tx(async move |tx| tx.idempotent(&scope, &key).await)
            .await
    }

    async fn acquire_lease(
        &self,
        resource: &str,
        owner: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> StoreResult<LeaseGrant> {
        let (resource, owner) = (resource.to_owned(), owner.to_owned());
        self.write_tx(async move |tx| leases::acquire(tx, &resource, &owner, now_ms, ttl_ms).await)
            .await
    }

    async fn renew_leases(&self, owner: &str, now_ms: i64, ttl_ms: i64) -> StoreResult<u64> {
        let owner = owner.to_owned();
        self.write_tx(async move |tx| tx.renew_leases(&owner, now_ms.saturating_add(ttl_ms)).await)
            .await
    }

    async fn expired_leases(&self, prefix: &str, now_ms: i64) -> StoreResult<Vec<String>> {
        let prefix = prefix.to_owned();
        self.read_tx(async move |tx| tx.expired_leases(&prefix, now_ms).await)
            .await
    }

    async fn release_lease(&self, resource: &str, owner: &str) -> StoreResult<()> {
        let (resource, owner) = (resource.to_owned(), owner.to_owned());
        self.write_tx(async move |tx| tx.release_lease(&resource, &owner).await)
            .await
    }

    async fn round_log(&self, id: &str, from_seq: u64, limit: u32) -> StoreResult<Vec<LogRow>> {
        let id = id.to_owned();
        self.read(move |c| queries::round_log(c, &id, from_seq, limit))
            .await
    }

    async fn rounds_with_status(&self, kind: &str, status: &str) -> StoreResult<Vec<String>> {
        let (kind, status) = (kind.to_owned(), status.to_owned());
        self.read(move |c| queries::rounds_with_status(c, &kind, &status))
            .await
    }

    async fn operator_player(
        &self,
        external_id: &str,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<crate::OperatorPlayer> {
        let sealed = self.seal(&pair)?;
        let (external_id, token_hash) = (external_id.to_owned(), token_hash.to_owned());
        self.writer
            .submit(move |c| {
                players::find_or_create(c, &external_id, &token_hash, balance, &sealed)
            })
            .await
    }

    async fn set_operator_player_token(
        &self,
        external_id: &str,
        token_hash: Option<&str>,
    ) -> StoreResult<(i64, String)> {
        let (external_id, token_hash) = (external_id.to_owned(), token_hash.map(str::to_owned));
        self.writer
            .submit(move |c| players::set_token(c, &external_id, token_hash.as_deref()))
            .await
    }

    async fn grant_chips(
        &self,
        external_id: &str,
        key: &str,
        amount: u128,
    ) -> StoreResult<crate::ChipGrant> {
        let (external_id, key) = (external_id.to_owned(), key.to_owned());
        self.writer
            .submit(move |c| players::grant(c, &external_id, &key, amount))
            .await
    }
}

//! PostgreSQL for the tests: when `FAIRSEED_TEST_DB_URI` is set (e.g.
//! postgres://postgres@127.0.0.1:5432/test) each test gets a fresh schema,
//! dropped when its guard is dropped — even when the test panics — so runs
//! leave nothing behind and never see each other's rows.
//!
//! A store's pool is closed before its schema is dropped: a transaction a
//! refused step rolled back may still hold its locks until its connection
//! is next used, and the drop would wait for it forever. Closing needs the
//! runtime the pool lives on to keep running, hence in-process tests on
//! PostgreSQL use `#[tokio::test(flavor = "multi_thread")]`.

use std::sync::atomic::{AtomicU32, Ordering};

use fairseed_store::{PgStore, SeedCipher};
use tokio::runtime::{Handle, RuntimeFlavor};

/// The test database URL, if PostgreSQL tests are asked for (set and not empty).
pub fn test_db_uri() -> Option<String> {
    std::env::var("FAIRSEED_TEST_DB_URI")
        .ok()
        .filter(|u| !u.is_empty())
}

/// The test database URL for a test that needs PostgreSQL. Without one the
/// test (or its PostgreSQL half) is skipped visibly (`skip::skip`) and this
/// returns `None`; with `FAIRSEED_REQUIRE_POSTGRES=1` (CI) a missing database
/// fails the test.
pub fn postgres_or_skip(test: &str) -> Option<String> {
    if let Some(url) = test_db_uri() {
        return Some(url);
    }
    super::skip::skip(
        test,
        "FAIRSEED_REQUIRE_POSTGRES",
        "needs PostgreSQL (set FAIRSEED_TEST_DB_URI, e.g. postgres://postgres@127.0.0.1:5432/test)",
    );
    None
}

/// A fresh schema of the test database; dropped with this guard.
pub struct Schema {
    url: String,
    pub name: String,
    /// The store on it, closed before the drop (none for server processes).
    store: Option<PgStore>,
}

impl Schema {
    /// Creates and migrates a fresh schema with `cipher`; returns the guard
    /// and a store on it. Inside a runtime, that runtime must be multi-thread.
    pub async fn connect(url: &str, cipher: SeedCipher) -> (Self, PgStore) {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let name = format!(
            "fairseed_t{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut guard = Self {
            url: url.to_owned(),
            name,
            store: None,
        };
        let store = PgStore::connect(url, Some(&guard.name), cipher)
            .await
            .expect("create the test schema");
        guard.store = Some(store.clone());
        (guard, store)
    }

    /// Like `connect` from outside any runtime; the store is closed, for
    /// server processes that open their own (see [`Schema::scoped_url`]).
    pub fn create(url: &str, cipher: SeedCipher) -> Self {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            let (mut guard, store) = Self::connect(url, cipher).await;
            store.close().await;
            guard.store = None;
            guard
        })
    }

    /// The database URL with this schema as the search path.
    pub fn scoped_url(&self) -> String {
        let sep = if self.url.contains('?') { '&' } else { '?' };
        format!("{}{sep}options=-c%20search_path%3D{}", self.url, self.name)
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let (url, name) = (self.url.clone(), self.name.clone());
        let store = self.store.take();
        let clean = async move {
            if let Some(store) = store {
                store.close().await;
            }
            PgStore::drop_schema(&url, &name).await
        };
        let dropped = match Handle::try_current() {
            Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(|| h.block_on(clean))
            }
            Ok(_) => {
                eprintln!(
                    "test schema {}: not dropped (a PostgreSQL test needs a multi-thread runtime)",
                    self.name
                );
                return;
            }
            // Outside any runtime: one of our own.
            Err(_) => tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime")
                .block_on(clean),
        };
        if let Err(e) = dropped {
            eprintln!("could not drop test schema {}: {e}", self.name);
        }
    }
}

/// For server processes on PostgreSQL: a data directory holding the seed
/// key, a fresh schema migrated with that key (dropped with its guard), and
/// the URL that points the processes at it.
pub struct ServerDatabase {
    pub dir: tempfile::TempDir,
    pub schema: Schema,
    pub url: String,
}

impl ServerDatabase {
    /// A fresh one in the test database at `url`.
    pub fn create(url: &str) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let cipher = fairseed_store::SeedCipher::load_or_create(&dir.path().join("seed.key"))
            .expect("seed key");
        let schema = Schema::create(url, cipher);
        let url = schema.scoped_url();
        Self { dir, schema, url }
    }
}

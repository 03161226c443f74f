//! A new log after a loss that cannot be bridged, as a transparency log
//! changes shards (decision 0024): the old log is frozen, written out as
//! static tiles (C2SP tlog-tiles) into `DATA_DIR/frozen/<id>/` and served
//! read-only at `/log/frozen/<old origin>/`, and the database's log starts
//! again from size 0 under a new origin and a new key.
//!
//! `fairseed new-log` ([`new_log`]) runs with the service stopped; every
//! later `fairseed serve` serves each frozen log ([`with_frozen`]) and lists
//! them at `/log/previous`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use axum::extract::Path as UrlPath;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use fairseed_store::{PgStore, SeedCipher, SqliteStore, Store};
use fairseed_tlog::{new_entry_bundles, new_hash_tiles, TilePath};
use serde::Serialize;

use crate::fork_guard::PUBLISHED_FILE;
use crate::log::key::LOG_KEY_FILE;
use crate::log::LogKey;

/// Where the frozen logs are, inside the data directory.
pub const FROZEN_DIR: &str = "frozen";
/// A frozen log's files: its origin, its verifier key, its last checkpoint
/// (the one its tiles reach), the newest checkpoint published beyond it if
/// any, and the log that follows it (origin and key).
const ORIGIN: &str = "origin";
const KEY: &str = "key";
const CHECKPOINT: &str = "checkpoint";
const PUBLISHED: &str = "published";
const NEXT: &str = "next";

/// What `fairseed new-log` did.
#[derive(Debug)]
pub struct NewLog {
    /// The old log's origin.
    pub old_origin: String,
    /// The size its tiles reach.
    pub size: u64,
    /// The size of the newest checkpoint published, when larger.
    pub published: Option<u64>,
    /// Where it was frozen.
    pub dir: PathBuf,
    /// The tiles written.
    pub tiles: usize,
    /// The new log's verifier key.
    pub vkey: String,
}

/// Freezes the log of the database in `data_dir` (SQLite there, or
/// PostgreSQL at `database`) and starts a new one under `origin`.
///
/// # Errors
/// No log to freeze, the same origin, a key that did not sign it, or a
/// file or the store failed (before the database changed, nothing is
/// changed but the frozen directory being written).
pub async fn new_log(
    data_dir: &Path,
    database: Option<&str>,
    origin: &str,
) -> anyhow::Result<NewLog> {
    anyhow::ensure!(
        !origin.trim().is_empty(),
        "--origin: empty; the new log's name, e.g. \"fair.example/fairseed/2\""
    );
    let cipher = SeedCipher::load_or_create(&data_dir.join("seed.key")).context("the seed key")?;
    let store: Arc<dyn Store> = match database {
        Some(url) => Arc::new(
            PgStore::connect(url, None, cipher)
                .await
                .context("connecting to PostgreSQL")?,
        ),
        None => Arc::new(
            SqliteStore::open(&data_dir.join("fairseed.sqlite"), cipher)
                .context("opening the SQLite database")?,
        ),
    };
    let head = store
        .log_checkpoint()
        .await
        .context("reading the log's newest checkpoint")?
        .context("the database's log has no signed checkpoint: there is no log to freeze")?;
    let old_origin = head.note.lines().next().unwrap_or_default().to_owned();
    anyhow::ensure!(
        old_origin != origin,
        "--origin: {origin:?} is the old log's own origin; a new log needs a new name"
    );
    let key_path = data_dir.join(LOG_KEY_FILE);
    anyhow::ensure!(
        key_path.exists(),
        "{} is missing: the old log's key is frozen with it",
        key_path.display()
    );
    let old_key = LogKey::load_or_create(&key_path, &old_origin)?;
    anyhow::ensure!(
        fairseed_tlog::open_checkpoint(head.note.as_bytes(), old_key.vkey()).is_ok(),
        "{} did not sign the database's log ({old_origin}, size {})",
        key_path.display(),
        head.size
    );
    let dir = data_dir.join(FROZEN_DIR).join(frozen_id(&old_origin));
    anyhow::ensure!(
        !dir.exists(),
        "{} exists: a log of origin {old_origin:?} was frozen here already",
        dir.display()
    );
    fairseed_store::create_private_dir(&dir).with_context(|| format!("{}", dir.display()))?;
    let write = |name: &str, bytes: &[u8]| -> anyhow::Result<()> {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))
    };
    write(ORIGIN, old_origin.as_bytes())?;
    write(KEY, old_key.vkey().as_bytes())?;
    write(CHECKPOINT, head.cosigned_note().as_bytes())?;
    let mut tiles = new_hash_tiles(0, head.size);
    tiles.extend(new_entry_bundles(0, head.size));
    for tile in &tiles {
        let bytes = crate::log::read::tile(store.as_ref(), tile, head.size)
            .await
            .map_err(|e| anyhow::anyhow!("reading {}: {}", tile.path(), e.chain()))?;
        write(&tile.path(), &bytes)?;
    }
    // The newest checkpoint players and witnesses saw, if beyond the tiles:
    // what the entries lost were promised against.
    let record = data_dir.join(PUBLISHED_FILE);
    let mut published = None;
    if record.exists() {
        let note =
            std::fs::read(&record).with_context(|| format!("reading {}", record.display()))?;
        if let Ok(size) = published_size(&note, old_key.vkey()) {
            if size > head.size {
                write(PUBLISHED, &note)?;
                published = Some(size);
            }
        }
    }
    store
        .start_new_log()
        .await
        .context("starting the database's new log")?;
    // Nothing signs the old origin again: its key goes with it, and so does
    // its published record (the new log starts a record of its own).
    std::fs::rename(&key_path, dir.join(LOG_KEY_FILE))
        .with_context(|| format!("moving {}", key_path.display()))?;
    if record.exists() {
        std::fs::rename(&record, dir.join(PUBLISHED_FILE))
            .with_context(|| format!("moving {}", record.display()))?;
    }
    let new_key = LogKey::load_or_create(&key_path, origin)?;
    write(NEXT, format!("{origin}\n{}\n", new_key.vkey()).as_bytes())?;
    Ok(NewLog {
        old_origin,
        size: head.size,
        published,
        dir,
        tiles: tiles.len(),
        vkey: new_key.vkey().to_owned(),
    })
}

/// The tree size of a checkpoint note signed by `vkey`.
fn published_size(note: &[u8], vkey: &str) -> anyhow::Result<u64> {
    let body = fairseed_tlog::open_checkpoint(note, vkey).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(body.size())
}

/// The frozen directory's name for `origin`: 16 hex characters of its
/// `sha256` (an origin may hold `/`).
fn frozen_id(origin: &str) -> String {
    fairseed_core::sha256_hex(origin.as_bytes())[..16].to_owned()
}

/// A frozen log as `/log/previous` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct Frozen {
    /// Its origin.
    pub origin: String,
    /// Its verifier key.
    pub key: String,
    /// Where it is served: `checkpoint`, `key` and `tile/...` below it.
    pub prefix: String,
    /// The log that follows it: origin, then key.
    pub next: Vec<String>,
    #[serde(skip)]
    dir: PathBuf,
}

/// The frozen logs in `data_dir`, oldest origin first.
///
/// # Errors
/// A frozen directory cannot be read.
pub fn frozen(data_dir: &Path) -> anyhow::Result<Vec<Frozen>> {
    let root = data_dir.join(FROZEN_DIR);
    if !root.exists() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&root).with_context(|| format!("reading {}", root.display()))? {
        let dir = entry?.path();
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name))
                .with_context(|| format!("reading {}", dir.join(name).display()))
        };
        let origin = read(ORIGIN)?;
        out.push(Frozen {
            prefix: format!("/log/frozen/{origin}"),
            key: read(KEY)?,
            next: read(NEXT)?.lines().map(str::to_owned).collect(),
            origin,
            dir,
        });
    }
    out.sort_by(|a, b| a.origin.cmp(&b.origin));
    Ok(out)
}

/// Refuses `origin` if a log of that origin is frozen in `data_dir`: it
/// ended, and a log under its name again would be a second history.
///
/// # Errors
/// As said, or a frozen directory cannot be read.
pub fn not_frozen(data_dir: &Path, origin: &str) -> anyhow::Result<()> {
    if let Some(log) = frozen(data_dir)?.into_iter().find(|l| l.origin == origin) {
        anyhow::bail!(
            "log_origin is {origin:?}, the origin of a log that was frozen ({}) and goes on as \
             {:?}: set log_origin to the new log's origin",
            log.dir.display(),
            log.next.first().map_or("", String::as_str)
        );
    }
    Ok(())
}

/// `app` serving the frozen logs of `data_dir` read-only: each at
/// `/log/frozen/<origin>/` (`checkpoint`, `key`, `published`, `tile/...`),
/// and their list at `/log/previous`.
///
/// # Errors
/// A frozen directory cannot be read.
pub fn with_frozen(app: Router, data_dir: &Path) -> anyhow::Result<Router> {
    let logs = Arc::new(frozen(data_dir)?);
    let listed = Arc::clone(&logs);
    Ok(app
        .route(
            "/log/previous",
            get(move || {
                let listed = Arc::clone(&listed);
                async move { Json(listed.as_ref().clone()) }
            }),
        )
        .route(
            "/log/frozen/{*path}",
            get(move |UrlPath(path): UrlPath<String>| {
                let logs = Arc::clone(&logs);
                async move { serve_file(&logs, &path) }
            }),
        ))
}

fn serve_file(logs: &[Frozen], path: &str) -> Response {
    let found = logs.iter().find_map(|log| {
        path.strip_prefix(log.origin.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            .map(|rest| (log, rest))
    });
    let Some((log, rest)) = found else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (kind, cache) = match rest {
        CHECKPOINT | KEY | PUBLISHED => ("text/plain; charset=utf-8", "public, max-age=3600"),
        // Only a tile's own spelling: nothing else of the directory is served.
        _ if TilePath::parse(rest).is_ok() => (
            "application/octet-stream",
            "public, max-age=31536000, immutable",
        ),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    match std::fs::read(log.dir.join(rest)) {
        Ok(bytes) => (
            [(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, cache)],
            bytes,
        )
            .into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

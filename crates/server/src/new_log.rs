//! A new log after a loss that cannot be bridged, as a transparency log
//! changes shards (decision 0024): the old log is frozen, written out as
//! static tiles (C2SP tlog-tiles) into `DATA_DIR/frozen/<id>/` and served
//! read-only at `/log/frozen/<old origin>/`, and the database's log starts
//! again from size 0 under a new origin and a new key.
//!
//! `fairseed new-log` ([`new_log`]) runs with the service stopped; every
//! later `fairseed serve` serves each frozen log ([`with_frozen`]) and lists
//! them at `/log/previous`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::Context as _;
use axum::extract::Path as UrlPath;
use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use base64::prelude::{Engine as _, BASE64_STANDARD};
use fairseed_store::{PgStore, SeedCipher, SqliteStore, Store};
use fairseed_tlog::{
    decode_bundle, leaf_hash, new_entry_bundles, new_hash_tiles, MemoryLog, TilePath,
};
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
    /// Its leaves, read from its tiles at the first receipt asked of it.
    #[serde(skip)]
    leaves: Arc<OnceLock<Result<Leaves, String>>>,
}

/// A frozen log's tree, for receipts: every leaf hash, and the index of each.
#[derive(Debug)]
struct Leaves {
    tree: MemoryLog,
    index: HashMap<[u8; 32], u64>,
    /// The size of its checkpoint (the tiles reach it).
    size: u64,
    /// Its checkpoint, as served.
    checkpoint: String,
}

/// The receipt of an entry of a frozen log (`GET /log/receipts/{entry_hash}`
/// when the entry is not in the current log, or
/// `GET /log/frozen/<origin>/receipts/{entry_hash}`): the frozen log, the
/// entry, and its inclusion proof to the frozen log's checkpoint.
#[derive(Debug, Clone, Serialize)]
pub struct FrozenReceipt {
    /// The frozen log: its origin, key, prefix and the log that follows it.
    pub frozen: Frozen,
    /// The entry's bytes, base64 (docs/spec.md §16.1).
    pub entry: String,
    /// Its RFC 6962 leaf hash, hex.
    pub entry_hash: String,
    /// Its leaf index in the frozen log.
    pub leaf_index: u64,
    /// The inclusion proof (base64 hashes) to `checkpoint`.
    pub inclusion_proof: Vec<String>,
    /// The frozen log's last checkpoint, signed by its key (and cosigned as
    /// it was).
    pub checkpoint: String,
}

impl Frozen {
    /// The receipt of the entry with leaf hash `hash` if this log holds it.
    ///
    /// # Errors
    /// Its files cannot be read or do not make the tree its checkpoint
    /// signs.
    fn receipt(&self, hash: &[u8; 32]) -> anyhow::Result<Option<FrozenReceipt>> {
        let leaves = self
            .leaves
            .get_or_init(|| read_leaves(&self.dir, &self.key).map_err(|e| format!("{e:#}")))
            .as_ref()
            .map_err(|e| anyhow::anyhow!("frozen log {:?}: {e}", self.origin))?;
        let Some(&index) = leaves.index.get(hash) else {
            return Ok(None);
        };
        let bundle = fairseed_tlog::TilePath {
            kind: fairseed_tlog::TileKind::Entries,
            index: index / TILE,
            width: u32::try_from((leaves.size - index / TILE * TILE).min(TILE)).unwrap_or(256),
        };
        let bytes = std::fs::read(self.dir.join(bundle.path()))
            .with_context(|| format!("reading {}", bundle.path()))?;
        let entries =
            decode_bundle(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", bundle.path()))?;
        let entry = entries
            .get(usize::try_from(index % TILE)?)
            .with_context(|| format!("{} lacks entry {index}", bundle.path()))?;
        let proof = leaves
            .tree
            .inclusion_proof(index, leaves.size)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Some(FrozenReceipt {
            frozen: self.clone(),
            entry: BASE64_STANDARD.encode(entry),
            entry_hash: hex::encode(hash),
            leaf_index: index,
            inclusion_proof: crate::log::receipt::base64_hashes(&proof),
            checkpoint: leaves.checkpoint.clone(),
        }))
    }
}

/// Entries per full tile (C2SP tlog-tiles).
const TILE: u64 = 256;

/// A frozen log's tree read from its entry bundles, checked against its
/// checkpoint (signed by `vkey`).
fn read_leaves(dir: &Path, vkey: &str) -> anyhow::Result<Leaves> {
    let checkpoint = std::fs::read_to_string(dir.join(CHECKPOINT)).context("reading checkpoint")?;
    let head = fairseed_tlog::open_checkpoint(checkpoint.as_bytes(), vkey)
        .map_err(|e| anyhow::anyhow!("its checkpoint: {e}"))?;
    let size = head.size();
    let mut tree = MemoryLog::new();
    let mut index = HashMap::new();
    for bundle in new_entry_bundles(0, size) {
        let bytes = std::fs::read(dir.join(bundle.path()))
            .with_context(|| format!("reading {}", bundle.path()))?;
        for entry in decode_bundle(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", bundle.path()))? {
            let at = tree.append(entry);
            index.entry(leaf_hash(entry).0).or_insert(at);
        }
    }
    let root = tree.root(size).map_err(|e| anyhow::anyhow!("{e}"))?;
    anyhow::ensure!(
        tree.size() == size && root == *head.hash(),
        "its tiles hold {} entries whose root is not its checkpoint's (size {size})",
        tree.size()
    );
    Ok(Leaves {
        tree,
        index,
        size,
        checkpoint,
    })
}

/// The receipt of the entry with leaf hash `hex` in one of `logs`, the
/// oldest origin first: `Ok(None)` if none holds it (or `hex` is no hash).
///
/// # Errors
/// A frozen log's files cannot be read.
fn frozen_receipt(logs: &[Frozen], hex: &str) -> anyhow::Result<Option<FrozenReceipt>> {
    let Some(hash) = hex::decode(hex)
        .ok()
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
    else {
        return Ok(None);
    };
    for log in logs {
        if let Some(found) = log.receipt(&hash)? {
            return Ok(Some(found));
        }
    }
    Ok(None)
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
            leaves: Arc::default(),
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
/// `/log/frozen/<origin>/` (`checkpoint`, `key`, `published`, `tile/...`,
/// and `receipts/<entry_hash>`), and their list at `/log/previous`. A
/// receipt `app` does not find (`GET /log/receipts/<entry_hash>` answering
/// 404: not in the current log) is looked up in the frozen logs.
///
/// # Errors
/// A frozen directory cannot be read.
pub fn with_frozen(app: Router, data_dir: &Path) -> anyhow::Result<Router> {
    let logs = Arc::new(frozen(data_dir)?);
    let listed = Arc::clone(&logs);
    let looked_up = Arc::clone(&logs);
    let app = if logs.is_empty() {
        app
    } else {
        app.layer(axum::middleware::from_fn(
            move |request: Request, next: Next| {
                let logs = Arc::clone(&looked_up);
                async move { or_frozen(&logs, request, next).await }
            },
        ))
    };
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
                async move { serve_frozen(logs, &path).await }
            }),
        ))
}

/// `next`'s answer, or, for a receipt it does not find, the frozen log's.
async fn or_frozen(logs: &Arc<Vec<Frozen>>, request: Request, next: Next) -> Response {
    let hash = request
        .uri()
        .path()
        .strip_prefix("/log/receipts/")
        .map(str::to_owned);
    let answer = next.run(request).await;
    match hash {
        Some(hash) if answer.status() == StatusCode::NOT_FOUND => {
            match receipt_answer(Arc::clone(logs), hash).await {
                Some(found) => found,
                None => answer,
            }
        }
        _ => answer,
    }
}

/// The frozen logs' answer for a receipt: `None` if none holds the entry.
async fn receipt_answer(logs: Arc<Vec<Frozen>>, hash: String) -> Option<Response> {
    let found = tokio::task::spawn_blocking(move || frozen_receipt(&logs, &hash)).await;
    match found {
        Ok(Ok(Some(receipt))) => Some(
            (
                [(header::CACHE_CONTROL, "public, max-age=3600")],
                Json(receipt),
            )
                .into_response(),
        ),
        Ok(Ok(None)) => None,
        Ok(Err(e)) => {
            tracing::error!(error = format!("{e:#}"), "reading a frozen log's receipt");
            Some(StatusCode::INTERNAL_SERVER_ERROR.into_response())
        }
        Err(e) => {
            tracing::error!(error = %e, "reading a frozen log's receipt");
            Some(StatusCode::INTERNAL_SERVER_ERROR.into_response())
        }
    }
}

/// A frozen log's file, or `<origin>/receipts/<entry_hash>`: that log's
/// receipt of the entry.
async fn serve_frozen(logs: Arc<Vec<Frozen>>, path: &str) -> Response {
    let receipt = logs.iter().enumerate().find_map(|(i, log)| {
        path.strip_prefix(log.origin.as_str())
            .and_then(|rest| rest.strip_prefix("/receipts/"))
            .map(|hash| (i, hash.to_owned()))
    });
    let Some((i, hash)) = receipt else {
        return serve_file(&logs, path);
    };
    let one = Arc::new(vec![logs[i].clone()]);
    receipt_answer(one, hash)
        .await
        .unwrap_or_else(|| StatusCode::NOT_FOUND.into_response())
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

#[cfg(test)]
mod tests {
    use super::*;
    use fairseed_tlog::{check_inclusion, encode_bundle, TileKind};

    const OLD: &str = "fair.example/fairseed";

    /// A data directory holding one frozen log of `n` entries, as
    /// `fairseed new-log` writes it; returns the entries and the old vkey.
    fn frozen_dir(data: &Path, n: u64) -> (Vec<Vec<u8>>, String) {
        let key = LogKey::new(OLD, &[7; 32]).expect("a key");
        let entries: Vec<Vec<u8>> = (0..n).map(|i| format!("entry {i}").into_bytes()).collect();
        let mut tree = MemoryLog::new();
        for e in &entries {
            tree.append(e);
        }
        let dir = data.join(FROZEN_DIR).join(frozen_id(OLD));
        for bundle in new_entry_bundles(0, n) {
            let from = usize::try_from(bundle.index * TILE).expect("small");
            let to = from + usize::try_from(bundle.width).expect("small");
            let path = dir.join(bundle.path());
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, encode_bundle(&entries[from..to]).expect("a bundle"))
                .expect("write");
        }
        let head = fairseed_tlog::checkpoint(OLD, n, tree.root(n).expect("a root"), &[])
            .expect("a checkpoint");
        let note = fairseed_tlog::sign_checkpoint(key.note_key(), &head).expect("signed");
        std::fs::write(dir.join(CHECKPOINT), note).expect("write");
        std::fs::write(dir.join(ORIGIN), OLD).expect("write");
        std::fs::write(dir.join(KEY), key.vkey()).expect("write");
        std::fs::write(dir.join(NEXT), "fair.example/fairseed/2\nnew+key\n").expect("write");
        (entries, key.vkey().to_owned())
    }

    /// `GET path` through `with_frozen` over an app whose own receipts
    /// route finds nothing, and one route it answers itself.
    async fn fetch(data: &Path, path: &str) -> (StatusCode, Vec<u8>) {
        use http_body_util::BodyExt as _;
        use tower::ServiceExt as _;
        let app = Router::new()
            .route(
                "/log/receipts/{hash}",
                get(|| async { StatusCode::NOT_FOUND }),
            )
            .route("/log/checkpoint", get(|| async { "current" }));
        let app = with_frozen(app, data).expect("frozen logs read");
        let req = axum::http::Request::builder()
            .uri(path)
            .body(axum::body::Body::empty())
            .expect("request");
        let res = app.oneshot(req).await.expect("infallible");
        let status = res.status();
        let body = res.into_body().collect().await.expect("body").to_bytes();
        (status, body.to_vec())
    }

    #[tokio::test]
    async fn an_entry_of_a_frozen_log_has_its_receipt_against_the_frozen_checkpoint() {
        let data = tempfile::tempdir().expect("tempdir");
        // Past one full tile, so the entry is read from the partial bundle.
        let (entries, vkey) = frozen_dir(data.path(), 300);
        for index in [0_u64, 255, 256, 299] {
            let entry = &entries[usize::try_from(index).expect("small")];
            let hash = hex::encode(leaf_hash(entry).0);
            for path in [
                format!("/log/receipts/{hash}"),
                format!("/log/frozen/{OLD}/receipts/{hash}"),
            ] {
                let (status, body) = fetch(data.path(), &path).await;
                assert_eq!(status, StatusCode::OK, "{path}");
                let r: serde_json::Value = serde_json::from_slice(&body).expect("json");
                assert_eq!(r["frozen"]["origin"], OLD);
                assert_eq!(r["frozen"]["key"], vkey.as_str());
                assert_eq!(r["frozen"]["prefix"], format!("/log/frozen/{OLD}"));
                assert_eq!(r["leaf_index"], index);
                assert_eq!(r["entry_hash"], hash.as_str());
                let bytes = BASE64_STANDARD
                    .decode(r["entry"].as_str().expect("entry"))
                    .expect("base64");
                assert_eq!(&bytes, entry);
                let proof: Vec<fairseed_tlog::Hash> = r["inclusion_proof"]
                    .as_array()
                    .expect("a proof")
                    .iter()
                    .map(|h| {
                        let b = BASE64_STANDARD
                            .decode(h.as_str().expect("a hash"))
                            .expect("b64");
                        fairseed_tlog::Hash(b.try_into().expect("32 bytes"))
                    })
                    .collect();
                let note = r["checkpoint"].as_str().expect("a checkpoint");
                let head = check_inclusion(&vkey, &bytes, index, &proof, note.as_bytes())
                    .expect("the proof leads to the frozen checkpoint");
                assert_eq!(head.size(), 300);
            }
        }
        // An entry of no log, a hash that is no hash: the app's own 404.
        let other = hex::encode(leaf_hash(b"entry 300").0);
        for path in [
            format!("/log/receipts/{other}"),
            format!("/log/frozen/{OLD}/receipts/{other}"),
            "/log/receipts/xyz".to_owned(),
        ] {
            assert_eq!(
                fetch(data.path(), &path).await.0,
                StatusCode::NOT_FOUND,
                "{path}"
            );
        }
        // What the app answers itself is untouched.
        let (status, body) = fetch(data.path(), "/log/checkpoint").await;
        assert_eq!(
            (status, body.as_slice()),
            (StatusCode::OK, b"current".as_slice())
        );
    }

    #[tokio::test]
    async fn a_frozen_log_whose_tiles_do_not_make_its_checkpoint_gives_no_receipt() {
        let data = tempfile::tempdir().expect("tempdir");
        let (entries, _) = frozen_dir(data.path(), 10);
        let bundle = TilePath {
            kind: TileKind::Entries,
            index: 0,
            width: 10,
        };
        let mut changed = entries.clone();
        changed[3] = b"entry three".to_vec();
        let dir = data.path().join(FROZEN_DIR).join(frozen_id(OLD));
        std::fs::write(
            dir.join(bundle.path()),
            encode_bundle(&changed).expect("bundle"),
        )
        .expect("write");
        let hash = hex::encode(leaf_hash(&entries[0]).0);
        let (status, _) = fetch(data.path(), &format!("/log/receipts/{hash}")).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    }
}

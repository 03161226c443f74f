//! A restored database never forks the log (docs/spec.md §16.10).
//!
//! A backup is older than what the log published: checkpoints of a larger
//! tree went to browsers, witnesses and monitors. Signing from the restored
//! tree would put other entries at those positions, a fork every one of
//! them flags. So before the sequencer signs anything, `serve` asks:
//!
//! - its own published record, `DATA_DIR/log.published`: the newest
//!   checkpoint this data directory's process signed, rewritten as the log
//!   grows and never part of a backup (`fairseed restore` leaves it);
//! - every configured witness, with an `add-checkpoint` of the local head:
//!   a witness that cosigned a larger tree answers 409 with its size.
//!
//! If any holds a larger size than the database, `serve` refuses to start
//! and says what to do. After `fairseed restore` (the marker
//! `DATA_DIR/restored.toml`) an unreachable witness also refuses, and so
//! does having nothing to ask (no record, no witness): nothing then proves
//! the restore is not behind. The operator may then put the newest
//! checkpoint found elsewhere in the record file; only a checkpoint signed
//! by the log's key counts. The marker goes once the restore's unrevealed
//! secrets are retired ([`crate::retire`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;

use crate::args::WitnessArg;
use crate::error::Chain;
use crate::log::LogKey;
use crate::state::AppState;

/// The newest checkpoint this data directory's process signed.
pub const PUBLISHED_FILE: &str = "log.published";
/// Written by `fairseed restore`; removed once a start found the restore
/// not behind.
pub const RESTORED_FILE: &str = "restored.toml";

/// The manifest `fairseed backup` writes in a backup's directory.
pub const BACKUP_MANIFEST: &str = "backup.toml";

/// How often the published record is brought up to date.
const RECORD_EVERY: Duration = Duration::from_secs(1);

/// Fails unless nothing outside the database holds a larger tree.
///
/// # Errors
/// The database is behind a published checkpoint (the message says which
/// and what to do), or after a restore a witness cannot be asked.
pub async fn check(
    state: &AppState,
    key: &LogKey,
    witnesses: &[WitnessArg],
    data_dir: &Path,
) -> anyhow::Result<()> {
    let head = state
        .store()
        .log_checkpoint()
        .await
        .context("reading the log's newest checkpoint")?;
    let local = head.as_ref().map_or(0, |h| h.size);
    let restored = data_dir.join(RESTORED_FILE);
    let after_restore = restored.exists();
    let mut newest: Option<(u64, String)> = None;
    let mut consider = |size: u64, source: String| {
        if size > local && newest.as_ref().is_none_or(|(n, _)| size > *n) {
            newest = Some((size, source));
        }
    };
    // Whether anything outside the database was asked at all.
    let mut consulted = false;
    let record = data_dir.join(PUBLISHED_FILE);
    if let Some(size) = published_size(&record, key)? {
        consulted = true;
        consider(size, format!("the published record {}", record.display()));
    }
    if let Some(head) = &head {
        for witness in witnesses {
            match crate::log::witness::held_size(state, witness, head).await {
                Ok(size) => {
                    consulted = true;
                    consider(size, format!("the witness {}", witness.url));
                }
                Err(e) if after_restore => anyhow::bail!(
                    "after a restore the log is signed only once every witness confirmed it is \
                     not behind, and {} cannot be asked: {}; start again when it answers, or \
                     remove it from `witnesses` knowing that a fork it saw would then go unnoticed",
                    witness.url,
                    Chain(&*e)
                ),
                Err(e) => tracing::warn!(witness = %witness.url, error = %Chain(&*e),
                    "the witness could not be asked whether it holds a larger tree"),
            }
        }
    }
    if let Some((size, source)) = newest {
        anyhow::bail!(
            "the log in this database ends at size {local}, but {source} holds a checkpoint \
             of size {size} signed by this log ({origin}): the database is behind what was \
             published (restored from an older backup?) and signing now would fork the log. \
             Nothing was signed. Restore a newer copy that reaches size {size} (a later backup, \
             the PostgreSQL standby or its archived WAL) and start again; if those entries are \
             lost for good, the log cannot go on under this origin: start a new log \
             (new log_origin, new log.key) and announce it (docs/operating.md, \"Backup and restore\")",
            origin = key.origin()
        );
    }
    // An empty log (a new one, `fairseed new-log`) has nothing to fork.
    if after_restore && !consulted && head.is_some() {
        anyhow::bail!(
            "after a restore the log is signed only once something outside the database says \
             it is not behind, and there is nothing to ask: no published record {} and no \
             witness. Put the newest checkpoint of this log you can find (a monitor's or a \
             witness's, `GET /log/checkpoint` from a cache or a player) in that file, or \
             configure a witness, and start again (docs/operating.md, \"Backup and restore\")",
            record.display()
        );
    }
    if after_restore {
        // The marker stays until the restore's secrets are retired
        // (`crate::retire`).
        tracing::info!(
            size = local,
            "restored log checked: not behind any published checkpoint"
        );
    }
    Ok(())
}

/// The log's key, `DATA_DIR/log.key`, made only while the database's log
/// has nothing signed: once it has, a missing key, another key or another
/// origin would sign a second history under the name players pinned, so
/// the start stops and says the way forward.
///
/// # Errors
/// As said, or the key file or the database cannot be read.
pub async fn log_key(
    store: &dyn fairseed_store::Store,
    data_dir: &Path,
    origin: &str,
) -> anyhow::Result<LogKey> {
    let path = data_dir.join(crate::log::key::LOG_KEY_FILE);
    let head = store
        .log_checkpoint()
        .await
        .context("reading the log's newest checkpoint")?;
    let Some(head) = head else {
        return LogKey::load_or_create(&path, origin);
    };
    let signed_as = head.note.lines().next().unwrap_or_default().to_owned();
    let size = head.size;
    let forward =
        "or, if it is lost for good, start a new log (docs/operating.md, \"Starting a new log\")";
    anyhow::ensure!(
        path.exists(),
        "{} is missing, but the log in the database ({signed_as}) has signed checkpoints up to \
         size {size}: a new key would sign a second history under that name. Put back this \
         data directory's log.key (a backup holds it: `fairseed restore` copies it), {forward}",
        path.display()
    );
    let key = LogKey::load_or_create(&path, origin)?;
    anyhow::ensure!(
        signed_as == origin,
        "log_origin is {origin:?}, but the log in the database was signed as {signed_as:?} up \
         to size {size}: set log_origin back to {signed_as:?} (a changed origin is a new log \
         to every page and witness), {forward}"
    );
    anyhow::ensure!(
        fairseed_tlog::open_checkpoint(head.note.as_bytes(), key.vkey()).is_ok(),
        "{} is not the key that signed the log in the database ({signed_as}, size {size}): put \
         back this data directory's own log.key, {forward}",
        path.display()
    );
    Ok(key)
}

/// Refuses to serve a backup's directory in place: it is restored first.
///
/// # Errors
/// `data_dir` holds a backup's manifest.
pub fn not_a_backup_dir(data_dir: &Path) -> anyhow::Result<()> {
    let manifest = data_dir.join(BACKUP_MANIFEST);
    anyhow::ensure!(
        !manifest.exists(),
        "{} is a backup written by `fairseed backup` ({} is in it), not a data directory: \
         serving it would skip the restore's checks and could fork the log or replay rolls \
         players saw. Restore it: `fairseed restore --from {} --data-dir <an empty data directory>`",
        data_dir.display(),
        BACKUP_MANIFEST,
        data_dir.display()
    );
    Ok(())
}

/// Refuses a backup's copy of the SQLite database put in place by hand.
///
/// # Errors
/// The database at `path` is a backup's copy `fairseed restore` did not
/// restore, or cannot be read.
pub fn not_a_backup_copy(path: &Path) -> anyhow::Result<()> {
    if !path.exists() {
        return Ok(());
    }
    let copied = fairseed_store::backup::backup_copy_of(path)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    if let Some(at_ms) = copied {
        anyhow::bail!(
            "{} is a copy made by `fairseed backup` (at {at_ms} ms since the epoch) put in place \
             by hand: serving it would skip the restore's checks and could fork the log or \
             replay rolls players saw. Move it away and restore the backup: `fairseed restore \
             --from <the backup directory> --data-dir {}`",
            path.display(),
            path.parent()
                .map_or_else(String::new, |p| p.display().to_string())
        );
    }
    Ok(())
}

/// The size of the checkpoint in the record, if there is one signed by
/// this log's key.
fn published_size(path: &Path, key: &LogKey) -> anyhow::Result<Option<u64>> {
    let note = match std::fs::read(path) {
        Ok(note) => note,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    match fairseed_tlog::open_checkpoint(&note, key.vkey()) {
        Ok(checkpoint) => Ok(Some(checkpoint.size())),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %Chain(&e),
                "the published record is not a checkpoint of this log; ignored");
            Ok(None)
        }
    }
}

/// Keeps `DATA_DIR/log.published` at the newest signed checkpoint.
pub fn spawn_record(state: AppState, data_dir: PathBuf) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut written = 0;
        loop {
            written = record(&state, &data_dir, written).await;
            tokio::time::sleep(RECORD_EVERY).await;
        }
    })
}

/// Writes the newest checkpoint if it is larger than `written`; returns
/// the size now on disk.
pub async fn record(state: &AppState, data_dir: &Path, written: u64) -> u64 {
    let head = match state.store().log_checkpoint().await {
        Ok(Some(head)) if head.size > written => head,
        Ok(_) => return written,
        Err(e) => {
            tracing::warn!(error = %Chain(&e), "reading the newest checkpoint for the published record");
            return written;
        }
    };
    let path = data_dir.join(PUBLISHED_FILE);
    let tmp = data_dir.join(format!("{PUBLISHED_FILE}.tmp"));
    let _ = std::fs::remove_file(&tmp);
    let written_now = fairseed_store::write_private(&tmp, head.note.as_bytes())
        .map_err(fairseed_store::BoxError::from)
        .and_then(|()| std::fs::rename(&tmp, &path).map_err(fairseed_store::BoxError::from));
    match written_now {
        Ok(()) => head.size,
        Err(e) => {
            tracing::warn!(error = %Chain(&*e), "writing the published record");
            written
        }
    }
}

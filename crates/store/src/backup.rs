//! A consistent copy of a SQLite database while it serves (`fairseed
//! backup`): `VACUUM INTO` reads one snapshot in a single read transaction
//! (the WAL's committed state when it began, nothing half-written) and
//! writes a compact database file, while the writer goes on committing.
//! PostgreSQL is backed up with its own tools (`pg_dump`, base backups).

use std::path::Path;

use crate::error::StoreResult;

/// What a copy holds, read back from the copy itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackupSummary {
    /// The size of the newest signed log checkpoint in the copy (0: none).
    pub log_size: u64,
    /// Dice bets in the copy.
    pub bets: u64,
}

/// Copies the database at `database` into the new file `dest`.
///
/// # Errors
/// The database cannot be opened or read, `dest` exists or cannot be
/// written.
pub fn sqlite_backup(database: &Path, dest: &Path) -> StoreResult<BackupSummary> {
    if dest.exists() {
        return Err(crate::StoreError::other(format!(
            "{} exists; a backup never overwrites",
            dest.display()
        )));
    }
    let source = rusqlite::Connection::open_with_flags(
        database,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    source.busy_timeout(std::time::Duration::from_secs(30))?;
    let dest_text = dest
        .to_str()
        .ok_or_else(|| crate::StoreError::other("the backup path is not UTF-8"))?;
    source.execute("VACUUM INTO ?1", [dest_text])?;
    drop(source);
    restrict(dest)?;
    rusqlite::Connection::open(dest)?.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
        [COPY_MARK, &crate::time::now_ms().to_string()],
    )?;
    summary(dest)
}

/// The `meta` key marking a backup's copy of the database: `fairseed
/// serve` refuses it until `fairseed restore` has put it in a data
/// directory (which removes the mark), so a copy served in place or copied
/// by hand never skips the restore's checks.
const COPY_MARK: &str = "backup_copy";

/// When (Unix ms) the database at `path` was copied by a backup, if it is
/// a backup's copy not yet restored.
///
/// # Errors
/// It cannot be opened or read.
pub fn backup_copy_of(path: &Path) -> StoreResult<Option<i64>> {
    let db = read_only(path)?;
    let has_meta: bool = db.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta')",
        [],
        |r| r.get(0),
    )?;
    if !has_meta {
        return Ok(None);
    }
    let mut stmt = db.prepare("SELECT value FROM meta WHERE key = ?1")?;
    let mut rows = stmt.query([COPY_MARK])?;
    Ok(match rows.next()? {
        Some(row) => Some(row.get::<_, String>(0)?.parse().unwrap_or(0)),
        None => None,
    })
}

/// Removes the backup's mark from a restored copy at `path`.
///
/// # Errors
/// It cannot be opened or written.
pub fn unmark_restored(path: &Path) -> StoreResult<()> {
    rusqlite::Connection::open(path)?.execute("DELETE FROM meta WHERE key = ?1", [COPY_MARK])?;
    Ok(())
}

/// What the SQLite database at `path` holds.
///
/// # Errors
/// It cannot be opened or is not a fairseed database.
pub fn sqlite_summary(path: &Path) -> StoreResult<BackupSummary> {
    summary(path)
}

fn summary(path: &Path) -> StoreResult<BackupSummary> {
    let db = read_only(path)?;
    let log_size: i64 = db.query_row(
        "SELECT COALESCE(MAX(size), 0) FROM log_checkpoints",
        [],
        |r| r.get(0),
    )?;
    let bets: i64 = db.query_row("SELECT COUNT(*) FROM bets", [], |r| r.get(0))?;
    Ok(BackupSummary {
        log_size: u64::try_from(log_size).unwrap_or(0),
        bets: u64::try_from(bets).unwrap_or(0),
    })
}

/// The database at `path`, opened for reading only.
fn read_only(path: &Path) -> StoreResult<rusqlite::Connection> {
    Ok(rusqlite::Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?)
}

/// Mode 0600, like the database it copies.
fn restrict(path: &Path) -> StoreResult<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(crate::StoreError::other)?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

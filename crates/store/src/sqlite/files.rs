//! The database files are private to the service's user.
//!
//! They hold token hashes and sealed seeds. SQLite creates the `-wal` and
//! `-shm` files with the database file's own permissions, so creating that
//! file 0600 before SQLite opens it covers a new directory without touching
//! the process umask; files left by an older version, or copied in, are
//! narrowed to 0600 at every start.

use std::path::{Path, PathBuf};

use crate::error::{StoreError, StoreResult};

/// The database file and its two companions.
fn files(db: &Path) -> [PathBuf; 3] {
    let with = |suffix: &str| {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    [db.to_owned(), with("-wal"), with("-shm")]
}

/// Creates `db` empty with mode 0600 if absent, and sets 0600 on it and on
/// any `-wal`/`-shm` beside it.
pub(crate) fn make_private(db: &Path) -> StoreResult<()> {
    let fail = |what: &str, path: &Path, e: std::io::Error| {
        StoreError::context(format!("{what} {}", path.display()), e)
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(db).map_err(|e| fail("creating", db, e))?;
    #[cfg(unix)]
    for path in files(db) {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(fail("restricting", &path, e))
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).map_or(0, |m| m.permissions().mode() & 0o777)
    }

    #[test]
    fn new_and_existing_files_end_0600() {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("fairseed.sqlite");
        make_private(&db).expect("new");
        assert_eq!(mode(&db), 0o600);
        for path in files(&db) {
            std::fs::write(&path, b"").expect("write");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        }
        make_private(&db).expect("existing");
        for path in files(&db) {
            assert_eq!(mode(&path), 0o600, "{}", path.display());
        }
    }
}

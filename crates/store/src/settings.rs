//! Where the data lives: which backend, and how to reach it.

use std::fmt;
use std::path::PathBuf;

/// The database to open.
#[derive(Clone, PartialEq, Eq)]
pub enum DbSettings {
    /// An SQLite file (created if absent).
    Sqlite(PathBuf),
    /// An in-memory SQLite database, gone with the process (tests).
    SqliteMemory,
    /// A PostgreSQL URL, optionally confined to one schema.
    Postgres {
        /// `postgres://user:password@host:port/db`
        url: String,
        /// Schema to create and use instead of `public`.
        schema: Option<String>,
    },
}

impl fmt::Debug for DbSettings {
    /// Never prints a password: the URL's credentials are masked.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            Self::SqliteMemory => f.write_str("SqliteMemory"),
            Self::Postgres { url, schema } => f
                .debug_struct("Postgres")
                .field("url", &redact_url(url))
                .field("schema", schema)
                .finish(),
        }
    }
}

/// How the SQLite backend keeps its files in bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SqliteTuning {
    /// Log length past which the writer restarts the WAL between two group
    /// commits. The `-wal` file stays near this size (a batch more at most).
    pub wal_checkpoint_bytes: u64,
}

impl SqliteTuning {
    /// 64 MiB: a few seconds of bets at full speed, so the restart is rare,
    /// while the file stays far below any disk's size.
    pub const DEFAULT_WAL_CHECKPOINT_BYTES: u64 = 64 << 20;
}

impl Default for SqliteTuning {
    fn default() -> Self {
        Self {
            wal_checkpoint_bytes: Self::DEFAULT_WAL_CHECKPOINT_BYTES,
        }
    }
}

/// `scheme://user:secret@host/…` → `scheme://user:***@host/…`; also masks a
/// `password=` query parameter.
pub(crate) fn redact_url(url: &str) -> String {
    let mut out = url.to_owned();
    if let Some(scheme_end) = out.find("://") {
        let rest_start = scheme_end + 3;
        let authority_end = out[rest_start..]
            .find(['/', '?'])
            .map_or(out.len(), |i| rest_start + i);
        if let Some(at) = out[rest_start..authority_end].rfind('@') {
            let userinfo = &out[rest_start..rest_start + at];
            if let Some(colon) = userinfo.find(':') {
                let start = rest_start + colon + 1;
                out.replace_range(start..rest_start + at, "***");
            }
        }
    }
    if let Some(pos) = out.find("password=") {
        let start = pos + "password=".len();
        let end = out[start..].find('&').map_or(out.len(), |i| start + i);
        out.replace_range(start..end, "***");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_passwords() {
        let s = DbSettings::Postgres {
            url: "postgres://app:hunter2@db:5432/x?sslmode=disable&password=hunter3".into(),
            schema: None,
        };
        let shown = format!("{s:?}");
        assert!(
            !shown.contains("hunter2") && !shown.contains("hunter3"),
            "{shown}"
        );
        assert!(shown.contains("postgres://app:***@db:5432/x"), "{shown}");
        assert_eq!(
            redact_url("postgres://postgres@h/db"),
            "postgres://postgres@h/db"
        );
    }
}

//! Where `fairseed audit` reads a log from: a directory laid out as the log's
//! `/log/` prefix (`checkpoint`, `key`, `tile/...`), or its URL over plain HTTP.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};

/// A log's files, by path below its prefix.
pub enum Source {
    /// A directory holding `checkpoint`, `tile/...` and optionally `key`.
    Dir(PathBuf),
    /// A URL prefix such as `http://host/log`.
    Http { base: String, agent: ureq::Agent },
}

/// The most bytes one file may have: an entry bundle is at most 256 entries of 64 KiB.
const MAX_FILE: u64 = 256 * 65_538;

impl Source {
    /// A URL (`http://…`) or a directory.
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        if text.starts_with("https://") {
            bail!("{text}: this build speaks plain HTTP only; copy the log to a directory (checkpoint, key, tile/...) and audit that");
        }
        if text.starts_with("http://") {
            let agent = ureq::Agent::config_builder()
                .timeout_global(Some(Duration::from_secs(60)))
                .build()
                .new_agent();
            return Ok(Self::Http {
                base: text.trim_end_matches('/').to_owned(),
                agent,
            });
        }
        let dir = PathBuf::from(text);
        if !dir.is_dir() {
            bail!("{text}: not a directory nor an http:// URL");
        }
        Ok(Self::Dir(dir))
    }

    /// The file at `path` below the prefix; `Ok(None)` if there is none.
    pub fn get(&self, path: &str) -> anyhow::Result<Option<Vec<u8>>> {
        match self {
            Self::Dir(dir) => match std::fs::read(dir.join(path)) {
                Ok(bytes) => Ok(Some(bytes)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => {
                    Err(e).with_context(|| format!("cannot read {}", dir.join(path).display()))
                }
            },
            Self::Http { base, agent } => {
                let url = format!("{base}/{path}");
                match agent.get(&url).call() {
                    Ok(mut response) => {
                        let body = response
                            .body_mut()
                            .with_config()
                            .limit(MAX_FILE)
                            .read_to_vec();
                        Ok(Some(body.with_context(|| format!("cannot read {url}"))?))
                    }
                    Err(ureq::Error::StatusCode(404)) => Ok(None),
                    Err(e) => Err(e).with_context(|| format!("cannot fetch {url}")),
                }
            }
        }
    }

    /// A tile for the checker: a missing or unreadable tile is `None`, named by the
    /// audit as missing; the first read error is kept for the message.
    pub fn tile(&self, path: &str, error: &std::cell::RefCell<Option<String>>) -> Option<Vec<u8>> {
        match self.get(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                error.borrow_mut().get_or_insert_with(|| format!("{e:#}"));
                None
            }
        }
    }
}

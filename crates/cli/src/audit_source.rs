//! Where `fairseed audit` reads a log from: a directory laid out as the log's
//! `/log/` prefix (`checkpoint`, `key`, `tile/...`), or its URL over HTTP or
//! HTTPS (rustls; the Mozilla roots, or the CAs of a file the auditor names).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use ureq::tls::{Certificate, RootCerts, TlsConfig};

/// A log's files, by path below its prefix.
pub enum Source {
    /// A directory holding `checkpoint`, `tile/...` and optionally `key`.
    Dir(PathBuf),
    /// A URL prefix such as `https://host/log`.
    Http { base: String, agent: ureq::Agent },
}

/// The TLS roots: the Mozilla set built in, or only the certificates of `ca_file`.
fn tls(ca_file: Option<&Path>) -> anyhow::Result<TlsConfig> {
    let Some(path) = ca_file else {
        return Ok(TlsConfig::builder().build());
    };
    let pem = std::fs::read(path)
        .with_context(|| format!("--ca-file: cannot read {}", path.display()))?;
    let certs = ureq::tls::parse_pem(&pem)
        .filter_map(|item| match item {
            Ok(ureq::tls::PemItem::Certificate(cert)) => Some(Ok(cert)),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        })
        .collect::<Result<Vec<Certificate<'static>>, _>>()
        .with_context(|| format!("--ca-file: {} is not PEM", path.display()))?;
    if certs.is_empty() {
        bail!("--ca-file: {} holds no certificate", path.display());
    }
    Ok(TlsConfig::builder()
        .root_certs(RootCerts::new_with_certs(&certs))
        .build())
}

/// The most bytes one file may have: an entry bundle is at most 256 entries of 64 KiB.
const MAX_FILE: u64 = 256 * 65_538;

impl Source {
    /// A URL (`https://…` or `http://…`) or a directory. `ca_file` (PEM)
    /// replaces the built-in roots for HTTPS, for a log behind its own CA.
    pub fn parse(text: &str, ca_file: Option<&Path>) -> anyhow::Result<Self> {
        if text.starts_with("https://") || text.starts_with("http://") {
            let agent = ureq::Agent::config_builder()
                .timeout_global(Some(Duration::from_secs(60)))
                .tls_config(tls(ca_file)?)
                .build()
                .new_agent();
            return Ok(Self::Http {
                base: text.trim_end_matches('/').to_owned(),
                agent,
            });
        }
        if ca_file.is_some() {
            bail!("--ca-file: only for an https:// log, not a directory");
        }
        let dir = PathBuf::from(text);
        if !dir.is_dir() {
            bail!("{text}: not a directory nor an http(s):// URL");
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

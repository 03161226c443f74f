//! HTTPS on the service's own listener (rustls with ring): a certificate
//! chain and its key from PEM files, read again on SIGHUP.
//!
//! The acceptor asks a resolver for the certificate at every handshake, and
//! a reload swaps what the resolver holds: new connections get the new
//! certificate, open ones keep the session they have. A reload that fails
//! (a missing file, a key that does not match) keeps the current pair.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use anyhow::Context as _;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio_rustls::TlsAcceptor;

/// The TLS side of the listener.
#[derive(Clone)]
pub struct Tls {
    cert: PathBuf,
    key: PathBuf,
    provider: Arc<CryptoProvider>,
    current: Arc<Current>,
    acceptor: TlsAcceptor,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("cert", &self.cert)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// The pair handshakes use now.
#[derive(Debug)]
struct Current(RwLock<Arc<CertifiedKey>>);

impl ResolvesServerCert for Current {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.0.read().ok().map(|k| Arc::clone(&k))
    }
}

impl Tls {
    /// Reads the pair and builds the acceptor (TLS 1.2 and 1.3, HTTP/1.1).
    ///
    /// # Errors
    /// A file cannot be read, holds no certificate or key, or the key is not
    /// the certificate's.
    pub fn load(cert: &Path, key: &Path) -> anyhow::Result<Self> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let pair = read_pair(cert, key, &provider)?;
        let current = Arc::new(Current(RwLock::new(Arc::new(pair))));
        let mut config = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
            .with_safe_default_protocol_versions()
            .context("TLS: the protocol versions")?
            .with_no_client_auth()
            .with_cert_resolver(Arc::clone(&current) as Arc<dyn ResolvesServerCert>);
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Self {
            cert: cert.to_owned(),
            key: key.to_owned(),
            provider,
            current,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        })
    }

    /// Reads the files again and, if they hold a valid pair, serves it to
    /// the next handshakes.
    ///
    /// # Errors
    /// As [`Tls::load`]; the current pair then stays.
    pub fn reload(&self) -> anyhow::Result<()> {
        let pair = read_pair(&self.cert, &self.key, &self.provider)?;
        let mut current = self
            .current
            .0
            .write()
            .map_err(|_| anyhow::anyhow!("TLS: the certificate lock is poisoned"))?;
        *current = Arc::new(pair);
        Ok(())
    }

    /// The acceptor for new connections.
    pub fn acceptor(&self) -> TlsAcceptor {
        self.acceptor.clone()
    }
}

fn read_pair(cert: &Path, key: &Path, provider: &CryptoProvider) -> anyhow::Result<CertifiedKey> {
    let chain = CertificateDer::pem_file_iter(cert)
        .with_context(|| format!("tls_cert: reading {}", cert.display()))?
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| {
            format!(
                "tls_cert: {} is not a PEM certificate chain",
                cert.display()
            )
        })?;
    anyhow::ensure!(
        !chain.is_empty(),
        "tls_cert: {} holds no certificate",
        cert.display()
    );
    let private = PrivateKeyDer::from_pem_file(key)
        .with_context(|| format!("tls_key: {} holds no PEM private key", key.display()))?;
    let signing = provider
        .key_provider
        .load_private_key(private)
        .with_context(|| format!("tls_key: {} is not a usable key", key.display()))?;
    let pair = CertifiedKey::new(chain, signing);
    pair.keys_match().with_context(|| {
        format!(
            "tls_key: {} is not the key of {}",
            key.display(),
            cert.display()
        )
    })?;
    Ok(pair)
}

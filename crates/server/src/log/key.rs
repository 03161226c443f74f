//! The log's Ed25519 key: created on first start in the data directory
//! (mode 0600, like the seed and operator keys), named by the log's origin.

use std::path::Path;

use anyhow::Context as _;
use fairseed_tlog::NoteKey;

/// The key file's name inside the data directory.
pub const LOG_KEY_FILE: &str = "log.key";

/// The log's signing key and its public names. Its `Debug` shows the origin only.
#[derive(Debug, Clone)]
pub struct LogKey {
    key: NoteKey,
    vkey: String,
}

impl LogKey {
    /// The key named `origin` from its 32 private bytes.
    ///
    /// # Errors
    /// The origin is not a valid note key name (empty, spaces or `+`).
    pub fn new(origin: &str, private: &[u8; 32]) -> anyhow::Result<Self> {
        let key = NoteKey::from_private_bytes(origin, private)
            .with_context(|| format!("--log-origin {origin:?}"))?;
        Ok(Self {
            vkey: key.vkey(),
            key,
        })
    }

    /// Reads `path` (32 bytes), or creates it with 32 bytes from the OS CSPRNG.
    ///
    /// # Errors
    /// The file cannot be read or written, or has another length.
    pub fn load_or_create(path: &Path, origin: &str) -> anyhow::Result<Self> {
        if path.exists() {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            let private: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                anyhow::anyhow!("{} has {} bytes, expected 32", path.display(), bytes.len())
            })?;
            return Self::new(origin, &private);
        }
        let private = crate::secrets::random_bytes()
            .map_err(|_| anyhow::anyhow!("the OS random generator failed"))?;
        fairseed_store::write_private(path, &private)?;
        Self::new(origin, &private)
    }

    /// The signing key.
    pub fn note_key(&self) -> &NoteKey {
        &self.key
    }

    /// The log's origin (its name, the key's name).
    pub fn origin(&self) -> &str {
        self.key.name()
    }

    /// The verifier key in note `vkey` form.
    pub fn vkey(&self) -> &str {
        &self.vkey
    }
}

//! Unrevealed server seeds are sealed (XChaCha20-Poly1305) with a key that
//! lives in a file outside the database, so a copy of the database alone
//! reveals no future roll.

use std::fmt;
use std::io::Write;
use std::path::Path;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use sha2::{Digest, Sha256};

use crate::error::{StoreError, StoreResult};

const NONCE_LEN: usize = 24;

/// A server seed in the clear: the 64-hex string of docs/spec.md §2.1.
///
/// It exists only in memory between unsealing and use; `Debug` is redacted.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretSeed(String);

impl SecretSeed {
    /// Wraps the hex of a freshly drawn server seed.
    pub fn new(hex: String) -> Self {
        Self(hex)
    }

    /// The seed hex; callers pass it straight to the core.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SecretSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretSeed(..)")
    }
}

/// The sealing key. `Debug` shows only the key's fingerprint.
#[derive(Clone)]
pub struct SeedCipher {
    aead: XChaCha20Poly1305,
    fingerprint: String,
}

impl fmt::Debug for SeedCipher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeedCipher")
            .field("fingerprint", &self.fingerprint)
            .finish()
    }
}

impl SeedCipher {
    /// A cipher over a 32-byte key.
    pub fn from_key(key: [u8; 32]) -> Self {
        let fingerprint =
            hex::encode(&Sha256::digest([b"fairseed-seal-key:".as_slice(), &key].concat())[..8]);
        Self {
            aead: XChaCha20Poly1305::new(&key.into()),
            fingerprint,
        }
    }

    /// A fresh random key, for tests and in-memory stores.
    pub fn random() -> StoreResult<Self> {
        let mut key = [0u8; 32];
        getrandom::getrandom(&mut key).map_err(StoreError::other)?;
        Ok(Self::from_key(key))
    }

    /// Loads the key file, creating it (mode 0600, 32 random bytes) on first start.
    pub fn load_or_create(path: &Path) -> StoreResult<Self> {
        if path.exists() {
            let bytes = std::fs::read(path).map_err(|e| {
                StoreError::other(format!("reading seed key {}: {e}", path.display()))
            })?;
            let key: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                StoreError::other(format!(
                    "seed key {} has {} bytes, expected 32",
                    path.display(),
                    bytes.len()
                ))
            })?;
            return Ok(Self::from_key(key));
        }
        let mut key = [0u8; 32];
        getrandom::getrandom(&mut key).map_err(StoreError::other)?;
        write_private(path, &key)?;
        Ok(Self::from_key(key))
    }

    /// A short, non-secret name of the key, stored in the database so a
    /// mismatched key file is noticed at start instead of at the first bet.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Seals a seed; `binding` (its commitment) is authenticated with it so a
    /// sealed seed cannot be moved to another row.
    pub fn seal(&self, seed: &SecretSeed, binding: &str) -> StoreResult<Vec<u8>> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::getrandom(&mut nonce).map_err(StoreError::other)?;
        let sealed = self
            .aead
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: seed.0.as_bytes(),
                    aad: binding.as_bytes(),
                },
            )
            .map_err(|_| StoreError::other("sealing a server seed failed"))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// Opens a sealed seed; fails if the key or the binding is wrong.
    pub fn open(&self, sealed: &[u8], binding: &str) -> StoreResult<SecretSeed> {
        if sealed.len() <= NONCE_LEN {
            return Err(StoreError::other("sealed server seed is truncated"));
        }
        let (nonce, body) = sealed.split_at(NONCE_LEN);
        let plain = self
            .aead
            .decrypt(
                XNonce::from_slice(nonce),
                Payload {
                    msg: body,
                    aad: binding.as_bytes(),
                },
            )
            .map_err(|_| StoreError::other("a sealed server seed does not open with this key"))?;
        String::from_utf8(plain)
            .map(SecretSeed)
            .map_err(|_| StoreError::other("a sealed server seed is not text"))
    }
}

/// Writes a secret file readable by its owner only.
pub fn write_private(path: &Path, bytes: &[u8]) -> StoreResult<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .map_err(|e| StoreError::other(format!("creating {}: {e}", path.display())))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| StoreError::other(format!("writing {}: {e}", path.display())))?;
    // The key must outlive a power loss as surely as the seeds it seals:
    // sync the directory entry too.
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| StoreError::other(format!("syncing {}: {e}", dir.display())))?;
    }
    Ok(())
}

/// Creates `dir` (and its parents) readable by its owner only, unless it
/// exists: the home of the secret files [`write_private`] writes.
pub fn create_private_dir(dir: &Path) -> StoreResult<()> {
    if dir.exists() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(dir)
        .map_err(|e| StoreError::other(format!("creating {}: {e}", dir.display())))
}

/// Compares two secrets' hex digests in constant time.
pub(crate) fn ct_eq_str(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The meta key under which the sealing key's fingerprint is kept.
pub(crate) const KEY_FINGERPRINT: &str = "seal_key_fingerprint";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_round_trip_and_binding() {
        let cipher = SeedCipher::from_key([7; 32]);
        let seed = SecretSeed::new("ab".repeat(32));
        let sealed = cipher.seal(&seed, "c1").expect("seal");
        assert!(!sealed
            .windows(8)
            .any(|w| w == &seed.expose().as_bytes()[..8]));
        assert_eq!(cipher.open(&sealed, "c1").expect("open"), seed);
        assert!(
            cipher.open(&sealed, "c2").is_err(),
            "binding is authenticated"
        );
        assert!(SeedCipher::from_key([8; 32]).open(&sealed, "c1").is_err());
        assert_eq!(format!("{seed:?}"), "SecretSeed(..)");
    }

    #[test]
    fn key_file_is_private_and_stable() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("seed.key");
        let a = SeedCipher::load_or_create(&path).expect("create");
        let b = SeedCipher::load_or_create(&path).expect("load");
        assert_eq!(a.fingerprint(), b.fingerprint());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}

//! C2SP `signed-note` (<https://c2sp.org/signed-note>) with Ed25519 keys.
//!
//! A note is UTF-8 text ending in a newline, a blank line, then one line per
//! signature: `— <name> <base64(key hash (4 bytes) || signature)>`. The key
//! hash is the first 4 bytes of `SHA-256(name || 0x0A || 0x01 || public key)`.
//! A verifier key is published as `<name>+<hex key hash>+<base64(0x01 || public key)>`.
//! Parsing and verifying are `signed_note`'s (a port of Go's `sumdb/note`).

use ed25519_dalek::{Signer as _, SigningKey};
use signed_note::{Note, Signer, StandardVerifier, VerifierList};

use crate::error::TlogError;

/// The signature type byte of Ed25519 in note keys.
const ALG_ED25519: u8 = 0x01;

/// A named Ed25519 signing key for notes. Its `Debug` shows the name only.
#[derive(Clone)]
pub struct NoteKey {
    name: String,
    key: SigningKey,
    key_id: u32,
}

impl std::fmt::Debug for NoteKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NoteKey")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl NoteKey {
    /// A key named `name` (usually the log's origin) from the 32-byte Ed25519 private key
    /// (the seed of RFC 8032), which the caller created and keeps.
    ///
    /// # Errors
    /// [`TlogError::BadKey`] if the name is empty or has spaces or `+`.
    pub fn from_private_bytes(name: &str, private_key: &[u8; 32]) -> Result<Self, TlogError> {
        if !signed_note::is_key_name_valid(name) {
            return Err(TlogError::BadKey(format!(
                "key name {name:?} must be non-empty, without spaces or '+'"
            )));
        }
        let key = SigningKey::from_bytes(private_key);
        let key_id = key_hash(name, &key.verifying_key().to_bytes());
        Ok(Self {
            name: name.to_owned(),
            key,
            key_id,
        })
    }

    /// The key's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The 32-byte Ed25519 public key.
    pub fn public_key(&self) -> [u8; 32] {
        self.key.verifying_key().to_bytes()
    }

    /// The verifier key in note `vkey` format: `<name>+<hex key hash>+<base64(0x01 || public key)>`.
    pub fn vkey(&self) -> String {
        signed_note::new_ed25519_verifier_key(&self.name, &self.key.verifying_key())
    }

    /// Signs `text` (which must end in a newline) and returns the whole signed note.
    ///
    /// # Errors
    /// [`TlogError::BadNote`] if the text is not a valid note text.
    pub fn sign(&self, text: &str) -> Result<String, TlogError> {
        let mut note = Note::new(text.as_bytes(), &[]).map_err(note_error)?;
        note.add_sigs(&[self]).map_err(note_error)?;
        String::from_utf8(note.to_bytes())
            .map_err(|_| TlogError::BadNote("signed note is not UTF-8".into()))
    }
}

impl Signer for NoteKey {
    fn name(&self) -> &str {
        &self.name
    }

    fn key_id(&self) -> u32 {
        self.key_id
    }

    fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, ed25519_dalek::SignatureError> {
        Ok(self.key.sign(msg).to_bytes().to_vec())
    }
}

/// The note key hash of an Ed25519 key: the first 4 bytes, big-endian, of
/// `SHA-256(name || 0x0A || 0x01 || public key)`.
pub fn key_hash(name: &str, public_key: &[u8; 32]) -> u32 {
    let mut encoded = Vec::with_capacity(33);
    encoded.push(ALG_ED25519);
    encoded.extend_from_slice(public_key);
    signed_note::key_id(name, &encoded)
}

/// Checks that `vkey` is a verifier key in note `vkey` form.
///
/// # Errors
/// [`TlogError::BadKey`] naming what is wrong.
pub fn check_vkey(vkey: &str) -> Result<(), TlogError> {
    StandardVerifier::new(vkey)
        .map(|_| ())
        .map_err(|e| TlogError::BadKey(format!("verifier key: {e}")))
}

/// Verifies `note` against the verifier key `vkey` and returns its text.
///
/// Signatures by other keys are allowed (a witness may cosign), but the note
/// must carry a valid one by `vkey`.
///
/// # Errors
/// [`TlogError::BadKey`] for a malformed `vkey`; [`TlogError::BadNote`] for a
/// malformed note, a bad signature, or none by `vkey`.
pub fn open_note(note: &[u8], vkey: &str) -> Result<String, TlogError> {
    let verifier =
        StandardVerifier::new(vkey).map_err(|e| TlogError::BadKey(format!("verifier key: {e}")))?;
    let parsed = Note::from_bytes(note).map_err(note_error)?;
    parsed
        .verify(&VerifierList::new(vec![Box::new(verifier)]))
        .map_err(note_error)?;
    String::from_utf8(parsed.text().to_vec())
        .map_err(|_| TlogError::BadNote("text is not UTF-8".into()))
}

fn note_error(err: signed_note::NoteError) -> TlogError {
    TlogError::BadNote(err.to_string())
}

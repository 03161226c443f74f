//! C2SP `tlog-cosignature` (<https://c2sp.org/tlog-cosignature>): a witness's
//! Ed25519 cosignature on a checkpoint, checked here (the signing side is the
//! witness's, `fairseed_audit::witness`).
//!
//! A cosigner's verifier key is `<name>+<hex key id>+base64(0x04 || public key)`,
//! the key id being `SHA-256(name || "\n" || 0x04 || public key)[:4]`. A
//! cosignature is a note signature line `— <name> base64(key id || timestamp
//! (8 bytes, big-endian) || signature)`, the Ed25519 signature being over
//! `cosignature/v1\ntime <timestamp>\n` followed by the checkpoint's text.
//! A log publishes it by appending the line to its signed checkpoint.

use base64::Engine as _;
use ed25519_dalek::{Signature, VerifyingKey};
use signed_note::Note;

use crate::error::TlogError;

/// The signature type byte of Ed25519 cosignatures (`cosignature/v1`).
pub const ALG_COSIGNATURE_V1: u8 = 0x04;

/// Key id (4) + timestamp (8) + Ed25519 signature (64).
const COSIGNATURE_BYTES: usize = 76;

/// A witness's cosigner verifier key, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CosignerKey {
    name: String,
    key_id: u32,
    key: VerifyingKey,
    vkey: String,
}

impl CosignerKey {
    /// Parses `<name>+<hex key id>+base64(0x04 || public key)`.
    ///
    /// # Errors
    /// [`TlogError::BadKey`] naming what is wrong: the shape, the type byte,
    /// the key, or a key id that is not the key's.
    pub fn parse(vkey: &str) -> Result<Self, TlogError> {
        let bad = |m: &str| TlogError::BadKey(format!("witness key {vkey:?}: {m}"));
        let mut parts = vkey.splitn(3, '+');
        let (Some(name), Some(id), Some(key)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad("expected <name>+<key id>+<base64 key>"));
        };
        if !signed_note::is_key_name_valid(name) {
            return Err(bad("the name is empty or has spaces or '+'"));
        }
        let key_id = (id.len() == 8)
            .then(|| u32::from_str_radix(id, 16).ok())
            .flatten()
            .ok_or_else(|| bad("the key id is not 8 hex digits"))?;
        let typed = base64::engine::general_purpose::STANDARD
            .decode(key)
            .map_err(|_| bad("the key is not base64"))?;
        let Some((&ALG_COSIGNATURE_V1, public)) = typed.split_first() else {
            return Err(bad("not a cosignature/v1 key (type 0x04)"));
        };
        let public: [u8; 32] = public
            .try_into()
            .map_err(|_| bad("the public key is not 32 bytes"))?;
        if signed_note::key_id(name, &typed) != key_id {
            return Err(bad("the key id does not match the name and key"));
        }
        let key = VerifyingKey::from_bytes(&public).map_err(|_| bad("not an Ed25519 key"))?;
        Ok(Self {
            name: name.to_owned(),
            key_id,
            key,
            vkey: vkey.to_owned(),
        })
    }

    /// The cosigner's name (the name its signature lines carry).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The verifier key as given.
    pub fn vkey(&self) -> &str {
        &self.vkey
    }

    /// Whether `name`/`key_id` of a signature line are this key's.
    fn is_signer(&self, name: &str, key_id: u32) -> bool {
        self.name == name && self.key_id == key_id
    }

    /// Checks one cosignature (`key id || timestamp || signature`) on the
    /// checkpoint `text`; its timestamp if it verifies.
    fn check(&self, text: &[u8], sig: &[u8]) -> Option<u64> {
        let (time, signature) = sig.split_at_checked(8)?;
        let time = u64::from_be_bytes(time.try_into().ok()?);
        let signature = Signature::from_slice(signature).ok()?;
        let mut message = format!("cosignature/v1\ntime {time}\n").into_bytes();
        message.extend_from_slice(text);
        self.key
            .verify_strict(&message, &signature)
            .ok()
            .map(|()| time)
    }

    /// Verifies one signature line (`— <name> <base64>`, with or without its
    /// newline) as this key's cosignature on the checkpoint `text`; its timestamp.
    ///
    /// # Errors
    /// [`TlogError::BadNote`] if the line is malformed, by another key, or does not verify.
    pub fn verify_line(&self, text: &str, line: &str) -> Result<u64, TlogError> {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let parsed = signed_note::Signature::from_bytes(line.as_bytes())
            .map_err(|_| TlogError::BadNote("not a signature line".into()))?;
        if !self.is_signer(parsed.name(), parsed.id()) {
            return Err(TlogError::BadNote(format!(
                "the line is not signed by witness {}",
                self.name
            )));
        }
        if parsed.signature().len() + 4 != COSIGNATURE_BYTES {
            return Err(TlogError::BadNote("not a cosignature/v1 signature".into()));
        }
        self.check(text.as_bytes(), parsed.signature())
            .ok_or_else(|| TlogError::BadNote(format!("witness {}: bad cosignature", self.name)))
    }
}

/// The witnesses among `keys` with a valid cosignature on the signed note
/// `note`, by their index in `keys`, each once, in order. Lines by other keys
/// and lines that do not verify are left out; a note that cannot be parsed is an error.
///
/// # Errors
/// [`TlogError::BadNote`] if `note` is not a signed note.
pub fn cosigned_by(note: &[u8], keys: &[CosignerKey]) -> Result<Vec<usize>, TlogError> {
    let parsed = Note::from_bytes(note).map_err(|e| TlogError::BadNote(e.to_string()))?;
    let bytes = parsed.to_bytes();
    let text = parsed.text();
    let mut found = Vec::new();
    for line in signature_lines(&bytes, text.len()) {
        let Ok(sig) = signed_note::Signature::from_bytes(line) else {
            continue;
        };
        for (i, key) in keys.iter().enumerate() {
            if !found.contains(&i)
                && key.is_signer(sig.name(), sig.id())
                && sig.signature().len() + 4 == COSIGNATURE_BYTES
                && key.check(text, sig.signature()).is_some()
            {
                found.push(i);
            }
        }
    }
    found.sort_unstable();
    Ok(found)
}

/// The signature lines of a note's bytes whose text is `text_len` long.
fn signature_lines(note: &[u8], text_len: usize) -> impl Iterator<Item = &[u8]> {
    note.get(text_len + 1..)
        .unwrap_or_default()
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
}

/// `note` with the signature `lines` (each `— …\n`) appended: the cosigned checkpoint.
pub fn append_signatures(note: &str, lines: &[String]) -> String {
    let mut out = note.to_owned();
    for line in lines {
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use ed25519_dalek::{Signer as _, SigningKey};

    use super::*;
    use crate::{
        checkpoint::{checkpoint, sign_checkpoint},
        merkle::MemoryLog,
        note::NoteKey,
    };

    /// A cosigner built by hand from the spec's formulas, apart from the code under test.
    struct Cosigner {
        name: &'static str,
        key: SigningKey,
    }

    impl Cosigner {
        fn id(&self) -> [u8; 4] {
            use sha2::Digest as _;
            let mut hasher = sha2::Sha256::new();
            hasher.update(self.name.as_bytes());
            hasher.update(b"\n\x04");
            hasher.update(self.key.verifying_key().to_bytes());
            let d = hasher.finalize();
            [d[0], d[1], d[2], d[3]]
        }

        fn vkey(&self) -> String {
            let mut typed = vec![4];
            typed.extend_from_slice(&self.key.verifying_key().to_bytes());
            format!(
                "{}+{}+{}",
                self.name,
                hex::encode(self.id()),
                base64::engine::general_purpose::STANDARD.encode(typed)
            )
        }

        fn line(&self, text: &str, time: u64) -> String {
            let signature = self
                .key
                .sign(format!("cosignature/v1\ntime {time}\n{text}").as_bytes());
            let mut bytes = self.id().to_vec();
            bytes.extend_from_slice(&time.to_be_bytes());
            bytes.extend_from_slice(&signature.to_bytes());
            format!(
                "— {} {}\n",
                self.name,
                base64::engine::general_purpose::STANDARD.encode(bytes)
            )
        }
    }

    fn signed() -> (String, String) {
        let mut log = MemoryLog::new();
        log.append(b"one");
        let key = NoteKey::from_private_bytes("example.com/log", &[1; 32]).expect("key");
        let body = checkpoint("example.com/log", 1, log.root(1).expect("root"), &[]).expect("ckpt");
        let text = String::from_utf8(body.to_bytes()).expect("utf-8");
        (text, sign_checkpoint(&key, &body).expect("signed"))
    }

    fn cosigner(name: &'static str, seed: u8) -> Cosigner {
        Cosigner {
            name,
            key: SigningKey::from_bytes(&[seed; 32]),
        }
    }

    #[test]
    fn verifies_a_cosignature_line_and_counts_distinct_witnesses() {
        let (text, note) = signed();
        let (a, b) = (cosigner("w.example/a", 7), cosigner("w.example/b", 8));
        let ka = CosignerKey::parse(&a.vkey()).expect("key a");
        let kb = CosignerKey::parse(&b.vkey()).expect("key b");
        assert_eq!(ka.verify_line(&text, &a.line(&text, 42)), Ok(42));
        assert!(kb.verify_line(&text, &a.line(&text, 42)).is_err());
        assert!(ka.verify_line("other\n", &a.line(&text, 42)).is_err());

        let cosigned = append_signatures(
            &note,
            &[
                a.line(&text, 1),
                a.line(&text, 2),
                b.line("x\n1\nAAAA\n", 3),
            ],
        );
        assert_eq!(
            cosigned_by(cosigned.as_bytes(), &[kb.clone(), ka.clone()]),
            Ok(vec![1])
        );
        let both = append_signatures(&cosigned, &[b.line(&text, 4)]);
        assert_eq!(cosigned_by(both.as_bytes(), &[ka, kb]), Ok(vec![0, 1]));
        // The log's own signature still verifies with the witnesses' lines after it.
        let log = NoteKey::from_private_bytes("example.com/log", &[1; 32]).expect("key");
        assert_eq!(
            crate::note::open_note(both.as_bytes(), &log.vkey()).as_deref(),
            Ok(text.as_str())
        );
    }

    #[test]
    fn refuses_malformed_keys_naming_the_part() {
        let a = cosigner("w.example/a", 7);
        let good = a.vkey();
        let note_key = NoteKey::from_private_bytes("w.example/a", &[7; 32]).expect("key");
        for (vkey, part) in [
            ("w.example/a", "expected"),
            (&note_key.vkey()[..], "type 0x04"),
            (&good.replacen("+", "+0", 1)[..], "8 hex"),
            (&good.replace("w.example/a", "w.example/b")[..], "key id"),
        ] {
            let err = CosignerKey::parse(vkey).expect_err(vkey).to_string();
            assert!(err.contains(part), "{vkey}: {err}");
        }
    }
}

//! A C2SP `tlog-witness` cosigner (<https://c2sp.org/tlog-witness>), pure: the
//! `add-checkpoint` state machine and the Ed25519 `tlog-cosignature`
//! (<https://c2sp.org/tlog-cosignature>, signature type `0x04`). The HTTP shell
//! passes the request body, the time and the last checkpoint it stored per
//! origin, stores the new one before answering, and turns a [`Refusal`] into
//! its status code.

use std::collections::BTreeMap;

use base64::Engine as _;
use ed25519_dalek::{Signer, SigningKey};
use fairseed_tlog::{open_note, parse_checkpoint, verify_consistency, Hash, EMPTY_ROOT};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The most consistency proof lines a request may carry.
pub const MAX_PROOF_LINES: usize = 63;

/// The cosigned checkpoint of one log, as the witness stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cosigned {
    /// Tree size.
    pub size: u64,
    /// Root hash, base64.
    pub root: String,
}

/// Everything a witness remembers: the latest cosigned checkpoint per origin.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WitnessState {
    /// By origin.
    pub logs: BTreeMap<String, Cosigned>,
}

/// Why a checkpoint is not cosigned, with the status the protocol gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 400: the body is malformed, or the old size is above the checkpoint's.
    BadRequest(String),
    /// 403: no valid signature by the log's key.
    Forbidden(String),
    /// 404: the origin is not a log this witness knows.
    UnknownLog(String),
    /// 409: the old size is not the size last cosigned; carries that size.
    Conflict(u64),
    /// 422: the proof does not verify, or an equal size has another root.
    Unprocessable(String),
}

impl Refusal {
    /// The HTTP status code the protocol gives this refusal.
    pub fn status(&self) -> u16 {
        match self {
            Self::BadRequest(_) => 400,
            Self::Forbidden(_) => 403,
            Self::UnknownLog(_) => 404,
            Self::Conflict(_) => 409,
            Self::Unprocessable(_) => 422,
        }
    }

    /// The response body: the size last cosigned for a conflict, else a reason.
    pub fn body(&self) -> String {
        match self {
            Self::Conflict(size) => format!("{size}\n"),
            Self::BadRequest(m)
            | Self::Forbidden(m)
            | Self::UnknownLog(m)
            | Self::Unprocessable(m) => format!("{m}\n"),
        }
    }
}

/// A witness: its cosigner name and key, and the logs it cosigns (origin → verifier key).
pub struct Witness {
    name: String,
    key: SigningKey,
    logs: BTreeMap<String, String>,
}

impl std::fmt::Debug for Witness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Witness")
            .field("name", &self.name)
            .field("logs", &self.logs)
            .finish_non_exhaustive()
    }
}

/// An accepted checkpoint: what to store for its origin, and the response body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The log's origin.
    pub origin: String,
    /// The new latest cosigned checkpoint of that origin.
    pub cosigned: Cosigned,
    /// The cosignature line(s), each `— <name> <base64>\n`.
    pub body: String,
}

impl Witness {
    /// A witness named `name` (a schema-less URL) with the Ed25519 private key bytes,
    /// cosigning the logs whose verifier keys are `log_vkeys` (each named by its origin).
    pub fn new(name: &str, private_key: &[u8; 32], log_vkeys: &[String]) -> Self {
        let logs = log_vkeys
            .iter()
            .map(|vkey| {
                (
                    vkey.split('+').next().unwrap_or_default().to_owned(),
                    vkey.clone(),
                )
            })
            .collect();
        Self {
            name: name.to_owned(),
            key: SigningKey::from_bytes(private_key),
            logs,
        }
    }

    /// The cosigner's verifier key: `<name>+<key id>+base64(0x04 || public key)`.
    pub fn vkey(&self) -> String {
        let public = self.key.verifying_key().to_bytes();
        let mut typed = vec![0x04];
        typed.extend_from_slice(&public);
        format!(
            "{}+{:08x}+{}",
            self.name,
            u32::from_be_bytes(self.key_id()),
            base64::engine::general_purpose::STANDARD.encode(typed)
        )
    }

    /// `SHA-256(name || "\n" || 0x04 || public key)[:4]`.
    fn key_id(&self) -> [u8; 4] {
        let mut hasher = Sha256::new();
        hasher.update(self.name.as_bytes());
        hasher.update(b"\n\x04");
        hasher.update(self.key.verifying_key().to_bytes());
        let digest = hasher.finalize();
        [digest[0], digest[1], digest[2], digest[3]]
    }

    /// The cosignature line for the checkpoint `body` (its text, through the final newline) at `time` seconds.
    pub fn cosign(&self, body: &str, time: u64) -> String {
        let message = format!("cosignature/v1\ntime {time}\n{body}");
        let signature = self.key.sign(message.as_bytes());
        let mut bytes = self.key_id().to_vec();
        bytes.extend_from_slice(&time.to_be_bytes());
        bytes.extend_from_slice(&signature.to_bytes());
        format!(
            "— {} {}\n",
            self.name,
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )
    }

    /// `add-checkpoint`: checks the request `body` against `state` and, if it holds,
    /// returns what to store and the cosignature, timestamped `now` (POSIX seconds, > 0).
    ///
    /// # Errors
    /// A [`Refusal`] per the protocol's rules.
    pub fn add_checkpoint(
        &self,
        state: &WitnessState,
        body: &[u8],
        now: u64,
    ) -> Result<Accepted, Refusal> {
        let request = parse_request(body)?;
        let origin = note_origin(request.note)?;
        let vkey = self
            .logs
            .get(&origin)
            .ok_or_else(|| Refusal::UnknownLog(format!("unknown log {origin:?}")))?;
        let text = open_note(request.note, vkey).map_err(|e| Refusal::Forbidden(e.to_string()))?;
        let head = parse_checkpoint(&text).map_err(|e| Refusal::BadRequest(e.to_string()))?;
        let (size, root) = (head.size(), *head.hash());
        if request.old > size {
            return Err(Refusal::BadRequest(format!(
                "old size {} is above the checkpoint's {size}",
                request.old
            )));
        }
        let last = state.logs.get(&origin);
        let last_size = last.map_or(0, |c| c.size);
        if request.old != last_size {
            return Err(Refusal::Conflict(last_size));
        }
        if size == 0 && root != EMPTY_ROOT {
            return Err(Refusal::Unprocessable(
                "a checkpoint of size 0 must have the empty tree's root".into(),
            ));
        }
        check_proof(&request, last, size, root)?;
        let cosigned = Cosigned {
            size,
            root: base64::engine::general_purpose::STANDARD.encode(root.0),
        };
        Ok(Accepted {
            origin,
            cosigned,
            body: self.cosign(&text, now),
        })
    }
}

/// The old size (proof empty from 0), or the root equal at an equal size,
/// or a consistency proof from the last cosigned checkpoint.
fn check_proof(
    request: &Request<'_>,
    last: Option<&Cosigned>,
    size: u64,
    root: Hash,
) -> Result<(), Refusal> {
    let Some(last) = last.filter(|_| request.old > 0) else {
        return if request.proof.is_empty() {
            Ok(())
        } else {
            Err(Refusal::Unprocessable(
                "a proof from old size 0 must be empty".into(),
            ))
        };
    };
    let old_root = decode_hash(&last.root)
        .ok_or_else(|| Refusal::Unprocessable("stored root is not a hash".into()))?;
    if request.old == size {
        return if old_root == root {
            Ok(())
        } else {
            Err(Refusal::Unprocessable(format!(
                "size {size} was cosigned with another root"
            )))
        };
    }
    verify_consistency(&request.proof, request.old, old_root, size, root).map_err(|_| {
        Refusal::Unprocessable(format!(
            "the consistency proof from {} to {size} does not verify",
            request.old
        ))
    })
}

struct Request<'a> {
    old: u64,
    proof: Vec<Hash>,
    note: &'a [u8],
}

/// `old <size>\n`, up to 63 base64 hash lines, an empty line, the checkpoint.
fn parse_request(body: &[u8]) -> Result<Request<'_>, Refusal> {
    let bad = |m: &str| Refusal::BadRequest(m.to_owned());
    let mut rest = body;
    let mut line = || -> Result<&str, Refusal> {
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| bad("a line does not end in a newline"))?;
        let (head, tail) = rest.split_at(end);
        rest = &tail[1..];
        std::str::from_utf8(head).map_err(|_| bad("a line is not UTF-8"))
    };
    let old = line()?
        .strip_prefix("old ")
        .filter(|d| {
            !d.is_empty()
                && d.bytes().all(|b| b.is_ascii_digit())
                && (*d == "0" || !d.starts_with('0'))
        })
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| bad("the first line is not `old <size>`"))?;
    let mut proof = Vec::new();
    loop {
        let text = line()?;
        if text.is_empty() {
            break;
        }
        if proof.len() == MAX_PROOF_LINES {
            return Err(bad("more than 63 proof lines"));
        }
        proof.push(decode_hash(text).ok_or_else(|| bad("a proof line is not a base64 hash"))?);
    }
    Ok(Request {
        old,
        proof,
        note: rest,
    })
}

fn decode_hash(text: &str) -> Option<Hash> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .ok()?;
    Some(Hash(bytes.try_into().ok()?))
}

/// The checkpoint's first line, to choose the key it must be signed by.
fn note_origin(note: &[u8]) -> Result<String, Refusal> {
    let end = note
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| Refusal::BadRequest("the checkpoint has no origin line".into()))?;
    std::str::from_utf8(&note[..end])
        .map(str::to_owned)
        .map_err(|_| Refusal::BadRequest("the origin line is not UTF-8".into()))
}

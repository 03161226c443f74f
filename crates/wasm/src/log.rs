//! The transparency log's checks for the page and the offline verifier: a
//! receipt's signature and inclusion proof, a signed checkpoint, and
//! consistency between two checkpoints (docs/spec.md §16.5, docs/web.md).
//!
//! The checks are `fairseed_tlog`'s; this module reads the JSON the service
//! answers with and says which part failed, as a verdict the page can word:
//! `{"ok", "failed", "error", …}` where `failed` names the part — `receipt`
//! (not a receipt's JSON), `key`, `entry`, `signature`, `checkpoint`,
//! `inclusion`, `tiles`, `proof` or `consistency`.

use base64::prelude::*;
use fairseed_tlog::{
    check_consistent, check_inclusion, check_vkey, consistency_from_tiles, consistency_tiles,
    leaf_hash, open_log_checkpoint, open_receipt, BatchReceipt, Checkpoint, Hash, LogEntry,
    TilePath, TlogError,
};
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

/// A failed check: the part that failed and why.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    /// `receipt`, `key`, `entry`, `signature`, `checkpoint`, `inclusion`, `tiles` or `consistency`.
    pub part: &'static str,
    /// What is wrong, naming the field.
    pub error: String,
}

fn fail(part: &'static str, error: impl std::fmt::Display) -> Failure {
    Failure {
        part,
        error: error.to_string(),
    }
}

/// The verdict object: `ok`, `failed`, `error`, and what was learnt on the way.
fn verdict(result: Result<Map<String, Value>, (Failure, Map<String, Value>)>) -> String {
    let (mut out, failure) = match result {
        Ok(out) => (out, None),
        Err((failure, out)) => (out, Some(failure)),
    };
    out.insert("ok".into(), Value::Bool(failure.is_none()));
    out.insert(
        "failed".into(),
        failure.as_ref().map_or(Value::Null, |f| f.part.into()),
    );
    out.insert(
        "error".into(),
        failure.map_or(Value::Null, |f| f.error.into()),
    );
    Value::Object(out).to_string()
}

/// A checkpoint as the page shows it.
fn checkpoint_json(head: &Checkpoint) -> Value {
    json!({"origin": head.origin(), "size": head.size(), "root": BASE64_STANDARD.encode(head.hash().0)})
}

/// Opens `vkey` and names its parts: `{"name", "key_hash", "fingerprint"}`, the
/// fingerprint being the lowercase hex SHA-256 of the key's text (docs/web.md).
///
/// # Errors
/// A malformed verifier key.
pub fn key_info(vkey: &str) -> Result<Value, Failure> {
    let vkey = vkey.trim();
    check_vkey(vkey).map_err(|e| fail("key", e))?;
    let mut parts = vkey.split('+');
    let name = parts.next().unwrap_or_default();
    let key_hash = parts.next().unwrap_or_default();
    Ok(json!({"name": name, "key_hash": key_hash,
        "fingerprint": fairseed_core::sha256_hex(vkey.as_bytes())}))
}

/// The verdict on a signed checkpoint of the log keyed `vkey`.
pub fn checkpoint_verdict(note: &str, vkey: &str) -> String {
    verdict(
        open_log_checkpoint(note.as_bytes(), vkey.trim())
            .map(|head| {
                let mut out = Map::new();
                out.insert("checkpoint".into(), checkpoint_json(&head));
                out
            })
            .map_err(|e| (note_failure("checkpoint", e), Map::new())),
    )
}

/// A note that does not open: the key's fault, or the named part's.
fn note_failure(part: &'static str, err: TlogError) -> Failure {
    match err {
        TlogError::BadKey(_) => fail("key", err),
        _ => fail(part, err),
    }
}

/// A string field of `receipt`, or a failure naming it.
fn text<'a>(receipt: &'a Value, field: &str) -> Result<&'a str, Failure> {
    receipt[field]
        .as_str()
        .ok_or_else(|| fail("receipt", format!("{field}: expected a string")))
}

fn hash_of(text: &str, field: &str) -> Result<Hash, Failure> {
    let bytes = BASE64_STANDARD
        .decode(text)
        .map_err(|e| fail("receipt", format!("{field}: not base64: {e}")))?;
    bytes
        .try_into()
        .map(Hash)
        .map_err(|_| fail("receipt", format!("{field}: a hash is 32 bytes")))
}

/// The acknowledged part of a receipt: the signed note over its batch's root,
/// the entry's index in the batch and its proof to that root (docs/spec.md §16.5).
fn batch_receipt(receipt: &Value) -> Result<BatchReceipt, Failure> {
    let index = receipt["batch_index"]
        .as_u64()
        .ok_or_else(|| fail("receipt", "batch_index: expected a whole number"))?;
    let proof = receipt["batch_proof"]
        .as_array()
        .ok_or_else(|| fail("receipt", "batch_proof: expected an array"))?
        .iter()
        .enumerate()
        .map(|(i, h)| hash_of(h.as_str().unwrap_or_default(), &format!("batch_proof[{i}]")))
        .collect::<Result<_, _>>()?;
    Ok(BatchReceipt {
        note: text(receipt, "signature")?.into(),
        index,
        proof,
    })
}

/// The sequenced part of a receipt: leaf index, inclusion proof, signed checkpoint.
type Sequenced<'a> = (u64, Vec<Hash>, &'a str);

/// The sequenced part of a receipt, if it has one.
fn sequenced(receipt: &Value) -> Result<Option<Sequenced<'_>>, Failure> {
    let (index, proof, note) = (
        &receipt["leaf_index"],
        &receipt["inclusion_proof"],
        &receipt["checkpoint"],
    );
    if index.is_null() && proof.is_null() && note.is_null() {
        return Ok(None);
    }
    let index = index
        .as_u64()
        .ok_or_else(|| fail("receipt", "leaf_index: expected a whole number"))?;
    let proof = proof
        .as_array()
        .ok_or_else(|| fail("receipt", "inclusion_proof: expected an array"))?
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let field = format!("inclusion_proof[{i}]");
            hash_of(h.as_str().unwrap_or_default(), &field)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((index, proof, text(receipt, "checkpoint")?)))
}

/// Checks a receipt as the service answers it (docs/api.md, "Receipts") against
/// the log key `vkey`: its entry, the signature, and once sequenced the
/// inclusion proof to a signed checkpoint — `against` if given (a checkpoint
/// the player kept), else the receipt's own.
///
/// Returns the verdict object with `entry_hash` (hex), `entry` (decoded),
/// `sequenced`, `leaf_index` and `checkpoint` as far as they were read.
pub fn check_receipt(receipt_json: &str, vkey: &str, against: Option<&str>) -> String {
    let mut out = Map::new();
    match receipt_checks(receipt_json, vkey.trim(), against, &mut out) {
        Ok(()) => verdict(Ok(out)),
        Err(failure) => verdict(Err((failure, out))),
    }
}

fn receipt_checks(
    receipt_json: &str,
    vkey: &str,
    against: Option<&str>,
    out: &mut Map<String, Value>,
) -> Result<(), Failure> {
    let receipt: Value = serde_json::from_str(receipt_json)
        .map_err(|e| fail("receipt", format!("not JSON: {e}")))?;
    // A download from the page wraps the receipt with the key it was checked against.
    let receipt = match receipt.get("receipt") {
        Some(inner) if inner.is_object() => inner.clone(),
        _ => receipt,
    };
    if !receipt.is_object() {
        return Err(fail("receipt", "expected a receipt object"));
    }
    key_info(vkey)?;
    let entry = BASE64_STANDARD
        .decode(text(&receipt, "entry")?)
        .map_err(|e| fail("entry", format!("entry: not base64: {e}")))?;
    let hash = hex_hash(&entry);
    out.insert("entry_hash".into(), hash.clone().into());
    if let Some(claimed) = receipt["entry_hash"].as_str() {
        if !claimed.eq_ignore_ascii_case(&hash) {
            return Err(fail(
                "entry",
                format!("entry_hash: the entry hashes to {hash}, not {claimed}"),
            ));
        }
    }
    let decoded = LogEntry::decode(&entry).map_err(|e| fail("entry", e))?;
    out.insert("entry".into(), entry_json(&decoded));
    let batch = batch_receipt(&receipt)?;
    open_receipt(&batch, vkey, &entry).map_err(|e| match e {
        TlogError::ProofFailed { .. } => {
            fail("entry", "batch_proof: the entry is not in the signed batch")
        }
        e => note_failure("signature", e),
    })?;
    let Some((index, proof, own)) = sequenced(&receipt)? else {
        out.insert("sequenced".into(), false.into());
        return Ok(());
    };
    out.insert("sequenced".into(), true.into());
    out.insert("leaf_index".into(), index.into());
    let note = against.filter(|n| !n.trim().is_empty()).unwrap_or(own);
    let head =
        open_log_checkpoint(note.as_bytes(), vkey).map_err(|e| note_failure("checkpoint", e))?;
    out.insert("checkpoint".into(), checkpoint_json(&head));
    check_inclusion(vkey, &entry, index, &proof, note.as_bytes()).map_err(|e| {
        let mut failure = fail("inclusion", e);
        if let Ok(own_head) = open_log_checkpoint(own.as_bytes(), vkey) {
            if own_head.size() != head.size() {
                failure.error = format!(
                    "the proof is to the receipt's checkpoint of tree size {}, not this one of {}",
                    own_head.size(),
                    head.size()
                );
            }
        }
        failure
    })?;
    Ok(())
}

fn hex_hash(entry: &[u8]) -> String {
    leaf_hash(entry)
        .0
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn entry_json(entry: &LogEntry) -> Value {
    let kind = match entry.kind {
        fairseed_tlog::EntryKind::Commitment => "commitment",
        fairseed_tlog::EntryKind::Reveal => "reveal",
        fairseed_tlog::EntryKind::Outcome => "outcome",
    };
    json!({"kind": kind, "time_ms": entry.time_ms, "scheme": entry.scheme,
        "ids": entry.ids, "values": entry.values})
}

/// Two signed checkpoints, opened: the one kept and one newly seen.
fn open_pair(vkey: &str, kept: &str, seen: &str) -> Result<(Checkpoint, Checkpoint), Failure> {
    let kept = open_log_checkpoint(kept.as_bytes(), vkey).map_err(|e| note_failure("kept", e))?;
    let seen =
        open_log_checkpoint(seen.as_bytes(), vkey).map_err(|e| note_failure("checkpoint", e))?;
    Ok((kept, seen))
}

/// The tiles (paths below `/log/`) the consistency proof between the kept
/// checkpoint and the one seen is read from: `{"ok", "tiles": [...]}`.
pub fn tiles_needed(vkey: &str, kept: &str, seen: &str) -> String {
    let vkey = vkey.trim();
    verdict(
        open_pair(vkey, kept, seen)
            .map(|(kept, seen)| {
                let tiles: Vec<String> = consistency_tiles(kept.size(), seen.size())
                    .iter()
                    .map(TilePath::path)
                    .collect();
                let mut out = Map::new();
                out.insert("tiles".into(), tiles.into());
                out
            })
            .map_err(|f| (f, Map::new())),
    )
}

/// Checks that the checkpoint `seen` is consistent with `kept`, the proof read
/// from `tiles` (`{"<path>": "<base64 contents>"}`, as [`tiles_needed`] named).
/// `keep` in the verdict says which to keep from now on: the larger tree.
pub fn consistency(vkey: &str, kept: &str, seen: &str, tiles_json: &str) -> String {
    consistency_verdict(vkey, kept, seen, |old, new| {
        let tiles: Map<String, Value> = serde_json::from_str(tiles_json)
            .map_err(|e| fail("tiles", format!("not a JSON object: {e}")))?;
        let fetch = |tile: &TilePath| {
            tiles
                .get(&tile.path())
                .and_then(Value::as_str)
                .and_then(|b| BASE64_STANDARD.decode(b).ok())
        };
        consistency_from_tiles(old.size(), new.size(), fetch).map_err(|e| fail("tiles", e))
    })
}

/// Checks that the checkpoint `seen` is consistent with `kept` by the RFC 6962
/// consistency proof given (`["<base64 hash>", …]`, from the smaller tree to
/// the larger), as a witness or another client may hand it over.
pub fn consistency_with_proof(vkey: &str, kept: &str, seen: &str, proof_json: &str) -> String {
    consistency_verdict(vkey, kept, seen, |_, _| {
        let proof: Vec<Value> = serde_json::from_str(proof_json)
            .map_err(|e| fail("proof", format!("not a JSON array: {e}")))?;
        proof
            .iter()
            .enumerate()
            .map(|(i, h)| hash_of(h.as_str().unwrap_or_default(), &format!("proof[{i}]")))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|f| fail("proof", f.error))
    })
}

/// Opens both checkpoints, gets the proof from `proof`, checks it: the verdict
/// with `kept`, `seen` and which to `keep` (the larger tree).
fn consistency_verdict(
    vkey: &str,
    kept: &str,
    seen: &str,
    proof: impl FnOnce(&Checkpoint, &Checkpoint) -> Result<Vec<Hash>, Failure>,
) -> String {
    let mut out = Map::new();
    let result = (|| {
        let (old, new) = open_pair(vkey.trim(), kept, seen)?;
        out.insert("kept".into(), checkpoint_json(&old));
        out.insert("seen".into(), checkpoint_json(&new));
        check_consistent(&old, &new, &proof(&old, &new)?).map_err(|e| fail("consistency", e))?;
        let keep = if new.size() > old.size() {
            "seen"
        } else {
            "kept"
        };
        out.insert("keep".into(), keep.into());
        Ok(())
    })();
    verdict(result.map(|()| out.clone()).map_err(|f| (f, out)))
}

/// [`key_info`] for JavaScript, as JSON.
///
/// # Errors
/// A malformed verifier key, in words.
#[wasm_bindgen]
pub fn log_key(vkey: &str) -> Result<String, JsError> {
    key_info(vkey)
        .map(|v| v.to_string())
        .map_err(|f| JsError::new(&f.error))
}

/// [`checkpoint_verdict`] for JavaScript.
#[wasm_bindgen]
pub fn log_checkpoint(note: &str, vkey: &str) -> String {
    checkpoint_verdict(note, vkey)
}

/// [`check_receipt`] for JavaScript; `against` empty for the receipt's own checkpoint.
#[wasm_bindgen]
pub fn log_receipt(receipt_json: &str, vkey: &str, against: &str) -> String {
    check_receipt(receipt_json, vkey, Some(against))
}

/// [`tiles_needed`] for JavaScript.
#[wasm_bindgen]
pub fn log_consistency_tiles(vkey: &str, kept: &str, seen: &str) -> String {
    tiles_needed(vkey, kept, seen)
}

/// [`consistency`] for JavaScript.
#[wasm_bindgen]
pub fn log_consistency(vkey: &str, kept: &str, seen: &str, tiles_json: &str) -> String {
    consistency(vkey, kept, seen, tiles_json)
}

/// [`consistency_with_proof`] for JavaScript.
#[wasm_bindgen]
pub fn log_consistency_proof(vkey: &str, kept: &str, seen: &str, proof_json: &str) -> String {
    consistency_with_proof(vkey, kept, seen, proof_json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairseed_tlog::{
        checkpoint, hash_tile_data, new_hash_tiles, sign_checkpoint, sign_receipts, EntryKind,
        MemoryLog, NoteKey,
    };

    const ORIGIN: &str = "example.org/fairseed";

    fn key() -> NoteKey {
        NoteKey::from_private_bytes(ORIGIN, &[3; 32]).expect("key")
    }

    fn entry(n: u64) -> Vec<u8> {
        LogEntry {
            kind: EntryKind::Outcome,
            time_ms: 1_700_000_000_000 + n,
            scheme: "dice_v1".into(),
            ids: vec!["ab12".into(), n.to_string()],
            values: vec![
                "seed".into(),
                "100".into(),
                "under".into(),
                "4950".into(),
                "1234".into(),
                "200".into(),
            ],
        }
        .encode()
        .expect("encodes")
    }

    /// A log of `n` entries, and its checkpoint signed.
    fn log(n: u64) -> (MemoryLog, String) {
        let mut log = MemoryLog::new();
        for i in 0..n {
            log.append(&entry(i));
        }
        let body = checkpoint(ORIGIN, n, log.root(n).expect("root"), &[]).expect("body");
        (log, sign_checkpoint(&key(), &body).expect("signs"))
    }

    /// The receipt of entry `i` as the service answers it, sequenced in `log`.
    fn receipt(log: &MemoryLog, note: &str, i: u64) -> Value {
        let e = entry(i);
        let batch = sign_receipts(&key(), &[leaf_hash(&e)])
            .expect("signs")
            .remove(0);
        let batch_proof: Vec<String> = batch
            .proof
            .iter()
            .map(|h| BASE64_STANDARD.encode(h.0))
            .collect();
        let proof: Vec<String> = log
            .inclusion_proof(i, log.size())
            .expect("proof")
            .iter()
            .map(|h| BASE64_STANDARD.encode(h.0))
            .collect();
        json!({"entry": BASE64_STANDARD.encode(&e), "entry_hash": hex_hash(&e),
            "signature": &*batch.note, "batch_index": batch.index, "batch_proof": batch_proof,
            "leaf_index": i, "inclusion_proof": proof, "checkpoint": note})
    }

    fn check(receipt: &Value, against: Option<&str>) -> Value {
        serde_json::from_str(&check_receipt(&receipt.to_string(), &key().vkey(), against))
            .expect("json")
    }

    fn failed(v: &Value) -> &str {
        v["failed"].as_str().unwrap_or("none")
    }

    #[test]
    fn a_sequenced_receipt_checks_and_a_queued_one_is_acknowledged() {
        let (log, note) = log(300);
        let full = receipt(&log, &note, 257);
        let v = check(&full, None);
        assert_eq!(v["ok"], true, "{v}");
        assert_eq!(v["sequenced"], true);
        assert_eq!(v["leaf_index"], 257);
        assert_eq!(v["checkpoint"]["size"], 300);
        assert_eq!(v["entry"]["kind"], "outcome");
        assert_eq!(v["entry"]["ids"][1], "257");
        let mut queued = full.clone();
        for field in ["leaf_index", "inclusion_proof", "checkpoint"] {
            queued[field] = Value::Null;
        }
        let v = check(&queued, None);
        assert_eq!(
            (v["ok"].clone(), v["sequenced"].clone()),
            (true.into(), false.into())
        );
        // Wrapped with its key, as the page downloads it.
        let wrapped = json!({"key": key().vkey(), "receipt": full});
        assert_eq!(check(&wrapped, None)["ok"], true);
    }

    #[test]
    fn each_flipped_byte_is_named() {
        let (log, note) = log(12);
        let good = receipt(&log, &note, 5);
        // The entry: it no longer hashes to its hash, nor is it what the signature signs.
        let mut e = BASE64_STANDARD
            .decode(good["entry"].as_str().unwrap_or(""))
            .unwrap_or_default();
        e[12] ^= 1;
        let mut bad = good.clone();
        bad["entry"] = BASE64_STANDARD.encode(&e).into();
        assert_eq!(failed(&check(&bad, None)), "entry");
        bad["entry_hash"] = Value::Null;
        assert_eq!(failed(&check(&bad, None)), "entry");
        // The signature's bytes.
        let sig = good["signature"].as_str().unwrap_or("").to_owned();
        let line = sig.rfind(' ').unwrap_or(0) + 3;
        let mut bytes = sig.into_bytes();
        bytes[line] = if bytes[line] == b'A' { b'B' } else { b'A' };
        let mut bad = good.clone();
        bad["signature"] = String::from_utf8(bytes).unwrap_or_default().into();
        assert_eq!(failed(&check(&bad, None)), "signature");
        // A hash of the proof.
        let mut h = BASE64_STANDARD
            .decode(good["inclusion_proof"][1].as_str().unwrap_or(""))
            .unwrap_or_default();
        h[0] ^= 0x80;
        let mut bad = good.clone();
        bad["inclusion_proof"][1] = BASE64_STANDARD.encode(&h).into();
        assert_eq!(failed(&check(&bad, None)), "inclusion");
        // The checkpoint's root, so its signature no longer holds.
        let mut bad = good.clone();
        bad["checkpoint"] = note.replacen("\n12\n", "\n13\n", 1).into();
        assert_eq!(failed(&check(&bad, None)), "checkpoint");
        // Another key.
        let other = NoteKey::from_private_bytes(ORIGIN, &[4; 32]).expect("key");
        let v: Value = serde_json::from_str(&check_receipt(&good.to_string(), &other.vkey(), None))
            .expect("json");
        assert_eq!(failed(&v), "signature");
        let v: Value = serde_json::from_str(&check_receipt(&good.to_string(), "not a key", None))
            .expect("json");
        assert_eq!(failed(&v), "key");
        let v: Value =
            serde_json::from_str(&check_receipt("{", &key().vkey(), None)).expect("json");
        assert_eq!(failed(&v), "receipt");
    }

    #[test]
    fn a_proof_to_another_checkpoint_says_so() {
        let (log, note) = log(12);
        let (_, later) = self::log(20);
        let v = check(&receipt(&log, &note, 5), Some(&later));
        assert_eq!(failed(&v), "inclusion");
        assert!(
            v["error"]
                .as_str()
                .unwrap_or("")
                .contains("tree size 12, not this one of 20"),
            "{v}"
        );
        assert_eq!(check(&receipt(&log, &note, 5), Some(&note))["ok"], true);
    }

    fn tiles_json(log: &MemoryLog, paths: &Value) -> String {
        let published = new_hash_tiles(0, log.size());
        let mut out = Map::new();
        for path in paths.as_array().into_iter().flatten() {
            let tile = TilePath::parse(path.as_str().unwrap_or("")).expect("path");
            assert!(published.contains(&tile), "{tile} is published");
            let data = hash_tile_data(log, &tile).expect("tile");
            out.insert(tile.path(), BASE64_STANDARD.encode(data).into());
        }
        Value::Object(out).to_string()
    }

    #[test]
    fn consistency_is_read_from_the_tiles_named() {
        let (_, old) = log(200);
        let (grown, new) = log(700);
        let vkey = key().vkey();
        let need: Value = serde_json::from_str(&tiles_needed(&vkey, &old, &new)).expect("json");
        assert_eq!(need["ok"], true, "{need}");
        let tiles = tiles_json(&grown, &need["tiles"]);
        let v: Value = serde_json::from_str(&consistency(&vkey, &old, &new, &tiles)).expect("json");
        assert_eq!(
            (v["ok"].clone(), v["keep"].clone()),
            (true.into(), "seen".into()),
            "{v}"
        );
        // Seen before the kept one: still consistent, the kept one stays.
        let v: Value = serde_json::from_str(&consistency(&vkey, &new, &old, &tiles)).expect("json");
        assert_eq!(v["keep"], "kept", "{v}");
        let v: Value = serde_json::from_str(&consistency(&vkey, &old, &new, "{}")).expect("json");
        assert_eq!(failed(&v), "tiles");
    }

    #[test]
    fn a_forked_checkpoint_is_inconsistent() {
        let (_, old) = log(200);
        let mut forked = MemoryLog::new();
        for i in 0..700 {
            forked.append(&if i == 3 { b"edited".to_vec() } else { entry(i) });
        }
        let body = checkpoint(ORIGIN, 700, forked.root(700).expect("root"), &[]).expect("body");
        let new = sign_checkpoint(&key(), &body).expect("signs");
        let vkey = key().vkey();
        let need: Value = serde_json::from_str(&tiles_needed(&vkey, &old, &new)).expect("json");
        let tiles = tiles_json(&forked, &need["tiles"]);
        let v: Value = serde_json::from_str(&consistency(&vkey, &old, &new, &tiles)).expect("json");
        assert_eq!(failed(&v), "consistency", "{v}");
        assert_eq!(v["kept"]["size"], 200);
        assert_eq!(v["seen"]["size"], 700);
    }

    #[test]
    fn a_given_consistency_proof_checks_and_a_flipped_one_fails() {
        let (_, old) = log(200);
        let (grown, new) = log(700);
        let vkey = key().vkey();
        let mut proof: Vec<String> = grown
            .consistency_proof(200, 700)
            .expect("proof")
            .iter()
            .map(|h| BASE64_STANDARD.encode(h.0))
            .collect();
        let run = |proof: &[String]| -> Value {
            let text = consistency_with_proof(&vkey, &old, &new, &Value::from(proof).to_string());
            serde_json::from_str(&text).expect("json")
        };
        assert_eq!(run(&proof)["ok"], true);
        let mut h = BASE64_STANDARD.decode(&proof[0]).unwrap_or_default();
        h[31] ^= 1;
        proof[0] = BASE64_STANDARD.encode(&h);
        assert_eq!(failed(&run(&proof)), "consistency");
        proof[0] = "short".into();
        assert_eq!(failed(&run(&proof)), "proof");
    }

    #[test]
    fn the_key_is_named_and_fingerprinted() {
        let vkey = key().vkey();
        let info = key_info(&format!("{vkey}\n")).expect("key");
        assert_eq!(info["name"], ORIGIN);
        assert_eq!(
            info["fingerprint"],
            fairseed_core::sha256_hex(vkey.as_bytes())
        );
        assert_eq!(
            key_info("example.org+00+AA").map_err(|f| f.part),
            Err("key")
        );
        let v: Value = serde_json::from_str(&checkpoint_verdict(&log(3).1, &vkey)).expect("json");
        assert_eq!(v["checkpoint"]["size"], 3);
    }
}

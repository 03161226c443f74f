//! The player's clock as evidence (docs/spec.md §20.7), for the page: one
//! signed item checked against the table's evidence key, and a file of
//! them held to a hand record, by `fairseed_holdem::evidence` itself.

use fairseed_holdem::evidence::{self, Signed};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// The message evidence item `item` (JSON) signs, if `key` (hex) signed it.
///
/// # Errors
/// A malformed item or key, or a signature that is not `key`'s; the field named.
pub fn item_message(key: &str, item: &str) -> Result<String, String> {
    let key = evidence::parse_key(key, "key").map_err(|e| e.to_string())?;
    let value: Value = serde_json::from_str(item).map_err(|e| format!("item: not JSON: {e}"))?;
    let signed = Signed::from_value(&value, "item").map_err(|e| e.to_string())?;
    if signed.verifies(&key) {
        Ok(signed.notice.message())
    } else {
        Err("item.sig: not the table's evidence key's signature of this item".to_owned())
    }
}

/// [`item_message`] for JavaScript.
///
/// # Errors
/// As [`item_message`].
#[wasm_bindgen]
pub fn holdem_evidence_item(key: &str, item: &str) -> Result<String, JsError> {
    item_message(key, item).map_err(|e| JsError::new(&e))
}

/// Evidence file `evidence` held to hand record `record` under the table's
/// evidence key `key`, as JSON: `table`, `hand`, `checked`, `other_hands`,
/// `alarms` (each in English words), `found` (each alarm's facts, in the
/// same order, each [`evidence::Alarm`] as its JSON) and `notes`.
///
/// # Errors
/// Bad input, the field named (`items[2].sig: …`, `key: …`).
pub fn check(record: &str, evidence: &str, key: &str) -> Result<String, String> {
    let found = evidence::check_texts(record, evidence, key).map_err(|e| e.to_string())?;
    Ok(json!({
        "table": found.table,
        "hand": found.hand,
        "checked": found.checked,
        "other_hands": found.other_hands,
        "alarms": found.words(),
        "found": found.alarms,
        "notes": found.notes,
    })
    .to_string())
}

/// [`check`] for JavaScript.
///
/// # Errors
/// As [`check`].
#[wasm_bindgen]
pub fn holdem_evidence_check(record: &str, evidence: &str, key: &str) -> Result<String, JsError> {
    check(record, evidence, key).map_err(|e| JsError::new(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Python vectors (tests/vectors/holdem_evidence.py) through the
    /// functions the wasm build exports.
    #[test]
    fn the_vectors_verify_exactly_when_they_should() {
        let text = include_str!("../../../tests/vectors/primitives/holdem_evidence.json");
        let v: Value = serde_json::from_str(text).expect("JSON");
        let key = v["key"].as_str().expect("a key");
        for case in v["cases"].as_array().expect("cases") {
            let item = case["item"].to_string();
            let got = item_message(key, &item);
            if case["valid"].as_bool() == Some(true) {
                assert_eq!(got.as_deref().ok(), case["message"].as_str());
            } else {
                assert_eq!(
                    got,
                    Err("item.sig: not the table's evidence key's signature of this item".into())
                );
            }
        }
        assert_eq!(
            item_message("00", "{}"),
            Err("key: expected 64 hex characters".into())
        );
    }

    /// An early timeout comes back with its facts beside its words, for
    /// the page to say in the player's language; a timeout on time, with none.
    #[test]
    fn an_alarm_comes_with_its_facts() {
        use fairseed_holdem::evidence::{Notice, SigningKey, TurnNotice};
        let example = include_str!("../../../examples/holdem_selfpoker_v3.jsonl");
        let key = SigningKey::from_bytes(&[1; 32]);
        let deadline = 1_700_000_030_000_u64;
        let item = Notice::Turn(TurnNotice {
            table: "simulated".into(),
            hand: 1,
            seat: 0,
            actions: 1,
            deadline_ms: deadline,
            server_ms: deadline - 30_000,
        })
        .sign(&key);
        let file = json!({
            "scheme": "holdem_evidence_v1",
            "key": evidence::public_hex(&key),
            "items": [item],
        })
        .to_string();
        let timed_out = |at: u64| {
            let mut record: Value =
                serde_json::from_str(example.lines().next().expect("a record")).expect("JSON");
            assert_eq!(record["actions"][1]["seat"], 0);
            record["actions"][1]["timed_out"] = json!(true);
            record["actions"][1]["at"] = json!(at);
            record.to_string()
        };
        let public = evidence::public_hex(&key);
        let early: Value = serde_json::from_str(
            &check(&timed_out(deadline - 1_001), &file, &public).expect("checked"),
        )
        .expect("JSON");
        assert_eq!(
            early["found"],
            json!([{
                "kind": "early_timeout",
                "seat": 0,
                "action": 1,
                "at": deadline - 1_001,
                "deadline_ms": deadline,
                "server_ms": deadline - 30_000,
            }])
        );
        assert_eq!(early["alarms"].as_array().map(Vec::len), Some(1));
        let on_time: Value =
            serde_json::from_str(&check(&timed_out(deadline), &file, &public).expect("checked"))
                .expect("JSON");
        assert_eq!(on_time["found"], json!([]));
        let session = format!("[{}]", timed_out(deadline - 1_001));
        let all: Value =
            serde_json::from_str(&check_session(&session, &file, &public).expect("checked"))
                .expect("JSON");
        assert_eq!(all[0]["found"], early["found"]);
    }
}

/// Evidence file `evidence` held to every hand record of `records` (a JSON
/// array of one table's records) under the table's evidence key `key`, as
/// a JSON array of what [`check`] answers for one (without `other_hands`),
/// in the records' order.
/// A signature is verified where an alarm rests on it
/// (`fairseed_holdem::evidence::check_session`).
///
/// # Errors
/// Bad input, the field named (`records[3]: …`, `items[2].sig: …`).
pub fn check_session(records: &str, evidence: &str, key: &str) -> Result<String, String> {
    let values: Vec<Value> =
        serde_json::from_str(records).map_err(|e| format!("records: not a JSON array: {e}"))?;
    let records = values
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            serde_json::from_value(v).map_err(|e| format!("records[{i}]: not a hand record: {e}"))
        })
        .collect::<Result<Vec<fairseed_holdem::HandRecord>, _>>()?;
    let key = evidence::parse_key(key, "key").map_err(|e| e.to_string())?;
    let file = evidence::Evidence::parse(evidence).map_err(|e| e.to_string())?;
    let found = evidence::check_session(&records, &file, &key).map_err(|e| e.to_string())?;
    let out: Vec<Value> = found
        .iter()
        .map(|f| {
            json!({
                "table": f.table,
                "hand": f.hand,
                "checked": f.checked,
                "alarms": f.words(),
                "found": f.alarms,
                "notes": f.notes,
            })
        })
        .collect();
    Ok(Value::Array(out).to_string())
}

/// [`check_session`] for JavaScript.
///
/// # Errors
/// As [`check_session`].
#[wasm_bindgen]
pub fn holdem_evidence_check_session(
    records: &str,
    evidence: &str,
    key: &str,
) -> Result<String, JsError> {
    check_session(records, evidence, key).map_err(|e| JsError::new(&e))
}

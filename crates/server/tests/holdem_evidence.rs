//! The player's clock as evidence (docs/spec.md §20.7), through the real
//! binary: a person at a `selfpoker_v3` table gets, on their own socket
//! only, the table's signed turn notices and its signed acceptance of
//! their `hand_commit` and `hand_reveal`. Held to the hand's record with
//! the record's `evidence_key` by the pure check, an honest hand raises no
//! alarm; the record altered to time the seat out early, or to name it
//! withheld although its reveal was acknowledged, raises one.

mod common;

use common::http::Client;
use common::new_player;
use common::server::{Options, Server};
use common::table_ws::Ws;
use fairseed_core::selfpoker_v3::HandValue;
use fairseed_holdem::evidence::{self, Alarm};
use serde_json::{json, Value};

/// Each turn's clock, and each phase of a round.
const ACTION_MS: i64 = 5_000;

/// The most hands played looking for one where the person acts.
const MOST_HANDS: u64 = 12;

/// A `round` message whose notice is of `kind`.
fn notice(m: &Value, kind: &str) -> bool {
    m["type"] == "round" && m["notice"]["kind"] == kind
}

/// Plays hand `hand` for Ann (seat 0) to its end: commits and reveals her
/// value, folds or checks whenever she is to act, keeps every signed item
/// her socket gets and the evidence key her view names. The hand's
/// `hand_end`.
fn play_hand(a: &mut Ws, hand: u64, items: &mut Vec<Value>, key: &mut Option<String>) -> Value {
    let value = HandValue::from_bytes([u8::try_from(hand).expect("few hands"); 32]);
    loop {
        let m = a.next();
        if let Some(named) = m["table"]["session"]["evidence_key"].as_str() {
            *key = Some(named.to_owned());
        }
        match m["type"].as_str() {
            Some("evidence") => items.push(m["item"].clone()),
            Some("round") if notice(&m, "opened") && m["notice"]["hand"] == hand => {
                a.send(&json!({"type": "hand_commit", "id": format!("c{hand}"), "hand": hand, "commit": value.commit()}));
            }
            Some("round") if notice(&m, "revealing") && m["notice"]["hand"] == hand => {
                a.send(&json!({"type": "hand_reveal", "id": format!("r{hand}"), "hand": hand, "value": value.as_hex()}));
            }
            Some("state") if !m["table"]["hand"]["legal"].is_null() => {
                let to_call = m["table"]["hand"]["legal"]["to_call"].as_u64().unwrap_or(0);
                let kind = if to_call == 0 { "check" } else { "fold" };
                a.send(&json!({"type": "act", "action": {"kind": kind}}));
            }
            Some("hand_end") if m["number"] == hand => return m,
            Some("error") => panic!("refused: {m}"),
            _ => {}
        }
    }
}

/// The evidence file of `items` signed with `key`.
fn evidence_file(key: &str, items: &[Value]) -> String {
    json!({"scheme": "holdem_evidence_v1", "key": key, "items": items}).to_string()
}

#[test]
fn a_seats_signed_items_hold_an_honest_record_and_catch_an_altered_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut o = Options::new(dir.path());
    o.extra_args = ["--holdem-ai-delay-ms", "5", "--holdem-next-hand-ms", "50"]
        .map(String::from)
        .to_vec();
    let server = Server::start(&o);
    let addr = server.addr.clone();
    let mut http = Client::new(&addr);
    let ann = new_player(&mut http);
    let body = json!({"ais": [2], "seats": 2, "action_ms": ACTION_MS, "scheme": "selfpoker_v3"});
    let created = http.ok("POST", "/v1/holdem/tables", &ann, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let mut a = Ws::connect(&addr, &table, &json!({"type": "hello", "token": ann}));
    let mut watcher = Ws::connect(&addr, &table, &json!({"type": "hello"}));
    a.send(&json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "ann"}));

    let mut items = Vec::new();
    let mut found = None;
    let mut key = None;
    for hand in 1..=MOST_HANDS {
        let ended = play_hand(&mut a, hand, &mut items, &mut key);
        let record = ended["record"].clone();
        let acted = record["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .any(|x| x["seat"] == 0);
        if acted {
            found = Some((hand, record));
            break;
        }
    }
    let (hand, record) = found.expect("ann acted in one of the hands");
    let key = key.expect("the view names the table's evidence key");
    assert_eq!(key.len(), 64, "{key}");
    assert_eq!(
        record["evidence_key"], key,
        "the record names the table's key"
    );
    let ours: Vec<&Value> = items.iter().filter(|i| i["hand"] == hand).collect();
    let kinds: Vec<(&str, &str)> = ours
        .iter()
        .map(|i| {
            (
                i["type"].as_str().unwrap_or_default(),
                i["kind"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert!(kinds.contains(&("ack", "commit")), "{kinds:?}");
    assert!(kinds.contains(&("ack", "reveal")), "{kinds:?}");
    assert!(kinds.contains(&("turn", "")), "{kinds:?}");
    for item in &ours {
        assert_eq!(item["seat"], 0, "only Ann's seat's items: {item}");
        assert_eq!(item["table"], table.as_str(), "{item}");
    }

    // Honest: every signature is the table's, no alarm.
    let file = evidence_file(&key, &items);
    let findings =
        evidence::check_texts(&record.to_string(), &file, &key).expect("honest evidence holds");
    assert!(findings.alarms.is_empty(), "{:?}", findings.words());
    assert_eq!(findings.checked, ours.len());

    // The record altered to time Ann out 3 s into her turn: an alarm.
    let turn = ours
        .iter()
        .find(|i| i["type"] == "turn")
        .expect("a turn notice");
    let index = usize::try_from(turn["actions"].as_u64().expect("actions")).expect("index");
    let deadline = turn["deadline_ms"].as_i64().expect("deadline");
    let mut forged = record.clone();
    forged["actions"][index]["timed_out"] = json!(true);
    forged["actions"][index]["at"] = json!(deadline - ACTION_MS + 3_000);
    let findings = evidence::check_texts(&forged.to_string(), &file, &key).expect("checked");
    assert!(
        matches!(
            findings.alarms.as_slice(),
            [Alarm::EarlyTimeout { seat: 0, .. }]
        ),
        "{:?}",
        findings.words()
    );

    // The record altered to name Ann withheld although her reveal was
    // acknowledged: an alarm.
    let mut withheld = record.clone();
    withheld["deal"]["withheld"] = json!([0]);
    let findings = evidence::check_texts(&withheld.to_string(), &file, &key).expect("checked");
    assert!(
        matches!(
            findings.alarms.as_slice(),
            [Alarm::WithheldAcknowledged { seat: 0, .. }]
        ),
        "{:?}",
        findings.words()
    );

    // Another key refuses the file, naming `key`.
    let other = evidence::public_hex(&evidence::SigningKey::from_bytes(&[7; 32]));
    let refused = evidence::check_texts(&record.to_string(), &file, &other).expect_err("refused");
    assert_eq!(refused.field, "key", "{refused}");

    // A spectator's socket never gets a seat's signed items: everything it
    // was sent up to the hand's end holds none.
    let mut watched = 0;
    watcher.until("the hand's end, watched", |m| {
        assert_ne!(m["type"], "evidence", "a spectator got a signed item: {m}");
        assert!(
            m["table"]["session"]["evidence_key"].is_null()
                || m["table"]["session"]["evidence_key"] == key.as_str(),
            "{m}"
        );
        watched += 1;
        m["type"] == "hand_end" && m["number"] == hand
    });
    assert!(watched > 1, "the spectator watched the hand");
}

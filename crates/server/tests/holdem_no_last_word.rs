//! No last word on the deck (docs/spec.md §20), through the real binary: two
//! people at a `selfpoker_v3` table commit to per-hand values; one reveals,
//! the other withholds. The one that withheld is sat out and the hand is
//! dealt without it; the hand's record names it, and once the table closes
//! the record verifies with its `reveals`, `withheld` and `derivation`
//! checks passing.

mod common;

use std::time::{Duration, Instant};

use common::http::Client;
use common::new_player;
use common::server::{Options, Server};
use common::table_ws::Ws;
use fairseed_core::selfpoker_v3::HandValue;
use serde_json::{json, Value};

/// Each turn's clock, and each phase of a round: 2 s.
const ACTION_MS: i64 = 2_000;

/// Ann folds whenever she is asked until hand `number` ends; its `hand_end`.
fn play_out(a: &mut Ws, number: u64) -> Value {
    loop {
        let m = a.next();
        if m["type"] == "state" && !m["table"]["hand"]["legal"].is_null() {
            a.send(&json!({"type": "act", "action": {"kind": "fold"}}));
        }
        if m["type"] == "hand_end" && m["number"] == number {
            return m;
        }
    }
}

/// A `round` message whose notice is of `kind`.
fn notice(m: &Value, kind: &str) -> bool {
    m["type"] == "round" && m["notice"]["kind"] == kind
}

#[test]
fn a_person_who_withholds_is_dealt_out_and_the_record_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut o = Options::new(dir.path());
    o.extra_args = ["--holdem-ai-delay-ms", "5", "--holdem-next-hand-ms", "50"]
        .map(String::from)
        .to_vec();
    let server = Server::start(&o);
    let addr = server.addr.clone();
    let mut http = Client::new(&addr);
    let (ann, bob) = (new_player(&mut http), new_player(&mut http));
    let body = json!({"ais": [2], "seats": 3, "action_ms": ACTION_MS, "scheme": "selfpoker_v3"});
    let created = http.ok("POST", "/v1/holdem/tables", &ann, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let mut a = Ws::connect(&addr, &table, &json!({"type": "hello", "token": ann}));
    let mut b = Ws::connect(&addr, &table, &json!({"type": "hello", "token": bob}));
    a.send(&json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "ann"}));
    a.until("ann seated", |m| m["id"] == "sit");
    // Hand 1, Ann alone with the AI: her round, then Bob sits while it is played.
    let first = a.until("the first round", |m| notice(m, "opened"));
    assert_eq!(first["notice"]["seats"], json!([0]), "{first}");
    let v1 = HandValue::from_bytes([0x11; 32]);
    a.send(&json!({"type": "hand_commit", "hand": 1, "commit": v1.commit()}));
    a.until("the first reveal phase", |m| notice(m, "revealing"));
    a.send(&json!({"type": "hand_reveal", "hand": 1, "value": v1.as_hex()}));
    a.until("hand 1 dealt", |m| {
        m["type"] == "state" && !m["table"]["hand"].is_null()
    });
    // The table is private: Bob sits with the invitation Ann shared.
    let invitation = created["invitation"].as_str().expect("an invitation");
    b.send(&json!({"type": "sit", "id": "sit", "seat": 2, "client_seed": "bob", "invitation": invitation}));
    let sat = b.until("bob seated", |m| m["id"] == "sit");
    assert_eq!(sat["type"], "ack", "{sat}");
    play_out(&mut a, 1);

    // Hand 2: both commit; Ann reveals, Bob withholds.
    let opened = a.until("the round of hand 2", |m| notice(m, "opened"));
    let hand = opened["notice"]["hand"].as_u64().expect("hand");
    assert_eq!(opened["notice"]["seats"], json!([0, 2]), "{opened}");
    let (va, vb) = (
        HandValue::from_bytes([0xa1; 32]),
        HandValue::from_bytes([0xb2; 32]),
    );
    a.send(&json!({"type": "hand_commit", "id": "c", "hand": hand, "commit": va.commit()}));
    b.send(&json!({"type": "hand_commit", "id": "c", "hand": hand, "commit": vb.commit()}));
    a.until("the reveal phase", |m| notice(m, "revealing"));
    // A wrong value is refused and changes nothing.
    a.send(&json!({"type": "hand_reveal", "id": "w", "hand": hand, "value": vb.as_hex()}));
    let refused = a.until("the refusal", |m| m["id"] == "w");
    assert_eq!(refused["code"], "hand_value_mismatch", "{refused}");
    a.send(&json!({"type": "hand_reveal", "id": "r", "hand": hand, "value": va.as_hex()}));
    // Bob withholds: at the deadline he is sat out and the hand is dealt without him.
    let withheld = a.until("bob withheld", |m| notice(m, "withheld"));
    assert_eq!(withheld["notice"]["seat"], 2, "{withheld}");
    let ended = play_out(&mut a, hand);
    let record = &ended["record"];
    let deal = &record["deal"];
    assert_eq!(deal["scheme"], "selfpoker_v3", "{record}");
    assert_eq!(deal["withheld"], json!([2]), "{record}");
    assert_eq!(deal["hand_commits"]["2"], vb.commit(), "{record}");
    assert_eq!(deal["hand_values"], json!({"0": va.as_hex()}), "{record}");
    let dealt: Vec<u64> = record["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["seat"].as_u64().expect("seat"))
        .collect();
    assert_eq!(dealt, vec![0, 1], "{record}");
    assert_eq!(hand, 2);

    // Ann does not commit in the next round: sat out, no hand; both leave,
    // the table closes and its secret is revealed.
    a.until("the next round", |m| notice(m, "no_hand"));
    for (ws, id) in [(&mut a, "la"), (&mut b, "lb")] {
        ws.send(&json!({"type": "leave", "id": id}));
        let left = ws.until("the leave's answer", |m| m["id"] == id);
        assert_eq!(left["type"], "ack", "{left}");
    }
    let path = format!("/v1/holdem/tables/{table}/hands");
    let until = Instant::now() + Duration::from_secs(30);
    let revealed = loop {
        let page = http.ok("GET", &path, &ann, None);
        let hands = page["hands"].as_array().cloned().unwrap_or_default();
        let second = hands.into_iter().find(|r| r["hand"] == hand);
        if let Some(r) = second.filter(|r| !r["deal"]["session_secret"].is_null()) {
            break r;
        }
        assert!(
            Instant::now() < until,
            "the secret was not revealed: {page}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let verdict = fairseed_holdem::verdict::verify_value(&revealed);
    assert!(verdict.valid, "{verdict:?}");
    // A withheld seat is a warning on the hand, never an `ok` check.
    assert!(
        verdict.checks.iter().all(|c| c.name != "withheld"),
        "{verdict:?}"
    );
    let warnings: Vec<&str> = verdict.warnings.iter().map(|w| w.detail.as_str()).collect();
    assert_eq!(
        warnings,
        [format!("hand {hand}: seat 2 committed to a per-hand value and withheld it, so it was dealt out of this hand; the policy allows it, but each is a choice between two decks the house could have made")]
    );
}

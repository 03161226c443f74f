//! Poker in the session: a table whose players sit with client seeds given
//! with the session's commitment, live streams for every player and the
//! operator, hands with `hand_commitment` and `deck_root` before any card,
//! each player's own view street by street, proofs on leave, and rotation
//! (when the table empties, or at the next server start).
//!
//! Secrets noted: the session seed and every hand value when the session
//! rotates; each proven salt when its proof is handed out; every other
//! salt of every deck must never appear at all.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use fairseed_core::{poker, ClientSeed, Ident, ServerSeed};
use serde_json::{json, Value};

use super::{text, Session};
use crate::common::OPERATOR_KEY;

/// Opens `table`, subscribes the operator and every player to its stream,
/// seats `players` (token, seat) and plays `hands` hands to the river,
/// reading each player's view after every step.
pub fn play(s: &mut Session, table: &str, players: &[(&str, u8)], hands: u64) {
    let op = Some(OPERATOR_KEY);
    let t = s.expect(
        201,
        "table",
        "POST",
        "/v1/poker/tables",
        op,
        Some(&json!({"table_id": table})),
    );
    let topic = format!("poker:{table}");
    s.subscribe(OPERATOR_KEY, &topic);
    let seats_path = format!("/v1/poker/tables/{table}/seats");
    for (token, seat) in players {
        s.subscribe(token, &topic);
        s.expect(
            200,
            "table",
            "GET",
            &format!("/v1/poker/tables/{table}"),
            Some(token),
            None,
        );
        let wrong = json!({"seat": seat, "client_seed": "x", "commitment": "0".repeat(64)});
        let r = s.send(
            "sit, wrong commitment",
            "POST",
            &seats_path,
            Some(token),
            Some(&wrong),
        );
        assert_eq!(r.status, 409, "{}", r.body);
        let sit = json!({"seat": seat, "client_seed": format!("seat {seat} at {table}"), "commitment": t["commitment"]});
        s.expect(200, "sit", "POST", &seats_path, Some(token), Some(&sit));
    }
    let views = |s: &mut Session, n: u64| {
        for (token, _) in players {
            let path = format!("/v1/poker/tables/{table}/hands/{n}");
            let v = s.expect(200, "own view", "GET", &path, Some(token), None);
            assert_eq!(v["hole"].as_array().map(Vec::len), Some(2), "{v}");
        }
    };
    for n in 1..=hands {
        let h = s.expect(
            200,
            "hand",
            "POST",
            &format!("/v1/poker/tables/{table}/hands"),
            op,
            None,
        );
        assert!(
            h["hand_commitment"].is_string() && h["deck_root"].is_string(),
            "{h}"
        );
        assert!(
            h.get("hole").is_none() && h.get("board").is_none(),
            "no card yet: {h}"
        );
        views(s, n);
        for street in 1..=3 {
            let path = format!("/v1/poker/tables/{table}/hands/{n}/street");
            let v = s.expect(200, "street", "POST", &path, op, None);
            assert_eq!(v["street"], street, "{v}");
            views(s, n);
        }
    }
}

/// `token` leaves `table`: each proof record verifies and its salts are
/// noted as revealed now; when the table empties the session rotates and
/// its secrets are noted. Returns whether it rotated.
pub fn leave(s: &mut Session, table: &str, token: &str) -> bool {
    let at = s.mark();
    let path = format!("/v1/poker/tables/{table}/leave");
    let v = s.expect(200, "leave", "POST", &path, Some(token), None);
    for r in v["records"].as_array().expect("records") {
        let record = &r["record"];
        let verdict = fairseed_core::verify_value(record);
        assert!(verdict.valid, "{verdict:?}\n{record}");
        if r["scheme"] == "poker_hmac_v1_proof" {
            for leaf in record["leaves"].as_array().expect("leaves") {
                s.revealed(&text(leaf, "salt"), at);
            }
        }
    }
    let rotated = v["session_rotated"] == true;
    if rotated {
        let record = v["records"]
            .as_array()
            .and_then(|rs| rs.iter().find(|r| r["scheme"] == "poker_hmac_v1"))
            .unwrap_or_else(|| panic!("the last player gets the session record: {v}"));
        note_session(s, &record["record"], at);
    }
    rotated
}

/// Notes a rotated session's secrets, revealed by the request sent after
/// `at`: its seed and hand values; salts not yet proven may never appear.
/// Returns the seed and hand values.
pub fn note_session(s: &mut Session, record: &Value, at: Instant) -> Vec<String> {
    let verdict = fairseed_core::verify_value(record);
    assert!(verdict.valid, "{verdict:?}\n{record}");
    let seed_hex = text(record, "server_seed");
    let seed = ServerSeed::parse(&seed_hex).expect("seed");
    let table = Ident::parse(&text(record, "table")).expect("table");
    let session = Ident::parse(&text(record, "session")).expect("session");
    let outcome = verdict.outcome.expect("the core's outcome");
    let mut secrets = vec![seed_hex];
    let never = at + Duration::from_secs(24 * 3600);
    for (h, recomputed) in record["hands"]
        .as_array()
        .expect("hands")
        .iter()
        .zip(outcome["hands"].as_array().expect("outcome hands"))
    {
        let n = h["n"].as_u64().expect("n");
        let seats: BTreeMap<u8, ClientSeed> = h["seats"]
            .as_object()
            .expect("seats")
            .iter()
            .map(|(k, v)| {
                let seat = k.parse().expect("seat");
                let client = ClientSeed::parse(v.as_str().expect("client seed")).expect("client");
                (seat, client)
            })
            .collect();
        let value = poker::hand_value(&seed, &table, &session, n);
        assert_eq!(recomputed["hand_value"], value.reveal(), "hand {n}");
        let deck = poker::deal(&value, &table, &session, n, &seats).expect("deal");
        assert_eq!(h["deck_root"], deck.root(), "the deck the salts belong to");
        for i in 0..52 {
            s.revealed(&deck.proof(i).salt, never);
        }
        secrets.push(value.reveal().to_owned());
    }
    assert!(secrets.len() > 1, "the session had hands: {record}");
    for secret in &secrets {
        s.revealed(secret, at);
    }
    secrets
}

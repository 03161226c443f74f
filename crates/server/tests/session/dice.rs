//! Dice in the session: every dice endpoint with good and bad input, and
//! rotations that reveal a pair's server seed.

use serde_json::{json, Value};

use super::{text, Session};
use crate::common::load::bet_body;

/// One player's round: seeds, client seed (settable only while the pair is
/// fresh), bets with replays, refused bets, every read endpoint.
pub fn round(s: &mut Session, token: &str, p: usize, round: usize) {
    let pair = s.expect(200, "seeds", "GET", "/v1/seeds", Some(token), None);
    if round % 2 == 1 {
        let body = json!({"client_seed": format!("player {p} round {round}"), "commitment": pair["commitment"]});
        let a = s.send(
            "set client seed",
            "PUT",
            "/v1/seeds/client",
            Some(token),
            Some(&body),
        );
        // Settable only before the pair's first bet.
        let fresh = pair["next_nonce"] == json!(0);
        assert_eq!(a.status, if fresh { 200 } else { 409 }, "{}", a.body);
        let wrong = json!({"client_seed": "x", "commitment": "0".repeat(64)});
        s.send(
            "wrong commitment",
            "PUT",
            "/v1/seeds/client",
            Some(token),
            Some(&wrong),
        );
    }
    for i in 0..4 {
        let body = bet_body(p, i + round * 10);
        let key = format!("s{round}-{i}");
        for what in ["bet", "replay"] {
            let a =
                s.c.send(
                    "POST",
                    "/v1/dice/bets",
                    Some(token),
                    &[("Idempotency-Key", &key)],
                    Some(&body),
                )
                .expect("bet");
            assert_eq!(a.status, 200, "{what}: {}", a.body);
            s.keep(what, &a);
        }
    }
    let late = json!({"client_seed": "too late", "commitment": pair["commitment"]});
    s.send(
        "locked client seed",
        "PUT",
        "/v1/seeds/client",
        Some(token),
        Some(&late),
    );
    for (body, what) in [
        (
            r#"{"amount": 1, "condition": "under", "target": 0}"#,
            "chance 0",
        ),
        (
            r#"{"amount": 99999999999, "condition": "under", "target": 50}"#,
            "too poor",
        ),
        (
            r#"{"amount": 1, "condition": "sideways", "target": 50}"#,
            "bad condition",
        ),
        (r#"{"amount": 1}"#, "missing fields"),
    ] {
        let a =
            s.c.send(
                "POST",
                "/v1/dice/bets",
                Some(token),
                &[("Idempotency-Key", &format!("bad-{round}-{what}"))],
                Some(body),
            )
            .expect("bad bet");
        assert!((400..500).contains(&a.status), "{what}: {}", a.body);
        s.keep(what, &a);
    }
    for path in [
        "/v1/me",
        "/v1/seeds",
        "/v1/dice/bets?limit=500",
        "/v1/seeds/revealed",
        "/v1/records",
        "/v1/records/export",
        "/v1/records/999999",
        "/healthz",
    ] {
        s.send(path, "GET", path, Some(token), None);
    }
}

/// Rotates the player's pair; returns the answer. The revealed seed is noted.
pub fn rotate(s: &mut Session, token: &str) -> Value {
    let at = s.mark();
    let v = s.expect(200, "rotate", "POST", "/v1/seeds/rotate", Some(token), None);
    s.revealed(&text(&v["revealed"], "server_seed"), at);
    v
}

//! A table-game match (`match_seed_v2`) driven by the operator over TCP:
//! open, every player's client seed given with the commitment shown, start,
//! draws, the draw log, finish. Each answer is handed to a `seen` callback
//! so the no-early-secret test can keep it; the crash test ignores them.

use serde_json::{json, Value};

use super::http::{Answer, Client};
use super::OPERATOR_KEY;

/// Where the answers of a scripted flow go: `(what, answer)`.
pub type Seen<'a> = &'a mut dyn FnMut(&str, &Answer);

/// One operator request that must be answered with `status`.
fn op(c: &mut Client, method: &str, path: &str, body: Option<&str>, status: u16) -> Answer {
    let a = c
        .send(method, path, Some(OPERATOR_KEY), &[], body)
        .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"));
    assert_eq!(a.status, status, "{method} {path}: {}", a.body);
    a
}

/// Opens a match of `game`, gives every client seed with the match's
/// commitment and starts it; returns the started match.
pub fn open_started(c: &mut Client, game: &str, seen: Seen<'_>) -> Value {
    let a = op(
        c,
        "POST",
        "/v1/matches",
        Some(&json!({"game": game}).to_string()),
        201,
    );
    seen("open match", &a);
    let m = a.json();
    let id = m["match_id"].as_str().expect("match_id").to_owned();
    assert!(m.get("server_seed").is_none(), "no seed at the open: {m}");
    let players = m["players"].as_array().expect("players").len();
    for i in 0..players {
        let body = json!({"index": i, "client_seed": format!("seat {i} of {id}"), "commitment": m["commitment"]});
        let path = format!("/v1/matches/{id}/client-seeds");
        let a = op(c, "POST", &path, Some(&body.to_string()), 200);
        seen("match client seed", &a);
    }
    let a = op(c, "POST", &format!("/v1/matches/{id}/start"), None, 200);
    seen("start match", &a);
    let started = a.json();
    assert_eq!(started["status"], "started", "{started}");
    started
}

/// Asks for one draw (`{"step": …}`); `Err` when no answer came back.
pub fn draw(c: &mut Client, id: &str, step: &Value) -> std::io::Result<Answer> {
    c.send(
        "POST",
        &format!("/v1/matches/{id}/draws"),
        Some(OPERATOR_KEY),
        &[],
        Some(&step.to_string()),
    )
}

/// The whole log of the match, `seq` ascending (client seeds, start, draws, finish).
pub fn log(c: &mut Client, id: &str, seen: Seen<'_>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    loop {
        let path = format!("/v1/matches/{id}/draws?from={}&limit=1000", out.len());
        let a = op(c, "GET", &path, None, 200);
        seen("match log", &a);
        let page = a.json().as_array().expect("log entries").clone();
        if page.is_empty() {
            break;
        }
        out.extend(page);
    }
    for (i, entry) in out.iter().enumerate() {
        assert_eq!(entry["seq"], json!(i), "the log is dense: {entry}");
    }
    out
}

/// Finishes the match; checks the record verifies with the core and returns
/// the answer (`match` with the revealed seed, `record`).
pub fn finish(c: &mut Client, id: &str, seen: Seen<'_>) -> Value {
    let a = op(c, "POST", &format!("/v1/matches/{id}/finish"), None, 200);
    seen("finish match", &a);
    let v = a.json();
    let record = &v["record"]["record"];
    let verdict = fairseed_core::verify_value(record);
    assert!(verdict.valid, "{verdict:?}\n{record}");
    assert!(v["match"]["server_seed"].is_string(), "{v}");
    v
}

//! Downtime does not steer a hold'em table (docs/spec.md §19.1), through the
//! real binary: `kill -9` while the person is to act, stay down longer than
//! the turn's clock, restart with other flags (an idle limit of 100 ms): the
//! person is still in the hand, to act, with the full clock, and plays on.

mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::http::Client;
use common::new_player;
use common::server::{Options, Server};
use common::table_ws::Ws;
use serde_json::{json, Value};

/// Each turn's clock at the table: 3 s.
const ACTION_MS: i64 = 3_000;

fn now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970");
    i64::try_from(since.as_millis()).expect("ms")
}

/// A `state` in which the person (seat 0) is to act.
fn my_turn(m: &Value) -> bool {
    m["type"] == "state" && !m["table"]["hand"]["legal"].is_null()
}

/// A timed-out action of seat 0 in `m`, if `m` is one.
fn timed_out_at_0(m: &Value) -> bool {
    m["type"] == "event" && m["event"]["seat"] == 0 && m["event"]["timed_out"] == true
}

#[test]
fn a_restart_after_a_kill_gives_the_person_the_full_clock_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut o = Options::new(dir.path());
    o.lease_ttl_ms = Some(1_000);
    o.extra_args = ["--holdem-ai-delay-ms", "5", "--holdem-next-hand-ms", "50"]
        .map(String::from)
        .to_vec();
    let server = Server::start(&o);
    let addr = server.addr.clone();
    let mut http = Client::new(&addr);
    let token = new_player(&mut http);
    let body = json!({"ais": [2], "seats": 2, "action_ms": ACTION_MS});
    let created = http.ok("POST", "/v1/holdem/tables", &token, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let hello = |after: Value| json!({"type": "hello", "token": token, "after": after});
    let mut ws = Ws::connect(&addr, &table, &hello(Value::Null));
    ws.send(&json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "mine"}));
    let state = ws.until("the person's turn", my_turn);
    let number = state["table"]["hand"]["number"].clone();
    let seq = state["seq"].as_u64().expect("seq");
    drop(ws);
    server.kill9();
    let killed = now_ms();

    // Down for longer than the turn's clock; back with other flags.
    std::thread::sleep(Duration::from_millis(
        u64::try_from(ACTION_MS).expect("ms") + 1_500,
    ));
    o.extra_args = [
        "--holdem-ai-delay-ms",
        "1",
        "--holdem-next-hand-ms",
        "10",
        "--holdem-idle-close-ms",
        "100",
    ]
    .map(String::from)
    .to_vec();
    let server = Server::start(&o);
    let addr = server.addr.clone();
    let mut http = Client::new(&addr);
    // The table as the person reads it, until the new process serves it.
    let path = format!("/v1/holdem/tables/{table}");
    let until = Instant::now() + Duration::from_secs(60);
    let (view, seen) = loop {
        let view = http.ok("GET", &path, &token, None);
        let seen = now_ms();
        let served = view["hand"]["deadline_ms"]
            .as_i64()
            .is_some_and(|d| d > killed + ACTION_MS);
        if served {
            break (view, seen);
        }
        assert!(Instant::now() < until, "never served again: {view}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(view["hand"]["number"], number, "the same hand: {view}");
    assert!(
        !view["hand"]["legal"].is_null(),
        "still the person's turn: {view}"
    );
    assert_eq!(view["closed"], false, "the table is open: {view}");
    let deadline = view["hand"]["deadline_ms"].as_i64().expect("deadline");
    assert!(
        deadline - seen > ACTION_MS - 1_000,
        "{} ms left of a {ACTION_MS} ms clock",
        deadline - seen
    );
    let mut ws = Ws::connect(&addr, &table, &hello(Value::from(seq)));
    let mut timed_out = false;
    // The person plays on: the hand ends and the table stays open.
    ws.send(&json!({"type": "act", "id": "after", "action": {"kind": "fold"}}));
    let ended = ws.until("the hand's end", |m| {
        timed_out |= timed_out_at_0(m);
        m["type"] == "hand_end" && m["number"] == number
    });
    assert!(!timed_out, "{ended}");
    let record = &ended["record"];
    let last = record["actions"]
        .as_array()
        .and_then(|a| a.iter().rev().find(|a| a["seat"] == 0))
        .expect("the person's action");
    assert_eq!(last["action"]["kind"], "fold", "{record}");
    assert!(last.get("timed_out").is_none(), "{record}");
}

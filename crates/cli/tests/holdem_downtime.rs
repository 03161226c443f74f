//! Downtime does not steer a hold'em table (docs/spec.md §19.1, §19.2),
//! through the real binary: `kill -9` while the person is to act, stay down
//! longer than the turn's clock, restart with other flags (an idle limit of
//! 100 ms): the person is still in the hand, to act, with the full clock,
//! and plays on; `fairseed audit` finds the log explains it all, a timeout
//! before the kill included. The
//! operator then closes the table at once through its own endpoint, which
//! logs the end as `table_idle`: `fairseed audit` reports the close as
//! sooner than the table's policy allows.

mod common;

use std::net::TcpStream;
use std::process::Child;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{code, run, serve_with, text};
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Each turn's clock at the table: 3 s.
const ACTION_MS: i64 = 3_000;

/// The operator's key of the service under test.
const OPERATOR_KEY: &str = "operator-key-for-the-downtime-test-0123";

struct Ws(WebSocket<MaybeTlsStream<TcpStream>>);

impl Ws {
    fn connect(addr: &str, table: &str, hello: &Value) -> Ws {
        let url = format!("ws://{addr}/v1/holdem/tables/{table}/ws");
        let (mut socket, _) = tungstenite::connect(url).expect("WebSocket handshake");
        if let MaybeTlsStream::Plain(tcp) = socket.get_mut() {
            tcp.set_read_timeout(Some(Duration::from_secs(30)))
                .expect("read timeout");
        }
        let mut ws = Ws(socket);
        ws.send(hello);
        ws
    }

    fn send(&mut self, message: &Value) {
        self.0
            .send(Message::text(message.to_string()))
            .expect("send");
    }

    /// Reads until `want` holds; panics on an `error` or after 60 s.
    fn until(&mut self, what: &str, mut want: impl FnMut(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            if let Message::Text(text) = self.0.read().expect("a message") {
                let m: Value = serde_json::from_str(&text).expect("JSON");
                assert_ne!(m["type"], "error", "waiting for {what}: {m}");
                if want(&m) {
                    return m;
                }
            }
        }
    }
}

/// The service, killed (`kill -9`) when dropped.
struct Service(Child);

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `fairseed serve` on the data in `dir` with `flags` and the operator key.
fn serve(dir: &std::path::Path, flags: &[&str]) -> (Service, String) {
    let mut args: Vec<String> = flags.iter().map(|s| (*s).to_owned()).collect();
    let fixed = [
        "--lease-ttl-ms",
        "1000",
        "--operator-key",
        OPERATOR_KEY,
        // The audit polls the log: no rate limit in the way.
        "--rate-limit",
        "0",
        "--signups-per-minute",
        "0",
        "--auth-failures-per-minute",
        "0",
    ];
    args.extend(fixed.map(String::from));
    let (child, addr) = serve_with(dir, &args);
    (Service(child), addr)
}

/// `method path` with `bearer`, its JSON answer; panics unless 2xx.
fn call(addr: &str, method: &str, path: &str, bearer: Option<&str>, body: Option<&Value>) -> Value {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let url = format!("http://{addr}{path}");
    let auth = bearer.map(|b| format!("Bearer {b}"));
    let mut answer = match (method, body) {
        ("GET", _) => {
            let mut request = agent.get(&url);
            if let Some(auth) = &auth {
                request = request.header("Authorization", auth);
            }
            request.call()
        }
        (_, body) => {
            let mut request = agent.post(&url).header("Content-Type", "application/json");
            if let Some(auth) = &auth {
                request = request.header("Authorization", auth);
            }
            request.send(body.map_or_else(|| "{}".to_owned(), Value::to_string))
        }
    }
    .expect("an answer");
    let body = answer.body_mut().read_to_string().expect("a body");
    assert!(
        answer.status().is_success(),
        "{method} {path}: {} {body}",
        answer.status()
    );
    serde_json::from_str(&body).expect("JSON")
}

/// `fairseed audit` of the service's log as JSON, polled until `done` holds
/// of the report (sequencing is batched) or 30 s passed.
fn audit_until(addr: &str, what: &str, done: impl Fn(&Value) -> bool) -> (i32, Value) {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let out = run(&["audit", &format!("http://{addr}/log"), "--json"], b"");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if done(&report) {
            return (code(&out), report);
        }
        assert!(
            Instant::now() < until,
            "waiting for {what}: {report:#}\n{}",
            text(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

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
fn a_restart_after_a_kill_gives_the_person_the_full_clock_back_and_the_audit_sees_an_early_close() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (server, addr) = serve(
        dir.path(),
        &["--holdem-ai-delay-ms", "5", "--holdem-next-hand-ms", "50"],
    );
    let player = call(&addr, "POST", "/v1/players", None, None);
    let token = player["token"].as_str().expect("a token").to_owned();
    let body = json!({"scheme": "selfpoker_v2", "ais": [2], "seats": 2, "action_ms": ACTION_MS});
    let created = call(
        &addr,
        "POST",
        "/v1/holdem/tables",
        Some(&token),
        Some(&body),
    );
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let hello = |after: Value| json!({"type": "hello", "token": token, "after": after});
    let mut ws = Ws::connect(&addr, &table, &hello(Value::Null));
    ws.send(&json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "mine"}));
    // The person lets the first turn's clock run out (a timeout the audit
    // must find explained), sits in again and is to act in the next hand.
    let first = ws.until("the person's first turn", my_turn);
    let ran_out = ws.until("the clock running out", timed_out_at_0);
    // The event says when the table counted the clock run out: not before
    // the deadline the person was shown (docs/spec.md §20.7).
    let shown = first["table"]["hand"]["deadline_ms"]
        .as_i64()
        .expect("a deadline");
    let at = ran_out["event"]["at"]
        .as_i64()
        .expect("the moment the clock ran out");
    assert!(at >= shown, "timed out at {at}, shown {shown}");
    ws.send(&json!({"type": "sit_in", "id": "in"}));
    let first = first["table"]["hand"]["number"].clone();
    let state = ws.until("the person's turn in the next hand", |m| {
        my_turn(m) && m["table"]["hand"]["number"] != first
    });
    let number = state["table"]["hand"]["number"].clone();
    let seq = state["seq"].as_u64().expect("seq");
    drop(ws);
    drop(server);
    let killed = now_ms();

    // Down for longer than the turn's clock; back with other flags.
    std::thread::sleep(Duration::from_millis(
        u64::try_from(ACTION_MS).expect("ms") + 1_500,
    ));
    let (_server, addr) = serve(
        dir.path(),
        &[
            "--holdem-ai-delay-ms",
            "1",
            "--holdem-next-hand-ms",
            "10",
            "--holdem-idle-close-ms",
            "100",
        ],
    );
    // The table as the person reads it, until the new process serves it.
    let path = format!("/v1/holdem/tables/{table}");
    let until = Instant::now() + Duration::from_secs(60);
    let (view, seen) = loop {
        let view = call(&addr, "GET", &path, Some(&token), None);
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
    // The person plays on, sitting out after this hand: it ends, no other
    // is dealt, and the table stays open.
    ws.send(&json!({"type": "sit_out", "id": "out"}));
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

    // The session's and the policy's commitments, two starts of service,
    // the first hand's commit, timeout and seed, the second hand's commit
    // and seed: the log explains everything so far.
    let (status, report) = audit_until(&addr, "the second hand's seed in the log", |r| {
        r["summary"]["counts"]["entries"].as_u64() >= Some(9)
    });
    assert_eq!(status, 0, "{report:#}");
    assert_eq!(report["passed"], true, "{report:#}");

    // The operator closes the table at once; its session ends as
    // `table_idle`, though the policy's idle limit is the first process's
    // default, ten minutes.
    let closed = call(
        &addr,
        "POST",
        &format!("/v1/operator/holdem/tables/{table}/close"),
        Some(OPERATOR_KEY),
        None,
    );
    assert_eq!(closed["status"], "closed", "{closed}");
    let (status, report) = audit_until(&addr, "the early close reported", |r| r["passed"] == false);
    assert_eq!(status, 1, "{report:#}");
    let findings = report["findings"]["first"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{report:#}");
    assert_eq!(findings[0]["kind"], "early_end", "{report:#}");
    let message = findings[0]["message"].as_str().expect("a message");
    assert!(
        message.starts_with(&format!("table {table} closed as table_idle after "))
            && message.ends_with("ms of served quiet; its policy's idle limit is 600000 ms"),
        "{message}"
    );
}

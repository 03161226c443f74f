//! Regression, through the real binary: two
//! `fairseed serve` processes on one PostgreSQL. A poker table's session is
//! served by the process holding its lease; starting or restarting another
//! process never rotates it — a hand in play is never revealed while its
//! owner lives — and once the owner is `kill -9`ed the session rotates
//! (exactly once) after its lease expires, whichever processes come and go.
//!
//! Needs `FAIRSEED_TEST_DB_URI` (e.g. postgres://postgres@127.0.0.1:5432/test);
//! runs in a fresh schema dropped afterwards. Without it the test says
//! `SKIPPED` on stderr, and fails if `FAIRSEED_REQUIRE_POSTGRES=1`.

mod common;

use std::time::{Duration, Instant};

use common::http::Client;
use common::pg::{test_db_uri, Schema};
use common::server::{Options, Server};
use common::{new_player, OPERATOR_KEY};
use fairseed_store::SeedCipher;
use serde_json::{json, Value};

/// Short leases, so an owner's death shows within seconds.
const TTL_MS: u64 = 2500;

fn call(addr: &str, method: &str, path: &str, token: &str, body: Option<Value>) -> Value {
    let body = body.map(|b| b.to_string());
    let a = Client::new(addr)
        .send(method, path, Some(token), &[], body.as_deref())
        .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"));
    assert!(
        (200..300).contains(&a.status),
        "{method} {path}: {} {}",
        a.status,
        a.body
    );
    a.json()
}

/// The `poker_hmac_v1` records of `table` in the operator's export, through `addr`.
fn session_records(addr: &str, table: &str) -> Vec<Value> {
    let a = Client::new(addr)
        .send(
            "GET",
            "/v1/operator/records/export",
            Some(OPERATOR_KEY),
            &[],
            None,
        )
        .expect("export");
    assert_eq!(a.status, 200, "{}", a.body);
    a.body
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a record"))
        .filter(|r| r["scheme"] == "poker_hmac_v1" && r["table"] == table)
        .collect()
}

fn session_of(addr: &str, table: &str) -> String {
    let t = call(
        addr,
        "GET",
        &format!("/v1/poker/tables/{table}"),
        OPERATOR_KEY,
        None,
    );
    t["session"].as_str().expect("session").to_owned()
}

/// Seats `tokens` with client seeds for the table's current session and
/// starts a hand, dealt to the flop; returns the hand's number.
fn hand_in_play(addr: &str, table: &str, tokens: &[String]) -> u64 {
    let t = call(
        addr,
        "GET",
        &format!("/v1/poker/tables/{table}"),
        OPERATOR_KEY,
        None,
    );
    for (seat, token) in tokens.iter().enumerate() {
        let sit =
            json!({"seat": seat, "client_seed": format!("c{seat}"), "commitment": t["commitment"]});
        call(
            addr,
            "POST",
            &format!("/v1/poker/tables/{table}/seats"),
            token,
            Some(sit),
        );
    }
    let hand = call(
        addr,
        "POST",
        &format!("/v1/poker/tables/{table}/hands"),
        OPERATOR_KEY,
        None,
    );
    let n = hand["n"].as_u64().expect("n");
    call(
        addr,
        "POST",
        &format!("/v1/poker/tables/{table}/hands/{n}/street"),
        OPERATOR_KEY,
        None,
    );
    n
}

/// The hand is still in play, seen through every address: same session,
/// each player's own cards, no session record.
fn still_in_play(addrs: &[&str], table: &str, session: &str, n: u64, tokens: &[String]) {
    for addr in addrs {
        assert_eq!(session_of(addr, table), session, "through {addr}");
        for token in tokens {
            let v = call(
                addr,
                "GET",
                &format!("/v1/poker/tables/{table}/hands/{n}"),
                token,
                None,
            );
            assert_eq!(v["hole"].as_array().map(Vec::len), Some(2), "{v}");
            assert_eq!(v["board"].as_array().map(Vec::len), Some(3), "{v}");
        }
        let revealed: Vec<Value> = session_records(addr, table)
            .into_iter()
            .filter(|r| r["session"] == session)
            .collect();
        assert!(
            revealed.is_empty(),
            "session {session} revealed while its owner lives"
        );
    }
}

/// Heartbeats `server` has logged so far.
fn heartbeats(server: &Server) -> usize {
    server
        .lines()
        .iter()
        .filter(|(_, line)| line.contains("fleet heartbeat"))
        .count()
}

/// Waits (at most 60 s) until every one of `servers` has renewed its
/// leases and swept for expired ones six more times — two lease lifetimes:
/// the window in which a wrong takeover would show.
fn several_lease_lifetimes(servers: &[&Server]) {
    let marks: Vec<usize> = servers.iter().map(|s| heartbeats(s)).collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while servers
        .iter()
        .zip(&marks)
        .any(|(s, m)| heartbeats(s) < m + 6)
    {
        assert!(Instant::now() < deadline, "the heartbeats stopped");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits (at most 30 s) until `table` moved past `session` through `addr`;
/// then its record is published exactly once.
fn wait_rotated(addr: &str, table: &str, session: &str) -> Duration {
    let start = Instant::now();
    let deadline = start + Duration::from_secs(30);
    while session_of(addr, table) == session {
        assert!(
            Instant::now() < deadline,
            "{table} {session} never rotated after its owner died"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let records: Vec<Value> = session_records(addr, table)
        .into_iter()
        .filter(|r| r["session"] == session)
        .collect();
    assert_eq!(records.len(), 1, "rotated once: {records:?}");
    assert!(fairseed_core::verify_value(&records[0]).valid);
    start.elapsed()
}

fn postgres_url() -> Option<String> {
    if let Some(url) = test_db_uri() {
        return Some(url);
    }
    let why = "FAIRSEED_TEST_DB_URI is not set";
    assert!(
        std::env::var("FAIRSEED_REQUIRE_POSTGRES").as_deref() != Ok("1"),
        "FAIRSEED_REQUIRE_POSTGRES=1 but {why}"
    );
    eprintln!("SKIPPED: poker fleet on PostgreSQL ({why})");
    None
}

#[test]
fn a_live_processs_session_is_never_rotated_a_dead_ones_is() {
    let Some(url) = postgres_url() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let cipher = SeedCipher::load_or_create(&dir.path().join("seed.key")).expect("seed key");
    let schema = Schema::create(&url, cipher);
    let db = schema.scoped_url();
    let mut opts = Options::new(dir.path());
    opts.database = Some(&db);
    opts.lease_ttl_ms = Some(TTL_MS);
    opts.log = "info,fairseed_server::fleet=debug";

    // A opens the table and deals a hand to the flop.
    let a = Server::start(&opts);
    let mut c = Client::new(&a.addr);
    let tokens: Vec<String> = (0..3).map(|_| new_player(&mut c)).collect();
    call(
        &a.addr,
        "POST",
        "/v1/poker/tables",
        OPERATOR_KEY,
        Some(json!({"table_id": "felt"})),
    );
    let n = hand_in_play(&a.addr, "felt", &tokens);

    // B starts, then restarts: A's hand stays in play.
    let b = Server::start(&opts);
    still_in_play(&[&a.addr, &b.addr], "felt", "s1", n, &tokens);
    b.kill9();
    let b = Server::start(&opts);
    several_lease_lifetimes(&[&a, &b]);
    still_in_play(&[&a.addr, &b.addr], "felt", "s1", n, &tokens);

    // A dies: once its lease expires, B takes the table over and rotates s1.
    a.kill9();
    wait_rotated(&b.addr, "felt", "s1");

    // A starts again while B serves felt's s2 with a hand in play: kept.
    let n = hand_in_play(&b.addr, "felt", &tokens);
    let a = Server::start(&opts);
    several_lease_lifetimes(&[&a, &b]);
    still_in_play(&[&a.addr, &b.addr], "felt", "s2", n, &tokens);

    // B dies and restarts at once (its old lease not yet expired): the
    // session rotates once, when the dead lease expires, by either process.
    b.kill9();
    let b = Server::start(&opts);
    let waited = wait_rotated(&a.addr, "felt", "s2");
    assert_eq!(session_of(&b.addr, "felt"), "s3");
    eprintln!("s2 rotated {waited:?} after its owner was killed (lease {TTL_MS} ms)");

    // A table opened on the restarted B is B's: killing A changes nothing for it.
    call(
        &b.addr,
        "POST",
        "/v1/poker/tables",
        OPERATOR_KEY,
        Some(json!({"table_id": "rail"})),
    );
    let n = hand_in_play(&b.addr, "rail", &tokens[..2]);
    a.kill9();
    several_lease_lifetimes(&[&b]);
    still_in_play(&[&b.addr], "rail", "s1", n, &tokens[..2]);
    drop(b);
}

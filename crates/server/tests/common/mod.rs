//! Helpers shared by every test of the service: the router in process
//! (`app`), and for the tests that need a process boundary, the real binary
//! as a child (`server`), a small HTTP client over TCP (`http`), a
//! concurrent dice load (`load`), the ledger checks those tests end with
//! (`ledger`), an operator's table-game match (`matches`) and a live-event
//! subscriber (`sse`), a table's WebSocket (`table_ws`), a GET of raw bytes (`raw`), and the workspace's one
//! way to skip visibly (`skip`, `tests/support/skip.rs`).
//!
//! Each test file uses only part of it, hence the `dead_code` allowance.

#![allow(dead_code)]

pub mod app;
pub mod http;
pub mod ledger;
pub mod load;
pub mod matches;
pub mod pg;
pub mod raw;
pub mod server;
#[path = "../../../../tests/support/skip.rs"]
pub mod skip;
pub mod sse;
pub mod table_ws;

/// The operator key of every test server, in process or not.
pub const OPERATOR_KEY: &str = "operator-key-for-tests-0123456789";

/// Chips every player starts with in the tests through the real binary.
pub const OPENING: u64 = 1_000_000;

/// A fresh player through `c`; returns its token.
pub fn new_player(c: &mut http::Client) -> String {
    let a = c
        .send("POST", "/v1/players", None, &[], None)
        .expect("create player");
    assert_eq!(a.status, 201, "create player: {}", a.body);
    a.json()["token"].as_str().expect("token").to_owned()
}

/// Waits until `done()` holds, checking every 10 ms; panics naming `what`
/// if it still does not after `timeout`. Tests wait for a condition with
/// this instead of asserting after a fixed sleep.
pub fn wait_for(what: &str, timeout: std::time::Duration, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + timeout;
    while !done() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out after {timeout:?} waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// An answer without its transparency-log receipts: a replay answers the same
/// call, its receipts signed again in another batch (docs/api.md, "Receipts").
pub fn without_receipts(answer: &serde_json::Value) -> serde_json::Value {
    let mut answer = answer.clone();
    if let Some(fields) = answer.as_object_mut() {
        fields.remove("receipts");
    }
    answer
}

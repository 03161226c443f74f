//! Shared helpers of the reliability tests (`reliability_*.rs`): the real
//! binary as a child process, a small HTTP client, a concurrent dice load,
//! and the ledger checks every test ends with.
//!
//! Each test file uses only part of it, hence the `dead_code` allowance.

#![allow(dead_code)]

pub mod http;
pub mod ledger;
pub mod load;
pub mod server;

/// Chips every player starts with in these tests.
pub const OPENING: u64 = 1_000_000;

/// A fresh player through `c`; returns its token.
pub fn new_player(c: &mut http::Client) -> String {
    let a = c
        .send("POST", "/v1/players", None, &[], None)
        .expect("create player");
    assert_eq!(a.status, 201, "create player: {}", a.body);
    a.json()["token"].as_str().expect("token").to_owned()
}

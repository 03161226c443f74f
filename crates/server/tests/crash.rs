//! Crash test through the real binary: concurrent bets, `kill -9` mid-load,
//! restart, then every acknowledged bet is there unchanged, nonces are
//! dense, balances equal the opening balance plus the history, and every
//! exported record verifies.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::invariants::{check_acked, check_export, check_player, load};
use common::process::{new_player, request, Server};

#[test]
fn kill_dash_nine_mid_load() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(dir.path(), &[]);
    let addr = server.addr.clone();
    let tokens: Vec<String> = (0..3).map(|_| new_player(&addr)).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let loader = {
        let addr = addr.clone();
        let tokens = tokens.clone();
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || load(&addr, &tokens, 6, &stop))
    };
    std::thread::sleep(Duration::from_millis(700));
    server.kill();
    stop.store(true, Ordering::Relaxed);
    let (acked, unanswered) = loader.join().expect("loader");
    eprintln!(
        "killed with {} bets acknowledged, {} unanswered",
        acked.len(),
        unanswered.len()
    );
    assert!(
        acked.len() > 20,
        "the load ran ({} bets acknowledged)",
        acked.len()
    );

    let server = Server::start(dir.path(), &[]);
    let addr = server.addr.clone();
    check_acked(&addr, &acked);
    for token in &tokens {
        check_player(&addr, token);
    }
    // A retried unanswered bet acts at most once: its replay or its first run.
    for (token, key) in &unanswered {
        let body = r#"{"amount": 7, "condition": "under", "target": 5000}"#;
        let first = request(
            &addr,
            "POST",
            "/v1/dice/bets",
            Some(token),
            &[("Idempotency-Key", key)],
            Some(body),
        )
        .expect("retry");
        let again = request(
            &addr,
            "POST",
            "/v1/dice/bets",
            Some(token),
            &[("Idempotency-Key", key)],
            Some(body),
        )
        .expect("retry");
        assert_eq!((first.status, first.json()), (200, again.json()));
    }
    for token in &tokens {
        check_player(&addr, token);
        check_export(&addr, token);
    }
}

//! Scale-out through the real binary: two server processes on one
//! PostgreSQL, bets, replays and rotations for the same players through both
//! at once; the same idempotency key raced through both processes acts
//! once; one process is `kill -9`ed mid-load while the other keeps serving
//! and takes the retries. Then the crash test's guarantees: every
//! acknowledged bet stored unchanged (seen the same through both), nonces
//! dense per pair, balances = opening + history, every record verifies.
//!
//! Needs `FAIRSEED_TEST_DB_URI` (e.g. postgres://postgres@127.0.0.1:5432/test);
//! runs in a fresh schema dropped afterwards; skipped with a notice when unset.

mod common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use common::http::Client;
use common::ledger::{check_acked, check_every_export, check_player};
use common::load::{bet, bet_body, drive, Outcome, Plan, Sent};
use common::new_player;
use common::pg::{test_db_uri, Schema};
use common::server::{Options, Server};
use fairseed_store::SeedCipher;
use serde_json::Value;

/// Races each key through both servers at once; both answers must agree.
fn race_keys(addrs: &[String; 2], token: &str, n: usize) -> Vec<(Sent, Value)> {
    let mut out = Vec::new();
    for i in 0..n {
        let sent = Sent {
            token: token.to_owned(),
            key: format!("race-{i}"),
            body: bet_body(99, i),
        };
        let barrier = Arc::new(Barrier::new(2));
        let answers: Vec<Value> = addrs
            .iter()
            .map(|addr| {
                let (addr, sent, barrier) = (addr.clone(), sent.clone(), Arc::clone(&barrier));
                std::thread::spawn(move || {
                    let mut c = Client::new(&addr);
                    barrier.wait();
                    let a = bet(&mut c, &sent).expect("race bet");
                    assert_eq!(a.status, 200, "raced key {}: {}", sent.key, a.body);
                    a.json()
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().expect("race thread"))
            .collect();
        assert_eq!(
            answers[0], answers[1],
            "one key, one bet, whichever server answers"
        );
        out.push((sent, answers[0].clone()));
    }
    out
}

fn load(
    addrs: Vec<String>,
    tokens: Vec<String>,
    tag: &'static str,
    stop: &Arc<AtomicBool>,
) -> std::thread::JoinHandle<Outcome> {
    let stop = Arc::clone(stop);
    std::thread::spawn(move || {
        drive(
            &Plan {
                addrs: &addrs,
                tokens: &tokens,
                threads: 8,
                rotate_every: Some(Duration::from_millis(150)),
                tag,
            },
            &stop,
        )
    })
}

#[test]
fn two_processes_one_postgres_same_players() {
    let Some(url) = test_db_uri() else {
        eprintln!("FAIRSEED_TEST_DB_URI is not set: skipping the scale-out test (e.g. FAIRSEED_TEST_DB_URI=postgres://postgres@127.0.0.1:5432/test)");
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    // Created and migrated with the data dir's seed key, as the servers use it.
    let cipher = SeedCipher::load_or_create(&dir.path().join("seed.key")).expect("seed key");
    let schema = Schema::create(&url, cipher);
    let db = schema.scoped_url();
    let mut opts = Options::new(dir.path());
    opts.database = Some(&db);
    // Both processes share the data dir (the seed key) and the operator key.
    let a = Server::start(&opts);
    let b = Server::start(&opts);
    let addrs = [a.addr.clone(), b.addr.clone()];
    let mut c = Client::new(&addrs[0]);
    let tokens: Vec<String> = (0..3).map(|_| new_player(&mut c)).collect();

    // Phase 1: every player through both processes at once.
    let stop = Arc::new(AtomicBool::new(false));
    let loader = load(addrs.to_vec(), tokens.clone(), "both", &stop);
    std::thread::sleep(Duration::from_millis(1500));
    stop.store(true, Ordering::Relaxed);
    let out = loader.join().expect("loader");
    assert!(out.unanswered.is_empty(), "no server died in phase 1");
    eprintln!(
        "phase 1: {} bets, {} replays, {} refused, {} rotations through two processes",
        out.acked.len(),
        out.replays,
        out.refused,
        out.rotations.len()
    );
    assert!(out.acked.len() >= 40, "the load ran: {}", out.acked.len());
    let mut acked = out.acked;

    // Phase 2: one idempotency key through both processes at the same instant.
    acked.extend(race_keys(&addrs, &tokens[0], 15));

    // Phase 3: kill -9 one process mid-load; the other takes the retries.
    let stop = Arc::new(AtomicBool::new(false));
    let loader = load(addrs.to_vec(), tokens.clone(), "kill", &stop);
    std::thread::sleep(Duration::from_millis(700));
    a.kill9();
    std::thread::sleep(Duration::from_millis(500));
    stop.store(true, Ordering::Relaxed);
    let out = loader.join().expect("loader");
    eprintln!(
        "phase 3: {} bets acknowledged, {} unanswered when one process was killed",
        out.acked.len(),
        out.unanswered.len()
    );
    acked.extend(out.acked);
    let mut cb = Client::new(&addrs[1]);
    for sent in &out.unanswered {
        let first = bet(&mut cb, sent).expect("retry through the survivor");
        assert_eq!(first.status, 200, "{}", first.body);
        let again = bet(&mut cb, sent).expect("second retry");
        assert_eq!(again.json(), first.json());
        acked.push((sent.clone(), first.json()));
    }

    // Both views agree and hold every guarantee.
    let a2 = Server::start(&opts);
    let mut ca = Client::new(&a2.addr);
    let mut stored: HashMap<String, Vec<Value>> = HashMap::new();
    for token in &tokens {
        let via_a = check_player(&mut ca, token);
        let via_b = check_player(&mut cb, token);
        assert_eq!(via_a, via_b, "both processes see the same history");
        stored.insert(token.clone(), via_b);
    }
    check_acked(&acked, &stored);
    let records = check_every_export(&mut cb, &stored);
    eprintln!(
        "{} acknowledged bets checked, {records} records verified",
        acked.len()
    );
    drop((a2, b));
}

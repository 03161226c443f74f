//! Scale-out through the real binary: two server processes on one
//! PostgreSQL, bets, replays and rotations for the same players through both
//! at once; the same idempotency key raced through both processes acts
//! once; one process is `kill -9`ed mid-load while the other keeps serving
//! and takes the retries. Then the crash test's guarantees: every
//! acknowledged bet stored unchanged (seen the same through both), nonces
//! dense per pair, balances = opening + history, every record verifies.
//!
//! Live events cross processes: a player subscribed through one server sees
//! the bets placed through the other.
//!
//! Needs `FAIRSEED_TEST_DB_URI` (e.g. postgres://postgres@127.0.0.1:5432/test);
//! runs in a fresh schema dropped afterwards. Without it each test prints
//! `SKIPPED: …`, and fails under `FAIRSEED_REQUIRE_POSTGRES=1` (CI).

mod common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use common::http::Client;
use common::ledger::{check_acked, check_every_export, check_player};
use common::load::{bet, bet_body, drive_counting, Outcome, Plan, Progress, Sent};
use common::pg::{postgres_or_skip, Schema};
use common::server::{Options, Server};
use common::sse::Subscription;
use common::{new_player, wait_for};
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
            common::without_receipts(&answers[0]),
            common::without_receipts(&answers[1]),
            "one key, one bet, whichever server answers"
        );
        out.push((sent, answers[0].clone()));
    }
    out
}

/// A running load: stop it to get its outcome; `acked` counts as it goes.
struct Load {
    stop: Arc<AtomicBool>,
    progress: Arc<Progress>,
    thread: std::thread::JoinHandle<Outcome>,
}

impl Load {
    fn start(addrs: Vec<String>, tokens: Vec<String>, tag: &'static str) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Progress::default());
        let thread = {
            let (stop, progress) = (Arc::clone(&stop), Arc::clone(&progress));
            std::thread::spawn(move || {
                let plan = Plan {
                    addrs: &addrs,
                    tokens: &tokens,
                    threads: 8,
                    rotate_every: Some(Duration::from_millis(150)),
                    tag,
                };
                drive_counting(&plan, &stop, &progress)
            })
        };
        Self {
            stop,
            progress,
            thread,
        }
    }

    /// Waits (at most a minute) until `n` bets are acknowledged in all.
    fn wait_acked(&self, n: usize, what: &str) {
        wait_for(what, Duration::from_secs(60), || self.progress.acked() >= n);
    }

    fn acked(&self) -> usize {
        self.progress.acked()
    }

    fn stop(self) -> Outcome {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("loader")
    }
}

/// A data directory and a fresh schema for servers sharing one database
/// (`None`, after saying `SKIPPED`, without PostgreSQL); the schema guard
/// drops it at the end.
fn shared_database(test: &str) -> Option<(tempfile::TempDir, Schema, String)> {
    let url = postgres_or_skip(test)?;
    let dir = tempfile::tempdir().expect("tempdir");
    // Created and migrated with the data dir's seed key, as the servers use it.
    let cipher = SeedCipher::load_or_create(&dir.path().join("seed.key")).expect("seed key");
    let schema = Schema::create(&url, cipher);
    let db = schema.scoped_url();
    Some((dir, schema, db))
}

#[test]
fn live_events_cross_processes() {
    let Some((dir, _schema, db)) = shared_database("live events across two processes") else {
        return;
    };
    let mut opts = Options::new(dir.path());
    opts.database = Some(&db);
    let a = Server::start(&opts);
    let b = Server::start(&opts);
    let mut ca = Client::new(&a.addr);
    let token = new_player(&mut ca);
    let other = new_player(&mut ca);
    // Subscribed through B (answered 200: listening), betting through A.
    let mine = Subscription::start(&b.addr, &token, "dice");
    let theirs = Subscription::start(&b.addr, &other, "dice");
    let mut placed = Vec::new();
    for i in 0..3 {
        let sent = Sent {
            token: token.clone(),
            key: format!("ev-{i}"),
            body: bet_body(1, i),
        };
        let answer = bet(&mut ca, &sent).expect("bet through A");
        assert_eq!(answer.status, 200, "{}", answer.body);
        placed.push(answer.json()["bet_id"].clone());
    }
    let ids = |s: &Subscription| -> Vec<Value> {
        s.received()
            .iter()
            .filter_map(|r| serde_json::from_str::<Value>(&r.data).ok())
            .map(|v| v["bet_id"].clone())
            .collect()
    };
    wait_for(
        "B to stream the three bets placed through A",
        Duration::from_secs(20),
        || ids(&mine).len() >= 3,
    );
    assert_eq!(ids(&mine), placed, "every bet, once, in order");
    // The other player's bet through A is the first event their stream
    // shows: the three before it never reached them.
    let sent = Sent {
        token: other.clone(),
        key: "ev-other".into(),
        body: bet_body(2, 1),
    };
    let answer = bet(&mut ca, &sent).expect("bet through A");
    wait_for(
        "the other player's own bet",
        Duration::from_secs(20),
        || !ids(&theirs).is_empty(),
    );
    assert_eq!(ids(&theirs), vec![answer.json()["bet_id"].clone()]);
    drop((mine, theirs, a, b));
}

#[test]
fn two_processes_one_postgres_same_players() {
    let Some((dir, _schema, db)) = shared_database("scale-out over two processes") else {
        return;
    };
    let mut opts = Options::new(dir.path());
    opts.database = Some(&db);
    // Both processes share the data dir (the seed key) and the operator key.
    let a = Server::start(&opts);
    let b = Server::start(&opts);
    let addrs = [a.addr.clone(), b.addr.clone()];
    let mut c = Client::new(&addrs[0]);
    let tokens: Vec<String> = (0..3).map(|_| new_player(&mut c)).collect();

    // Phase 1: every player through both processes at once.
    let load = Load::start(addrs.to_vec(), tokens.clone(), "both");
    load.wait_acked(40, "40 bets through two processes");
    let out = load.stop();
    assert!(out.unanswered.is_empty(), "no server died in phase 1");
    eprintln!(
        "phase 1: {} bets, {} replays, {} refused, {} rotations through two processes",
        out.acked.len(),
        out.replays,
        out.refused,
        out.rotations.len()
    );
    let mut acked = out.acked;

    // Phase 2: one idempotency key through both processes at the same instant.
    acked.extend(race_keys(&addrs, &tokens[0], 15));

    // Phase 3: kill -9 one process mid-load; the other takes the retries
    // and keeps serving.
    let load = Load::start(addrs.to_vec(), tokens.clone(), "kill");
    load.wait_acked(20, "20 bets before the kill");
    a.kill9();
    let at_kill = load.acked();
    load.wait_acked(at_kill + 20, "20 more bets through the survivor");
    let out = load.stop();
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

//! Concurrent dice load against one or more running servers: several
//! players, several threads per player (so bets on one seed pair race),
//! idempotent replays, refused bets and seed rotations in the mix. Every
//! request is remembered with its fate, for the ledger checks afterwards.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::http::Client;

/// A bet as sent.
#[derive(Debug, Clone)]
pub struct Sent {
    pub token: String,
    pub key: String,
    pub body: String,
}

/// What came of the load.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Bets answered 200, with their answer.
    pub acked: Vec<(Sent, Value)>,
    /// Bets sent without an answer (the server died under them).
    pub unanswered: Vec<Sent>,
    /// Rotations answered 200: (token, answer).
    pub rotations: Vec<(String, Value)>,
    /// Requests refused on purpose (bad target) and answered 422.
    pub refused: usize,
    /// Idempotent replays checked equal to the first answer.
    pub replays: usize,
}

impl Outcome {
    fn merge(&mut self, other: Outcome) {
        self.acked.extend(other.acked);
        self.unanswered.extend(other.unanswered);
        self.rotations.extend(other.rotations);
        self.refused += other.refused;
        self.replays += other.replays;
    }
}

/// A valid bet body varying with `(t, i)`: amounts 1..40, both conditions,
/// targets 200..9799 (every chance between 2 % and 98 %).
pub fn bet_body(t: usize, i: usize) -> String {
    let amount = 1 + (i * 7 + t) % 40;
    let condition = if (i + t).is_multiple_of(2) {
        "under"
    } else {
        "over"
    };
    let target = 200 + (i * 131 + t * 17) % 9600;
    format!(r#"{{"amount": {amount}, "condition": "{condition}", "target": {target}}}"#)
}

/// Sends one bet; `Err` when no answer came back.
pub fn bet(c: &mut Client, sent: &Sent) -> std::io::Result<super::http::Answer> {
    c.send(
        "POST",
        "/v1/dice/bets",
        Some(&sent.token),
        &[("Idempotency-Key", &sent.key)],
        Some(&sent.body),
    )
}

/// How the load runs.
pub struct Plan<'a> {
    pub addrs: &'a [String],
    pub tokens: &'a [String],
    /// Betting threads; thread `t` bets for `tokens[t % len]` through
    /// `addrs[(t / tokens.len()) % addrs.len()]`, so with enough threads
    /// every player goes through every server.
    pub threads: usize,
    /// Also rotate each player's pair every this often (one thread per player).
    pub rotate_every: Option<Duration>,
    /// Distinguishes the idempotency keys of successive runs.
    pub tag: &'a str,
}

/// How far a running load got, counted as it goes, so a test can wait for
/// a point of the load instead of sleeping.
#[derive(Debug, Default)]
pub struct Progress {
    /// Bets answered 200.
    pub acked: AtomicUsize,
    /// Rotations answered 200.
    pub rotations: AtomicUsize,
}

impl Progress {
    pub fn acked(&self) -> usize {
        self.acked.load(Ordering::Relaxed)
    }

    pub fn rotations(&self) -> usize {
        self.rotations.load(Ordering::Relaxed)
    }
}

/// Runs until `stop` is set (or every server stopped answering).
pub fn drive(plan: &Plan<'_>, stop: &Arc<AtomicBool>) -> Outcome {
    drive_counting(plan, stop, &Arc::default())
}

/// Like [`drive`], counting in `progress` as it goes.
pub fn drive_counting(
    plan: &Plan<'_>,
    stop: &Arc<AtomicBool>,
    progress: &Arc<Progress>,
) -> Outcome {
    let mut handles = Vec::new();
    for t in 0..plan.threads {
        let addr = plan.addrs[(t / plan.tokens.len()) % plan.addrs.len()].clone();
        let token = plan.tokens[t % plan.tokens.len()].clone();
        let stop = Arc::clone(stop);
        let tag = plan.tag.to_owned();
        let progress = Arc::clone(progress);
        handles.push(std::thread::spawn(move || {
            bettor(&addr, &token, t, &tag, &stop, &progress.acked)
        }));
    }
    if let Some(every) = plan.rotate_every {
        for (p, token) in plan.tokens.iter().enumerate() {
            let addr = plan.addrs[p % plan.addrs.len()].clone();
            let token = token.clone();
            let stop = Arc::clone(stop);
            let progress = Arc::clone(progress);
            handles.push(std::thread::spawn(move || {
                rotator(&addr, &token, every, &stop, &progress.rotations)
            }));
        }
    }
    let mut out = Outcome::default();
    for h in handles {
        out.merge(h.join().expect("a load thread panicked"));
    }
    out
}

fn bettor(
    addr: &str,
    token: &str,
    t: usize,
    tag: &str,
    stop: &AtomicBool,
    acked: &AtomicUsize,
) -> Outcome {
    let mut c = Client::new(addr);
    let mut out = Outcome::default();
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        if i % 13 == 0 {
            // A bet the server must refuse (chance 0) without using a nonce.
            let bad = Sent {
                token: token.to_owned(),
                key: format!("{tag}-{t}-{i}-bad"),
                body: r#"{"amount": 5, "condition": "under", "target": 0}"#.to_owned(),
            };
            match bet(&mut c, &bad) {
                Ok(a) => {
                    assert_eq!(a.status, 422, "a chance-0 bet is refused: {}", a.body);
                    assert_eq!(a.json()["code"], "invalid_field");
                    out.refused += 1;
                }
                Err(_) => break,
            }
            continue;
        }
        let sent = Sent {
            token: token.to_owned(),
            key: format!("{tag}-{t}-{i}"),
            body: bet_body(t, i),
        };
        let answer = match bet(&mut c, &sent) {
            Ok(a) => a,
            Err(_) => {
                out.unanswered.push(sent);
                break;
            }
        };
        assert_eq!(answer.status, 200, "bet {}: {}", sent.key, answer.body);
        acked.fetch_add(1, Ordering::Relaxed);
        let first = answer.json();
        if i % 7 == 0 {
            // The client retries: the same answer, marked replayed, no new bet.
            match bet(&mut c, &sent) {
                Ok(again) => {
                    assert_eq!(again.status, 200, "replay {}: {}", sent.key, again.body);
                    assert_eq!(
                        super::without_receipts(&again.json()),
                        super::without_receipts(&first),
                        "a replay returns the first answer"
                    );
                    assert_eq!(again.header("idempotency-replayed"), Some("true"));
                    out.replays += 1;
                }
                Err(_) => {
                    out.acked.push((sent, first));
                    break;
                }
            }
        }
        out.acked.push((sent, first));
    }
    out
}

fn rotator(
    addr: &str,
    token: &str,
    every: Duration,
    stop: &AtomicBool,
    rotations: &AtomicUsize,
) -> Outcome {
    let mut c = Client::new(addr);
    let mut out = Outcome::default();
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(every);
        match c.send("POST", "/v1/seeds/rotate", Some(token), &[], None) {
            Ok(a) => {
                assert_eq!(a.status, 200, "rotate: {}", a.body);
                rotations.fetch_add(1, Ordering::Relaxed);
                out.rotations.push((token.to_owned(), a.json()));
            }
            Err(_) => break,
        }
    }
    out
}

//! Invariants of a player's dice history, checked over real HTTP against
//! a running server (crash and scale-out tests).

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::Value;

use super::process::{all_bets, request};

/// Bets answered 200: (token, idempotency key, answer).
pub type Acked = Vec<(String, String, Value)>;
/// Bets sent without an answer: (token, idempotency key).
pub type Unanswered = Vec<(String, String)>;

const OPENING: i128 = 1_000_000;

/// Checks the invariants of one player's history.
pub fn check_player(addr: &str, token: &str) {
    let bets = all_bets(addr, token);
    let mut by_pair: BTreeMap<i64, Vec<u64>> = BTreeMap::new();
    let mut net: i128 = 0;
    for b in &bets {
        by_pair
            .entry(b["pair_id"].as_i64().expect("pair"))
            .or_default()
            .push(b["nonce"].as_u64().expect("nonce"));
        net += i128::from(b["payout"].as_i64().expect("payout"))
            - i128::from(b["amount"].as_i64().expect("amount"));
    }
    for nonces in by_pair.values() {
        let expected: Vec<u64> = (0..nonces.len() as u64).collect();
        assert_eq!(nonces, &expected, "nonces are dense and in order");
    }
    let me = request(addr, "GET", "/v1/me", Some(token), &[], None)
        .expect("me")
        .json();
    assert_eq!(
        i128::from(me["balance"].as_i64().expect("balance")),
        OPENING + net,
        "balance = opening + history"
    );
    if let Some(last) = bets.last() {
        assert_eq!(last["balance"], me["balance"]);
    }
}

/// Drives bets from `threads` threads until `stop`; returns (acknowledged, unanswered) per key.
pub fn load(
    addr: &str,
    tokens: &[String],
    threads: usize,
    stop: &Arc<AtomicBool>,
) -> (Acked, Unanswered) {
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let addr = addr.to_owned();
            let token = tokens[t % tokens.len()].clone();
            let stop = Arc::clone(stop);
            std::thread::spawn(move || {
                let mut acked = Vec::new();
                let mut unanswered = Vec::new();
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    let key = format!("t{t}-{i}");
                    i += 1;
                    let body = r#"{"amount": 7, "condition": "under", "target": 5000}"#;
                    match request(
                        &addr,
                        "POST",
                        "/v1/dice/bets",
                        Some(&token),
                        &[("Idempotency-Key", &key)],
                        Some(body),
                    ) {
                        Ok(a) if a.status == 200 => acked.push((token.clone(), key, a.json())),
                        Ok(a) => panic!("bet refused: {} {}", a.status, a.body),
                        Err(_) => {
                            unanswered.push((token.clone(), key));
                            break;
                        }
                    }
                }
                (acked, unanswered)
            })
        })
        .collect();
    let mut acked = Vec::new();
    let mut unanswered = Vec::new();
    for h in handles {
        let (a, u) = h.join().expect("client thread");
        acked.extend(a);
        unanswered.extend(u);
    }
    (acked, unanswered)
}

/// Every acknowledged bet is stored exactly as answered.
pub fn check_acked(addr: &str, acked: &[(String, String, Value)]) {
    let mut stored: BTreeMap<i64, Value> = BTreeMap::new();
    let tokens: BTreeSet<&String> = acked.iter().map(|(t, _, _)| t).collect();
    for token in tokens {
        for b in all_bets(addr, token) {
            stored.insert(b["bet_id"].as_i64().expect("id"), b);
        }
    }
    for (_, key, answer) in acked {
        let id = answer["bet_id"].as_i64().expect("bet_id");
        assert_eq!(
            stored.get(&id),
            Some(answer),
            "acknowledged bet {key} lost or changed"
        );
    }
}

/// Rotates, exports and verifies every record with the core.
pub fn check_export(addr: &str, token: &str) {
    let r = request(addr, "POST", "/v1/seeds/rotate", Some(token), &[], None).expect("rotate");
    assert_eq!(r.status, 200, "{}", r.body);
    let export =
        request(addr, "GET", "/v1/records/export", Some(token), &[], None).expect("export");
    let mut n = 0;
    for line in export.body.lines() {
        let verdict = fairseed_core::verify_str(line);
        assert!(verdict.valid, "{verdict:?}");
        n += 1;
    }
    assert!(n > 0);
}

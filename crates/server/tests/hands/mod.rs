//! Selfpoker hands played beside the crash test's dice load: each hand is
//! advanced a different number of stages, so the kill finds hands open at
//! every stage. After a restart each hand's stored state is at or past the
//! last message answered, with the same commit; at the end every hand is
//! played out and its `selfpoker` record verifies with the core and holds
//! every card and the seed the player was answered.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde_json::{json, Value};

use crate::common::http::Client;
use crate::common::ledger::all_pages;

/// The stages of a hand, in order.
const STAGES: [&str; 6] = ["committed", "preflop", "flop", "turn", "river", "hand_end"];

/// At most this many hands per run.
const MAX_HANDS: usize = 40;

/// One hand and the messages answered for it, in order.
#[derive(Debug, Clone)]
pub struct Played {
    pub id: String,
    pub messages: Vec<Value>,
}

fn stage(message: &Value) -> usize {
    STAGES
        .iter()
        .position(|s| message["stage"] == *s)
        .unwrap_or_else(|| panic!("unknown stage in {message}"))
}

/// Opens hands for `token` and advances hand `k` by `k mod 6` stages, until
/// `stop` or the server stops answering.
/// `opened` counts the hands opened so far.
pub fn play_until(addr: &str, token: &str, stop: &AtomicBool, opened: &AtomicUsize) -> Vec<Played> {
    let mut c = Client::new(addr);
    let mut hands: Vec<Played> = Vec::new();
    let body = json!({"players": 3}).to_string();
    while !stop.load(Ordering::Relaxed) && hands.len() < MAX_HANDS {
        let Ok(a) = c.send("POST", "/v1/selfpoker/hands", Some(token), &[], Some(&body)) else {
            break;
        };
        assert_eq!(a.status, 201, "new hand: {}", a.body);
        let first = a.json();
        let id = first["hand_id"].as_str().expect("hand_id").to_owned();
        opened.fetch_add(1, Ordering::Relaxed);
        let steps = hands.len() % STAGES.len();
        hands.push(Played {
            id: id.clone(),
            messages: vec![first],
        });
        for _ in 0..steps {
            let path = format!("/v1/selfpoker/hands/{id}/next");
            let Ok(a) = c.send("POST", &path, Some(token), &[], None) else {
                return hands;
            };
            assert_eq!(a.status, 200, "next: {}", a.body);
            hands.last_mut().expect("pushed").messages.push(a.json());
        }
    }
    hands
}

/// Each hand's stored state is at or past its last answered message: the
/// same message when at the same stage, the same commit always.
pub fn check_stored(c: &mut Client, token: &str, hands: &[Played]) {
    for h in hands {
        let path = format!("/v1/selfpoker/hands/{}", h.id);
        let a = c.send("GET", &path, Some(token), &[], None).expect("hand");
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        let stored = a.json();
        let last = h.messages.last().expect("the open was answered");
        assert!(
            stage(&stored) >= stage(last),
            "{} went back: {stored}",
            h.id
        );
        assert_eq!(stored["commit"], last["commit"], "{}", h.id);
        if stage(&stored) == stage(last) {
            for key in ["hole", "board", "seed", "holes"] {
                assert_eq!(stored[key], last[key], "{} {key} changed", h.id);
            }
        }
    }
}

/// Plays every hand out; each record verifies and holds what was answered.
pub fn finish_and_compare(c: &mut Client, token: &str, hands: &[Played]) {
    for h in hands {
        let path = format!("/v1/selfpoker/hands/{}/next", h.id);
        loop {
            let state = c
                .send(
                    "GET",
                    &format!("/v1/selfpoker/hands/{}", h.id),
                    Some(token),
                    &[],
                    None,
                )
                .expect("hand")
                .json();
            if state["stage"] == "hand_end" {
                break;
            }
            let a = c.send("POST", &path, Some(token), &[], None).expect("next");
            assert_eq!(a.status, 200, "{}", a.body);
        }
    }
    let records: HashMap<String, Value> = all_pages(c, token, "/v1/records", "records")
        .into_iter()
        .filter(|r| r["scheme"] == "selfpoker")
        .map(|r| {
            let commit = r["record"]["commit"].as_str().expect("commit").to_owned();
            (commit, r["record"].clone())
        })
        .collect();
    for h in hands {
        let commit = h.messages[0]["commit"].as_str().expect("commit");
        let record = records
            .get(commit)
            .unwrap_or_else(|| panic!("no record for hand {}", h.id));
        let verdict = fairseed_core::verify_value(record);
        assert!(verdict.valid, "{verdict:?}\n{record}");
        // What the core deals from the revealed seed.
        let outcome = verdict.outcome.as_ref().expect("the core's outcome");
        for m in &h.messages {
            assert_eq!(m["commit"], commit, "one commit per hand: {m}");
            if stage(m) >= 1 {
                assert_eq!(m["hole"], outcome["holes"][0], "answered hole cards");
            }
            if stage(m) == 0 {
                assert!(m.get("hole").is_none(), "no card before the deal: {m}");
                continue;
            }
            let board = m["board"].as_array().expect("board");
            assert_eq!(
                board.as_slice(),
                &outcome["board"].as_array().expect("board")[..board.len()],
                "answered board"
            );
            if stage(m) == 5 {
                assert_eq!(m["seed"], record["seed"], "answered seed");
            }
        }
    }
}

//! Selfpoker in the session: a hand's live stream is subscribed before its
//! first card; every state message carries the same `commit`; `hand_end`
//! reveals the 63-bit seed.

use serde_json::Value;

use super::{text, Session};

/// Opens a hand of 4, subscribes to its stream and advances it `stages`
/// times; returns `(hand id, commit)`.
pub fn open(s: &mut Session, token: &str, stages: usize) -> (String, String) {
    let body = serde_json::json!({"players": 4});
    let v = s.expect(
        201,
        "new hand",
        "POST",
        "/v1/selfpoker/hands",
        Some(token),
        Some(&body),
    );
    let id = text(&v, "hand_id");
    let commit = text(&v, "commit");
    s.subscribe(token, &format!("selfpoker:{id}"));
    for _ in 0..stages {
        let m = next(s, token, &id);
        assert_eq!(m["commit"], commit.as_str(), "{m}");
        let path = format!("/v1/selfpoker/hands/{id}");
        s.expect(200, "hand", "GET", &path, Some(token), None);
    }
    (id, commit)
}

fn next(s: &mut Session, token: &str, id: &str) -> Value {
    let path = format!("/v1/selfpoker/hands/{id}/next");
    s.expect(200, "next", "POST", &path, Some(token), None)
}

/// Plays the hand to `hand_end`; notes and returns its seed (decimal).
pub fn finish(s: &mut Session, token: &str, id: &str, commit: &str) -> String {
    loop {
        let at = s.mark();
        let m = next(s, token, id);
        assert_eq!(m["commit"], commit, "{m}");
        if m["type"] == "hand_end" {
            let seed = &m["seed"];
            let seed = seed
                .as_u64()
                .map(|n| n.to_string())
                .or_else(|| seed.as_str().map(String::from))
                .expect("seed");
            s.revealed(&seed, at);
            return seed;
        }
        assert!(m.get("seed").is_none(), "no seed before hand_end: {m}");
    }
}

/// The forms a selfpoker seed could be stored in: decimal, hex, 8 bytes.
pub fn forms(seed: &str) -> Vec<Vec<u8>> {
    let n: u64 = seed.parse().expect("decimal seed");
    vec![
        seed.as_bytes().to_vec(),
        format!("{n:x}").into_bytes(),
        format!("{n:016x}").into_bytes(),
        n.to_le_bytes().to_vec(),
        n.to_be_bytes().to_vec(),
    ]
}

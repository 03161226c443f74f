//! No early secret: a scripted session captures every response body and
//! every log line; each server seed may appear only in or after the answer
//! that reveals it, and never in a log line.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::http::Method;
use common::Harness;
use serde_json::json;

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut b) = self.0.lock() {
            b.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn no_seed_before_its_reveal() {
    let logs = Captured::default();
    let writer = logs.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .init();

    let h = Harness::new(1_000_000, 0);
    let mut transcript: Vec<String> = Vec::new();
    let mut reveals: Vec<(String, usize)> = Vec::new();
    let mut players = Vec::new();
    for _ in 0..3 {
        let (token, created) = h.player().await;
        transcript.push(created.to_string());
        players.push(token);
    }
    for round in 0..3 {
        for (p, token) in players.iter().enumerate() {
            let pair = h.get("/v1/seeds", token).await;
            transcript.push(pair.text.clone());
            if round == 1 {
                let commitment = pair.json()["commitment"].clone();
                let r = h
                    .send(
                        Method::PUT,
                        "/v1/seeds/client",
                        token,
                        json!({"client_seed": format!("p{p}r{round}"), "commitment": commitment}),
                    )
                    .await;
                transcript.push(r.text);
            }
            for i in 0..4 {
                let r = h
                    .bet(
                        token,
                        &format!("r{round}-{i}"),
                        json!({"amount": 10, "condition": "under", "target": 5000}),
                    )
                    .await;
                transcript.push(r.text);
            }
            let bad = h
                .bet(
                    token,
                    "bad",
                    json!({"amount": 10, "condition": "under", "target": 0}),
                )
                .await;
            transcript.push(bad.text);
            for path in [
                "/v1/dice/bets",
                "/v1/records",
                "/v1/records/export",
                "/v1/seeds/revealed",
                "/v1/me",
                "/healthz",
            ] {
                transcript.push(h.get(path, token).await.text);
            }
            if (round + p) % 2 == 0 || round == 2 {
                let r = h
                    .raw(Method::POST, "/v1/seeds/rotate", Some(token), &[], None)
                    .await;
                let seed = r.json()["revealed"]["server_seed"]
                    .as_str()
                    .expect("seed")
                    .to_owned();
                reveals.push((seed, transcript.len()));
                transcript.push(r.text);
            }
        }
    }
    assert!(reveals.len() >= 6);
    let logs = String::from_utf8(logs.0.lock().expect("logs").clone()).expect("utf-8 logs");
    assert!(logs.contains("seed pair rotated"), "the log capture works");
    for (seed, revealed_at) in &reveals {
        for (i, text) in transcript[..*revealed_at].iter().enumerate() {
            assert!(
                !text.contains(seed.as_str()),
                "seed revealed at step {revealed_at} leaked at step {i}: {text}"
            );
        }
        assert!(
            !logs.contains(seed.as_str()),
            "a server seed reached the log"
        );
    }
}

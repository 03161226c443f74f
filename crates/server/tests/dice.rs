//! The dice flow end to end over HTTP: accounts, seeds, bets, idempotency,
//! refusals, history, rotation, records and export, checked with the core's
//! verifier.

mod common;

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use common::app::{assert_verifies, Harness};
use common::OPERATOR_KEY;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread")]
async fn dice_flow() {
    let h = Harness::new(1000, 0).await;
    let (token, created) = h.player().await;
    assert_eq!(created["balance"], 1000);
    let pair = h.get("/v1/seeds", &token).await.json();
    assert_eq!(pair, created["seed_pair"]);
    assert_eq!(pair["next_nonce"], 0);
    let commitment = pair["commitment"].as_str().expect("commitment").to_owned();
    assert!(pair.get("server_seed").is_none());

    // Client seed: needs the shown commitment; validated by the core.
    let r = h
        .send(
            Method::PUT,
            "/v1/seeds/client",
            &token,
            json!({"client_seed": "lucky", "commitment": "ab".repeat(32)}),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (StatusCode::CONFLICT, json!("commitment_mismatch"))
    );
    let r = h
        .send(
            Method::PUT,
            "/v1/seeds/client",
            &token,
            json!({"client_seed": "x".repeat(65), "commitment": commitment}),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("client_seed"))
    );
    let r = h
        .send(
            Method::PUT,
            "/v1/seeds/client",
            &token,
            json!({"client_seed": "lucky", "commitment": commitment}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["client_seed"], "lucky");

    // A bet, then its replay.
    let body = json!({"amount": 100, "condition": "under", "target": 4950});
    let first = h.bet(&token, "k-1", body.clone()).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let bet = first.json();
    assert_eq!(bet["nonce"], 0);
    assert!(first.headers.get("idempotency-replayed").is_none());
    let replay = h.bet(&token, "k-1", body.clone()).await;
    assert_eq!(replay.json(), bet);
    assert_eq!(
        replay
            .headers
            .get("idempotency-replayed")
            .map(|v| v.as_bytes()),
        Some(&b"true"[..])
    );
    let reused = h
        .bet(
            &token,
            "k-1",
            json!({"amount": 5, "condition": "under", "target": 4950}),
        )
        .await;
    assert_eq!(
        (reused.status, reused.json()["code"].clone()),
        (StatusCode::CONFLICT, json!("idempotency_key_reused"))
    );

    // Refusals change nothing.
    let balance_before = h.get("/v1/me", &token).await.json()["balance"].clone();
    for (bad, field) in [
        (
            json!({"amount": 100, "condition": "under", "target": 9801}),
            "target",
        ),
        (
            json!({"amount": 100, "condition": "over", "target": 9999}),
            "target",
        ),
        (
            json!({"amount": 0, "condition": "under", "target": 50}),
            "amount",
        ),
        (
            json!({"amount": 100, "condition": "sideways", "target": 50}),
            "condition",
        ),
        (
            json!({"amount": 100, "condition": "under", "target": 10000}),
            "target",
        ),
        (
            json!({"amount": -1, "condition": "under", "target": 50}),
            "amount",
        ),
        (
            json!({"amount": 1.5, "condition": "under", "target": 50}),
            "amount",
        ),
        (json!({"condition": "under", "target": 50}), "body"),
    ] {
        let r = h
            .bet(&token, &format!("bad-{field}-{bad}"), bad.clone())
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            r.text
        );
        let e = r.json();
        assert_eq!(e["code"], "invalid_field");
        assert!(
            e["message"].as_str().expect("message").contains(field),
            "{bad}: {e}"
        );
    }
    let broke = h
        .bet(
            &token,
            "too-much",
            json!({"amount": 5000, "condition": "under", "target": 50}),
        )
        .await;
    assert_eq!(
        (broke.status, broke.json()["code"].clone()),
        (StatusCode::CONFLICT, json!("insufficient_balance"))
    );
    let no_key = h
        .send(Method::POST, "/v1/dice/bets", &token, body.clone())
        .await;
    assert_eq!(no_key.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        h.get("/v1/me", &token).await.json()["balance"],
        balance_before
    );
    assert_eq!(
        h.get("/v1/seeds", &token).await.json()["next_nonce"],
        1,
        "refusals used no nonce"
    );

    // Client seed is locked once a bet used the pair.
    let r = h
        .send(
            Method::PUT,
            "/v1/seeds/client",
            &token,
            json!({"client_seed": "late", "commitment": commitment}),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (StatusCode::CONFLICT, json!("client_seed_locked"))
    );

    // A high-payout bet: chance 1 pays amount × 9900 exactly.
    for i in 0..5 {
        let r = h
            .bet(
                &token,
                &format!("long-{i}"),
                json!({"amount": 1, "condition": "over", "target": 9998}),
            )
            .await;
        let b = r.json();
        if b["win"] == json!(true) {
            assert_eq!(b["payout"], 9900);
        } else {
            assert_eq!(b["payout"], 0);
        }
    }

    // History pages, newest first.
    let page = h.get("/v1/dice/bets?limit=4", &token).await.json();
    let bets = page["bets"].as_array().expect("bets");
    assert_eq!(bets.len(), 4);
    assert_eq!(bets[0]["nonce"], 5);
    let next = page["next_before"].as_i64().expect("next_before");
    let page2 = h
        .get(&format!("/v1/dice/bets?limit=4&before={next}"), &token)
        .await
        .json();
    let nonces: Vec<_> = page2["bets"]
        .as_array()
        .expect("bets")
        .iter()
        .map(|b| b["nonce"].clone())
        .collect();
    assert_eq!(nonces, vec![json!(1), json!(0)]);
    assert_eq!(page2["next_before"], Value::Null);
    let r = h.get("/v1/dice/bets?limit=0", &token).await;
    assert_eq!(
        (r.status, r.json()["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("limit"))
    );
    let r = h.get("/v1/dice/bets?limit=abc", &token).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);

    // Rotation reveals and gives verifiable records.
    let rotated = h
        .raw(Method::POST, "/v1/seeds/rotate", Some(&token), &[], None)
        .await;
    assert_eq!(rotated.status, StatusCode::OK, "{}", rotated.text);
    let rotated = rotated.json();
    assert_eq!(rotated["revealed"]["commitment"], commitment.as_str());
    assert_eq!(rotated["revealed"]["bets"], 6);
    let records = rotated["records"].as_array().expect("records");
    assert_eq!(records.len(), 6);
    assert_eq!(rotated["record_count"], 6);
    for r in records {
        assert_verifies(&r["record"]);
    }
    assert_eq!(records[0]["record"]["outcome"]["roll"], bet["roll"]);
    let new_pair = &rotated["seed_pair"];
    assert_eq!(new_pair["next_nonce"], 0);
    assert_ne!(new_pair["commitment"], commitment.as_str());
    let revealed = h.get("/v1/seeds/revealed", &token).await.json();
    assert_eq!(revealed["pairs"][0], rotated["revealed"]);

    // An empty pair rotates into one bare record.
    let empty = h
        .raw(Method::POST, "/v1/seeds/rotate", Some(&token), &[], None)
        .await
        .json();
    assert_eq!(empty["records"].as_array().map(Vec::len), Some(1));
    assert_eq!(empty["record_count"], 1);
    assert_verifies(&empty["records"][0]["record"]);

    // Records by id, list, and the export `fairseed verify` reads.
    let id = records[2]["id"].as_i64().expect("id");
    let one = h.get(&format!("/v1/records/{id}"), &token).await.json();
    assert_eq!(one, records[2]);
    let list = h.get("/v1/records", &token).await.json();
    assert_eq!(list["records"].as_array().map(Vec::len), Some(7));
    let export = h.get("/v1/records/export", &token).await;
    assert_eq!(export.headers["content-type"], "application/x-ndjson");
    let lines: Vec<&str> = export.text.lines().collect();
    assert_eq!(lines.len(), 7);
    for line in &lines {
        let verdict = fairseed_core::verify_str(line);
        assert!(verdict.valid, "{verdict:?}");
    }
    assert_eq!(
        serde_json::from_str::<Value>(lines[0]).expect("json"),
        records[0]["record"]
    );

    // Someone else sees none of it.
    let (other, _) = h.player().await;
    assert_eq!(
        h.get(&format!("/v1/records/{id}"), &other).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(h.get("/v1/records/export", &other).await.text, "");
    assert_eq!(
        h.get("/v1/records/not-a-number", &other).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        h.get("/v1/dice/bets", &other).await.json()["bets"],
        json!([])
    );

    // Credentials.
    assert_eq!(
        h.get("/v1/me", "nope").await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = h.raw(Method::GET, "/v1/me", None, &[], None).await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (StatusCode::UNAUTHORIZED, json!("unauthorized"))
    );
    assert_eq!(
        h.get("/v1/me", OPERATOR_KEY).await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_bets_take_consecutive_nonces() {
    let h = Harness::new(1_000_000, 0).await;
    let (token, _) = h.player().await;
    let mut tasks = Vec::new();
    for i in 0..64 {
        let h = h.clone();
        let token = token.clone();
        tasks.push(tokio::spawn(async move {
            let body = json!({"amount": 10, "condition": "over", "target": 5000});
            // Every request is sent twice: the retry must act once.
            let a = h.bet(&token, &format!("c{i}"), body.clone()).await.json();
            let b = h.bet(&token, &format!("c{i}"), body).await.json();
            assert_eq!(a, b);
            a
        }));
    }
    let mut nonces = BTreeSet::new();
    for t in tasks {
        let bet = t.await.expect("join");
        assert!(nonces.insert(bet["nonce"].as_u64().expect("nonce")));
    }
    assert_eq!(nonces, (0..64).collect());
    let history = h.get("/v1/dice/bets?limit=500", &token).await.json();
    let bets = history["bets"].as_array().expect("bets");
    assert_eq!(bets.len(), 64);
    let net: i64 = bets
        .iter()
        .map(|b| b["payout"].as_i64().expect("payout") - 10)
        .sum();
    let balance = h.get("/v1/me", &token).await.json()["balance"]
        .as_i64()
        .expect("balance");
    assert_eq!(balance, 1_000_000 + net);
}

/// A pair with more bets than a rotation's answer lists: every bet still
/// gets its one record, in nonce order, each verifying and carrying the
/// bet's answered roll; the answer lists the first 1000 and counts all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rotation_of_more_bets_than_the_answer_lists() {
    const BETS: u64 = 1001;
    let h = Harness::new(1_000_000, 0).await;
    let (token, _) = h.player().await;
    let mut rolls = vec![Value::Null; BETS as usize];
    for start in (0..BETS).step_by(100) {
        let mut tasks = Vec::new();
        for i in start..BETS.min(start + 100) {
            let (h, token) = (h.clone(), token.clone());
            tasks.push(tokio::spawn(async move {
                let body = json!({"amount": 1, "condition": "over", "target": 5000});
                h.bet(&token, &format!("m{i}"), body).await.json()
            }));
        }
        for t in tasks {
            let bet = t.await.expect("join");
            let nonce = bet["nonce"].as_u64().expect("nonce");
            rolls[nonce as usize] = bet["roll"].clone();
        }
    }
    let rotated = h
        .raw(Method::POST, "/v1/seeds/rotate", Some(&token), &[], None)
        .await;
    assert_eq!(rotated.status, StatusCode::OK, "{}", rotated.text);
    let rotated = rotated.json();
    assert_eq!(rotated["revealed"]["bets"], BETS);
    assert_eq!(rotated["record_count"], BETS);
    let listed = rotated["records"].as_array().expect("records");
    assert_eq!(listed.len(), 1000);

    let export = h.get("/v1/records/export", &token).await;
    let records: Vec<Value> = export
        .text
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(records.len(), BETS as usize);
    for (nonce, record) in records.iter().enumerate() {
        assert_eq!(record["nonce"], nonce, "nonce order, each once");
        assert_eq!(record["outcome"]["roll"], rolls[nonce]);
        assert_verifies(record);
    }
    for (shown, stored) in listed.iter().zip(&records) {
        assert_eq!(&shown["record"], stored);
    }
    let last = listed[999]["id"].as_i64().expect("id");
    let newest = h.get("/v1/records?limit=1", &token).await.json();
    assert!(newest["records"][0]["id"].as_i64().expect("id") > last);
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_limit_per_token() {
    let h = Harness::new(1000, 2).await;
    let (a, _) = h.player().await;
    let (b, _) = h.player().await;
    let statuses: Vec<_> = futures_statuses(&h, &a, 6).await;
    assert_eq!(
        &statuses[..4],
        &[StatusCode::OK; 4],
        "burst of twice the rate"
    );
    assert!(
        statuses[4..]
            .iter()
            .all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    let limited = h.get("/v1/me", &a).await;
    assert_eq!(limited.json()["code"], "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
    assert_eq!(
        h.get("/v1/me", &b).await.status,
        StatusCode::OK,
        "another token is not affected"
    );
}

async fn futures_statuses(h: &Harness, token: &str, n: usize) -> Vec<StatusCode> {
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(h.get("/v1/me", token).await.status);
    }
    out
}

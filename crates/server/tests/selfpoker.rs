//! Selfpoker hands over HTTP: every message is the owner's view, reading a
//! hand writes nothing, and nobody else can read it.

mod common;

use axum::http::{Method, StatusCode};
use common::app::Harness;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn reading_a_hand_shows_the_owners_view_and_writes_nothing() {
    let h = Harness::new(1000, 0).await;
    let (token, _) = h.player().await;
    let (stranger, _) = h.player().await;
    let first = h
        .send(
            Method::POST,
            "/v1/selfpoker/hands",
            &token,
            json!({"players": 3}),
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let first = first.json();
    assert_eq!(first["board"], json!([]));
    assert!(first.get("hole").is_none() && first.get("seed").is_none());
    let id = first["hand_id"].as_str().expect("hand_id").to_owned();
    let next = format!("/v1/selfpoker/hands/{id}/next");
    h.raw(Method::POST, &next, Some(&token), &[], None).await;
    let flop = h
        .raw(Method::POST, &next, Some(&token), &[], None)
        .await
        .json();
    assert_eq!(flop["board"].as_array().map(Vec::len), Some(3));
    assert!(flop.get("holes").is_none() && flop.get("seed").is_none());

    let path = format!("/v1/selfpoker/hands/{id}");
    let round = format!("selfpoker:{id}");
    let before = h.state.store().round(&round).await.expect("round");
    for _ in 0..3 {
        assert_eq!(h.get(&path, &token).await.json(), flop);
    }
    let after = h.state.store().round(&round).await.expect("round");
    assert_eq!(
        (after.version, after.log_len),
        (before.version, before.log_len)
    );
    assert_eq!(h.get(&path, &stranger).await.status, StatusCode::NOT_FOUND);
    let theirs = h.raw(Method::POST, &next, Some(&stranger), &[], None).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);

    // To the end: the seed, every seat's cards, a record; then hand_over.
    for _ in 0..3 {
        h.raw(Method::POST, &next, Some(&token), &[], None).await;
    }
    let end = h.get(&path, &token).await.json();
    assert_eq!(end["type"], "hand_end");
    let seed = end["seed"].as_u64().expect("seed");
    let deal = fairseed_core::selfpoker::deal(seed, 3).expect("deal");
    assert_eq!(end["holes"], json!(deal.holes));
    assert_eq!(end["commit"], fairseed_core::selfpoker::commit(seed));
    let over = h.raw(Method::POST, &next, Some(&token), &[], None).await;
    assert_eq!(over.json()["code"], "hand_over");
}

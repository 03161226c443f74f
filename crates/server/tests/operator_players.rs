//! Operator-created players, on every backend the harness runs: one player
//! per `external_id` (a repeat finds it and shows no token), a token the
//! operator can rotate and revoke, a `login_url` carrying it in the
//! fragment, and free chips granted once per key, each a ledger entry.

mod common;

use axum::http::{Method, StatusCode};
use common::app::Harness;
use common::OPERATOR_KEY;
use serde_json::json;

async fn create(h: &Harness, external_id: &str) -> common::app::Resp {
    h.send(
        Method::POST,
        "/v1/operator/players",
        OPERATOR_KEY,
        json!({"external_id": external_id}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn operator_players_are_idempotent_with_rotating_tokens_and_grants() {
    let h = Harness::new(1000, 0).await;
    let first = create(&h, "user-42").await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let body = first.json();
    let token = body["token"].as_str().expect("token").to_owned();
    assert_eq!(body["login_url"], format!("/#login={token}"));
    assert_eq!(body["balance"], 1000);
    let id = body["player_id"].clone();

    let me = h.get("/v1/me", &token).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.json()["player_id"], id);

    let again = create(&h, "user-42").await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json()["player_id"], id);
    assert!(again.json().get("token").is_none(), "a token is shown once");
    let other = create(&h, "user-43").await;
    assert_ne!(other.json()["player_id"], id);

    let rotated = h
        .send(
            Method::POST,
            "/v1/operator/players/user-42/token",
            OPERATOR_KEY,
            json!(null),
        )
        .await;
    assert_eq!(rotated.status, StatusCode::OK, "{}", rotated.text);
    let new_token = rotated.json()["token"].as_str().expect("token").to_owned();
    assert_ne!(new_token, token);
    assert_eq!(
        h.get("/v1/me", &token).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(h.get("/v1/me", &new_token).await.status, StatusCode::OK);

    let revoked = h
        .raw(
            Method::DELETE,
            "/v1/operator/players/user-42/token",
            Some(OPERATOR_KEY),
            &[],
            None,
        )
        .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert_eq!(
        h.get("/v1/me", &new_token).await.status,
        StatusCode::UNAUTHORIZED
    );

    let grant = |key: &'static str, amount: u64| {
        let h = h.clone();
        async move {
            let body = json!({"amount": amount}).to_string().into_bytes();
            h.raw(
                Method::POST,
                "/v1/operator/players/user-43/grants",
                Some(OPERATOR_KEY),
                &[
                    ("idempotency-key", key),
                    ("content-type", "application/json"),
                ],
                Some(body),
            )
            .await
        }
    };
    let g1 = grant("g-1", 250).await;
    assert_eq!(g1.status, StatusCode::OK, "{}", g1.text);
    assert_eq!(g1.json()["balance"], 1250);
    let retry = grant("g-1", 250).await;
    assert_eq!(
        retry.json()["grant_id"],
        g1.json()["grant_id"],
        "same key, same grant"
    );
    assert_eq!(retry.json()["balance"], 1250, "credited once");
    let g2 = grant("g-2", 5).await;
    assert_eq!(g2.json()["balance"], 1255);
    let mismatch = grant("g-1", 7).await;
    assert_eq!(mismatch.status, StatusCode::CONFLICT, "{}", mismatch.text);
    assert_eq!(
        grant("g-3", 0).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let missing = h
        .send(
            Method::POST,
            "/v1/operator/players/nobody/token",
            OPERATOR_KEY,
            json!(null),
        )
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_operator_creates_and_ids_are_checked() {
    let h = Harness::new(1000, 0).await;
    let (player_token, _) = h.player().await;
    let by_player = h
        .send(
            Method::POST,
            "/v1/operator/players",
            &player_token,
            json!({"external_id": "x"}),
        )
        .await;
    assert_eq!(by_player.status, StatusCode::FORBIDDEN);
    for bad in ["", "has space", "slash/es", &"x".repeat(129)] {
        let r = create(&h, bad).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad:?}: {}",
            r.text
        );
        assert_eq!(r.json()["field"], "external_id");
    }
}

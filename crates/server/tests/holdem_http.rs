//! Live hold'em tables over plain HTTP, in process: opening one names a bad
//! setting, an idempotent open opens once, and reading a table shows the
//! reader's view only (no hole card of anyone else, no secret).

mod common;

use axum::http::{Method, StatusCode};
use common::app::Harness;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn bad_settings_are_named() {
    let h = Harness::new(1000, 0).await;
    let (token, _) = h.player().await;
    let cases = [
        (json!({"ais": [1, 4]}), "ais[1]"),
        (json!({"ais": [1, 1, 1, 1, 1, 1]}), "ais"),
        (json!({"ais": [], "seats": 7}), "seats"),
        (
            json!({"ais": [1], "small_blind": 200, "big_blind": 100}),
            "big_blind",
        ),
        (json!({"ais": [1], "action_ms": 0}), "action_ms"),
        // Unbounded, the clock never ran out and the session never ended.
        (
            json!({"ais": [1], "seats": 3, "action_ms": 9_223_372_036_854_775_807_i64}),
            "action_ms",
        ),
        (json!({"ais": [1], "action_ms": 999}), "action_ms"),
        (json!({"ais": [1], "action_ms": 600_001}), "action_ms"),
        (json!({"ais": [1], "action_ms": -1}), "action_ms"),
        (json!({"ais": [1], "idle_close_ms": 99}), "idle_close_ms"),
        (
            json!({"ais": [1], "idle_close_ms": 86_400_001}),
            "idle_close_ms",
        ),
        (json!({"ais": [1], "small_blind": 0}), "small_blind"),
        (
            json!({"ais": [1], "big_blind": 4_294_967_297_u64, "starting_stack": 1_u64 << 40}),
            "big_blind",
        ),
        (
            json!({"ais": [1], "starting_stack": (1_u64 << 40) + 1}),
            "starting_stack",
        ),
        (json!({"ais": [0]}), "ais[0]"),
        (json!({"ais": [], "seats": 1}), "seats"),
    ];
    for (body, field) in cases {
        let r = h
            .send(Method::POST, "/v1/holdem/tables", &token, body.clone())
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text
        );
        assert_eq!(r.json()["field"], field, "{body}: {}", r.text);
    }
    let r = h
        .send(
            Method::POST,
            "/v1/holdem/tables",
            &token,
            json!({"ais": [1], "x": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_open_is_idempotent_and_a_table_shows_no_secret() {
    let h = Harness::new(1000, 0).await;
    let (token, _) = h.player().await;
    let (stranger, _) = h.player().await;
    let body = br#"{"ais": [1, 2, 3]}"#.to_vec();
    let key = [
        ("content-type", "application/json"),
        ("idempotency-key", "open-1"),
    ];
    let first = h
        .raw(
            Method::POST,
            "/v1/holdem/tables",
            Some(&token),
            &key,
            Some(body.clone()),
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let again = h
        .raw(
            Method::POST,
            "/v1/holdem/tables",
            Some(&token),
            &key,
            Some(body),
        )
        .await;
    assert_eq!(again.status, StatusCode::CREATED);
    assert_eq!(again.json(), first.json(), "the same table, opened once");
    let created = first.json();
    let id = created["table_id"].as_str().expect("table_id");
    let commit = created["session_commit"].as_str().expect("commit");
    assert_eq!(commit.len(), 64);

    let view = h.get(&format!("/v1/holdem/tables/{id}"), &stranger).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    let v = view.json();
    assert_eq!(v["you"], json!(null));
    assert_eq!(v["session"]["commit"], commit);
    assert_eq!(
        v["session"]["scheme"], "selfpoker_v3",
        "a table opened without a scheme gives no seat the last word"
    );
    assert_eq!(v["session"]["secret"], json!(null));
    assert_eq!(v["hand"], json!(null), "no hand without a person seated");
    assert_eq!(v["seats"][0], json!(null));
    assert_eq!(v["seats"][3]["badge"], "AI · level 3");
    assert_eq!(v["seats"][1]["player"], json!({"kind": "ai", "level": 1}));
    let loaded = h
        .state
        .store()
        .load_rounds(&[format!("holdem_table:{id}")])
        .await
        .expect("row");
    let secret = loaded[0].secret.as_ref().expect("sealed secret").expose();
    assert_eq!(fairseed_core::sha256_hex(secret.as_bytes()), commit);
    assert!(
        !loaded[0].row.state.contains(secret),
        "the state holds no secret"
    );
    assert_eq!(loaded[0].row.revealed, None);
    assert!(!view.text.contains(secret));
    let hands = h
        .get(&format!("/v1/holdem/tables/{id}/hands"), &token)
        .await;
    assert_eq!(hands.json(), json!({"hands": [], "next_after": null}));
    for path in [
        "/v1/holdem/tables/nope",
        "/v1/holdem/tables/nope/hands",
        "/v1/holdem/tables/a:b",
    ] {
        assert_eq!(
            h.get(path, &token).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
}

//! `GET /v1/poker/hands`: a player finds, before any card, the commitments
//! of the hands they sit in — and only theirs — and the proofs they get on
//! leaving and the session record after the rotation check against exactly
//! those values.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use fairseed_store::{SeedCipher, SqliteStore};
use http_body_util::BodyExt as _;
use serde_json::{json, Value};
use tower::ServiceExt as _;

const OPERATOR: &str = "operator-key-for-unit-tests";

struct App(axum::Router);

impl App {
    fn new() -> Self {
        let store = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("store");
        Self(crate::app(crate::state(Arc::new(store), OPERATOR, 1000, 0)))
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        token: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header("authorization", format!("Bearer {token}"));
        let body = match body {
            Some(v) => {
                req = req.header("content-type", "application/json");
                Body::from(v.to_string())
            }
            None => Body::empty(),
        };
        let res = self
            .0
            .clone()
            .oneshot(req.body(body).expect("request"))
            .await
            .expect("infallible");
        let status = res.status();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        (status, value)
    }

    async fn player(&self) -> String {
        let req = Request::builder()
            .method(Method::POST)
            .uri("/v1/players")
            .body(Body::empty())
            .expect("request");
        let res = self.0.clone().oneshot(req).await.expect("infallible");
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let v: Value = serde_json::from_slice(&bytes).expect("account");
        v["token"].as_str().expect("token").to_owned()
    }

    async fn hands(&self, token: &str) -> Vec<Value> {
        let (status, v) = self.call(Method::GET, "/v1/poker/hands", token, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["hands"].as_array().expect("hands").clone()
    }
}

fn verifies(record: &Value) {
    let verdict = fairseed_core::verify_value(record);
    assert!(verdict.valid, "{record}: {:?}", verdict.error);
}

#[tokio::test]
async fn own_hand_commitments_before_cards_then_proofs_and_session_record_match_them() {
    let app = App::new();
    let (status, table) = app
        .call(
            Method::POST,
            "/v1/poker/tables",
            OPERATOR,
            Some(json!({"table_id": "t9"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{table}");
    let commitment = table["commitment"].clone();
    let (a, b, outsider) = (app.player().await, app.player().await, app.player().await);
    assert!(app.hands(&a).await.is_empty(), "no table yet");
    for (token, seat) in [(&a, 2), (&b, 5)] {
        let (status, v) = app
            .call(Method::POST, "/v1/poker/tables/t9/seats", token, Some(json!({"seat": seat, "client_seed": format!("seed {seat}"), "commitment": commitment})))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    // A sit at a table that does not exist is refused and indexes nothing.
    let (status, _) = app
        .call(
            Method::POST,
            "/v1/poker/tables/nope/seats",
            &outsider,
            Some(json!({"seat": 1, "client_seed": "x", "commitment": commitment})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let mut announced = Vec::new();
    for _ in 0..2 {
        let (status, hand) = app
            .call(
                Method::POST,
                "/v1/poker/tables/t9/hands",
                OPERATOR,
                Some(json!({})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{hand}");
        announced.push(hand);
    }
    // Before any street: each player lists both hands, newest first, with the
    // commitments the operator announced, their own seat, and no card.
    for (token, seat) in [(&a, 2), (&b, 5)] {
        let hands = app.hands(token).await;
        assert_eq!(hands.len(), 2);
        for (listed, hand) in hands.iter().zip(announced.iter().rev()) {
            assert_eq!(
                listed,
                &json!({"table": "t9", "session": "s1", "session_commitment": commitment,
                        "n": hand["n"], "seat": seat, "hand_commitment": hand["hand_commitment"],
                        "deck_root": hand["deck_root"], "street": 0})
            );
        }
    }
    assert!(app.hands(&outsider).await.is_empty(), "not seated: nothing");
    let (status, _) = app
        .call(Method::GET, "/v1/poker/hands", OPERATOR, None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "players only");
    let (status, v) = app
        .call(Method::GET, "/v1/poker/hands?limit=0", &a, None)
        .await;
    assert_eq!(
        (status, v["field"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("limit"))
    );
    assert_eq!(app.hands_limited(&a, 1).await.len(), 1);

    let seen = app.hands(&a).await;
    // Leaving: one proof per hand, against the deck roots listed before.
    let (status, left) = app
        .call(
            Method::POST,
            "/v1/poker/tables/t9/leave",
            &a,
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{left}");
    let proofs = left["records"].as_array().expect("records");
    assert_eq!(proofs.len(), 2);
    for (proof, listed) in proofs.iter().zip(seen.iter().rev()) {
        assert_eq!(proof["record"]["deck_root"], listed["deck_root"]);
        verifies(&proof["record"]);
    }
    // The last player leaves: the session rotates; its record, in A's
    // records, carries the hand commitments and roots A listed.
    let (status, _) = app
        .call(
            Method::POST,
            "/v1/poker/tables/t9/leave",
            &b,
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, records) = app.call(Method::GET, "/v1/records", &a, None).await;
    let session = records["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|r| r["scheme"] == "poker_hmac_v1")
        .expect("session record")["record"]
        .clone();
    verifies(&session);
    assert_eq!(session["commitment"], commitment);
    for listed in &seen {
        let n = listed["n"].as_u64().expect("n");
        let hand = &session["hands"][usize::try_from(n - 1).expect("index")];
        assert_eq!(
            (&hand["hand_commitment"], &hand["deck_root"]),
            (&listed["hand_commitment"], &listed["deck_root"])
        );
    }
    // The next session has no hand yet.
    assert!(app.hands(&a).await.is_empty());
}

impl App {
    async fn hands_limited(&self, token: &str, limit: u32) -> Vec<Value> {
        let (status, v) = self
            .call(
                Method::GET,
                &format!("/v1/poker/hands?limit={limit}"),
                token,
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["hands"].as_array().expect("hands").clone()
    }
}

//! Live events (SSE): a player's stream carries the table's public events
//! and their own hole cards, never another player's.

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::app::Harness;
use common::OPERATOR_KEY;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// Reads SSE `data:` payloads until `quiet` passes without one.
async fn collect(body: &mut Body, quiet: Duration) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut buf = String::new();
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(quiet, body.frame()).await {
        if let Some(bytes) = frame.data_ref() {
            buf.push_str(&String::from_utf8_lossy(bytes));
        }
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let event = block
                .lines()
                .find_map(|l| l.strip_prefix("event: "))
                .unwrap_or("")
                .to_owned();
            if let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) {
                out.push((event, serde_json::from_str(data).unwrap_or(Value::Null)));
            }
        }
    }
    out
}

async fn subscribe(h: &Harness, token: &str, topic: &str) -> Body {
    let req = Request::builder()
        .uri(format!("/v1/events?topic={topic}"))
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .expect("request");
    let res = h.app.clone().oneshot(req).await.expect("infallible");
    assert_eq!(res.status(), StatusCode::OK);
    res.into_body()
}

#[tokio::test(flavor = "multi_thread")]
async fn poker_events_are_filtered_per_player() {
    let h = Harness::new(1000, 0).await;
    let table = h
        .send(
            Method::POST,
            "/v1/poker/tables",
            OPERATOR_KEY,
            json!({"table_id": "ev"}),
        )
        .await
        .json();
    let mut tokens = Vec::new();
    for seat in [0, 1] {
        let (token, _) = h.player().await;
        h.send(
            Method::POST,
            "/v1/poker/tables/ev/seats",
            &token,
            json!({"seat": seat, "client_seed": "c", "commitment": table["commitment"]}),
        )
        .await;
        tokens.push(token);
    }
    let mut a = subscribe(&h, &tokens[0], "poker:ev").await;
    let mut b = subscribe(&h, &tokens[1], "poker:ev").await;
    let r = h
        .raw(
            Method::POST,
            "/v1/poker/tables/ev/hands",
            Some(OPERATOR_KEY),
            &[],
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let a_events = collect(&mut a, Duration::from_millis(300)).await;
    let b_events = collect(&mut b, Duration::from_millis(300)).await;
    let a_hole = h
        .get("/v1/poker/tables/ev/hands/1", &tokens[0])
        .await
        .json()["hole"]
        .clone();
    let b_hole = h
        .get("/v1/poker/tables/ev/hands/1", &tokens[1])
        .await
        .json()["hole"]
        .clone();
    for (events, mine, theirs) in [(&a_events, &a_hole, &b_hole), (&b_events, &b_hole, &a_hole)] {
        assert!(
            events.iter().any(|(_, v)| v["event"] == "hand"),
            "{events:?}"
        );
        let holes: Vec<&Value> = events
            .iter()
            .filter(|(_, v)| v["event"] == "hole")
            .map(|(_, v)| &v["view"]["hole"])
            .collect();
        assert_eq!(holes, vec![mine], "exactly one's own cards");
        assert!(
            !events
                .iter()
                .any(|(_, v)| v.to_string().contains(&theirs.to_string())),
            "never the other's"
        );
    }

    // Dice bets reach only their player.
    let mut dice_b = subscribe(&h, &tokens[1], "dice").await;
    h.bet(
        &tokens[0],
        "e1",
        json!({"amount": 1, "condition": "under", "target": 5000}),
    )
    .await;
    assert!(collect(&mut dice_b, Duration::from_millis(200))
        .await
        .is_empty());
    let r = h.get("/v1/events?topic=bad%20topic", &tokens[0]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

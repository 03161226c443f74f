//! Live events (SSE): a player's stream carries the table's public events
//! and their own hole cards, never another player's; a caller holds at most
//! a few streams at once.
//!
//! What a stream carried up to a point is read deterministically: the test
//! publishes a marker event on the topic after the action, and since a
//! topic's events arrive in order, everything before the marker is what the
//! action sent.

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::app::Harness;
use common::OPERATOR_KEY;
use fairseed_server::events::{Audience, MAX_STREAMS_PER_CALLER};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// Publishes a marker on `topic` and reads the stream up to it: the events
/// before the marker, in order.
async fn until_marker(h: &Harness, body: &mut Body, topic: &str) -> Vec<(String, Value)> {
    let marker = json!({"marker": topic});
    h.state
        .events()
        .publish(topic, Audience::All, marker.clone());
    let mut events = read_until(body, |(_, v)| *v == marker).await;
    assert_eq!(events.pop().map(|(_, v)| v), Some(marker));
    events
}

/// Reads SSE `data:` payloads up to and including the first one `last`
/// accepts; fails after 10 s without it.
async fn read_until(
    body: &mut Body,
    last: impl Fn(&(String, Value)) -> bool,
) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    let mut buf = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !out.last().is_some_and(&last) {
        let frame = tokio::time::timeout_at(deadline, body.frame())
            .await
            .unwrap_or_else(|_| panic!("no closing event within 10 s; got {out:?}"));
        let Some(Ok(frame)) = frame else {
            panic!("the stream ended before the closing event; got {out:?}")
        };
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

async fn try_subscribe(h: &Harness, token: &str, topic: &str) -> axum::response::Response {
    let req = Request::builder()
        .uri(format!("/v1/events?topic={topic}"))
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .expect("request");
    h.app.clone().oneshot(req).await.expect("infallible")
}

async fn subscribe(h: &Harness, token: &str, topic: &str) -> Body {
    let res = try_subscribe(h, token, topic).await;
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
    let a_events = until_marker(&h, &mut a, "poker:ev").await;
    let b_events = until_marker(&h, &mut b, "poker:ev").await;
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
    assert_eq!(until_marker(&h, &mut dice_b, "dice").await, vec![]);
    let r = h.get("/v1/events?topic=bad%20topic", &tokens[0]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test(flavor = "multi_thread")]
async fn open_streams_per_caller_are_capped() {
    let h = Harness::new(1000, 0).await;
    let (token, _) = h.player().await;
    let (other, _) = h.player().await;
    let mut open = Vec::new();
    for i in 0..MAX_STREAMS_PER_CALLER {
        open.push(subscribe(&h, &token, &format!("match:m{i}")).await);
    }
    let refused = try_subscribe(&h, &token, "dice").await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let body = refused
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let body: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(body["code"], "too_many_streams");
    // Another caller has streams of their own; closing one frees a slot.
    drop(subscribe(&h, &other, "dice").await);
    drop(subscribe(&h, OPERATOR_KEY, "dice").await);
    drop(open.pop());
    let mut again = subscribe(&h, &token, "dice").await;
    h.bet(
        &token,
        "cap-1",
        json!({"amount": 1, "condition": "under", "target": 5000}),
    )
    .await;
    let events = until_marker(&h, &mut again, "dice").await;
    assert_eq!(events.len(), 1, "the new stream works: {events:?}");
}

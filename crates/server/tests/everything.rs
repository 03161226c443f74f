//! End to end: a session of every scheme through the API, then the
//! operator's export (JSON Lines) — every line verifies with the core, and
//! every scheme is there.

mod common;

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use common::app::Harness;
use common::OPERATOR_KEY;
use serde_json::{json, Value};

async fn ok(r: common::app::Resp) -> Value {
    assert!(r.status.is_success(), "{} {}", r.status, r.text);
    r.json()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_scheme_exports_and_verifies() {
    let h = Harness::new(1_000_000, 0).await;
    let (alice, _) = h.player().await;
    let (bob, _) = h.player().await;

    // dice_v1
    for i in 0..3 {
        ok(h.bet(
            &alice,
            &format!("d{i}"),
            json!({"amount": 10, "condition": "over", "target": 4000}),
        )
        .await)
        .await;
    }
    ok(
        h.raw(Method::POST, "/v1/seeds/rotate", Some(&alice), &[], None)
            .await,
    )
    .await;

    // match_seed_v2 (tarneeb) and an imported match_seed_v1
    let m = ok(h
        .send(
            Method::POST,
            "/v1/matches",
            OPERATOR_KEY,
            json!({"game": "tarneeb", "match_id": "e2e"}),
        )
        .await)
    .await;
    for i in 0..4 {
        ok(h.send(
            Method::POST,
            "/v1/matches/e2e/client-seeds",
            OPERATOR_KEY,
            json!({"index": i, "client_seed": format!("p{i}"), "commitment": m["commitment"]}),
        )
        .await)
        .await;
    }
    ok(h.send(
        Method::POST,
        "/v1/matches/e2e/start",
        OPERATOR_KEY,
        json!({}),
    )
    .await)
    .await;
    ok(h.send(
        Method::POST,
        "/v1/matches/e2e/draws",
        OPERATOR_KEY,
        json!({"step": "deal"}),
    )
    .await)
    .await;
    ok(h.send(
        Method::POST,
        "/v1/matches/e2e/finish",
        OPERATOR_KEY,
        json!({}),
    )
    .await)
    .await;
    let v1 = {
        use fairseed_core::games::{self, Game, MatchStream, Play};
        use fairseed_core::record::{MatchRecord, MatchScheme};
        use fairseed_core::{Ident, ServerSeed};
        let seed = ServerSeed::from_bytes([4; 32]);
        let id = Ident::parse("old-1").expect("id");
        let outcome = games::play(
            MatchStream::v1(&seed, Game::Checkers, &id),
            Game::Checkers,
            &Play::SeatsOnly,
        )
        .expect("play");
        MatchRecord {
            scheme: MatchScheme::V1,
            game: Game::Checkers,
            match_id: id,
            commitment: seed.commitment(),
            server_seed: Some(seed),
            client_seeds: Vec::new(),
            play: Play::SeatsOnly,
            outcome: serde_json::to_value(&outcome)
                .ok()
                .and_then(|v| v.as_object().cloned()),
        }
        .to_value()
    };
    ok(
        h.send(Method::POST, "/v1/operator/records", OPERATOR_KEY, v1)
            .await,
    )
    .await;

    // chess_colour_v1
    let sa = ok(h
        .raw(Method::POST, "/v1/chess/seeds", Some(&alice), &[], None)
        .await)
    .await;
    let sb = ok(h
        .raw(Method::POST, "/v1/chess/seeds", Some(&bob), &[], None)
        .await)
    .await;
    ok(h.send(
        Method::POST,
        "/v1/chess/seeks",
        &alice,
        json!({"seed_id": sa["seed_id"], "client_seed": "a", "commitment": sa["commitment"]}),
    )
    .await)
    .await;
    let path = format!(
        "/v1/chess/seeks/{}/accept",
        sa["seed_id"].as_str().expect("id")
    );
    ok(h.send(
        Method::POST,
        &path,
        &bob,
        json!({"seed_id": sb["seed_id"], "client_seed": "b", "commitment": sb["commitment"]}),
    )
    .await)
    .await;
    let path = format!(
        "/v1/chess/games/{}/finish",
        sa["seed_id"].as_str().expect("id")
    );
    ok(h.raw(Method::POST, &path, Some(&alice), &[], None).await).await;

    // selfpoker
    let hand = ok(h
        .send(
            Method::POST,
            "/v1/selfpoker/hands",
            &bob,
            json!({"players": 3}),
        )
        .await)
    .await;
    let path = format!(
        "/v1/selfpoker/hands/{}/next",
        hand["hand_id"].as_str().expect("id")
    );
    for _ in 0..5 {
        ok(h.raw(Method::POST, &path, Some(&bob), &[], None).await).await;
    }

    // poker_hmac_v1 and poker_hmac_v1_proof
    let t = ok(h
        .send(
            Method::POST,
            "/v1/poker/tables",
            OPERATOR_KEY,
            json!({"table_id": "e2e"}),
        )
        .await)
    .await;
    for (seat, token) in [(2, &alice), (5, &bob)] {
        ok(h.send(
            Method::POST,
            "/v1/poker/tables/e2e/seats",
            token,
            json!({"seat": seat, "client_seed": "c", "commitment": t["commitment"]}),
        )
        .await)
        .await;
    }
    ok(h.raw(
        Method::POST,
        "/v1/poker/tables/e2e/hands",
        Some(OPERATOR_KEY),
        &[],
        None,
    )
    .await)
    .await;
    for token in [&alice, &bob] {
        ok(h.raw(
            Method::POST,
            "/v1/poker/tables/e2e/leave",
            Some(token),
            &[],
            None,
        )
        .await)
        .await;
    }

    let export = h.get("/v1/operator/records/export", OPERATOR_KEY).await;
    assert_eq!(export.status, StatusCode::OK);
    // `FAIRSEED_EXPORT_TO=file` keeps the export, e.g. for `fairseed verify file`.
    if let Ok(path) = std::env::var("FAIRSEED_EXPORT_TO") {
        std::fs::write(path, &export.text).expect("write the export");
    }
    let mut schemes = BTreeSet::new();
    for (i, line) in export.text.lines().enumerate() {
        let verdict = fairseed_core::verify_str(line);
        assert!(
            verdict.valid,
            "line {i} does not verify: {verdict:?}\n{line}"
        );
        schemes.insert(verdict.scheme.unwrap_or_default());
    }
    let expected: BTreeSet<String> = fairseed_core::record::SCHEMES
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    assert_eq!(
        schemes, expected,
        "every scheme of docs/spec.md §10 is in the export"
    );
}

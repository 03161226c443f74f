//! Table games (`match_seed_v2`) for every game, selfpoker hands, and the
//! import of a legacy `match_seed_v1` record: scripted over HTTP, then every
//! record is checked with the core's verifier and against what was dealt.

mod common;

use axum::http::{Method, StatusCode};
use common::app::{assert_verifies, Harness};
use common::OPERATOR_KEY;
use serde_json::{json, Value};

async fn op(h: &Harness, method: Method, path: &str, body: Value) -> common::app::Resp {
    h.send(method, path, OPERATOR_KEY, body).await
}

/// Opens, seeds, starts, plays `steps`, finishes; returns (draws, finished).
async fn play_match(h: &Harness, game: &str, id: &str, steps: &[Value]) -> (Vec<Value>, Value) {
    let r = op(
        h,
        Method::POST,
        "/v1/matches",
        json!({"game": game, "match_id": id}),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let m = r.json();
    let commitment = m["commitment"].as_str().expect("commitment").to_owned();
    let n = m["players"].as_array().expect("players").len();
    assert!(m.get("server_seed").is_none());
    // Draws before the start are refused.
    let early = op(
        h,
        Method::POST,
        &format!("/v1/matches/{id}/draws"),
        json!({"step": "deal"}),
    )
    .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.text);
    let r = op(
        h,
        Method::POST,
        &format!("/v1/matches/{id}/start"),
        json!({}),
    )
    .await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (StatusCode::CONFLICT, json!("client_seeds_missing"))
    );
    for i in 0..n {
        let wrong = op(
            h,
            Method::POST,
            &format!("/v1/matches/{id}/client-seeds"),
            json!({"index": i, "client_seed": "x", "commitment": "00".repeat(32)}),
        )
        .await;
        assert_eq!(
            (wrong.status, wrong.json()["code"].clone()),
            (StatusCode::CONFLICT, json!("commitment_mismatch"))
        );
        let r = op(h, Method::POST, &format!("/v1/matches/{id}/client-seeds"), json!({"index": i, "client_seed": format!("player {i} of {id}"), "commitment": commitment})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let again = op(
        h,
        Method::POST,
        &format!("/v1/matches/{id}/client-seeds"),
        json!({"index": 0, "client_seed": "again", "commitment": commitment}),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    let started = op(
        h,
        Method::POST,
        &format!("/v1/matches/{id}/start"),
        json!({}),
    )
    .await
    .json();
    assert_eq!(started["status"], "started");
    let mut draws = Vec::new();
    for step in steps {
        let r = op(
            h,
            Method::POST,
            &format!("/v1/matches/{id}/draws"),
            step.clone(),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{step}: {}", r.text);
        draws.push(r.json()["draw"].clone());
    }
    let finished = op(
        h,
        Method::POST,
        &format!("/v1/matches/{id}/finish"),
        json!({}),
    )
    .await;
    assert_eq!(finished.status, StatusCode::OK, "{}", finished.text);
    let finished = finished.json();
    assert_verifies(&finished["record"]["record"]);
    assert_eq!(
        finished["record"]["record"]["outcome"]["seat_order"],
        started["seat_order"]
    );
    assert_eq!(finished["match"]["status"], "finished");
    assert!(finished["match"]["server_seed"].is_string());
    let late = op(
        h,
        Method::POST,
        &format!("/v1/matches/{id}/draws"),
        steps.first().cloned().unwrap_or(json!({"step": "deal"})),
    )
    .await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    let log = h
        .get(&format!("/v1/matches/{id}/draws"), OPERATOR_KEY)
        .await
        .json();
    assert_eq!(
        log.as_array().map(Vec::len),
        Some(n + 1 + steps.len() + 1),
        "seeds, start, draws, finish"
    );
    (draws, finished)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_table_game() {
    let h = Harness::new(1000, 0).await;
    for game in ["checkers", "xiangqi"] {
        let (_, f) = play_match(&h, game, &format!("{game}-1"), &[]).await;
        assert_eq!(f["record"]["record"]["play"], json!({}));
    }
    for game in ["tarneeb", "trix", "bridge"] {
        let deal = json!({"step": "deal"});
        let (draws, f) = play_match(&h, game, &format!("{game}-1"), &[deal.clone(), deal]).await;
        let deals = &f["record"]["record"]["outcome"]["deals"];
        assert_eq!(deals[0], draws[0]["hands"]);
        assert_eq!(deals[1], draws[1]["hands"]);
    }
    let (draws, f) = play_match(
        &h,
        "backgammon",
        "bg-1",
        &[
            json!({"step": "opening"}),
            json!({"step": "roll"}),
            json!({"step": "roll"}),
            json!({"step": "opening"}),
        ],
    )
    .await;
    let games = &f["record"]["record"]["outcome"]["games"];
    assert_eq!(games[0]["opening"], draws[0]["opening"]);
    assert_eq!(
        games[0]["rolls"],
        json!([draws[1]["dice"], draws[2]["dice"]])
    );
    assert_eq!(f["record"]["record"]["play"], json!({"games": [2, 0]}));

    let (draws, f) = play_match(
        &h,
        "baloot",
        "baloot-1",
        &[
            json!({"step": "first"}),
            json!({"step": "second", "buyer": 2}),
            json!({"step": "first"}),
        ],
    )
    .await;
    let hands = &f["record"]["record"]["outcome"]["hands"];
    assert_eq!(hands[0]["first"], draws[0]["first"]);
    assert_eq!(hands[0]["second"], draws[1]["second"]);
    assert_eq!(hands[1]["second"], Value::Null);
    assert_eq!(
        f["record"]["record"]["play"],
        json!({"hands": [{"buyer": 2}, {"buyer": null}]})
    );

    let mut steps = vec![json!({"step": "hand"})];
    steps.extend((0..5).map(|_| json!({"step": "tile"})));
    steps.push(json!({"step": "hand"}));
    steps.push(json!({"step": "tile"}));
    let (draws, f) = play_match(&h, "mahjong", "mj-1", &steps).await;
    let tiles: Vec<Value> = draws[1..6].iter().map(|d| d["tile"].clone()).collect();
    assert_eq!(f["record"]["record"]["outcome"]["hands"][0], json!(tiles));

    // Wrong steps for the game, bad bodies.
    op(
        &h,
        Method::POST,
        "/v1/matches",
        json!({"game": "tarneeb", "match_id": "t-2"}),
    )
    .await;
    for (body, code) in [
        (json!({"game": "chess"}), "invalid_field"),
        (
            json!({"game": "tarneeb", "match_id": "bad id"}),
            "invalid_field",
        ),
        (
            json!({"game": "tarneeb", "match_id": "t-2"}),
            "already_exists",
        ),
        (
            json!({"game": "tarneeb", "players": ["a"]}),
            "invalid_field",
        ),
        (json!({"game": "bridge", "tiles": 136}), "invalid_field"),
    ] {
        let r = op(&h, Method::POST, "/v1/matches", body.clone()).await;
        assert_eq!(r.json()["code"], code, "{body}: {}", r.text);
    }
    let r = op(
        &h,
        Method::POST,
        "/v1/matches/t-2/draws",
        json!({"step": "shuffle"}),
    )
    .await;
    assert_eq!(r.json()["field"], "step");
    assert_eq!(
        h.get("/v1/matches/nope", OPERATOR_KEY).await.status,
        StatusCode::NOT_FOUND
    );

    // Players cannot run matches; the operator export verifies whole.
    let (token, _) = h.player().await;
    assert_eq!(op_as(&h, &token).await, StatusCode::FORBIDDEN);
    let export = h.get("/v1/operator/records/export", OPERATOR_KEY).await;
    let lines: Vec<&str> = export.text.lines().collect();
    assert_eq!(lines.len(), 8, "one record per finished match");
    for line in lines {
        assert!(fairseed_core::verify_str(line).valid, "{line}");
    }
}

async fn op_as(h: &Harness, token: &str) -> StatusCode {
    h.send(
        Method::POST,
        "/v1/matches",
        token,
        json!({"game": "checkers"}),
    )
    .await
    .status
}

#[tokio::test(flavor = "multi_thread")]
async fn selfpoker_hand() {
    let h = Harness::new(1000, 0).await;
    let (token, _) = h.player().await;
    let r = h
        .send(
            Method::POST,
            "/v1/selfpoker/hands",
            &token,
            json!({"players": 11}),
        )
        .await;
    assert_eq!(r.json()["field"], "players");
    let created = h
        .send(
            Method::POST,
            "/v1/selfpoker/hands",
            &token,
            json!({"players": 4}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let created = created.json();
    let id = created["hand_id"].as_str().expect("id").to_owned();
    let commit = created["commit"].clone();
    assert!(created.get("hole").is_none(), "no card before the deal");
    let mut last = Value::Null;
    for stage in ["preflop", "flop", "turn", "river", "hand_end"] {
        let m = h
            .raw(
                Method::POST,
                &format!("/v1/selfpoker/hands/{id}/next"),
                Some(&token),
                &[],
                None,
            )
            .await
            .json();
        assert_eq!(
            (m["stage"].clone(), m["commit"].clone()),
            (json!(stage), commit.clone()),
            "{m}"
        );
        assert_eq!(
            h.get(&format!("/v1/selfpoker/hands/{id}"), &token)
                .await
                .json()["stage"],
            stage
        );
        if stage != "hand_end" {
            assert!(m.get("seed").is_none() && m.get("holes").is_none(), "{m}");
        }
        last = m;
    }
    assert_eq!(last["type"], "hand_end");
    assert_eq!(last["board"].as_array().map(Vec::len), Some(5));
    let record = h
        .get(&format!("/v1/records/{}", last["record_id"]), &token)
        .await
        .json();
    assert_verifies(&record["record"]);
    assert_eq!(record["record"]["seed"], last["seed"]);
    assert_eq!(record["record"]["outcome"]["holes"], last["holes"]);
    let over = h
        .raw(
            Method::POST,
            &format!("/v1/selfpoker/hands/{id}/next"),
            Some(&token),
            &[],
            None,
        )
        .await;
    assert_eq!(over.status, StatusCode::CONFLICT);
    let (other, _) = h.player().await;
    assert_eq!(
        h.get(&format!("/v1/selfpoker/hands/{id}"), &other)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn import_legacy_match_record() {
    use fairseed_core::games::{self, Game, MatchStream, Play};
    use fairseed_core::record::{MatchRecord, MatchScheme};
    use fairseed_core::{Ident, ServerSeed};

    let h = Harness::new(1000, 0).await;
    let seed = ServerSeed::from_bytes([9; 32]);
    let id = Ident::parse("legacy-7").expect("id");
    let play = Play::Deals(1);
    let outcome = games::play(
        MatchStream::v1(&seed, Game::Bridge, &id),
        Game::Bridge,
        &play,
    )
    .expect("play");
    let record = MatchRecord {
        scheme: MatchScheme::V1,
        game: Game::Bridge,
        match_id: id,
        commitment: seed.commitment(),
        server_seed: Some(seed),
        client_seeds: Vec::new(),
        play,
        outcome: serde_json::to_value(&outcome)
            .ok()
            .and_then(|v| v.as_object().cloned()),
    }
    .to_value();
    let r = op(&h, Method::POST, "/v1/operator/records", record.clone()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let stored = h
        .get(
            &format!("/v1/operator/records/{}", r.json()["id"]),
            OPERATOR_KEY,
        )
        .await
        .json();
    assert_eq!(stored["record"], record);
    let mut tampered = record;
    tampered["outcome"]["seat_order"] = json!([3, 2, 1, 0]);
    let r = op(&h, Method::POST, "/v1/operator/records", tampered).await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("record_invalid"))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn legacy_v1_match_takes_no_client_seeds() {
    let h = Harness::new(1000, 0).await;
    let body = json!({"game": "backgammon", "match_id": "v1-1", "scheme": "match_seed_v1"});
    let r = op(&h, Method::POST, "/v1/matches", body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let m = r.json();
    assert_eq!(m["scheme"], "match_seed_v1");
    let seed = json!({"index": 0, "client_seed": "x", "commitment": m["commitment"]});
    let r = op(&h, Method::POST, "/v1/matches/v1-1/client-seeds", seed).await;
    assert_eq!(r.json()["code"], "no_client_seeds", "{}", r.text);
    let r = op(&h, Method::POST, "/v1/matches/v1-1/start", json!({})).await;
    assert_eq!(r.json()["status"], "started", "{}", r.text);
    let opening = json!({"step": "opening"});
    let drawn = op(&h, Method::POST, "/v1/matches/v1-1/draws", opening)
        .await
        .json();
    let done = op(&h, Method::POST, "/v1/matches/v1-1/finish", json!({})).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    let record = &done.json()["record"];
    assert_eq!(record["scheme"], "match_seed_v1");
    assert_verifies(&record["record"]);
    assert_eq!(
        record["record"]["outcome"]["games"][0]["opening"],
        drawn["draw"]["opening"]
    );
    let bad = json!({"game": "trix", "scheme": "match_seed_v3"});
    let r = op(&h, Method::POST, "/v1/matches", bad).await;
    assert_eq!(r.json()["field"], "scheme", "{}", r.text);
}

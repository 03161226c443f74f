//! Chess colours over HTTP: seeds committed before seeking, pairing draws
//! the colours, the end reveals both seeds in a record for each player.

mod common;

use axum::http::{Method, StatusCode};
use common::app::{assert_verifies, Harness};
use serde_json::{json, Value};

async fn new_seed(h: &Harness, token: &str) -> (String, String) {
    let r = h
        .raw(Method::POST, "/v1/chess/seeds", Some(token), &[], None)
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let v = r.json();
    (
        v["seed_id"].as_str().expect("id").to_owned(),
        v["commitment"].as_str().expect("c").to_owned(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn seek_accept_finish_and_bot() {
    let h = Harness::new(1000, 0).await;
    let (alice, _) = h.player().await;
    let (bob, _) = h.player().await;
    let (carol, carol_body) = h.player().await;
    let (a_seed, a_commit) = new_seed(&h, &alice).await;
    let (b_seed, b_commit) = new_seed(&h, &bob).await;

    // The client seed must come with the seed's commitment.
    let wrong = h
        .send(
            Method::POST,
            "/v1/chess/seeks",
            &alice,
            json!({"seed_id": a_seed, "client_seed": "a", "commitment": b_commit}),
        )
        .await;
    assert_eq!(wrong.json()["code"], "commitment_mismatch");
    let stolen = h
        .send(
            Method::POST,
            "/v1/chess/seeks",
            &bob,
            json!({"seed_id": a_seed, "client_seed": "a", "commitment": a_commit}),
        )
        .await;
    assert_eq!(stolen.status, StatusCode::NOT_FOUND);
    let seek = h
        .send(
            Method::POST,
            "/v1/chess/seeks",
            &alice,
            json!({"seed_id": a_seed, "client_seed": "alice's", "commitment": a_commit}),
        )
        .await;
    assert_eq!(seek.status, StatusCode::OK, "{}", seek.text);
    let seeks = h.get("/v1/chess/seeks", &bob).await.json();
    assert_eq!(seeks["seeks"][0]["seek_id"], a_seed.as_str());
    assert_eq!(
        h.get("/v1/chess/seeks", &alice).await.json()["seeks"],
        json!([]),
        "not your own"
    );

    let game = h
        .send(
            Method::POST,
            &format!("/v1/chess/seeks/{a_seed}/accept"),
            &bob,
            json!({"seed_id": b_seed, "client_seed": "bob's", "commitment": b_commit}),
        )
        .await;
    assert_eq!(game.status, StatusCode::OK, "{}", game.text);
    let game = game.json();
    assert_eq!(game["you"], "B");
    let alice_view = h
        .get(&format!("/v1/chess/games/{a_seed}"), &alice)
        .await
        .json();
    assert_eq!(alice_view["white"], game["white"]);
    assert_ne!(alice_view["colour"], game["colour"], "one white, one black");
    assert_eq!(
        h.get(&format!("/v1/chess/games/{a_seed}"), &carol)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let (c_seed, c_commit) = new_seed(&h, &carol).await;
    let late = h
        .send(
            Method::POST,
            &format!("/v1/chess/seeks/{a_seed}/accept"),
            &carol,
            json!({"seed_id": c_seed, "client_seed": "c", "commitment": c_commit}),
        )
        .await;
    assert_eq!(late.status, StatusCode::CONFLICT, "a seek pairs once");

    let done = h
        .raw(
            Method::POST,
            &format!("/v1/chess/games/{a_seed}/finish"),
            Some(&bob),
            &[],
            None,
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    let record = done.json()["record"]["record"].clone();
    assert_verifies(&record);
    assert_eq!(record["outcome"]["white"], game["white"]);
    assert_eq!(
        (record["client_a"].clone(), record["client_b"].clone()),
        (json!("alice's"), json!("bob's"))
    );
    let record_id = done.json()["record"]["id"].clone();
    for token in [&alice, &bob] {
        let records = h.get("/v1/records", token).await.json();
        assert_eq!(
            records["records"][0]["record"], record,
            "both players read it"
        );
        assert_eq!(
            records["records"][0]["id"], record_id,
            "one record, not a copy each"
        );
    }

    // A bot game: no second seed.
    let bot = h
        .send(
            Method::POST,
            "/v1/chess/bot",
            &carol,
            json!({"seed_id": c_seed, "client_seed": "vs bot", "commitment": c_commit}),
        )
        .await;
    assert_eq!(bot.status, StatusCode::OK, "{}", bot.text);
    assert_eq!(bot.json()["bot"], true);
    let done = h
        .raw(
            Method::POST,
            &format!("/v1/chess/games/{c_seed}/finish"),
            Some(&carol),
            &[],
            None,
        )
        .await
        .json();
    let record: Value = done["record"]["record"].clone();
    assert_eq!(record["commit_b"], "-");
    assert!(record.get("seed_b").is_none());
    assert_verifies(&record);

    // Challenges: only the named opponent sees and may accept.
    let (d_seed, d_commit) = new_seed(&h, &alice).await;
    let r = h
        .send(
            Method::POST,
            "/v1/chess/seeks",
            &alice,
            json!({"seed_id": d_seed, "client_seed": "x", "commitment": d_commit, "opponent": carol_body["player_id"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        h.get("/v1/chess/seeks", &bob).await.json()["seeks"],
        json!([])
    );
    let for_carol = h.get("/v1/chess/seeks", &carol).await.json();
    assert_eq!(for_carol["seeks"][0]["seek_id"], d_seed.as_str());
    assert_eq!(for_carol["seeks"][0]["challenge"], true);
}

/// A record's id goes where the answer says, not wherever its text looks
/// like a placeholder: a client seed that reads like one comes back as the
/// player wrote it, in the answer and in its replay under the same key.
#[tokio::test(flavor = "multi_thread")]
async fn a_client_seed_that_reads_like_an_id_slot_is_kept_as_written() {
    let h = Harness::new(1000, 0).await;
    let (carol, _) = h.player().await;
    let (seed, commit) = new_seed(&h, &carol).await;
    let sly = "$record_id:0";
    let bot = h
        .send(
            Method::POST,
            "/v1/chess/bot",
            &carol,
            json!({"seed_id": seed, "client_seed": sly, "commitment": commit}),
        )
        .await;
    assert_eq!(bot.status, StatusCode::OK, "{}", bot.text);
    let finish = format!("/v1/chess/games/{seed}/finish");
    let key = [("Idempotency-Key", "finish-once")];
    let first = h.raw(Method::POST, &finish, Some(&carol), &key, None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let replay = h.raw(Method::POST, &finish, Some(&carol), &key, None).await;
    assert_eq!(replay.status, StatusCode::OK, "{}", replay.text);
    assert_eq!(replay.headers["idempotency-replayed"], "true");
    for answer in [first.json(), replay.json()] {
        assert_eq!(answer["record"]["record"]["client_a"], sly);
        assert!(answer["record"]["id"].is_i64(), "{answer}");
        assert_eq!(answer["record"]["id"], first.json()["record"]["id"]);
        assert_verifies(&answer["record"]["record"]);
    }
    let id = &first.json()["record"]["id"];
    let stored = h.get(&format!("/v1/records/{id}"), &carol).await;
    assert_eq!(stored.status, StatusCode::OK, "{}", stored.text);
    assert_eq!(
        stored.json()["record"]["client_a"],
        sly,
        "the stored record"
    );
    assert_eq!(stored.json()["id"], *id);
}

/// A seek accepted with its own seed, by its owner or by anyone naming it,
/// is the owner's own seek (`409 own_seek`), and the seek stays open.
#[tokio::test(flavor = "multi_thread")]
async fn a_seek_accepted_with_its_own_seed_is_refused() {
    let h = Harness::new(1000, 0).await;
    let (alice, _) = h.player().await;
    let (bob, _) = h.player().await;
    let (seed, commit) = new_seed(&h, &alice).await;
    let body = json!({"seed_id": seed, "client_seed": "a", "commitment": commit});
    let seek = h
        .send(Method::POST, "/v1/chess/seeks", &alice, body.clone())
        .await;
    assert_eq!(seek.status, StatusCode::OK, "{}", seek.text);
    let accept = format!("/v1/chess/seeks/{seed}/accept");
    for token in [&alice, &bob] {
        let refused = h.send(Method::POST, &accept, token, body.clone()).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
        assert_eq!(refused.json()["code"], "own_seek");
    }
    let seeks = h.get("/v1/chess/seeks", &bob).await.json();
    assert_eq!(seeks["seeks"][0]["seek_id"], seed.as_str());
}

/// A new seed under a key is committed once: the retry names the same seed.
#[tokio::test(flavor = "multi_thread")]
async fn a_retried_seed_with_its_key_commits_once() {
    let h = Harness::new(1000, 0).await;
    let (alice, _) = h.player().await;
    let key = [("Idempotency-Key", "seed-1")];
    let seeds = "/v1/chess/seeds";
    let first = h.raw(Method::POST, seeds, Some(&alice), &key, None).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let again = h.raw(Method::POST, seeds, Some(&alice), &key, None).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(again.headers["idempotency-replayed"], "true");
    assert_eq!(again.json()["seed_id"], first.json()["seed_id"]);
    assert_eq!(again.json()["commitment"], first.json()["commitment"]);
    let json_key = [key[0], ("content-type", "application/json")];
    let other = h
        .raw(
            Method::POST,
            seeds,
            Some(&alice),
            &json_key,
            Some(b"{}".to_vec()),
        )
        .await;
    assert_eq!(
        other.json()["code"],
        "idempotency_mismatch",
        "{}",
        other.text
    );
    let fresh = h.raw(Method::POST, seeds, Some(&alice), &[], None).await;
    assert_ne!(fresh.json()["seed_id"], first.json()["seed_id"]);
}

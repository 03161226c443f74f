//! Poker tables over HTTP: commitments before cards, own hole cards only,
//! streets, proofs on leave, rotation when the table empties and at start.

mod common;

use axum::http::{Method, StatusCode};
use common::app::{assert_verifies, Harness};
use common::OPERATOR_KEY;
use serde_json::{json, Value};

async fn op(h: &Harness, method: Method, path: &str) -> common::app::Resp {
    h.raw(
        method,
        path,
        Some(OPERATOR_KEY),
        &[("content-type", "application/json")],
        Some(b"{}".to_vec()),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn table_hands_proofs_rotation() {
    let h = Harness::new(1000, 0).await;
    let r = h
        .send(
            Method::POST,
            "/v1/poker/tables",
            OPERATOR_KEY,
            json!({"table_id": "t1"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let table = r.json();
    let commitment = table["commitment"].as_str().expect("commitment").to_owned();
    let mut players = Vec::new();
    for seat in [0, 3, 7] {
        let (token, _) = h.player().await;
        let wrong = h
            .send(
                Method::POST,
                "/v1/poker/tables/t1/seats",
                &token,
                json!({"seat": seat, "client_seed": "s", "commitment": "11".repeat(32)}),
            )
            .await;
        assert_eq!(wrong.json()["code"], "commitment_mismatch");
        let r = h.send(Method::POST, "/v1/poker/tables/t1/seats", &token, json!({"seat": seat, "client_seed": format!("seat {seat}"), "commitment": commitment})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        players.push((seat, token));
    }
    let taken = h
        .send(
            Method::POST,
            "/v1/poker/tables/t1/seats",
            &players[1].1,
            json!({"seat": 0, "client_seed": "x", "commitment": commitment}),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CONFLICT);

    let mut published = Vec::new();
    for n in 1..=2u64 {
        let hand = op(&h, Method::POST, "/v1/poker/tables/t1/hands").await;
        assert_eq!(hand.status, StatusCode::OK, "{}", hand.text);
        let hand = hand.json();
        assert_eq!(hand["n"], n);
        assert!(hand["hand_commitment"].is_string() && hand["deck_root"].is_string());
        assert!(
            !hand.to_string().contains("hole"),
            "no card in the hand's announcement"
        );
        published.push(hand.clone());
        let mut holes = Vec::new();
        for (seat, token) in &players {
            let v = h
                .get(&format!("/v1/poker/tables/t1/hands/{n}"), token)
                .await
                .json();
            assert_eq!(v["seat"], *seat);
            assert_eq!(v["board"], json!([]));
            assert_eq!(v["deck_root"], hand["deck_root"]);
            holes.push(v["hole"].clone());
            assert!(!v.to_string().contains("holes"), "only one's own cards");
        }
        assert_ne!(holes[0], holes[1]);
        for (street, len) in [(1, 3), (2, 4), (3, 5)] {
            let s = op(
                &h,
                Method::POST,
                &format!("/v1/poker/tables/t1/hands/{n}/street"),
            )
            .await
            .json();
            assert_eq!(
                (s["street"].clone(), s["board"].as_array().map(Vec::len)),
                (json!(street), Some(len))
            );
        }
        assert_eq!(
            op(
                &h,
                Method::POST,
                &format!("/v1/poker/tables/t1/hands/{n}/street")
            )
            .await
            .status,
            StatusCode::CONFLICT
        );
    }
    let (stranger, _) = h.player().await;
    assert_eq!(
        h.get("/v1/poker/tables/t1/hands/1", &stranger).await.status,
        StatusCode::NOT_FOUND
    );

    // Leaving: one proof per hand played, each verifying against the published root.
    let left = h
        .raw(
            Method::POST,
            "/v1/poker/tables/t1/leave",
            Some(&players[0].1),
            &[],
            None,
        )
        .await;
    assert_eq!(left.status, StatusCode::OK, "{}", left.text);
    let left = left.json();
    assert_eq!(left["session_rotated"], false);
    let proofs = left["records"].as_array().expect("records");
    assert_eq!(proofs.len(), 2);
    for (proof, hand) in proofs.iter().zip(&published) {
        assert_eq!(proof["record"]["deck_root"], hand["deck_root"]);
        assert_eq!(
            proof["record"]["leaves"].as_array().map(Vec::len),
            Some(7),
            "2 hole + 5 board"
        );
        assert_verifies(&proof["record"]);
    }
    // The last to leave empties the table: the session rotates and is published.
    h.raw(
        Method::POST,
        "/v1/poker/tables/t1/leave",
        Some(&players[1].1),
        &[],
        None,
    )
    .await;
    let last = h
        .raw(
            Method::POST,
            "/v1/poker/tables/t1/leave",
            Some(&players[2].1),
            &[],
            None,
        )
        .await
        .json();
    assert_eq!(last["session_rotated"], true);
    let records = h.get("/v1/records", &players[2].1).await.json();
    let session = records["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|r| r["scheme"] == "poker_hmac_v1")
        .expect("the session record")
        .clone();
    assert_verifies(&session["record"]);
    assert_eq!(
        session["record"]["hands"][1]["deck_root"],
        published[1]["deck_root"]
    );
    let t = h.get("/v1/poker/tables/t1", OPERATOR_KEY).await.json();
    assert_eq!(t["session"], "s2");
    assert_ne!(t["commitment"], commitment.as_str());
    assert_eq!(
        op(&h, Method::POST, "/v1/poker/tables/t1/hands")
            .await
            .json()["code"],
        "not_enough_players"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_left_open_rotate_at_start() {
    let h = Harness::new(1000, 0).await;
    two_ready(&h, "t9").await;
    assert_eq!(
        op(&h, Method::POST, "/v1/poker/tables/t9/hands")
            .await
            .status,
        StatusCode::OK
    );
    let rotated = fairseed_server::fleet::rotate_open_sessions(&h.state, false)
        .await
        .expect("rotate");
    assert_eq!(rotated, 1);
    let t = h.get("/v1/poker/tables/t9", OPERATOR_KEY).await.json();
    assert_eq!(
        (t["session"].clone(), t["seats"]["1"]["ready"].clone()),
        (json!("s2"), json!(false)),
        "seeds are asked again"
    );
    let export = h.get("/v1/operator/records/export", OPERATOR_KEY).await;
    let record: Value =
        serde_json::from_str(export.text.lines().next().expect("a record")).expect("json");
    assert_eq!(record["scheme"], "poker_hmac_v1");
    assert_verifies(&record);
}

/// Opens `table` with two seated, ready players at seats 1 and 2; their tokens.
async fn two_ready(h: &Harness, table: &str) -> Vec<String> {
    let t = h
        .send(
            Method::POST,
            "/v1/poker/tables",
            OPERATOR_KEY,
            json!({ "table_id": table }),
        )
        .await
        .json();
    let mut tokens = Vec::new();
    for seat in [1, 2] {
        let (token, _) = h.player().await;
        let sit = json!({"seat": seat, "client_seed": "c", "commitment": t["commitment"]});
        let r = h
            .send(
                Method::POST,
                &format!("/v1/poker/tables/{table}/seats"),
                &token,
                sit,
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        tokens.push(token);
    }
    tokens
}

async fn op_keyed(h: &Harness, path: &str, key: &str, body: &str) -> common::app::Resp {
    h.raw(
        Method::POST,
        path,
        Some(OPERATOR_KEY),
        &[
            ("content-type", "application/json"),
            ("idempotency-key", key),
        ],
        Some(body.as_bytes().to_vec()),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_retried_hand_or_street_with_its_key_acts_once() {
    let h = Harness::new(1000, 0).await;
    two_ready(&h, "t5").await;
    let first = op_keyed(&h, "/v1/poker/tables/t5/hands", "h-1", "{}").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let again = op_keyed(&h, "/v1/poker/tables/t5/hands", "h-1", "{}").await;
    assert_eq!((again.status, again.json()), (StatusCode::OK, first.json()));
    assert_eq!(
        again
            .headers
            .get("idempotency-replayed")
            .and_then(|v| v.to_str().ok()),
        Some("true")
    );
    let other = op_keyed(&h, "/v1/poker/tables/t5/hands", "h-1", "{\"x\":1}").await;
    assert_eq!(other.json()["code"], "idempotency_mismatch");
    let t = h.get("/v1/poker/tables/t5", OPERATOR_KEY).await.json();
    assert_eq!(t["hands"], 1, "one hand for one key");

    let street = "/v1/poker/tables/t5/hands/1/street";
    let flop = op_keyed(&h, street, "s-1", "{}").await.json();
    assert_eq!(op_keyed(&h, street, "s-1", "{}").await.json(), flop);
    let turn = op_keyed(&h, street, "s-2", "{}").await.json();
    assert_eq!(
        (flop["street"].clone(), turn["street"].clone()),
        (json!(1), json!(2)),
        "the retry dealt nothing; the next key deals the turn"
    );
    // Without a key every call acts.
    assert_eq!(op(&h, Method::POST, street).await.json()["street"], 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_leased_by_a_live_process_is_kept_a_dead_ones_rotates() {
    let h = Harness::new(1000, 0).await;
    two_ready(&h, "t6").await;
    assert_eq!(
        op(&h, Method::POST, "/v1/poker/tables/t6/hands")
            .await
            .status,
        StatusCode::OK
    );
    let store = h.state.store();
    let me = h.state.fleet().owner().to_owned();
    let now = fairseed_server::clock::now_ms();
    // Another process, alive for a minute, serves the table now.
    store
        .release_lease("poker_table:t6", &me)
        .await
        .expect("release");
    let granted = store
        .acquire_lease("poker_table:t6", "other", now, 60_000)
        .await
        .expect("lease");
    assert!(matches!(
        granted,
        fairseed_store::LeaseGrant::Granted { .. }
    ));
    let rotated = fairseed_server::fleet::rotate_open_sessions(&h.state, false)
        .await
        .expect("start");
    let swept = fairseed_server::fleet::take_over_expired(&h.state)
        .await
        .expect("sweep");
    assert_eq!((rotated, swept), (0, 0), "a live owner's session is kept");
    let t = h.get("/v1/poker/tables/t6", OPERATOR_KEY).await.json();
    assert_eq!(
        (t["session"].clone(), t["hands"].clone()),
        (json!("s1"), json!(1))
    );

    // Its lease ran out (it stopped renewing): taken over, rotated once.
    store
        .acquire_lease("poker_table:t6", "other", now - 120_000, 60_000)
        .await
        .expect("an old lease");
    let swept = fairseed_server::fleet::take_over_expired(&h.state)
        .await
        .expect("sweep");
    let again = fairseed_server::fleet::take_over_expired(&h.state)
        .await
        .expect("sweep");
    assert_eq!((swept, again), (1, 0));
    let t = h.get("/v1/poker/tables/t6", OPERATOR_KEY).await.json();
    assert_eq!(t["session"], "s2");
}

#[tokio::test(flavor = "multi_thread")]
async fn reading_a_hand_or_a_table_writes_nothing() {
    let h = Harness::new(1000, 0).await;
    let tokens = two_ready(&h, "t7").await;
    let (token, other) = (&tokens[0], &tokens[1]);
    op(&h, Method::POST, "/v1/poker/tables/t7/hands").await;
    let versions = || async {
        let mut out = Vec::new();
        for id in ["poker:t7:s1", "poker_table:t7"] {
            let row = h.state.store().round(id).await.expect("round");
            out.push((row.version, row.log_len));
        }
        out
    };
    let before = versions().await;
    for _ in 0..3 {
        let v = h.get("/v1/poker/tables/t7/hands/1", token).await;
        assert_eq!(v.status, StatusCode::OK, "{}", v.text);
        h.get("/v1/poker/tables/t7", other).await;
        h.get("/v1/poker/hands", token).await;
    }
    assert_eq!(
        versions().await,
        before,
        "reads leave the rows as they were"
    );
}

/// A table read while its session rotates sees either session, never
/// `409 session_rotated`: the read starts again when the session it found
/// closed between its two reads.
#[tokio::test(flavor = "multi_thread")]
async fn a_table_read_during_rotations_always_answers() {
    let h = Harness::new(1000, 0).await;
    let created = h
        .send(
            Method::POST,
            "/v1/poker/tables",
            OPERATOR_KEY,
            json!({"table_id": "busy"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let (token, _) = h.player().await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let (h, stop) = (h.clone(), stop.clone());
            tokio::spawn(async move {
                let mut reads = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let r = h.get("/v1/poker/tables/busy", OPERATOR_KEY).await;
                    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    // Each sit-and-leave empties the table: one rotation apiece.
    for round in 0..40 {
        let table = h.get("/v1/poker/tables/busy", &token).await.json();
        let sit = json!({"seat": 0, "client_seed": format!("c{round}"),
                         "commitment": table["commitment"]});
        let r = h
            .send(Method::POST, "/v1/poker/tables/busy/seats", &token, sit)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let left = h
            .raw(
                Method::POST,
                "/v1/poker/tables/busy/leave",
                Some(&token),
                &[],
                None,
            )
            .await;
        assert_eq!(left.json()["session_rotated"], true, "{}", left.text);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for reader in readers {
        assert!(reader.await.expect("the reader") > 0);
    }
    let table = h.get("/v1/poker/tables/busy", &token).await.json();
    assert_eq!(table["session"], "s41");
}

/// Opening a table and sitting take a key like every other change: the
/// retry gets the first answer (the same drawn table id, the same seat) and
/// acts no more; another body under the key is refused.
#[tokio::test(flavor = "multi_thread")]
async fn a_retried_opening_or_sit_with_its_key_acts_once() {
    let h = Harness::new(1000, 0).await;
    let tables = "/v1/poker/tables";
    let first = op_keyed(&h, tables, "open-1", "{}").await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let again = op_keyed(&h, tables, "open-1", "{}").await;
    assert_eq!(
        (again.status, again.json()),
        (StatusCode::CREATED, first.json())
    );
    assert_eq!(again.headers["idempotency-replayed"], "true");
    let other = op_keyed(&h, tables, "open-1", r#"{"table_id":"t9"}"#).await;
    assert_eq!(other.status, StatusCode::CONFLICT, "{}", other.text);
    assert_eq!(other.json()["code"], "idempotency_mismatch");
    let missing = h.get("/v1/poker/tables/t9", OPERATOR_KEY).await;
    assert_eq!(
        missing.status,
        StatusCode::NOT_FOUND,
        "the refused body opened nothing"
    );
    // Without a key, the named table is opened once and then refused.
    let named = json!({"table_id": "t8"});
    let opened = h
        .send(Method::POST, tables, OPERATOR_KEY, named.clone())
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{}", opened.text);
    let taken = h.send(Method::POST, tables, OPERATOR_KEY, named).await;
    assert_eq!(taken.json()["code"], "already_exists");

    let table = first.json()["table_id"].as_str().expect("an id").to_owned();
    let (token, _) = h.player().await;
    let seats = format!("/v1/poker/tables/{table}/seats");
    let sit = json!({"seat": 3, "client_seed": "c", "commitment": first.json()["commitment"]})
        .to_string();
    let keyed = |key: &'static str, body: String| {
        let token = token.clone();
        let seats = seats.clone();
        let h = &h;
        async move {
            h.raw(
                Method::POST,
                &seats,
                Some(&token),
                &[
                    ("content-type", "application/json"),
                    ("idempotency-key", key),
                ],
                Some(body.into_bytes()),
            )
            .await
        }
    };
    let sat = keyed("sit-1", sit.clone()).await;
    assert_eq!(sat.status, StatusCode::OK, "{}", sat.text);
    let again = keyed("sit-1", sit.clone()).await;
    assert_eq!((again.status, again.json()), (StatusCode::OK, sat.json()));
    assert_eq!(again.headers["idempotency-replayed"], "true");
    let elsewhere = sit.replace("\"seat\":3", "\"seat\":4");
    assert_ne!(elsewhere, sit);
    let twice = keyed("sit-2", elsewhere).await;
    assert_eq!(twice.json()["code"], "already_seated", "{}", twice.text);
    let t = h
        .get(&format!("/v1/poker/tables/{table}"), OPERATOR_KEY)
        .await
        .json();
    assert_eq!(t["seats"].as_object().map(|s| s.len()), Some(1));
}

/// A leave under a key is replayed with the records it stored, each with its
/// id; the last leaver's answer names its proof and the session record, as
/// the records list has them.
#[tokio::test(flavor = "multi_thread")]
async fn a_retried_leave_with_its_key_answers_its_records_once() {
    let h = Harness::new(1000, 0).await;
    let tokens = two_ready(&h, "t7").await;
    let hand = op(&h, Method::POST, "/v1/poker/tables/t7/hands").await;
    assert_eq!(hand.status, StatusCode::OK, "{}", hand.text);
    let leave = |token: String| {
        let h = &h;
        async move {
            h.raw(
                Method::POST,
                "/v1/poker/tables/t7/leave",
                Some(&token),
                &[("idempotency-key", "bye")],
                None,
            )
            .await
        }
    };
    for (i, token) in tokens.iter().enumerate() {
        let first = leave(token.clone()).await;
        assert_eq!(first.status, StatusCode::OK, "{}", first.text);
        let again = leave(token.clone()).await;
        assert_eq!(again.status, StatusCode::OK, "{}", again.text);
        assert_eq!(again.headers["idempotency-replayed"], "true");
        assert_eq!(again.json(), first.json());
        let answer = first.json();
        assert_eq!(answer["session_rotated"], i == 1, "{answer}");
        let records = answer["records"].as_array().expect("records").clone();
        let schemes: Vec<&str> = records
            .iter()
            .filter_map(|r| r["scheme"].as_str())
            .collect();
        let expected: &[&str] = if i == 0 {
            &["poker_hmac_v1_proof"]
        } else {
            &["poker_hmac_v1_proof", "poker_hmac_v1"]
        };
        assert_eq!(schemes, expected);
        let listed = h.get("/v1/records", token).await.json();
        for record in &records {
            assert!(record["id"].is_i64(), "{record}");
            assert_verifies(&record["record"]);
            let same = listed["records"]
                .as_array()
                .expect("listed")
                .iter()
                .find(|r| r["id"] == record["id"])
                .expect("the answer's id is the stored record's");
            assert_eq!(same["record"], record["record"]);
        }
    }
    let t = h.get("/v1/poker/tables/t7", OPERATOR_KEY).await.json();
    assert_eq!(t["session"], "s2", "one rotation, by the last leave");
}

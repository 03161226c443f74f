//! Strict input on the seed endpoint: a chosen client seed is printable
//! text, a commitment lowercase hex; each refusal is a 422 naming the field.

mod common;

use axum::http::{Method, StatusCode};
use common::app::Harness;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn client_seeds_must_be_printable_and_commitments_lowercase() {
    let h = Harness::new(1000, 0).await;
    let (token, created) = h.player().await;
    let commitment = created["seed_pair"]["commitment"]
        .as_str()
        .expect("commitment");
    let put = |seed: &str, commitment: &str| {
        h.send(
            Method::PUT,
            "/v1/seeds/client",
            &token,
            json!({"client_seed": seed, "commitment": commitment}),
        )
    };
    for bad in [
        "nul\u{0}",
        "two\nlines",
        "rtl\u{202E}gnp.exe",
        "zero\u{200B}width",
    ] {
        let r = put(bad, commitment).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad:?}: {}",
            r.text
        );
        assert_eq!(r.json()["field"], "client_seed", "{}", r.text);
    }
    let upper = put("fine", &commitment.to_uppercase()).await;
    assert_eq!(
        upper.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        upper.text
    );
    assert_eq!(upper.json()["field"], "commitment");
    let ok = put("fine seed ✓", commitment).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(ok.json()["client_seed"], "fine seed ✓");
}

#[tokio::test(flavor = "multi_thread")]
async fn integral_numbers_may_carry_a_zero_fraction() {
    let h = Harness::new(1000, 0).await;
    let (token, _) = h.player().await;
    let bet = h
        .bet(
            &token,
            "k1",
            json!({"amount": 5.0, "condition": "under", "target": 4.95e3}),
        )
        .await;
    assert_eq!(bet.status, StatusCode::OK, "{}", bet.text);
    assert_eq!(bet.json()["amount"], 5);
    let half = h
        .bet(
            &token,
            "k2",
            json!({"amount": 5.5, "condition": "under", "target": 4950}),
        )
        .await;
    assert_eq!(
        half.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        half.text
    );
    assert_eq!(half.json()["field"], "amount");
}

/// The seeds a player chooses for a poker seat, a chess seek and a table
/// match follow the same rule as `PUT /v1/seeds/client`.
#[tokio::test(flavor = "multi_thread")]
async fn game_client_seeds_must_be_printable() {
    use common::OPERATOR_KEY;
    let h = Harness::new(1000, 0).await;
    let (token, _) = h.player().await;
    let table = h
        .send(
            Method::POST,
            "/v1/poker/tables",
            OPERATOR_KEY,
            json!({"table_id": "t1"}),
        )
        .await
        .json();
    let chess = h
        .raw(Method::POST, "/v1/chess/seeds", Some(&token), &[], None)
        .await
        .json();
    let game = h
        .send(
            Method::POST,
            "/v1/matches",
            OPERATOR_KEY,
            json!({"game": "checkers", "match_id": "m1"}),
        )
        .await
        .json();
    for bad in ["nul\u{0}", "rtl\u{202E}gnp.exe"] {
        let seat = json!({"seat": 0, "client_seed": bad, "commitment": table["commitment"]});
        let seek = json!({"seed_id": chess["seed_id"], "client_seed": bad, "commitment": chess["commitment"]});
        let given = json!({"index": 0, "client_seed": bad, "commitment": game["commitment"]});
        for (path, who, body) in [
            ("/v1/poker/tables/t1/seats", token.as_str(), seat),
            ("/v1/chess/seeks", token.as_str(), seek),
            ("/v1/matches/m1/client-seeds", OPERATOR_KEY, given),
        ] {
            let r = h
                .raw(
                    Method::POST,
                    path,
                    Some(who),
                    &[
                        ("content-type", "application/json"),
                        ("idempotency-key", "k1"),
                    ],
                    Some(body.to_string().into_bytes()),
                )
                .await;
            assert_eq!(
                r.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{path} {bad:?}: {}",
                r.text
            );
            assert_eq!(r.json()["field"], "client_seed", "{path}: {}", r.text);
        }
    }
}

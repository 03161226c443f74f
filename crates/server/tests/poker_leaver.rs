//! Regression, through the real binary: a player
//! who leaves a `poker_hmac_v1` table mid-hand gets proofs of their own
//! hole cards and of the board already dealt — never of a flop, turn or
//! river card the operator has not dealt yet (docs/spec.md §7.7).
//!
//! Positions come from the spec, not from the server: with `p` players in
//! the hand, the `j`-th seat ascending holds `2j` and `2j+1`, the board is
//! `2p .. 2p+4`.

mod common;

use common::http::Client;
use common::server::{Options, Server};
use common::{new_player, OPERATOR_KEY};
use serde_json::{json, Value};

fn call(c: &mut Client, method: &str, path: &str, token: &str, body: Option<Value>) -> Value {
    let body = body.map(|b| b.to_string());
    let a = c
        .send(method, path, Some(token), &[], body.as_deref())
        .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"));
    assert!(
        (200..300).contains(&a.status),
        "{method} {path}: {} {}",
        a.status,
        a.body
    );
    a.json()
}

/// A table with three players at seats 0, 1 and 2, hand 1 dealt to the
/// river and hand 2 started; returns the tokens.
fn three_players_at_hand_two(c: &mut Client, table: &str) -> Vec<String> {
    let t = call(
        c,
        "POST",
        "/v1/poker/tables",
        OPERATOR_KEY,
        Some(json!({"table_id": table})),
    );
    let tokens: Vec<String> = (0..3).map(|_| new_player(c)).collect();
    for (seat, token) in tokens.iter().enumerate() {
        let sit = json!({"seat": seat, "client_seed": format!("player {seat}"), "commitment": t["commitment"]});
        call(
            c,
            "POST",
            &format!("/v1/poker/tables/{table}/seats"),
            token,
            Some(sit),
        );
    }
    let hands = format!("/v1/poker/tables/{table}/hands");
    call(c, "POST", &hands, OPERATOR_KEY, None);
    for _ in 0..3 {
        call(c, "POST", &format!("{hands}/1/street"), OPERATOR_KEY, None);
    }
    let hand = call(c, "POST", &hands, OPERATOR_KEY, None);
    assert_eq!(hand["n"], 2);
    tokens
}

/// Leaves and returns the proof record of hand `n` (matched by its deck root).
fn leave_and_proof(c: &mut Client, table: &str, token: &str, deck_root: &Value) -> Value {
    let left = call(
        c,
        "POST",
        &format!("/v1/poker/tables/{table}/leave"),
        token,
        None,
    );
    let records = left["records"].as_array().expect("records");
    assert_eq!(records.len(), 2, "one proof per hand played: {left}");
    for r in records {
        let verdict = fairseed_core::verify_value(&r["record"]);
        assert!(verdict.valid, "{verdict:?}");
    }
    records
        .iter()
        .map(|r| r["record"].clone())
        .find(|r| &r["deck_root"] == deck_root)
        .expect("a proof for the hand in play")
}

fn positions(proof: &Value) -> Vec<u64> {
    proof["leaves"]
        .as_array()
        .expect("leaves")
        .iter()
        .map(|l| l["i"].as_u64().expect("i"))
        .collect()
}

fn cards(proof: &Value) -> Vec<Value> {
    proof["leaves"]
        .as_array()
        .expect("leaves")
        .iter()
        .map(|l| l["card"].clone())
        .collect()
}

#[test]
fn a_leaver_gets_proofs_of_the_board_already_dealt_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&Options::new(dir.path()));
    let mut c = Client::new(&server.addr);

    // Preflop: player 3 (seat 2, the third of three seats) proves positions 4 and 5, no board.
    let tokens = three_players_at_hand_two(&mut c, "pre");
    let own = call(
        &mut c,
        "GET",
        "/v1/poker/tables/pre/hands/2",
        &tokens[2],
        None,
    );
    let proof = leave_and_proof(&mut c, "pre", &tokens[2], &own["deck_root"]);
    assert_eq!(positions(&proof), vec![4, 5], "holes only");
    assert_eq!(json!(cards(&proof)), own["hole"]);
    // The operator then deals the whole board: none of it was in the proof.
    let mut board = Vec::new();
    for _ in 0..3 {
        let street = call(
            &mut c,
            "POST",
            "/v1/poker/tables/pre/hands/2/street",
            OPERATOR_KEY,
            None,
        );
        board = street["board"].as_array().expect("board").clone();
    }
    assert_eq!(board.len(), 5);
    assert!(board.iter().all(|card| !cards(&proof).contains(card)));

    // At the flop: holes and the three flop cards, not the turn or river.
    let tokens = three_players_at_hand_two(&mut c, "flop");
    let flop = call(
        &mut c,
        "POST",
        "/v1/poker/tables/flop/hands/2/street",
        OPERATOR_KEY,
        None,
    );
    let own = call(
        &mut c,
        "GET",
        "/v1/poker/tables/flop/hands/2",
        &tokens[2],
        None,
    );
    let proof = leave_and_proof(&mut c, "flop", &tokens[2], &own["deck_root"]);
    assert_eq!(positions(&proof), vec![4, 5, 6, 7, 8], "holes and flop");
    let proven = cards(&proof);
    assert_eq!(json!(proven[..2]), own["hole"]);
    assert_eq!(json!(proven[2..]), flop["board"]);
    let turn = call(
        &mut c,
        "POST",
        "/v1/poker/tables/flop/hands/2/street",
        OPERATOR_KEY,
        None,
    );
    let river = call(
        &mut c,
        "POST",
        "/v1/poker/tables/flop/hands/2/street",
        OPERATOR_KEY,
        None,
    );
    for later in [&turn["board"][3], &river["board"][4]] {
        assert!(
            !proven.contains(later),
            "{later} was proven before it was dealt"
        );
    }
}

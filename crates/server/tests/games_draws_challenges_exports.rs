//! Table-game draws, chess challenges and seeks, and the record export,
//! through the real binary, on SQLite and (with `FAIRSEED_TEST_DB_URI`) on
//! PostgreSQL:
//!
//! - a retried draw with the same `Idempotency-Key` deals once;
//! - a chess challenge needs a real opponent (not nobody, oneself or `-7`),
//!   and a seek can be withdrawn;
//! - the operator export has one line per record, with its id, and players
//!   read the match records they played in.

mod common;

use std::collections::{HashMap, HashSet};

use common::http::{Answer, Client};
use common::matches::{log, open_started};
use common::pg::{postgres_or_skip, Schema};
use common::server::{Options, Server};
use common::{new_player, OPERATOR_KEY};
use fairseed_core::{Commitment, ServerSeed};
use fairseed_store::SeedCipher;
use serde_json::{json, Value};

/// Runs `scenario` against a fresh server on SQLite, then on PostgreSQL
/// when a test database is configured (saying so when it is not).
fn on_every_backend(scenario: fn(&str)) {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&Options::new(dir.path()));
    scenario(&server.addr);
    drop(server);
    // libtest names each test's thread after the test.
    let test = std::thread::current()
        .name()
        .unwrap_or("a scenario")
        .to_owned();
    let Some(url) = postgres_or_skip(&format!("{test} on PostgreSQL (it ran on SQLite)")) else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let cipher = SeedCipher::load_or_create(&dir.path().join("seed.key")).expect("seed key");
    let schema = Schema::create(&url, cipher);
    let db = schema.scoped_url();
    let mut opts = Options::new(dir.path());
    opts.database = Some(&db);
    let server = Server::start(&opts);
    scenario(&server.addr);
}

/// An operator request with optional extra headers and body.
fn op(c: &mut Client, method: &str, path: &str, key: Option<&str>, body: Option<&str>) -> Answer {
    let headers: Vec<(&str, &str)> = key.map(|k| ("Idempotency-Key", k)).into_iter().collect();
    c.send(method, path, Some(OPERATOR_KEY), &headers, body)
        .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"))
}

fn player(c: &mut Client, method: &str, path: &str, token: &str, body: Option<Value>) -> Answer {
    let body = body.map(|b| b.to_string());
    c.send(method, path, Some(token), &[], body.as_deref())
        .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"))
}

fn player_id(c: &mut Client, token: &str) -> i64 {
    let me = player(c, "GET", "/v1/me", token, None);
    me.json()["player_id"].as_i64().expect("player_id")
}

fn retried_draws_deal_once(addr: &str) {
    let c = &mut Client::new(addr);
    let started = open_started(c, "tarneeb", &mut |_, _| {});
    let id = started["match_id"].as_str().expect("match_id").to_owned();
    let path = format!("/v1/matches/{id}/draws");
    let deal = json!({"step": "deal"}).to_string();
    let first = op(c, "POST", &path, Some("deal-1"), Some(&deal));
    assert_eq!(first.status, 200, "{}", first.body);
    let again = op(c, "POST", &path, Some("deal-1"), Some(&deal));
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json(), first.json(), "the first answer, replayed");
    assert_eq!(again.header("idempotency-replayed"), Some("true"));
    let other = json!({"step": "deal", "buyer": null}).to_string();
    let reused = op(c, "POST", &path, Some("deal-1"), Some(&other));
    assert_eq!(reused.status, 409, "{}", reused.body);
    assert_eq!(reused.json()["code"], "idempotency_mismatch");
    let next = op(c, "POST", &path, Some("deal-2"), Some(&deal));
    assert_eq!(
        next.json()["seq"],
        first.json()["seq"].as_u64().expect("seq") + 1
    );
    let deals: Vec<Value> = log(c, &id, &mut |_, _| {})
        .into_iter()
        .filter(|e| e["draw"]["step"] == "deal")
        .collect();
    assert_eq!(deals.len(), 2, "two keys, two deals: {deals:?}");

    // The same keyed draw sent at once on eight connections: one deal, one answer.
    let answers: Vec<Value> = std::thread::scope(|scope| {
        let racers: Vec<_> = (0..8)
            .map(|_| {
                let (addr, path, deal) = (addr, &path, &deal);
                scope.spawn(move || {
                    let a = op(
                        &mut Client::new(addr),
                        "POST",
                        path,
                        Some("race"),
                        Some(deal),
                    );
                    assert_eq!(a.status, 200, "{}", a.body);
                    a.json()
                })
            })
            .collect();
        racers
            .into_iter()
            .map(|r| r.join().expect("racer"))
            .collect()
    });
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
    let deals = log(c, &id, &mut |_, _| {})
        .into_iter()
        .filter(|e| e["draw"]["step"] == "deal")
        .count();
    assert_eq!(deals, 3, "the raced key dealt once");

    // Finishing twice with one key stores one record and answers it twice.
    let finish = format!("/v1/matches/{id}/finish");
    let done = op(c, "POST", &finish, Some("fin"), None);
    assert_eq!(done.status, 200, "{}", done.body);
    let replay = op(c, "POST", &finish, Some("fin"), None);
    assert_eq!(
        common::without_receipts(&replay.json()),
        common::without_receipts(&done.json())
    );
    assert_eq!(done.json()["record"]["record"]["play"]["deals"], 3);
    let record_id = done.json()["record"]["id"].clone();
    let lines = export(c);
    assert_eq!(lines.iter().filter(|l| l["id"] == record_id).count(), 1);

    // An import retried with its key stores the record once.
    let record = done.json()["record"]["record"].to_string();
    let imported = op(
        c,
        "POST",
        "/v1/operator/records",
        Some("imp"),
        Some(&record),
    );
    assert_eq!(imported.status, 201, "{}", imported.body);
    let again = op(
        c,
        "POST",
        "/v1/operator/records",
        Some("imp"),
        Some(&record),
    );
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.json(), imported.json());
    assert_eq!(export(c).len(), lines.len() + 1);
}

#[test]
fn a_retried_draw_with_its_key_deals_once() {
    on_every_backend(retried_draws_deal_once);
}

fn new_seed(c: &mut Client, token: &str) -> (String, String) {
    let a = player(c, "POST", "/v1/chess/seeds", token, None);
    assert_eq!(a.status, 201, "{}", a.body);
    let v = a.json();
    (
        v["seed_id"].as_str().expect("seed_id").to_owned(),
        v["commitment"].as_str().expect("commitment").to_owned(),
    )
}

fn seek(c: &mut Client, token: &str, seed: &(String, String), opponent: Value) -> Answer {
    let body = json!({"seed_id": seed.0, "client_seed": "mine", "commitment": seed.1, "opponent": opponent});
    player(c, "POST", "/v1/chess/seeks", token, Some(body))
}

fn challenges_need_a_real_opponent_and_seeks_can_be_withdrawn(addr: &str) {
    let c = &mut Client::new(addr);
    let (alice, bob) = (new_player(c), new_player(c));
    let alice_id = player_id(c, &alice);
    let seed = new_seed(c, &alice);

    let negative = seek(c, &alice, &seed, json!(-7));
    assert_eq!(negative.status, 422, "{}", negative.body);
    assert_eq!(negative.json()["field"], "opponent");
    let nobody = seek(c, &alice, &seed, json!(alice_id + 1_000_000));
    assert_eq!(nobody.status, 409, "{}", nobody.body);
    assert_eq!(nobody.json()["code"], "unknown_opponent");
    let herself = seek(c, &alice, &seed, json!(alice_id));
    assert_eq!(herself.status, 409, "{}", herself.body);
    assert_eq!(herself.json()["code"], "own_challenge");

    // None of those used the seed: it still seeks, then is withdrawn.
    let open = seek(c, &alice, &seed, Value::Null);
    assert_eq!(open.status, 200, "{}", open.body);
    let listed = player(c, "GET", "/v1/chess/seeks", &bob, None).json();
    assert!(listed["seeks"]
        .as_array()
        .expect("seeks")
        .iter()
        .any(|s| s["seek_id"] == seed.0.as_str()));
    let cancel = format!("/v1/chess/seeks/{}/cancel", seed.0);
    let by_bob = player(c, "POST", &cancel, &bob, None);
    assert_eq!(
        by_bob.status, 404,
        "only its owner withdraws a seek: {}",
        by_bob.body
    );
    let cancelled = player(c, "POST", &cancel, &alice, None);
    assert_eq!(cancelled.status, 200, "{}", cancelled.body);
    let v = cancelled.json();
    assert_eq!(v["status"], "cancelled");
    let revealed =
        ServerSeed::parse(v["server_seed"].as_str().expect("seed revealed")).expect("a seed");
    let committed = Commitment::parse(&seed.1).expect("a commitment");
    assert!(
        committed.matches(&revealed),
        "the revealed seed is the committed one"
    );

    let listed = player(c, "GET", "/v1/chess/seeks", &bob, None).json();
    assert!(!listed["seeks"]
        .as_array()
        .expect("seeks")
        .iter()
        .any(|s| s["seek_id"] == seed.0.as_str()));
    let b_seed = new_seed(c, &bob);
    let body = json!({"seed_id": b_seed.0, "client_seed": "b", "commitment": b_seed.1});
    let late = player(
        c,
        "POST",
        &format!("/v1/chess/seeks/{}/accept", seed.0),
        &bob,
        Some(body),
    );
    assert_eq!(late.status, 409, "{}", late.body);
    assert_eq!(late.json()["code"], "wrong_status");
    assert_eq!(
        seek(c, &alice, &seed, Value::Null).json()["code"],
        "wrong_status"
    );
}

#[test]
fn a_chess_challenge_needs_a_real_opponent_and_a_seek_can_be_withdrawn() {
    on_every_backend(challenges_need_a_real_opponent_and_seeks_can_be_withdrawn);
}

/// The operator's export, one parsed line per record.
fn export(c: &mut Client) -> Vec<Value> {
    let a = op(c, "GET", "/v1/operator/records/export", None, None);
    assert_eq!(a.status, 200, "{}", a.body);
    a.body
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn record_ids(c: &mut Client, token: &str) -> HashSet<i64> {
    let page = player(c, "GET", "/v1/records?limit=500", token, None).json();
    page["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| r["id"].as_i64().expect("id"))
        .collect()
}

fn one_line_per_record_and_players_read_their_matches(addr: &str) {
    let c = &mut Client::new(addr);
    let (alice, bob, carol) = (new_player(c), new_player(c), new_player(c));
    let (alice_id, bob_id) = (player_id(c, &alice), player_id(c, &bob));

    // A chess game: one record, read by both players.
    let a_seed = new_seed(c, &alice);
    assert_eq!(seek(c, &alice, &a_seed, Value::Null).status, 200);
    let b_seed = new_seed(c, &bob);
    let body = json!({"seed_id": b_seed.0, "client_seed": "b", "commitment": b_seed.1});
    let game = player(
        c,
        "POST",
        &format!("/v1/chess/seeks/{}/accept", a_seed.0),
        &bob,
        Some(body),
    );
    assert_eq!(game.status, 200, "{}", game.body);
    let done = player(
        c,
        "POST",
        &format!("/v1/chess/games/{}/finish", a_seed.0),
        &alice,
        None,
    );
    assert_eq!(done.status, 200, "{}", done.body);
    let chess_id = done.json()["record"]["id"].as_i64().expect("id");
    assert!(record_ids(c, &alice).contains(&chess_id));
    assert!(record_ids(c, &bob).contains(&chess_id));

    // A match whose indexes 0 and 1 the operator links to Alice and Bob.
    let started = open_started(c, "checkers", &mut |_, _| {});
    let id = started["match_id"].as_str().expect("match_id");
    let players = json!({"players": {"0": alice_id, "1": bob_id}}).to_string();
    let finished = op(
        c,
        "POST",
        &format!("/v1/matches/{id}/finish"),
        None,
        Some(&players),
    );
    assert_eq!(finished.status, 200, "{}", finished.body);
    let match_id = finished.json()["record"]["id"].as_i64().expect("id");
    assert!(record_ids(c, &alice).contains(&match_id));
    assert!(record_ids(c, &bob).contains(&match_id));
    assert!(
        !record_ids(c, &carol).contains(&match_id),
        "Carol did not play"
    );
    let mine = player(c, "GET", &format!("/v1/records/{match_id}"), &bob, None);
    assert_eq!(mine.json()["scheme"], "match_seed_v2");
    let unknown = json!({"players": {"0": bob_id + 1_000_000}}).to_string();
    let other = open_started(c, "xiangqi", &mut |_, _| {});
    let path = format!(
        "/v1/matches/{}/finish",
        other["match_id"].as_str().expect("id")
    );
    let refused = op(c, "POST", &path, None, Some(&unknown));
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(refused.json()["field"], "players.0");

    // The operator's export: one line per record, each with its id, each verifying.
    let lines = export(c);
    let mut seen: HashMap<i64, usize> = HashMap::new();
    for line in &lines {
        *seen
            .entry(line["id"].as_i64().expect("every line has its id"))
            .or_default() += 1;
        let verdict = fairseed_core::verify_value(line);
        assert!(verdict.valid, "{verdict:?}\n{line}");
    }
    assert!(
        seen.values().all(|&n| n == 1),
        "an id on two lines: {seen:?}"
    );
    assert_eq!(seen.get(&chess_id), Some(&1));
    assert_eq!(seen.get(&match_id), Some(&1));
}

#[test]
fn the_export_has_one_line_per_record_and_players_read_their_match_records() {
    on_every_backend(one_line_per_record_and_players_read_their_matches);
}

//! A live hold'em table through the real binary: a person and five AIs of
//! mixed levels play whole hands over the WebSocket (the test checks or
//! calls for the person). Every message a player or a spectator receives is
//! scanned: no other seat's hole cards before showdown. Every `hand_end`
//! record replays under the rules and its seed is the commitment's and the
//! `selfpoker_v2` derivation's once the secret is revealed; a reconnect with
//! `after` resumes without a gap; a repeated message id is applied once.
//! On SQLite, and on PostgreSQL when `FAIRSEED_TEST_DB_URI` is set.

mod common;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::http::Client;
use common::new_player;
use common::pg::{postgres_or_skip, ServerDatabase};
use common::server::{Options, Server};
use fairseed_core::selfpoker_v2::{self, ClientSeedEntry};
use fairseed_holdem::HandRecord;
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Hands the person plays before sitting out.
const HANDS: usize = 3;

/// One WebSocket client and every message it received.
struct Ws {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    got: Vec<Value>,
}

impl Ws {
    fn connect(addr: &str, table: &str, hello: Value) -> Ws {
        let url = format!("ws://{addr}/v1/holdem/tables/{table}/ws");
        let (mut socket, response) = tungstenite::connect(url).expect("WebSocket handshake");
        assert_eq!(response.status(), 101);
        if let MaybeTlsStream::Plain(tcp) = socket.get_mut() {
            tcp.set_read_timeout(Some(Duration::from_secs(60)))
                .expect("read timeout");
        }
        let mut ws = Ws {
            socket,
            got: Vec::new(),
        };
        ws.send(&hello);
        ws
    }

    fn send(&mut self, message: &Value) {
        self.socket
            .send(Message::text(message.to_string()))
            .expect("send");
    }

    /// The next message (scanned by the caller through `got`).
    fn next(&mut self) -> Value {
        // Pings keep the socket's read timeout from firing: a table that
        // stops playing must still fail the test, not hang it.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(
                Instant::now() < deadline,
                "no message within 60 s; got {:?}",
                self.got.iter().rev().take(3).collect::<Vec<_>>()
            );
            match self.socket.read().expect("a message within 60 s") {
                Message::Text(text) => {
                    let v: Value = serde_json::from_str(&text).expect("JSON");
                    self.got.push(v.clone());
                    return v;
                }
                Message::Close(_) => panic!("closed by the server"),
                _ => {}
            }
        }
    }

    /// Reads until `want` holds for a message; returns it.
    fn until(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            let m = self.next();
            assert_ne!(m["type"], "error", "waiting for {what}: {m}");
            if want(&m) {
                return m;
            }
        }
    }

    fn answer(&mut self, id: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(Instant::now() < deadline, "no answer to {id}");
            let m = self.next();
            if m["id"] == id && (m["type"] == "ack" || m["type"] == "error") {
                return m;
            }
        }
    }
}

/// Checks that `m` shows no hole card but the viewer's own (`you`) while a
/// hand is played; shown cards arrive only in `showed` events.
fn no_foreign_holes(m: &Value, you: Option<u64>) {
    match m["type"].as_str() {
        Some("state") => {
            let t = &m["table"];
            if t["hand"].is_null() {
                return;
            }
            for seat in t["seats"].as_array().expect("seats").iter().flatten_seats() {
                if Some(seat["seat"].as_u64().expect("seat")) != you {
                    assert!(seat["hole"].is_null(), "a foreign hole card: {m}");
                }
            }
        }
        Some("event") => {
            let text = m.to_string();
            if m["event"]["event"] != "showed" {
                assert!(
                    !text.contains("cards\":[") || m["event"]["event"] == "dealt",
                    "{m}"
                );
            }
            assert!(!text.contains("\"hole\""), "{m}");
        }
        _ => {}
    }
}

trait Seats<'a> {
    fn flatten_seats(self) -> Box<dyn Iterator<Item = &'a Value> + 'a>;
}

impl<'a, I: Iterator<Item = &'a Value> + 'a> Seats<'a> for I {
    fn flatten_seats(self) -> Box<dyn Iterator<Item = &'a Value> + 'a> {
        Box::new(self.filter(|s| !s.is_null()))
    }
}

/// Checks a `hand_end` message: the record replays, its seed is the
/// commitment's, and the message's fairplay agrees.
fn check_hand_end(m: &Value, table: &str, session_commit: &str) -> HandRecord {
    let record: HandRecord = serde_json::from_value(m["record"].clone()).expect("a hand record");
    // The session is open: the derivation is checked once the secret is out.
    let status = fairseed_holdem::record::check_deal(&record).expect("the deal's form");
    assert_eq!(status, Some(fairseed_holdem::deal::DealStatus::Unrevealed));
    fairseed_holdem::record::replay_hand(&record)
        .unwrap_or_else(|e| panic!("hand does not replay: {e}"));
    assert_eq!(record.commit, fairseed_core::selfpoker::commit(record.seed));
    let fp = &m["fairplay"];
    assert_eq!(fp["scheme"], "selfpoker_v2");
    assert_eq!(fp["seed"], record.seed.to_string());
    assert_eq!(fp["commit"], record.commit);
    assert_eq!(fp["session_commit"], session_commit);
    assert_eq!(fp["table_id"], table);
    assert_eq!(m["record"]["deal"]["session_commit"], session_commit);
    record
}

/// Checking and calling can lose every chip, and a busted person is never
/// dealt in again: between hands, top up (free play chips) so play goes on.
fn top_up_if_busted(ws: &mut Ws, m: &Value) {
    let t = &m["table"];
    if m["type"] == "state" && t["hand"].is_null() && t["seats"][0]["stack"] == 0 {
        // One id per hand: states that still show the old stack repeat the
        // same message, which the table applies once.
        let id = format!("top-up-{}", t["hands_played"]);
        ws.send(&json!({"type": "top_up", "id": id}));
    }
}

/// Plays check or call when the person is to act. The message's id is the
/// state's `seq`: a state can come again with the same `seq` (a process that
/// starts serving the table pushes one), and the same id and body again is
/// the same action, which the table applies once and acknowledges again.
fn act_if_asked(ws: &mut Ws, m: &Value, n: &mut u32) {
    let t = &m["table"];
    if m["type"] != "state" || t["hand"]["legal"].is_null() {
        return;
    }
    let kind = if t["hand"]["legal"]["to_call"] == 0 {
        "check"
    } else {
        "call"
    };
    *n += 1;
    let id = format!("act-{}", m["seq"]);
    ws.send(&json!({"type": "act", "id": id, "action": {"kind": kind}}));
}

/// The entries of the receipts `answer` carries (none if it has no `receipts`).
fn receipt_entries(answer: &Value) -> Vec<fairseed_tlog::LogEntry> {
    use base64::prelude::*;
    answer["receipts"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|r| {
            let bytes = BASE64_STANDARD
                .decode(r["entry"].as_str().expect("entry"))
                .expect("base64");
            fairseed_tlog::LogEntry::decode(&bytes).expect("an entry")
        })
        .collect()
}

/// Each hand's commit reaches the viewer with the receipt of its log entry,
/// on the first `state` that shows the hand, and its seed with the receipt
/// of its reveal on the first that shows it ended; a `state` that shows
/// nothing new carries none.
fn hand_receipts(got: &[Value], table: &str) {
    let mut receipted = std::collections::BTreeSet::new();
    let mut revealed = std::collections::BTreeSet::new();
    let mut last_shown = None;
    for m in got.iter().filter(|m| m["type"] == "state") {
        let hand = &m["table"]["hand"];
        let last = &m["table"]["last_hand"];
        let shown = (
            hand["number"].clone(),
            last["number"].clone(),
            m["table"]["session"]["secret"].clone(),
        );
        let entries = receipt_entries(m);
        if last_shown.as_ref() == Some(&shown) {
            assert!(entries.is_empty(), "receipts again for nothing new: {m}");
            continue;
        }
        last_shown = Some(shown);
        assert!(
            !entries.is_empty(),
            "a state showing a new hand without receipts: {m}"
        );
        if let Some(number) = hand["number"].as_u64() {
            let want = [table.to_owned(), number.to_string()];
            let entry = entries
                .iter()
                .find(|e| e.ids == want)
                .unwrap_or_else(|| panic!("no receipt of hand {number}'s commit: {m}"));
            assert_eq!(entry.values, [hand["commit"].as_str().expect("commit")]);
            receipted.insert(number);
        }
        if let Some(number) = last["number"].as_u64() {
            let want = [table.to_owned(), number.to_string()];
            let reveal = entries
                .iter()
                .find(|e| e.ids == want && e.kind == fairseed_tlog::EntryKind::Reveal)
                .unwrap_or_else(|| panic!("no receipt of hand {number}'s seed: {m}"));
            assert_eq!(reveal.values, [last["seed"].as_str().expect("seed")]);
            revealed.insert(number);
        }
    }
    assert!(receipted.len() >= 2, "hands with receipts: {receipted:?}");
    assert!(
        !revealed.is_empty(),
        "no ended hand's seed with its receipt"
    );
}

/// The finished hands come with the receipts of the entries that published
/// the session's commitment and its end, and each hand's commit and seed,
/// the values as the records show them.
fn records_receipts(answer: &Value, table: &str, session_commit: &str) {
    use fairseed_tlog::EntryKind::{Commitment, Reveal};
    let entries = receipt_entries(answer);
    let find = |kind, ids: &[String]| {
        entries
            .iter()
            .find(|e| e.kind == kind && e.ids == ids)
            .unwrap_or_else(|| panic!("no {kind:?} receipt of {ids:?}: {answer}"))
    };
    let session = [format!("holdem_table:{table}")];
    assert!(find(Commitment, &session)
        .values
        .iter()
        .any(|v| v == session_commit));
    find(Reveal, &session);
    // The policy committed at open and restated at the end (docs/spec.md §19.1).
    let policy = [format!("holdem_table:{table}"), "policy".to_owned()];
    let committed = find(Commitment, &policy).values.clone();
    assert!(committed[0].contains("\"action_ms\":"), "{committed:?}");
    assert_eq!(find(Reveal, &policy).values, committed);
    // The evidence key's public half, committed at open, restated at the
    // end and named by every record (docs/spec.md §20.7).
    let key = [format!("holdem_table:{table}"), "evidence_key".to_owned()];
    let committed = find(Commitment, &key).values.clone();
    assert_eq!(find(Reveal, &key).values, committed);
    let records = answer["hands"].as_array().expect("hands");
    for record in records {
        let ids = [table.to_owned(), record["hand"].to_string()];
        assert_eq!(
            find(Commitment, &ids).values,
            [record["commit"].as_str().expect("commit")]
        );
        assert_eq!(find(Reveal, &ids).values, [record["seed"].to_string()]);
        assert_eq!(record["evidence_key"], committed[0].as_str(), "{record}");
    }
    assert_eq!(entries.len(), 6 + 2 * records.len(), "{answer}");
}

fn play(server: &Server) {
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let token = new_player(&mut http);
    let me = http.ok("GET", "/v1/me", &token, None)["player_id"]
        .as_i64()
        .expect("id");
    let body = json!({"scheme": "selfpoker_v2", "ais": [1, 3, 2, 1, 2], "action_ms": 30000});
    let created = http.ok("POST", "/v1/holdem/tables", &token, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    assert_eq!(created["ws"], format!("/v1/holdem/tables/{table}/ws"));
    let session_commit = created["session_commit"]
        .as_str()
        .expect("commit")
        .to_owned();

    let mut human = Ws::connect(
        addr,
        &table,
        json!({"type": "hello", "token": token, "after": null}),
    );
    let first = human.until("the first state", |m| m["type"] == "state");
    assert_eq!(
        first["receipts"][0]["entry"], created["receipts"][0]["entry"],
        "the first state carries the receipt of the session's commitment"
    );
    let t = &first["table"];
    assert_eq!(t["you"], Value::Null);
    assert_eq!(t["session"]["commit"], session_commit.as_str());
    let levels: Vec<Value> = t["seats"].as_array().expect("seats")[1..]
        .iter()
        .map(|s| s["player"]["level"].clone())
        .collect();
    assert_eq!(levels, [1, 3, 2, 1, 2].map(Value::from));
    assert_eq!(t["seats"][2]["badge"], "AI · level 3");
    let mut spectator = Ws::connect(addr, &table, json!({"type": "hello", "after": 0}));

    // Sit, then the same message again: one seat taken, the same answer.
    let sit = json!({"type": "sit", "id": "sit-1", "seat": 0, "client_seed": "a browser's seed"});
    human.send(&sit);
    assert_eq!(human.answer("sit-1")["type"], "ack");
    human.send(&sit);
    assert_eq!(human.answer("sit-1")["type"], "ack");

    let mut acted = 0;
    let mut hands = Vec::new();
    let mut sat_out = false;
    loop {
        let m = human.next();
        assert_ne!(m["type"], "error", "{m}");
        no_foreign_holes(&m, Some(0));
        if m["type"] == "hand_end" {
            hands.push(check_hand_end(&m, &table, &session_commit));
            if hands.len() == HANDS && !sat_out {
                human.send(&json!({"type": "sit_out", "id": "out"}));
                sat_out = true;
            }
        }
        act_if_asked(&mut human, &m, &mut acted);
        if !sat_out {
            top_up_if_busted(&mut human, &m);
        }
        // Out of the hands for good: sat out, and no hand (none starts without a person).
        let t = &m["table"];
        if sat_out
            && m["type"] == "state"
            && t["hand"].is_null()
            && t["seats"][0]["sitting_out"] == true
        {
            break;
        }
    }
    assert!(hands.len() >= HANDS);
    assert!(acted > 0, "the person acted");
    hand_receipts(&human.got, &table);
    let seated = human
        .got
        .iter()
        .filter(|m| m["event"]["event"] == "seated")
        .count();
    assert_eq!(seated, 1, "a repeated sit is applied once");

    // Resume from the middle: exactly the messages after `after`, in order.
    let seqs: Vec<u64> = human
        .got
        .iter()
        .filter(|m| m["type"] == "event" || m["type"] == "hand_end")
        .filter_map(|m| m["seq"].as_u64())
        .collect();
    let after = seqs[seqs.len() / 2];
    let mut again = Ws::connect(
        addr,
        &table,
        json!({"type": "hello", "token": token, "after": after}),
    );
    let state = again.until("the state after the backlog", |m| m["type"] == "state");
    let last = state["seq"].as_u64().expect("seq");
    let resumed: Vec<&Value> = again.got.iter().filter(|m| m["type"] != "state").collect();
    let want: Vec<u64> = (after + 1..=last).collect();
    let got: Vec<u64> = resumed.iter().filter_map(|m| m["seq"].as_u64()).collect();
    assert_eq!(got, want, "resumed without a gap or a repeat");
    let seen = seqs.last().copied().unwrap_or(0);
    for m in resumed.iter().filter(|m| m["seq"].as_u64() <= Some(seen)) {
        let first_copy = human
            .got
            .iter()
            .find(|h| h["seq"] == m["seq"] && h["type"] != "state");
        assert_eq!(Some(*m), first_copy, "the same message on resume");
    }
    // The sit's id, repeated on another connection: the stored answer, no second seat.
    again.send(&sit);
    assert_eq!(again.answer("sit-1")["type"], "ack");
    again.send(&json!({"type": "sit", "id": "sit-2", "seat": 0, "client_seed": "x"}));
    assert_eq!(again.answer("sit-2")["code"], "already_seated");

    // Leave: the table empties, the session secret is revealed, hands archived.
    again.send(&json!({"type": "leave", "id": "bye"}));
    let bye = again.answer("bye");
    assert_eq!(bye["type"], "ack", "{bye}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let revealed = loop {
        let h = http.ok(
            "GET",
            &format!("/v1/holdem/tables/{table}/hands"),
            &token,
            None,
        );
        if !h["hands"][0]["deal"]["session_secret"].is_null() {
            break h;
        }
        assert!(
            Instant::now() < deadline,
            "the secret was not revealed: {h}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let records = revealed["hands"].as_array().expect("hands");
    assert_eq!(records.len(), hands.len());
    records_receipts(&revealed, &table, &session_commit);
    for (record, hand) in records.iter().zip(&hands) {
        let deal = &record["deal"];
        let secret =
            selfpoker_v2::parse_secret(deal["session_secret"].as_str().expect("secret"), "s")
                .expect("a secret");
        assert!(selfpoker_v2::secret_matches(&secret, &session_commit));
        let seeds: Vec<ClientSeedEntry> = deal["client_seeds"]
            .as_object()
            .expect("client seeds")
            .iter()
            .map(|(seat, seed)| {
                ClientSeedEntry::new(seat.parse().expect("seat"), seed.as_str().expect("seed"))
                    .expect("entry")
            })
            .collect();
        assert_eq!(seeds.len(), 1);
        let whole: HandRecord = serde_json::from_value(record.clone()).expect("a record");
        fairseed_holdem::replay(&whole).unwrap_or_else(|e| panic!("the revealed hand: {e}"));
        let derived = selfpoker_v2::hand_seed(&secret, &table, hand.hand, &seeds).expect("seed");
        assert_eq!(
            derived, hand.seed,
            "hand {}: the seed is the derivation's",
            hand.hand
        );
    }
    // The player's own records: one per hand, each dealt to them.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let page = http.ok("GET", "/v1/records", &token, None);
        let mine = page["records"]
            .as_array()
            .expect("records")
            .iter()
            .filter(|r| {
                r["scheme"] == "holdem_hand_v1" && r["record"]["deal"]["table_id"] == table.as_str()
            })
            .count();
        if mine == hands.len() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{mine} records of {} hands",
            hands.len()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        records.iter().all(|r| r["seats"][0]["player"]["id"] == me),
        "the person was dealt into every hand"
    );

    // The spectator saw the same hands and never a hole card before showdown.
    spectator.until("the last hand's end", |m| {
        m["type"] == "hand_end" && m["number"] == hands.len() as u64
    });
    for m in &spectator.got {
        no_foreign_holes(m, None);
    }
    let spectator_ends = spectator
        .got
        .iter()
        .filter(|m| m["type"] == "hand_end")
        .count();
    assert_eq!(spectator_ends, hands.len());
}

fn options(dir: &std::path::Path) -> Options<'_> {
    let mut o = Options::new(dir);
    o.extra_args = ["--holdem-ai-delay-ms", "5", "--holdem-next-hand-ms", "50"]
        .map(String::from)
        .to_vec();
    o
}

#[test]
fn two_tables_play_at_once_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    std::thread::scope(|s| {
        let a = s.spawn(|| play(&server));
        let b = s.spawn(|| play(&server));
        a.join().expect("table a");
        b.join().expect("table b");
    });
}

/// The first message of a connection and its answer.
fn first_answer(addr: &str, table: &str, hello: Value) -> Value {
    let mut ws = Ws::connect(addr, table, hello);
    ws.next()
}

#[test]
fn refusals_name_their_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let token = new_player(&mut http);
    let body = json!({"scheme": "selfpoker_v2", "ais": [1], "seats": 2});
    let created = http.ok("POST", "/v1/holdem/tables", &token, Some(&body));
    let table = created["table_id"].as_str().expect("table_id");

    let not_hello = first_answer(addr, table, json!({"type": "sit", "seat": 0}));
    assert_eq!(
        (not_hello["type"].as_str(), not_hello["code"].as_str()),
        (Some("error"), Some("invalid_field"))
    );
    let bad_token = first_answer(addr, table, json!({"type": "hello", "token": "nope"}));
    assert_eq!(bad_token["code"], "unauthorized");
    let unknown = tungstenite::connect(format!("ws://{addr}/v1/holdem/tables/nope/ws"));
    assert!(unknown.is_err(), "no such table: no upgrade");

    let mut spectator = Ws::connect(addr, table, json!({"type": "hello"}));
    spectator.until("a state", |m| m["type"] == "state");
    spectator.send(&json!({"type": "sit_in", "id": "s"}));
    assert_eq!(spectator.answer("s")["code"], "unauthorized");

    let mut ws = Ws::connect(addr, table, json!({"type": "hello", "token": token}));
    ws.until("a state", |m| m["type"] == "state");
    ws.send(&json!({"type": "top_up", "id": "t"}));
    assert_eq!(ws.answer("t")["code"], "not_seated");
    ws.socket.send(Message::text("{not json")).expect("send");
    let m = loop {
        let m = ws.next();
        if m["type"] == "error" {
            break m;
        }
    };
    assert_eq!(
        (m["code"].as_str(), &m["id"]),
        (Some("bad_request"), &Value::Null)
    );
    ws.send(&json!({"type": "sit", "id": "long", "seat": 0, "client_seed": "x".repeat(65)}));
    assert_eq!(ws.answer("long")["code"], "client_seed_invalid");
    ws.send(&json!({"type": "sit", "id": "far", "seat": 5, "client_seed": "x"}));
    assert_eq!(ws.answer("far")["code"], "seat_invalid");
    ws.send(&json!({"type": "sit", "id": "ok", "seat": 0, "client_seed": "x"}));
    assert_eq!(ws.answer("ok")["type"], "ack");
    ws.send(&json!({"type": "top_up", "id": "full"}));
    // Refused either way: a full stack, or already dealt into the first hand.
    let full = ws.answer("full");
    assert!(
        ["top_up_not_needed", "in_hand"].contains(&full["code"].as_str().unwrap_or("")),
        "{full}"
    );
    // The turn may have come before the answer to "full": then it is the last state.
    let my_turn = |m: &Value| !m["table"]["hand"]["legal"].is_null();
    let last_state = ws.got.iter().rev().find(|m| m["type"] == "state");
    if !last_state.is_some_and(my_turn) {
        ws.until("my turn", my_turn);
    }
    ws.send(&json!({"type": "act", "id": "tiny", "action": {"kind": "raise_to", "to": 1}}));
    let tiny = ws.answer("tiny");
    assert!(
        tiny["code"]
            .as_str()
            .is_some_and(|c| c.starts_with("raise_")),
        "{tiny}"
    );
    ws.send(&json!({"type": "leave", "id": "early"}));
    assert_eq!(ws.answer("early")["code"], "in_hand");
    ws.send(&json!({"type": "act", "id": "what", "action": {"kind": "bet"}}));
    assert_eq!(ws.answer("what")["code"], "invalid_field");
}

#[test]
fn a_person_and_five_ais_play_over_the_websocket_on_postgres() {
    let Some(url) = postgres_or_skip("a_person_and_five_ais_play_over_the_websocket_on_postgres")
    else {
        return;
    };
    let db = ServerDatabase::create(&url);
    let mut o = options(db.dir.path());
    o.database = Some(&db.url);
    let server = Server::start(&o);
    play(&server);
}

/// The hole cards `m` (a state) shows at seat 0, while a hand is played.
fn my_hole(m: &Value) -> Option<Value> {
    let t = &m["table"];
    (m["type"] == "state" && !t["hand"].is_null()).then(|| t["seats"][0]["hole"].clone())
}

#[test]
fn a_table_survives_a_kill_mid_hand_and_plays_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    let addr = server.addr.clone();
    let mut http = Client::new(&addr);
    let token = new_player(&mut http);
    let body = json!({"scheme": "selfpoker_v2", "ais": [2, 3], "seats": 3, "action_ms": 30000});
    let created = http.ok("POST", "/v1/holdem/tables", &token, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let session_commit = created["session_commit"]
        .as_str()
        .expect("commit")
        .to_owned();
    let hello = |after: Value| json!({"type": "hello", "token": token, "after": after});
    let mut ws = Ws::connect(&addr, &table, hello(Value::Null));
    ws.send(&json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "seed before the kill"}));
    // Play a hand, then stop at the person's turn in the second one.
    let mut acted = 0;
    let mut ended = 0;
    let (hole, number, last_seq) = loop {
        let m = ws.next();
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "hand_end" {
            check_hand_end(&m, &table, &session_commit);
            ended += 1;
        }
        if ended >= 1 && !m["table"]["hand"]["legal"].is_null() {
            break (
                my_hole(&m).expect("my cards"),
                m["table"]["hand"]["number"].clone(),
                m["seq"].as_u64().expect("seq"),
            );
        }
        act_if_asked(&mut ws, &m, &mut acted);
        top_up_if_busted(&mut ws, &m);
    };
    drop(ws);
    server.kill9();

    let server = Server::start(&options(dir.path()));
    let addr = server.addr.clone();
    let mut ws = Ws::connect(&addr, &table, hello(Value::from(last_seq)));
    let state = ws.until("the state after the restart", |m| m["type"] == "state");
    assert_eq!(
        state["seq"].as_u64(),
        Some(last_seq),
        "nothing happened while down"
    );
    assert_eq!(state["table"]["hand"]["number"], number);
    assert_eq!(
        my_hole(&state),
        Some(hole),
        "the same cards, dealt again from the session"
    );
    act_if_asked(&mut ws, &state, &mut acted);
    loop {
        let m = ws.next();
        assert_ne!(m["type"], "error", "{m}");
        no_foreign_holes(&m, Some(0));
        if m["type"] == "hand_end" && m["number"] == number {
            check_hand_end(&m, &table, &session_commit);
            break;
        }
        act_if_asked(&mut ws, &m, &mut acted);
    }
}

#[test]
fn a_table_nobody_plays_at_closes_and_reveals_its_secret() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut o = options(dir.path());
    o.extra_args
        .extend(["--holdem-idle-close-ms", "300"].map(String::from));
    let server = Server::start(&o);
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let token = new_player(&mut http);
    // A short clock: a hand the person is still dealt into plays out by timeouts.
    let body = json!({"scheme": "selfpoker_v2", "ais": [3], "seats": 2, "action_ms": 1000});
    let created = http.ok("POST", "/v1/holdem/tables", &token, Some(&body));
    let table = created["table_id"].as_str().expect("table_id");
    let session_commit = created["session_commit"].as_str().expect("commit");
    let mut ws = Ws::connect(addr, table, json!({"type": "hello", "token": token}));
    ws.send(&json!({"type": "sit", "seat": 0, "client_seed": "then gone"}));
    let mut acted = 0;
    loop {
        let m = ws.next();
        if m["type"] == "hand_end" {
            check_hand_end(&m, table, session_commit);
            ws.send(&json!({"type": "sit_out"}));
            break;
        }
        act_if_asked(&mut ws, &m, &mut acted);
    }
    let closed = ws.until("the table closing", |m| m["table"]["closed"] == true);
    let t = &closed["table"];
    assert_eq!(t["you"], Value::Null, "the person was made to leave");
    let secret = t["session"]["secret"]
        .as_str()
        .expect("the secret, revealed");
    let secret = selfpoker_v2::parse_secret(secret, "secret").expect("hex");
    assert!(selfpoker_v2::secret_matches(&secret, session_commit));
    let deadline = Instant::now() + Duration::from_secs(30);
    while http.ok("GET", "/v1/records", &token, None)["records"]
        .as_array()
        .is_none_or(|r| r.is_empty())
    {
        assert!(Instant::now() < deadline, "the hand was not archived");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A process of a fleet that takes a table over gives the person's clock
/// back in full (docs/spec.md §19.1), and a socket already connected to it
/// is sent the new state at once: the person sees the new deadline before
/// anything else happens at the table, not at the next move.
#[test]
fn a_takeover_pushes_the_full_clock_to_sockets_already_connected() {
    let test = "a_takeover_pushes_the_full_clock_to_sockets_already_connected";
    let Some(url) = postgres_or_skip(test) else {
        return;
    };
    let db = ServerDatabase::create(&url);
    let mut o = options(db.dir.path());
    o.database = Some(&db.url);
    o.lease_ttl_ms = Some(1_000);
    let a = Server::start(&o);
    let b = Server::start(&o);
    // Opened through A, which drives it; the person plays through B.
    let mut http = Client::new(&a.addr);
    let token = new_player(&mut http);
    let body = json!({"scheme": "selfpoker_v2", "ais": [2], "seats": 2, "action_ms": 20_000});
    let created = http.ok("POST", "/v1/holdem/tables", &token, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let hello = json!({"type": "hello", "token": token});
    let mut ws = Ws::connect(&b.addr, &table, hello);
    ws.send(&json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "mine"}));
    let turn = ws.until("the person's turn", |m| {
        m["type"] == "state" && !m["table"]["hand"]["legal"].is_null()
    });
    let deadline = |m: &Value| m["table"]["hand"]["deadline_ms"].as_i64();
    a.kill9();
    let served = ws.until("the state of the takeover", |m| m["type"] == "state");
    assert_eq!(
        served["seq"], turn["seq"],
        "nothing else happened: {served}"
    );
    assert!(
        !served["table"]["hand"]["legal"].is_null(),
        "still the person's turn: {served}"
    );
    assert!(
        deadline(&served) > deadline(&turn),
        "a later deadline: {:?} after {:?}",
        deadline(&served),
        deadline(&turn)
    );
}

//! A live hold'em table under abuse, through the real binary: the input
//! rules of its WebSocket (a client seed checked as every chosen one, an
//! over-size message closed with 1009, a binary one with 1003, a reused
//! message id with another body refused on any connection), and a revoked
//! or rotated token ending every stream opened with it within a second.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::http::Client;
use common::new_player;
use common::server::{Options, Server};
use common::OPERATOR_KEY;
use serde_json::{json, Value};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

fn options(dir: &std::path::Path) -> Options<'_> {
    let mut o = Options::new(dir);
    o.extra_args = ["--holdem-ai-delay-ms", "5", "--holdem-next-hand-ms", "50"]
        .map(String::from)
        .to_vec();
    o
}

/// A socket on `table` that said `hello` and read its first `state`.
fn connect(addr: &str, table: &str, hello: &Value) -> Socket {
    let url = format!("ws://{addr}/v1/holdem/tables/{table}/ws");
    let (mut socket, _) = tungstenite::connect(url).expect("WebSocket handshake");
    if let MaybeTlsStream::Plain(tcp) = socket.get_mut() {
        tcp.set_read_timeout(Some(Duration::from_secs(30)))
            .expect("read timeout");
    }
    socket
        .send(Message::text(hello.to_string()))
        .expect("hello");
    loop {
        let m = read(&mut socket).unwrap_or_else(|| panic!("closed before a state"));
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "state" {
            return socket;
        }
    }
}

/// The next text message as JSON; `None` once closed.
fn read(socket: &mut Socket) -> Option<Value> {
    loop {
        match socket.read() {
            Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).expect("JSON")),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// The answer (`ack` or `error`) to the message `id`.
fn answer(socket: &mut Socket, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "no answer to {id}");
        let m = read(socket).unwrap_or_else(|| panic!("closed before the answer to {id}"));
        if m["id"] == id && (m["type"] == "ack" || m["type"] == "error") {
            return m;
        }
    }
}

/// The close frame the server ends with (skipping messages before it).
fn close_frame(socket: &mut Socket) -> (CloseCode, String) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "no close frame");
        match socket.read() {
            Ok(Message::Close(Some(frame))) => return (frame.code, frame.reason.to_string()),
            Ok(Message::Close(None)) => panic!("closed without a close frame"),
            Ok(_) => {}
            Err(e) => panic!("no close frame: {e}"),
        }
    }
}

fn send(socket: &mut Socket, m: &Value) {
    socket.send(Message::text(m.to_string())).expect("send");
}

fn open_table(http: &mut Client, token: &str) -> String {
    let created = http.ok(
        "POST",
        "/v1/holdem/tables",
        token,
        Some(&json!({"scheme": "selfpoker_v2", "ais": [1], "seats": 2})),
    );
    created["table_id"].as_str().expect("table_id").to_owned()
}

#[test]
fn a_table_socket_reads_input_as_the_rest_of_the_service() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let token = new_player(&mut http);
    let table = open_table(&mut http, &token);
    let hello = json!({"type": "hello", "token": token});

    // The same seed text dice refuses.
    let hostile = "a\u{0000}\u{202e}b\u{200b}";
    let dice = http
        .send(
            "PUT",
            "/v1/seeds/client",
            Some(&token),
            &[],
            Some(&json!({ "client_seed": hostile, "commitment": "00".repeat(32) }).to_string()),
        )
        .expect("dice seed");
    assert_eq!(dice.status, 422, "{}", dice.body);
    assert_eq!(dice.json()["field"], "client_seed", "{}", dice.body);
    let mut ws = connect(addr, &table, &hello);
    for (i, seed) in [hostile, "\u{202e}", "x\u{200b}", "tab\there"]
        .iter()
        .enumerate()
    {
        let id = format!("seed{i}");
        send(
            &mut ws,
            &json!({"type": "sit", "id": id, "seat": 0, "client_seed": seed}),
        );
        let refused = answer(&mut ws, &id);
        assert_eq!(
            refused["code"], "client_seed_invalid",
            "{seed:?}: {refused}"
        );
    }

    // A reused id with another body: refused on this connection...
    send(
        &mut ws,
        &json!({"type": "sit", "id": "s", "seat": 0, "client_seed": "mine"}),
    );
    assert_eq!(answer(&mut ws, "s")["type"], "ack");
    send(
        &mut ws,
        &json!({"type": "sit", "id": "s", "seat": 0, "client_seed": "mine"}),
    );
    assert_eq!(
        answer(&mut ws, "s")["type"],
        "ack",
        "the same message: its answer"
    );
    send(
        &mut ws,
        &json!({"type": "sit", "id": "s", "seat": 1, "client_seed": "mine"}),
    );
    assert_eq!(answer(&mut ws, "s")["code"], "idempotency_mismatch");
    // ...and on another.
    let mut other = connect(addr, &table, &hello);
    send(&mut other, &json!({"type": "sit_out", "id": "s"}));
    assert_eq!(answer(&mut other, "s")["code"], "idempotency_mismatch");
    send(
        &mut other,
        &json!({"type": "sit", "id": "s", "client_seed": "mine", "seat": 0}),
    );
    assert_eq!(
        answer(&mut other, "s")["type"],
        "ack",
        "field order does not matter"
    );
    send(
        &mut other,
        &json!({"type": "sit_out", "id": "x", "extra": 1}),
    );
    let unknown = answer(&mut other, "x");
    assert_eq!(unknown["code"], "invalid_field", "{unknown}");
    assert!(
        unknown["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("extra")),
        "{unknown}"
    );

    // Over 16 KiB: 1009 with a reason; far over: the same.
    for size in [16 * 1024 + 1, 200 * 1024] {
        let mut big = connect(addr, &table, &hello);
        let filler = "x".repeat(size);
        send(&mut big, &json!({"type": "sit_out", "pad": filler}));
        let (code, reason) = close_frame(&mut big);
        assert_eq!(code, CloseCode::Size, "{size} bytes: {reason}");
        assert!(reason.contains("16384"), "{reason}");
    }
    // 16 KiB exactly is read (and refused for its unknown field).
    let pad = 16 * 1024 - r#"{"type":"sit_out","id":"p","pad":""}"#.len();
    let exact = format!(
        r#"{{"type":"sit_out","id":"p","pad":"{}"}}"#,
        "x".repeat(pad)
    );
    assert_eq!(exact.len(), 16 * 1024);
    ws.send(Message::text(exact)).expect("send");
    assert_eq!(answer(&mut ws, "p")["code"], "invalid_field");

    // Binary: 1003 with a reason.
    let mut binary = connect(addr, &table, &json!({"type": "hello"}));
    binary
        .send(Message::binary(b"{\"type\":\"leave\"}".to_vec()))
        .expect("send");
    let (code, reason) = close_frame(&mut binary);
    assert_eq!(code, CloseCode::Unsupported, "{reason}");
    assert!(reason.contains("text"), "{reason}");
}

/// An SSE stream of `topic` for `token`; `read_to_end` returns when it ends.
fn sse(addr: &str, token: &str, topic: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let req = format!(
        "GET /v1/events?topic={topic} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    stream.write_all(req.as_bytes()).expect("send");
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).expect("status line");
    assert_eq!(&head, b"HTTP/1.1 200", "subscribe {topic}");
    stream
}

/// Reads until the server ends the response (the last chunk, or a close).
fn ended_within(stream: &mut TcpStream, limit: Duration) -> Duration {
    let start = Instant::now();
    stream
        .set_read_timeout(Some(limit + Duration::from_secs(2)))
        .expect("timeout");
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                seen.extend_from_slice(&buf[..n]);
                if seen.ends_with(b"\r\n0\r\n\r\n") {
                    break;
                }
            }
            Err(e) => panic!("the stream did not end: {e}"),
        }
    }
    start.elapsed()
}

#[test]
fn revoking_or_rotating_a_token_ends_its_streams_within_a_second() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    for (n, how) in ["DELETE", "POST"].iter().enumerate() {
        let ext = format!("user-{n}");
        let created = http.ok(
            "POST",
            "/v1/operator/players",
            OPERATOR_KEY,
            Some(&json!({ "external_id": ext })),
        );
        let token = created["token"].as_str().expect("token").to_owned();
        let table = open_table(&mut http, &token);
        let hello = json!({"type": "hello", "token": token});
        let mut ws = connect(addr, &table, &hello);
        send(
            &mut ws,
            &json!({"type": "sit", "id": "s", "seat": 0, "client_seed": "c"}),
        );
        assert_eq!(answer(&mut ws, "s")["type"], "ack");
        let mut watching = connect(addr, &table, &json!({"type": "hello"}));
        let mut events = sse(addr, &token, &format!("holdem:{table}"));

        let path = format!("/v1/operator/players/{ext}/token");
        let done = http
            .send(how, &path, Some(OPERATOR_KEY), &[], None)
            .expect("revoke");
        assert_eq!(done.status, 200, "{how} {path}: {}", done.body);
        let revoked = Instant::now();
        let (code, reason) = close_frame(&mut ws);
        assert_eq!(code, CloseCode::Policy, "{reason}");
        assert!(reason.contains("revoked"), "{reason}");
        assert!(
            revoked.elapsed() < Duration::from_secs(1),
            "{how}: closed after {:?}",
            revoked.elapsed()
        );
        let took = ended_within(&mut events, Duration::from_secs(1));
        assert!(
            took < Duration::from_secs(1),
            "{how}: SSE ended after {took:?}"
        );
        // The old token opens nothing more; a spectator watches on.
        let url = format!("ws://{addr}/v1/holdem/tables/{table}/ws");
        let (mut again, _) = tungstenite::connect(url).expect("handshake");
        again.send(Message::text(hello.to_string())).expect("hello");
        let refused = read(&mut again).expect("an answer");
        assert_eq!(refused["code"], "unauthorized", "{refused}");
        send(&mut watching, &json!({"type": "hello", "id": "still"}));
        assert_eq!(answer(&mut watching, "still")["type"], "ack");
    }
}

/// Where the WebSocket messages' JSON Schema is committed.
const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/holdem_ws.schema.json");

#[test]
fn the_committed_ws_schema_is_the_messages_own() {
    let generated = serde_json::to_string_pretty(&fairseed_holdem::live::wire::schema())
        .expect("schema")
        + "\n";
    if std::env::var_os("FAIRSEED_WRITE_SCHEMA").is_some() {
        std::fs::write(SCHEMA, &generated).expect("write the schema");
    }
    let committed = std::fs::read_to_string(SCHEMA).expect("the committed schema");
    assert!(
        committed == generated,
        "{SCHEMA} is not what fairseed_holdem::live::wire derives; \
         regenerate with FAIRSEED_WRITE_SCHEMA=1 cargo test -p fairseed-server --test holdem_abuse"
    );
    let schema: Value = serde_json::from_str(&committed).expect("JSON");
    let client = schema["$defs"]["ClientMessage"].to_string();
    for kind in [
        "hello",
        "sit",
        "act",
        "sit_out",
        "sit_in",
        "top_up",
        "leave",
        "hand_commit",
        "hand_reveal",
    ] {
        assert!(client.contains(&format!("\"{kind}\"")), "client {kind}");
    }
    let server = schema["$defs"]["ServerMessage"].to_string();
    for kind in [
        "event", "hand_end", "round", "state", "ack", "error", "backlog",
    ] {
        assert!(server.contains(&format!("\"{kind}\"")), "server {kind}");
    }
}

/// Plays `hands` hands at `table` for `token` (checking when free, else
/// folding), then leaves, which closes the table.
fn play_and_leave(addr: &str, table: &str, token: &str, hands: u64) {
    let mut ws = play(addr, table, token, hands);
    send(&mut ws, &json!({"type": "leave", "id": "bye"}));
    let left = answer(&mut ws, "bye");
    assert_eq!(left["type"], "ack", "{left}");
}

/// Plays `hands` hands at `table` for `token` (checking when free, else
/// folding); returns the socket, still seated.
fn play(addr: &str, table: &str, token: &str, hands: u64) -> Socket {
    let mut ws = connect(addr, table, &json!({"type": "hello", "token": token}));
    send(
        &mut ws,
        &json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "c"}),
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut n = 0;
    loop {
        assert!(Instant::now() < deadline, "{hands} hands not played");
        let m = read(&mut ws).expect("open");
        let t = &m["table"];
        if m["type"] != "state" {
            continue;
        }
        if t["hand"].is_null() && t["hands_played"].as_u64() >= Some(hands) {
            break;
        }
        if !t["hand"]["legal"].is_null() {
            let kind = if t["hand"]["legal"]["to_call"] == 0 {
                "check"
            } else {
                "fold"
            };
            n += 1;
            send(
                &mut ws,
                &json!({"type": "act", "id": format!("a{n}"), "action": {"kind": kind}}),
            );
        }
    }
    ws
}

#[test]
fn a_resume_from_far_back_sends_a_bounded_backlog_and_says_where_the_rest_is() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let token = new_player(&mut http);
    let table = open_table(&mut http, &token);
    // Some seven messages a hand, so well over 256 in all.
    let mut player = play(addr, &table, &token, 60);
    send(&mut player, &json!({"type": "sit_out", "id": "out"}));
    let url = format!("ws://{addr}/v1/holdem/tables/{table}/ws");
    let (mut ws, _) = tungstenite::connect(url).expect("handshake");
    ws.send(Message::text(
        json!({"type": "hello", "after": 0}).to_string(),
    ))
    .expect("hello");
    let first = read(&mut ws).expect("a message");
    assert_eq!(first["type"], "backlog", "{first}");
    assert_eq!(first["from"], 1, "{first}");
    let to = first["to"].as_u64().expect("to");
    assert!(to >= 60, "{first}");
    assert_eq!(
        first["hands"],
        format!("/v1/holdem/tables/{table}/hands?after=0"),
        "{first}"
    );
    let mut logged = 0;
    loop {
        let m = read(&mut ws).expect("a message");
        if m["type"] == "state" {
            break;
        }
        assert_eq!(m["seq"], to + 1 + logged, "{m}");
        logged += 1;
    }
    assert_eq!(logged, 256, "the newest 256 log messages, then the state");
}

#[test]
fn hands_are_paged_any_caller_reads_a_finished_hand_and_tables_are_capped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut o = options(dir.path());
    o.extra_args.extend(
        [
            "--holdem-max-tables-per-player",
            "2",
            "--holdem-max-tables",
            "3",
        ]
        .map(String::from),
    );
    let server = Server::start(&o);
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let player = new_player(&mut http);
    let stranger = new_player(&mut http);
    let table = open_table(&mut http, &player);
    play_and_leave(addr, &table, &player, 5);

    // Paged: every hand once, in order, whatever the page size.
    let hands_path = format!("/v1/holdem/tables/{table}/hands");
    let mut numbers = Vec::new();
    let mut after = 0;
    loop {
        let page = http.ok(
            "GET",
            &format!("{hands_path}?limit=2&after={after}"),
            &stranger,
            None,
        );
        let hands = page["hands"].as_array().expect("hands");
        assert!(hands.len() <= 2, "{page}");
        numbers.extend(hands.iter().map(|h| h["hand"].as_u64().expect("hand")));
        match page["next_after"].as_u64() {
            Some(next) => {
                assert!(next > after, "{page}");
                after = next;
            }
            None => break,
        }
    }
    assert!(numbers.len() >= 5, "{numbers:?}");
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
    let whole = http.ok("GET", &format!("{hands_path}?limit=100"), &player, None);
    assert_eq!(whole["hands"].as_array().map(Vec::len), Some(numbers.len()));
    assert!(whole["next_after"].is_null(), "{whole}");
    for bad in ["limit=0", "limit=101", "after=x", "page=1"] {
        let r = http
            .send(
                "GET",
                &format!("{hands_path}?{bad}"),
                Some(&player),
                &[],
                None,
            )
            .expect("answer");
        assert_eq!(r.status, 422, "{bad}: {}", r.body);
    }

    // Archived: the player's records; any player reads one by id.
    let mut records = Value::Null;
    common::wait_for("the hands archived", Duration::from_secs(30), || {
        records = http.ok("GET", "/v1/records", &player, None);
        records["records"].as_array().is_some_and(|r| !r.is_empty())
    });
    let id = records["records"][0]["id"].as_i64().expect("record id");
    let mine = http.ok("GET", &format!("/v1/records/{id}"), &player, None);
    let theirs = http.ok("GET", &format!("/v1/records/{id}"), &stranger, None);
    assert_eq!(mine, theirs);
    assert_eq!(theirs["scheme"], "holdem_hand_v1");
    let none = http
        .send("GET", "/v1/records/999999", Some(&stranger), &[], None)
        .expect("answer");
    assert_eq!(none.status, 404, "{}", none.body);

    // Caps: two per player, three in all.
    let opener = new_player(&mut http);
    let a = open_table(&mut http, &opener);
    let _b = open_table(&mut http, &opener);
    let body = json!({"scheme": "selfpoker_v2", "ais": [1], "seats": 2}).to_string();
    let third = http
        .send("POST", "/v1/holdem/tables", Some(&opener), &[], Some(&body))
        .expect("answer");
    assert_eq!(
        (third.status, third.json()["code"].clone()),
        (429, json!("too_many_tables")),
        "{}",
        third.body
    );
    let other = new_player(&mut http);
    let _c = open_table(&mut http, &other);
    let full = http
        .send("POST", "/v1/holdem/tables", Some(&other), &[], Some(&body))
        .expect("answer");
    assert_eq!(
        (full.status, full.json()["code"].clone()),
        (409, json!("tables_full")),
        "{}",
        full.body
    );

    // The operator sees them and closes one; its opener may open again.
    let listed = http.ok("GET", "/v1/operator/holdem/tables", OPERATOR_KEY, None);
    let open: Vec<&Value> = listed["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .filter(|t| t["status"] == "open")
        .collect();
    assert_eq!(open.len(), 3, "{listed}");
    assert!(
        open.iter()
            .any(|t| t["table_id"] == a.as_str() && t["opened_by"].is_i64()),
        "{listed}"
    );
    let refused = http
        .send(
            "GET",
            "/v1/operator/holdem/tables",
            Some(&opener),
            &[],
            None,
        )
        .expect("answer");
    assert_eq!(refused.status, 403);
    let closed = http.ok(
        "POST",
        &format!("/v1/operator/holdem/tables/{a}/close"),
        OPERATOR_KEY,
        None,
    );
    assert_eq!(closed["status"], "closed", "{closed}");
    let again = http
        .send(
            "POST",
            &format!("/v1/operator/holdem/tables/{a}/close"),
            Some(OPERATOR_KEY),
            &[],
            None,
        )
        .expect("answer");
    assert_eq!(again.status, 409, "{}", again.body);
    common::wait_for("a slot given back", Duration::from_secs(30), || {
        http.send("POST", "/v1/holdem/tables", Some(&opener), &[], Some(&body))
            .is_ok_and(|r| r.status == 201)
    });
}

/// The first message a refused socket gets: an `error`, or `None` if it
/// was served (a `state`).
fn refusal(addr: &str, table: &str, hello: &Value) -> Option<Value> {
    let url = format!("ws://{addr}/v1/holdem/tables/{table}/ws");
    let (mut socket, _) = tungstenite::connect(url).expect("WebSocket handshake");
    socket
        .send(Message::text(hello.to_string()))
        .expect("hello");
    let m = read(&mut socket).expect("an answer to the hello");
    (m["type"] == "error").then_some(m)
}

/// Spectators from one address fill their few places, and the seated
/// player's own socket is served all the same (docs/api.md): no crowd of
/// watchers locks a player out of the table they sit at.
#[test]
fn spectators_are_capped_and_a_seated_players_socket_always_gets_a_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let token = new_player(&mut http);
    let table = open_table(&mut http, &token);
    let mut seated = connect(addr, &table, &json!({"type": "hello", "token": token}));
    send(
        &mut seated,
        &json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "c"}),
    );
    assert_eq!(answer(&mut seated, "sit")["type"], "ack");
    let spectator = json!({"type": "hello"});
    let watching: Vec<Socket> = (0..4).map(|_| connect(addr, &table, &spectator)).collect();
    let refused = refusal(addr, &table, &spectator).expect("the address is full");
    assert_eq!(refused["code"], "too_many_streams", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .is_some_and(|m| m.contains("from your address")),
        "{refused}"
    );
    let own = refusal(addr, &table, &json!({"type": "hello", "token": token}));
    assert_eq!(own, None, "the seated player's second socket is served");
    drop(watching);
}

/// Closing is never a veto: while the round of the next hand is open the
/// operator's close is refused with `409 round_open` (docs/spec.md §17.4),
/// and the table plays on.
#[test]
fn the_operators_close_waits_out_an_open_round() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&options(dir.path()));
    let addr = server.addr.as_str();
    let mut http = Client::new(addr);
    let token = new_player(&mut http);
    let created = http.ok(
        "POST",
        "/v1/holdem/tables",
        &token,
        Some(&json!({"ais": [1], "seats": 2})),
    );
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let mut ws = connect(addr, &table, &json!({"type": "hello", "token": token}));
    send(
        &mut ws,
        &json!({"type": "sit", "id": "sit", "seat": 0, "client_seed": "c"}),
    );
    assert_eq!(answer(&mut ws, "sit")["type"], "ack");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "no round opened");
        let m = read(&mut ws).expect("open");
        if m["type"] == "round" && m["notice"]["kind"] == "opened" {
            break;
        }
    }
    // The person has not committed: the round is open for its phase.
    let path = format!("/v1/operator/holdem/tables/{table}/close");
    let refused = http
        .send("POST", &path, Some(OPERATOR_KEY), &[], None)
        .expect("an answer");
    assert_eq!(refused.status, 409, "{}", refused.body);
    let body: Value = serde_json::from_str(&refused.body).expect("JSON");
    assert_eq!(body["code"], "round_open", "{body}");
    let view = http.ok("GET", &format!("/v1/holdem/tables/{table}"), &token, None);
    assert_eq!(view["closed"], false, "{view}");
}

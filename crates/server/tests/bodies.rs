//! Malformed input through the real binary, over real TCP: every
//! endpoint of the served OpenAPI document gets malformed JSON, wrong
//! types, huge numbers, missing fields, bad path and query values, bad
//! headers and bodies over the size limit. What reaches the application is
//! always answered with a 4xx JSON `{code, message}`, never a 5xx; the
//! process never dies; what malformed requests did not refuse leaves the
//! ledger consistent. HTTP that cannot even be parsed as a request is
//! refused by the HTTP layer without killing the server. The per-token rate
//! limit answers 429 with `Retry-After` and acts on nothing. Random path
//! tails and query strings after every resource prefix get the same 4xx.

mod common;

use common::http::{raw_exchange, Answer, Client};
use common::ledger::check_player;
use common::server::{dump, Options, Server};
use common::{new_player, wait_for, OPERATOR_KEY};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Map, Value};

/// `(method, path)` of every operation in the served OpenAPI document, and
/// every property name its schemas mention.
fn documented_api(c: &mut Client) -> (Vec<(String, String)>, Vec<String>) {
    let doc = c
        .send("GET", "/v1/openapi.json", None, &[], None)
        .expect("openapi")
        .json();
    let mut routes = Vec::new();
    for (path, ops) in doc["paths"].as_object().expect("paths") {
        for method in ops.as_object().expect("operations").keys() {
            if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                routes.push((method.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    assert!(routes.len() >= 12, "the document lists the API: {routes:?}");
    let mut names = std::collections::BTreeSet::new();
    let mut stack = vec![&doc];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::Object(props)) = m.get("properties") {
                    names.extend(props.keys().cloned());
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    assert!(
        names.contains("amount") && names.contains("client_seed"),
        "{names:?}"
    );
    (routes, names.into_iter().collect())
}

/// Real resources for the fuzz to aim at, so it reaches past 404 and past
/// the commitment check: ids for path parameters (a table-game match, a
/// selfpoker hand, a chess seed, a poker table) and the commitments a
/// caller was shown (the player's dice pair, the match, the chess seed, the
/// table's session).
struct Real {
    ids: Vec<String>,
    commitments: Vec<String>,
}

fn real_resources(c: &mut Client, player: &str) -> Real {
    let mut real = Real {
        ids: Vec::new(),
        commitments: Vec::new(),
    };
    let seeds = c
        .send("GET", "/v1/seeds", Some(player), &[], None)
        .expect("seeds");
    real.commitments
        .extend(seeds.json()["commitment"].as_str().map(String::from));
    for (path, token, body, id) in [
        (
            "/v1/matches",
            OPERATOR_KEY,
            r#"{"game": "tarneeb"}"#,
            "match_id",
        ),
        (
            "/v1/selfpoker/hands",
            player,
            r#"{"players": 4}"#,
            "hand_id",
        ),
        ("/v1/chess/seeds", player, "{}", "seed_id"),
        ("/v1/poker/tables", OPERATOR_KEY, "{}", "table_id"),
    ] {
        let a = c
            .send("POST", path, Some(token), &[], Some(body))
            .expect(path);
        assert_eq!(a.status, 201, "{path}: {}", a.body);
        let v = a.json();
        real.ids.extend(v[id].as_str().map(String::from));
        real.commitments
            .extend(v["commitment"].as_str().map(String::from));
    }
    assert_eq!(real.ids.len(), 4, "every resource has an id");
    real
}

/// An error answer of the application: 4xx, JSON, `code` and `message`.
fn check_answer(what: &str, a: &Answer) -> Result<(), TestCaseError> {
    prop_assert!(a.status < 500, "{what}: {} {}", a.status, a.body);
    if a.status >= 400 {
        let v: Value = serde_json::from_str(&a.body).map_err(|_| {
            TestCaseError::fail(format!("{what}: {} not JSON: {}", a.status, a.body))
        })?;
        prop_assert!(
            v["code"].is_string() && v["message"].is_string(),
            "{what}: {} {v}",
            a.status
        );
        prop_assert!(v.get("field").is_none_or(Value::is_string), "{what}: {v}");
    }
    Ok(())
}

/// Values that are wrong for some field: types, signs, sizes, encodings.
fn odd_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        Just(json!(18_446_744_073_709_551_616_u128)),
        Just(json!(9_007_199_254_740_992_u64)),
        Just(serde_json::from_str::<Value>("1e400").unwrap_or(Value::Null)),
        Just(serde_json::from_str::<Value>("-0").unwrap_or(Value::Null)),
        Just(json!(
            340_282_366_920_938_463_463_374_607_431_768_211_455_u128
        )),
        Just(json!("under")),
        Just(json!("over")),
        prop::sample::select(vec![
            "deal",
            "opening",
            "roll",
            "first",
            "second",
            "hand",
            "tile",
            "tarneeb",
            "backgammon",
            "mahjong",
            "baloot"
        ])
        .prop_map(Value::from),
        Just(json!(["a", "b", "c", "d"])),
        Just(json!("0".repeat(64))),
        Just(json!("é".repeat(40))),
        Just(json!("a\u{0}b")),
        ".{0,70}".prop_map(Value::from),
        (0u64..10_000).prop_map(Value::from),
        Just(json!([])),
        Just(json!({})),
    ]
}

/// An object built from the field names the API documents (harvested from
/// the served OpenAPI document, so new endpoints are covered as they land),
/// each present or not, with a value that may be right or wrong.
fn near_miss_object(names: Vec<String>) -> impl Strategy<Value = Value> {
    let n = names.len();
    (
        prop::sample::subsequence(names, 0..=n.min(6)),
        prop::collection::vec(odd_value(), 6),
        prop::option::of(("[a-z_]{1,12}", odd_value())),
    )
        .prop_map(|(keys, values, extra)| {
            let mut m: Map<String, Value> = keys.into_iter().zip(values).collect();
            if let Some((k, v)) = extra {
                m.insert(k, v);
            }
            Value::Object(m)
        })
}

fn body(names: Vec<String>, commitments: Vec<String>) -> impl Strategy<Value = Option<Vec<u8>>> {
    prop_oneof![
        Just(None),
        // A body right but for one part, with a commitment the caller was
        // really shown, so it passes the JSON layer and the commitment check.
        (
            near_miss_object(names.clone()),
            prop::sample::select(commitments)
        )
            .prop_map(|(mut v, commitment)| {
                v["commitment"] = json!(commitment);
                Some(v.to_string().into_bytes())
            }),
        near_miss_object(names).prop_map(|v| Some(v.to_string().into_bytes())),
        odd_value().prop_map(|v| Some(v.to_string().into_bytes())),
        prop::collection::vec(any::<u8>(), 0..300).prop_map(Some),
        "[{}\\[\\]\":,0-9a-z .eE+-]{0,120}".prop_map(|s| Some(s.into_bytes())),
        (1usize..20_000)
            .prop_map(|n| Some(format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes())),
        (1usize..20_000).prop_map(|n| Some("[".repeat(n).into_bytes())),
        Just(Some(
            b"\xef\xbb\xbf{\"amount\": 1, \"condition\": \"under\", \"target\": 50}".to_vec()
        )),
        Just(Some(
            b"{\"amount\": 1, \"amount\": 2, \"condition\": \"under\", \"target\": 50}".to_vec()
        )),
        Just(Some(
            b"{\"amount\": 1, \"condition\": \"under\", \"target\": 50} trailing".to_vec()
        )),
        Just(Some(
            format!("{{\"amount\": 1{}}}", "0".repeat(5000)).into_bytes()
        )),
    ]
}

/// A request: route, method override, path parameter, query, headers, body.
#[derive(Debug, Clone)]
struct Case {
    route: prop::sample::Index,
    other_method: Option<&'static str>,
    param: String,
    query: &'static str,
    auth: usize,
    content_type: Option<&'static str>,
    key: Option<String>,
    body: Option<Vec<u8>>,
}

fn case(names: Vec<String>, real: Real) -> impl Strategy<Value = Case> {
    let mut params: Vec<String> = real.ids;
    params.extend(
        [
            "1",
            "0",
            "-1",
            "99999999999999999999999",
            "abc",
            "%00",
            "..%2F..",
            "1.5",
            "%F0%9F%98%80",
            "%ff",
        ]
        .map(String::from),
    );
    (
        any::<prop::sample::Index>(),
        prop::option::weighted(
            0.15,
            prop::sample::select(vec!["GET", "POST", "PUT", "DELETE", "PATCH"]),
        ),
        prop::sample::select(params),
        prop::sample::select(vec![
            "",
            "?limit=0",
            "?limit=501",
            "?limit=abc",
            "?before=-9223372036854775809",
            "?before=x",
            "?pair_id=x",
            "?unknown=1",
            "?limit=1&limit=2",
            "?limit=%ff",
        ]),
        0usize..7,
        prop::option::weighted(
            0.8,
            prop::sample::select(vec![
                "application/json",
                "text/plain",
                "application/json; charset=utf-8",
                "application/jsonx",
                "",
                "multipart/form-data; boundary=x",
            ]),
        ),
        prop::option::weighted(
            0.8,
            prop_oneof![
                "[!-~]{1,20}",
                Just(String::new()),
                Just("a".repeat(129)),
                Just("a b".to_owned()),
            ],
        ),
        body(names, real.commitments),
    )
        .prop_map(
            |(route, other_method, param, query, auth, content_type, key, body)| Case {
                route,
                other_method,
                param,
                query,
                auth,
                content_type,
                key,
                body,
            },
        )
}

/// The raw request of `case` (bytes, since some headers are not valid text).
fn raw_request(
    addr: &str,
    routes: &[(String, String)],
    player: &str,
    case: &Case,
) -> (String, Vec<u8>) {
    let (method, path) = case.route.get(routes);
    let method = case.other_method.unwrap_or(method);
    let path = path
        .split('/')
        .map(|seg| {
            if seg.starts_with('{') {
                case.param.as_str()
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    let target = format!("{path}{}", case.query);
    let mut req =
        format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n").into_bytes();
    let auth: Option<Vec<u8>> = match case.auth {
        0 => None,
        1 | 2 => Some(format!("Bearer {player}").into_bytes()),
        3 => Some(format!("Bearer {OPERATOR_KEY}").into_bytes()),
        4 => Some(b"Bearer \xff\xfe".to_vec()),
        5 => Some(format!("Bearer {}", "f".repeat(300)).into_bytes()),
        _ => Some(b"Basic dXNlcjpwYXNz".to_vec()),
    };
    if let Some(auth) = auth {
        req.extend_from_slice(b"Authorization: ");
        req.extend_from_slice(&auth);
        req.extend_from_slice(b"\r\n");
    }
    if let Some(ct) = case.content_type {
        req.extend_from_slice(format!("Content-Type: {ct}\r\n").as_bytes());
    }
    if let Some(key) = &case.key {
        req.extend_from_slice(format!("Idempotency-Key: {key}\r\n").as_bytes());
    }
    let body = case.body.clone().unwrap_or_default();
    req.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    req.extend_from_slice(&body);
    (format!("{method} {target}"), req)
}

#[test]
fn malformed_requests_at_every_documented_endpoint_get_4xx_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = Server::start(&Options::new(dir.path()));
    let addr = server.addr.clone();
    let mut c = Client::new(&addr);
    let (routes, names) = documented_api(&mut c);
    let player = new_player(&mut c);
    let real = real_resources(&mut c, &player);
    eprintln!(
        "{} documented operations, {} field names, real ids {:?}",
        routes.len(),
        names.len(),
        real.ids
    );

    let mut runner = TestRunner::new(Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&case(names, real), |case| {
        let (what, req) = raw_request(&addr, &routes, &player, &case);
        let answer = raw_exchange(&addr, &req)
            .map_err(|e| TestCaseError::fail(format!("{what}: no answer: {e}")))?
            .ok_or_else(|| TestCaseError::fail(format!("{what}: closed without an answer")))?;
        check_answer(&what, &answer)
    });
    let alive = server.alive();
    if let Err(e) = result {
        panic!(
            "{e}\nserver alive: {alive}\nserver output:\n{}",
            dump(&server.lines())
        );
    }
    assert!(alive, "the server survived:\n{}", dump(&server.lines()));
    let health = c.send("GET", "/healthz", None, &[], None).expect("health");
    assert_eq!(health.status, 200);
    // Whatever the fuzz did manage to do (valid bets, rotations) adds up.
    check_player(&mut c, &player);
    let errors: Vec<_> = server
        .lines()
        .into_iter()
        .filter(|(_, l)| l.contains("ERROR") || l.contains("panicked"))
        .collect();
    assert!(
        errors.is_empty(),
        "no internal error was logged:\n{}",
        dump(&errors)
    );
}

/// Random path tails and query strings after every resource prefix, as the
/// player and as the operator: what parses as a URI gets a 4xx JSON error or
/// a success, never a 5xx.
#[test]
fn random_paths_and_queries_get_4xx_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = Server::start(&Options::new(dir.path()));
    let addr = server.addr.clone();
    let mut c = Client::new(&addr);
    let player = new_player(&mut c);
    let bases = [
        "/v1/records/",
        "/v1/records?",
        "/v1/dice/bets?",
        "/v1/seeds/revealed?",
        "/v1/operator/records/",
        "/v1/matches/",
        "/v1/selfpoker/hands/",
        "/v1/chess/games/",
        "/v1/chess/seeks/",
        "/v1/poker/tables/",
        "/v1/",
    ];
    let mut runner = TestRunner::new(Config {
        cases: 96,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        "[a-zA-Z0-9%._~=&?/-]{0,40}",
        prop::sample::select(vec!["GET", "POST", "PUT"]),
        any::<bool>(),
    );
    let result = runner.run(&strategy, |(tail, method, as_operator)| {
        let token = if as_operator { OPERATOR_KEY } else { &player };
        for base in bases {
            let path = format!("{base}{tail}");
            if path.parse::<axum::http::Uri>().is_err() || path.starts_with("/v1/events") {
                continue;
            }
            let req = format!(
                "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Length: 0\r\n\r\n"
            );
            let what = format!("{method} {path}");
            let answer = raw_exchange(&addr, req.as_bytes())
                .map_err(|e| TestCaseError::fail(format!("{what}: no answer: {e}")))?
                .ok_or_else(|| TestCaseError::fail(format!("{what}: closed without an answer")))?;
            check_answer(&what, &answer)?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\nserver output:\n{}", dump(&server.lines()));
    }
    assert!(server.alive(), "the server survived");
}

#[test]
fn oversized_and_unparseable_http_never_takes_the_server_down() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = Server::start(&Options::new(dir.path()));
    let addr = server.addr.clone();
    let mut c = Client::new(&addr);
    let token = new_player(&mut c);
    let big = format!(
        "{{\"client_seed\": \"{}\", \"amount\": 1, \"condition\": \"under\", \"target\": 50}}",
        "a".repeat(70 * 1024)
    );
    // Bodies over 64 KiB where a JSON body is read: 413 payload_too_large.
    for (method, path) in [("PUT", "/v1/seeds/client"), ("POST", "/v1/dice/bets")] {
        let a = c
            .send(
                method,
                path,
                Some(&token),
                &[("Idempotency-Key", "big")],
                Some(&big),
            )
            .expect("big body");
        assert_eq!(a.status, 413, "{method} {path}: {}", a.body);
        assert_eq!(a.json()["code"], "payload_too_large");
        c = Client::new(&addr);
    }
    let chunk = "a".repeat(8192);
    let mut chunked = format!(
        "POST /v1/dice/bets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nIdempotency-Key: chunked\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    for _ in 0..10 {
        chunked.push_str(&format!("{:x}\r\n{chunk}\r\n", chunk.len()));
    }
    chunked.push_str("0\r\n\r\n");
    let a = raw_exchange(&addr, chunked.as_bytes())
        .expect("io")
        .expect("answer");
    assert_eq!(a.status, 413, "chunked 80 KiB: {}", a.body);
    assert_eq!(a.json()["code"], "payload_too_large");
    // Not HTTP, or HTTP the parser refuses: an HTTP-level 4xx or a closed
    // connection (the application never sees it), never a 5xx.
    let garbage: Vec<Vec<u8>> = vec![
        b"GARBAGE\r\n\r\n".to_vec(),
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03".to_vec(),
        format!("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(1024 * 1024)).into_bytes(),
        b"POST /v1/dice/bets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".to_vec(),
        b"POST /v1/dice/bets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n".to_vec(),
        b"POST /v1/dice/bets HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n".to_vec(),
        b"GET /v1/\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
        b"GET /healthz HTTP/9.9\r\n\r\n".to_vec(),
        b"GET /healthz HTTP/1.1\r\nBad Header\r\n\r\n".to_vec(),
        format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(100 * 1024)).into_bytes(),
    ];
    for req in &garbage {
        let shown = String::from_utf8_lossy(&req[..req.len().min(60)]).into_owned();
        if let Some(a) = raw_exchange(&addr, req).expect("io") {
            assert!(a.status < 500, "{shown:?}: {} {}", a.status, a.body);
        }
        assert!(server.alive(), "{shown:?} killed the server");
    }
    let health = c.send("GET", "/healthz", None, &[], None).expect("health");
    assert_eq!(health.status, 200, "still serving");
    check_player(&mut c, &token);
}

#[test]
fn per_token_rate_limit_answers_429_and_acts_on_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut opts = Options::new(dir.path());
    opts.rate_limit = 5; // burst 10
    let server = Server::start(&opts);
    let mut c = Client::new(&server.addr);
    let a = new_player(&mut c);
    let b = new_player(&mut c);
    let mut placed = 0;
    let mut limited = Vec::new();
    for i in 0..40 {
        let key = format!("rl-{i}");
        let r = c
            .send(
                "POST",
                "/v1/dice/bets",
                Some(&a),
                &[("Idempotency-Key", &key)],
                Some(r#"{"amount": 1, "condition": "under", "target": 5000}"#),
            )
            .expect("bet");
        match r.status {
            200 => placed += 1,
            429 => limited.push(r),
            other => panic!("unexpected {other}: {}", r.body),
        }
    }
    assert!(
        !limited.is_empty(),
        "40 requests at once exceed 5/s with a burst of 10"
    );
    assert!(placed >= 10, "the burst passes: {placed}");
    for r in &limited {
        assert_eq!(r.json()["code"], "rate_limited");
        let retry: u64 = r
            .header("retry-after")
            .expect("Retry-After")
            .parse()
            .expect("Retry-After in seconds");
        assert!(retry >= 1);
    }
    // Another token has its own bucket.
    let other = c.send("GET", "/v1/me", Some(&b), &[], None).expect("me");
    assert_eq!(other.status, 200, "{}", other.body);
    // The bucket refills; a refused request used no nonce: the pair counts
    // only placed bets.
    let mut seeds = None;
    wait_for(
        "the token's bucket to refill",
        std::time::Duration::from_secs(5),
        || {
            let r = c
                .send("GET", "/v1/seeds", Some(&a), &[], None)
                .expect("seeds");
            assert!(matches!(r.status, 200 | 429), "{}", r.body);
            seeds = Some(r).filter(|r| r.status == 200);
            seeds.is_some()
        },
    );
    let seeds = seeds.expect("answered 200");
    assert_eq!(seeds.json()["next_nonce"], json!(placed));
}

/// A declared body over the limit is refused from its headers, at once,
/// instead of holding the connection open waiting for bytes that a client
/// (or an attacker) never sends.
#[test]
fn declared_oversize_body_is_refused_without_waiting() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&Options::new(dir.path()));
    let mut c = Client::new(&server.addr);
    let token = new_player(&mut c);
    let started = std::time::Instant::now();
    let lying = format!(
        "POST /v1/dice/bets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nIdempotency-Key: lying\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{{}}"
    );
    let answer = raw_exchange(&server.addr, lying.as_bytes());
    let waited = started.elapsed();
    let a = answer
        .unwrap_or_else(|e| {
            panic!("no answer after {waited:?} to Content-Length: 99999999999 ({e})")
        })
        .expect("an answer");
    assert_eq!(a.status, 413, "{}", a.body);
    assert_eq!(a.json()["code"], "payload_too_large");
}

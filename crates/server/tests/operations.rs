//! Operations through the real binary: plain-text logs without ANSI codes
//! when stdout is not a terminal, JSON logs on request, one access line per
//! request that never carries a token or a seed, and `/metrics` in the
//! Prometheus text format.

mod common;

use std::time::{Duration, Instant};

use common::http::Client;
use common::server::{Options, Server};

/// Waits (at most 10 s) until some captured line satisfies `found`.
fn wait_for_line(server: &Server, what: &str, found: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some((_, line)) = server.lines().into_iter().find(|(_, l)| found(l)) {
            return line;
        }
        assert!(
            Instant::now() < deadline,
            "no log line with {what}:\n{}",
            common::server::dump(&server.lines())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A player sets a client seed with a recognisable value; returns (token, seed).
fn secret_traffic(c: &mut Client) -> (String, String) {
    let token = common::new_player(c);
    let pair = c
        .send("GET", "/v1/seeds", Some(&token), &[], None)
        .expect("seeds")
        .json();
    let seed = "distinctive-client-seed-4711".to_owned();
    let body = serde_json::json!({"client_seed": seed, "commitment": pair["commitment"]});
    let put = c
        .send(
            "PUT",
            "/v1/seeds/client",
            Some(&token),
            &[("X-Request-Id", "trace-me-1")],
            Some(&body.to_string()),
        )
        .expect("set seed");
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.header("x-request-id"), Some("trace-me-1"));
    (token, seed)
}

#[test]
fn text_logs_are_plain_and_access_lines_hold_no_secret() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut opts = Options::new(dir.path());
    opts.log = "info";
    let server = Server::start(&opts);
    let mut c = Client::new(&server.addr);
    let (token, seed) = secret_traffic(&mut c);
    let line = wait_for_line(&server, "the access line", |l| l.contains("trace-me-1"));
    for part in ["PUT", "/v1/seeds/client", "200", "request_id"] {
        assert!(line.contains(part), "{part} missing from {line}");
    }
    let lines = server.lines();
    assert!(
        lines.iter().all(|(_, l)| !l.contains('\u{1b}')),
        "ANSI escapes in a log written to a pipe"
    );
    for (_, l) in &lines {
        assert!(!l.contains(&token), "a token in the log: {l}");
        assert!(!l.contains(&seed), "a client seed in the log: {l}");
    }
}

#[test]
fn json_logs_are_one_object_per_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut opts = Options::new(dir.path());
    opts.log = "info";
    opts.extra_args = vec!["--log-format".into(), "json".into()];
    let server = Server::start(&opts);
    let mut c = Client::new(&server.addr);
    secret_traffic(&mut c);
    let line = wait_for_line(&server, "the access line", |l| l.contains("trace-me-1"));
    let v: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
    assert_eq!(v["method"], "PUT");
    assert_eq!(v["route"], "/v1/seeds/client");
    assert_eq!(v["status"], 200);
    assert_eq!(v["request_id"], "trace-me-1");
    assert!(v["ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{v}");
}

#[test]
fn metrics_report_bets_latency_wal_and_connections() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&Options::new(dir.path()));
    let mut c = Client::new(&server.addr);
    let token = common::new_player(&mut c);
    let bet = r#"{"amount": 1, "condition": "under", "target": 5000}"#;
    for i in 0..3 {
        let key = format!("k{i}");
        let a = c
            .send(
                "POST",
                "/v1/dice/bets",
                Some(&token),
                &[("Idempotency-Key", &key)],
                Some(bet),
            )
            .expect("bet");
        assert_eq!(a.status, 200, "{}", a.body);
    }
    let m = c
        .send("GET", "/metrics", Some(common::OPERATOR_KEY), &[], None)
        .expect("metrics");
    assert_eq!(m.status, 200);
    assert!(m
        .header("content-type")
        .is_some_and(|t| t.starts_with("text/plain")));
    let value = |name: &str| -> f64 {
        m.body
            .lines()
            .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} missing:\n{}", m.body))
    };
    assert_eq!(value("fairseed_bets_total"), 3.0);
    assert!(value("fairseed_connections") >= 1.0);
    assert!(value("fairseed_sqlite_wal_file_bytes") > 0.0);
    value("fairseed_sqlite_checkpoints_total");
    value("fairseed_rate_limited_total");
    value("fairseed_event_streams");
    let route = r#"route="POST /v1/dice/bets""#;
    assert_eq!(
        value(&format!(
            "fairseed_http_request_duration_seconds_bucket{{{route},le=\"+Inf\"}}"
        )),
        3.0
    );
    assert_eq!(
        value(&format!(
            "fairseed_http_request_duration_seconds_count{{{route}}}"
        )),
        3.0
    );
}

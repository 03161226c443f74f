//! Fair limits through the real binary (so each request has a client
//! address): account creation and unknown tokens are limited per address
//! with `429` and `Retry-After`, and `--signup operator` closes anonymous
//! signup.

mod common;

use common::http::{Answer, Client};
use common::server::{Options, Server};

fn server(dir: &std::path::Path, args: &[&str]) -> Server {
    let mut opts = Options::new(dir);
    opts.rate_limit = 100;
    opts.extra_args = args.iter().map(|a| (*a).to_owned()).collect();
    Server::start(&opts)
}

fn retry_after(a: &Answer) -> u64 {
    assert_eq!(a.status, 429, "{}", a.body);
    assert_eq!(a.json()["code"], "rate_limited");
    a.header("retry-after")
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no numeric Retry-After on a 429: {:?}", a.headers))
}

#[test]
fn account_creation_is_limited_per_address() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 6 a minute: a burst of 5, then one every 10 s.
    let server = server(dir.path(), &["--signups-per-minute", "6"]);
    let mut c = Client::new(&server.addr);
    let statuses: Vec<u16> = (0..5)
        .map(|_| {
            c.send("POST", "/v1/players", None, &[], None)
                .expect("signup")
                .status
        })
        .collect();
    assert_eq!(statuses, [201; 5]);
    let refused = c
        .send("POST", "/v1/players", None, &[], None)
        .expect("signup");
    let wait = retry_after(&refused);
    assert!((1..=10).contains(&wait), "Retry-After {wait}");
}

#[test]
fn unknown_tokens_are_limited_per_address() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 60 a minute: a burst of 15.
    let server = server(dir.path(), &["--auth-failures-per-minute", "60"]);
    let mut c = Client::new(&server.addr);
    let token = common::new_player(&mut c);
    let mut statuses = Vec::new();
    let mut last = None;
    for i in 0..40 {
        let guess = format!("guessed-token-{i:04}");
        let a = c
            .send("GET", "/v1/me", Some(&guess), &[], None)
            .expect("me");
        statuses.push(a.status);
        last = Some(a);
    }
    let unknown = statuses.iter().filter(|s| **s == 401).count();
    assert_eq!(unknown, 15, "the burst, then refusals: {statuses:?}");
    assert!(statuses[15..].iter().all(|s| *s == 429), "{statuses:?}");
    retry_after(&last.expect("answers"));
    // The same guess again is refused from memory, not looked up.
    let again = c
        .send("GET", "/v1/me", Some("guessed-token-0000"), &[], None)
        .expect("me");
    assert_eq!(again.status, 429);
    // A real token is cached from its creation: it still works.
    let me = c
        .send("GET", "/v1/me", Some(&token), &[], None)
        .expect("me");
    assert_eq!(me.status, 200, "{}", me.body);
    // Wrong operator keys count too.
    let op = c
        .send(
            "GET",
            "/v1/operator/records/export",
            Some("not-the-operator-key"),
            &[],
            None,
        )
        .expect("op");
    assert_eq!(op.status, 429, "{}", op.body);
}

#[test]
fn operator_signup_mode_refuses_anonymous_accounts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = server(dir.path(), &["--signup", "operator"]);
    let mut c = Client::new(&server.addr);
    let a = c
        .send("POST", "/v1/players", None, &[], None)
        .expect("signup");
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(a.json()["code"], "signup_closed");
}

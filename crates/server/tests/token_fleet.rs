//! Regression, through the real binary: two `fairseed serve` processes on
//! one PostgreSQL. A token revoked or rotated on one process stops
//! authenticating on the other within about a second, although the other
//! had just cached it (the revocation travels with the cross-process
//! events and empties every process's token cache).
//!
//! Needs `FAIRSEED_TEST_DB_URI` (e.g. postgres://postgres@127.0.0.1:5432/test);
//! runs in a fresh schema dropped afterwards. Without it the test says
//! `SKIPPED` on stderr, and fails if `FAIRSEED_REQUIRE_POSTGRES=1`.

mod common;

use std::time::{Duration, Instant};

use common::http::Client;
use common::pg::{postgres_or_skip, ServerDatabase};
use common::server::{Options, Server};
use common::{wait_for, OPERATOR_KEY};
use serde_json::json;

/// How soon the other process must refuse the old token.
const WITHIN: Duration = Duration::from_millis(1500);

/// The status `GET /v1/me` answers at `addr` for `token`.
fn me(addr: &str, token: &str) -> u16 {
    Client::new(addr)
        .send("GET", "/v1/me", Some(token), &[], None)
        .expect("GET /v1/me")
        .status
}

#[test]
fn a_token_revoked_on_one_process_is_refused_by_the_other_within_a_second() {
    let Some(url) = postgres_or_skip("token fleet") else {
        return;
    };
    let db = ServerDatabase::create(&url);
    let mut opts = Options::new(db.dir.path());
    opts.database = Some(&db.url);
    let a = Server::start(&opts);
    let b = Server::start(&opts);
    let mut operator = Client::new(&a.addr);
    for (n, how) in ["DELETE", "POST"].iter().enumerate() {
        let ext = format!("fleet-user-{n}");
        let created = operator.ok(
            "POST",
            "/v1/operator/players",
            OPERATOR_KEY,
            Some(&json!({ "external_id": ext })),
        );
        let token = created["token"].as_str().expect("token").to_owned();
        // B authenticates the token twice: the second answer comes from its cache.
        assert_eq!(me(&b.addr, &token), 200);
        assert_eq!(me(&b.addr, &token), 200);

        let path = format!("/v1/operator/players/{ext}/token");
        let done = operator
            .send(how, &path, Some(OPERATOR_KEY), &[], None)
            .expect("revoke");
        assert_eq!(done.status, 200, "{how} {path}: {}", done.body);
        let revoked = Instant::now();
        assert_eq!(
            me(&a.addr, &token),
            401,
            "{how}: on the process that revoked"
        );
        wait_for(&format!("{how}: B refuses the old token"), WITHIN, || {
            me(&b.addr, &token) == 401
        });
        eprintln!(
            "{how}: B refused the old token after {:?}",
            revoked.elapsed()
        );
    }
}

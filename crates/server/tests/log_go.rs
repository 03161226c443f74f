//! Interoperability of the served log: Go's `golang.org/x/mod/sumdb/note` and
//! `sumdb/tlog` (through `crates/tlog/interop/verify.go`) read the checkpoint,
//! key, hash tiles and entry bundles the real binary serves over HTTP, and
//! check the inclusion proofs of its receipts.
//!
//! Needs `go` and the x/mod sources in GOPATH mode (Debian: `golang-go`,
//! `golang-golang-x-mod-dev`; `FAIRSEED_GOPATH` overrides `/usr/share/gocode`).
//! Without them the test is skipped visibly (`tests/support/skip.rs`), or
//! fails under `FAIRSEED_REQUIRE_GO=1`.

mod common;
#[path = "../../tlog/interop/go.rs"]
mod go;

use common::skip;

use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use common::http::Client;
use common::load::{bet, bet_body, Sent};
use common::raw::get_ok;
use common::server::{Options, Server};
use common::{new_player, wait_for};
use fairseed_tlog::{new_entry_bundles, new_hash_tiles, parse_checkpoint};
use serde_json::Value;

/// The body of a `200` GET, bytes as served.
fn fetch(addr: &str, path: &str) -> Vec<u8> {
    get_ok(addr, path).1
}

fn save(dir: &Path, name: &str, data: &[u8]) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("under dir")).expect("mkdir");
    std::fs::write(path, data).expect("write");
}

/// Copies the served log into `dir` as verify.go reads it; the tree size.
fn mirror(addr: &str, dir: &Path, receipts: &[Value]) -> u64 {
    let note = fetch(addr, "/log/checkpoint");
    let text = String::from_utf8(note.clone()).expect("utf-8");
    let body = text.split("\n\n").next().expect("body");
    let size = parse_checkpoint(&format!("{body}\n"))
        .expect("checkpoint")
        .size();
    save(dir, "checkpoint", &note);
    save(dir, "key", &fetch(addr, "/log/key"));
    for tile in new_hash_tiles(0, size)
        .into_iter()
        .chain(new_entry_bundles(0, size))
    {
        save(
            dir,
            &tile.path(),
            &fetch(addr, &format!("/log/{}", tile.path())),
        );
    }
    let mut c = Client::new(addr);
    let mut proofs = String::new();
    for receipt in receipts {
        let hash = receipt["entry_hash"].as_str().expect("hash");
        let full = c.ok("GET", &format!("/log/receipts/{hash}"), "", None);
        let proof: Vec<&str> = full["inclusion_proof"]
            .as_array()
            .expect("sequenced")
            .iter()
            .map(|h| h.as_str().expect("b64"))
            .collect();
        proofs += &format!(
            "inclusion {} {} {}\n",
            full["leaf_index"],
            full["entry"].as_str().expect("entry"),
            proof.join(",")
        );
    }
    save(dir, "proofs", proofs.as_bytes());
    size
}

#[test]
fn go_sumdb_reads_the_served_log() {
    let Some(gopath) = go::sumdb_gopath("go_sumdb_reads_the_served_log") else {
        return;
    };
    let data = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&Options::new(data.path()));
    let mut c = Client::new(&server.addr);
    let mut receipts = Vec::new();
    // Over 256 entries: one full leaf tile, an immutable bundle, and partial ones.
    for p in 0..3 {
        let token = new_player(&mut c);
        for b in 0..100 {
            let sent = Sent {
                token: token.clone(),
                key: format!("go-{b}"),
                body: bet_body(p, b),
            };
            let answer = bet(&mut c, &sent).expect("bet");
            assert_eq!(answer.status, 200, "{}", answer.body);
            if b % 37 == 0 {
                receipts.push(answer.json()["receipts"][0].clone());
            }
        }
    }
    let want = 303;
    wait_for("sequencing", Duration::from_secs(20), || {
        let note = fetch(&server.addr, "/log/checkpoint");
        let text = String::from_utf8_lossy(&note).to_string();
        text.lines()
            .nth(1)
            .and_then(|n| n.parse::<u64>().ok())
            .is_some_and(|n| n >= want)
    });
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("log-served-go");
    let _ = std::fs::remove_dir_all(&work);
    let dir = work.join("log");
    assert_eq!(mirror(&server.addr, &dir, &receipts), want);

    let (ok, stdout, stderr) = go::verify(&gopath, &work, &dir);
    assert!(ok, "Go rejected the served log:\n{stdout}\n{stderr}");
    for check in [
        "ok note",
        "ok checkpoint",
        "ok tiles",
        "ok entries",
        "ok rebuild",
    ] {
        assert!(stdout.contains(check), "no {check:?} in:\n{stdout}");
    }
    assert!(
        stdout.contains(&format!("ok proofs: {} ", receipts.len())),
        "{stdout}"
    );
    let _ = writeln!(std::io::stderr(), "go sumdb read the served log:\n{stdout}");
}

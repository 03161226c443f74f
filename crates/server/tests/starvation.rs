//! A flood of half-open connections does not starve the service: the real
//! binary, limited to 1,024 descriptors, holds 1,100 connections that sent
//! a request line but never the end of the header, and `/healthz` still
//! answers within a second.

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::http::Client;
use common::server::{Options, Server};

const HALF_OPEN: usize = 1_100;
const DESCRIPTORS: u64 = 1_024;

fn prlimit_available() -> bool {
    std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn healthz_answers_under_a_half_open_flood() {
    assert!(
        prlimit_available(),
        "this test needs prlimit (util-linux) to limit the server's descriptors"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let mut opts = Options::new(dir.path());
    opts.nofile = Some(DESCRIPTORS);
    // Long enough that no connection times out during the test: the
    // connection budget alone must keep the service reachable.
    opts.extra_args = vec!["--header-timeout".into(), "120".into()];
    let mut server = Server::start(&opts);

    let mut held = Vec::with_capacity(HALF_OPEN);
    for _ in 0..HALF_OPEN {
        let mut s = TcpStream::connect(&server.addr).expect("connect");
        s.write_all(b"GET /healthz HTTP/1.1\r\n")
            .expect("half a request");
        held.push(s);
    }

    let started = Instant::now();
    let deadline = started + Duration::from_secs(1);
    let mut client = Client::new(&server.addr);
    let answer = loop {
        match client.send("GET", "/healthz", None, &[], None) {
            Ok(a) => break a,
            Err(e) => assert!(
                Instant::now() < deadline,
                "no answer from /healthz within 1 s: {e}"
            ),
        }
    };
    let took = started.elapsed();
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(took < Duration::from_secs(1), "answered after {took:?}");
    assert!(server.alive(), "the server survived the flood");
    let spam = server
        .lines()
        .iter()
        .filter(|(_, l)| l.contains("accept"))
        .count();
    assert!(spam <= 1, "accept errors logged {spam} times");
    drop(held);
}

/// Reads until the server closes the connection; the time it took.
fn time_to_close(mut s: TcpStream) -> Duration {
    use std::io::Read;
    let started = Instant::now();
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return started.elapsed(),
            Ok(_) => continue,
            Err(e) => panic!("not closed within 10 s: {e}"),
        }
    }
}

#[test]
fn silent_and_idle_connections_are_closed_after_the_header_timeout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut opts = Options::new(dir.path());
    opts.extra_args = vec!["--header-timeout".into(), "1".into()];
    let server = Server::start(&opts);

    let mut half = TcpStream::connect(&server.addr).expect("connect");
    half.write_all(b"GET /healthz HTTP/1.1\r\n")
        .expect("half a request");
    let took = time_to_close(half);
    assert!(took < Duration::from_secs(5), "half a header held {took:?}");

    let mut idle = TcpStream::connect(&server.addr).expect("connect");
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("a request");
    let took = time_to_close(idle);
    assert!(
        took < Duration::from_secs(5),
        "an idle keep-alive held {took:?}"
    );
}

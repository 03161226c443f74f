//! `fairseed serve` through the real binary: the flattened server flags parse,
//! the runtime starts, and the service answers on the address it printed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn serve_starts_and_answers() {
    let data_dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-test");
    let _ = std::fs::remove_dir_all(&data_dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairseed"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&data_dir)
        .env_remove("FAIRSEED_DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");

    // The service prints "fairseed serving on http://ADDR ..." once it listens.
    let addr = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|line| {
            let rest = line.split("serving on http://").nth(1)?;
            Some(rest.split_whitespace().next()?.to_owned())
        });
    let Some(addr) = addr else {
        let _ = child.kill();
        panic!("serve never said where it listens");
    };

    let mut stream = TcpStream::connect(&addr).expect("the printed address accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeouts are settable");
    stream
        .write_all(b"POST /v1/players HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        .expect("the request is sent");
    let mut response = String::new();
    let read = stream.read_to_string(&mut response);
    let _ = child.kill();
    let _ = child.wait();
    read.expect("the response arrives");

    let status = response.lines().next().unwrap_or_default();
    assert!(
        status.contains(" 200 ") || status.contains(" 201 "),
        "{response}"
    );
    assert!(
        response.contains("\"commitment\""),
        "a new player gets a committed seed pair: {response}"
    );
}

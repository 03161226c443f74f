//! Running the real `fairseed` binary from the integration tests.

// Each test file uses its own share of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub fn fairseed() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fairseed"))
}

/// Runs `fairseed ARGS` with `input` on standard input and collects its output.
pub fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = fairseed()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // Write on another thread so a large input cannot deadlock against stdout.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary runs");
    writer.join().expect("the writer thread ends");
    out
}

/// The exit status; a test fails if the binary was killed instead.
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("the binary exits, not killed")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Starts `fairseed serve` on a free port with its data in `dir` (SQLite);
/// returns the child and the address it printed. The caller kills it.
pub fn serve(dir: &std::path::Path) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = fairseed()
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .env_remove("FAIRSEED_DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the service starts");
    let addr = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map_while(Result::ok)
        .find_map(|line| {
            Some(
                line.split("serving on http://")
                    .nth(1)?
                    .split_whitespace()
                    .next()?
                    .to_owned(),
            )
        });
    match addr {
        Some(addr) => (child, addr),
        None => {
            let _ = child.kill();
            panic!("serve never said where it listens");
        }
    }
}

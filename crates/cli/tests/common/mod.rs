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
    serve_with(dir, &[])
}

/// [`serve`] with `extra` options (a database, `--witness`, …).
pub fn serve_with(dir: &std::path::Path, extra: &[String]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = fairseed()
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .args(extra)
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

/// A running `fairseed witness`, killed when dropped.
pub struct Witness {
    child: std::process::Child,
    /// Its base URL.
    pub url: String,
    /// Its cosigner verifier key, as it printed it.
    pub key: String,
}

impl Drop for Witness {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `fairseed witness` (named `witness.test/w1`) of the log with
/// verifier key `log_vkey` on a free port, its key and state files in `dir`.
pub fn witness(dir: &std::path::Path, log_vkey: &str) -> Witness {
    use std::io::{BufRead, BufReader};
    let mut child = fairseed()
        .args([
            "witness",
            "--listen",
            "127.0.0.1:0",
            "--name",
            "witness.test/w1",
        ])
        .arg("--key-file")
        .arg(dir.join("witness.key"))
        .arg("--state")
        .arg(dir.join("witness.json"))
        .args(["--log", log_vkey])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the witness starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut url, mut key) = (None, None);
    for _ in 0..2 {
        let mut line = String::new();
        lines.read_line(&mut line).expect("a line");
        if let Some(addr) = line.trim().strip_prefix("listening on ") {
            url = Some(format!("http://{addr}"));
        }
        if let Some(k) = line.trim().strip_prefix("witness key ") {
            key = Some(k.to_owned());
        }
    }
    let url = url.expect("the witness says where it listens");
    let key = key.expect("the witness prints its key");
    Witness { child, url, key }
}

/// Writes `entries` as a log under `dir`, signed by `key`: `checkpoint`,
/// `key`, `tile/...` (the tlog-tiles layout `fairseed audit` reads).
pub fn write_log(
    dir: &std::path::Path,
    entries: &[fairseed_audit::Entry],
    key: &fairseed_tlog::NoteKey,
) {
    let mut writer = fairseed_audit::writer::TileWriter::new();
    for entry in entries {
        writer.append(entry.encode().expect("entry encodes"));
    }
    for (path, bytes) in writer.new_files().expect("tiles") {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir");
        std::fs::write(file, bytes).expect("tile written");
    }
    std::fs::write(
        dir.join("checkpoint"),
        writer.checkpoint(key).expect("signed"),
    )
    .expect("checkpoint written");
    std::fs::write(dir.join("key"), key.vkey()).expect("key written");
}

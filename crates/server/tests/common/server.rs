//! The real `fairseed-server` binary as a child process whose every output
//! line is captured (for the no-early-secret test) and which is killed when
//! dropped, so a failing test leaves no server behind.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A captured output line with the moment it was read.
pub type Line = (Instant, String);

/// A running server.
pub struct Server {
    child: Child,
    pub addr: String,
    lines: Arc<Mutex<Vec<Line>>>,
}

/// How a server is started.
pub struct Options<'a> {
    pub data_dir: &'a Path,
    /// `--database` URL; SQLite in `data_dir` when `None`.
    pub database: Option<&'a str>,
    /// `--rate-limit` (0 disables it, and the per-address limits too).
    pub rate_limit: u32,
    pub opening_balance: u64,
    /// `RUST_LOG`.
    pub log: &'a str,
    /// `--operator-key`; `None` lets the server generate one into the data dir.
    pub operator_key: Option<&'a str>,
    /// More command-line arguments.
    pub extra_args: Vec<String>,
    /// Run under `prlimit --nofile=N:N` (the process's descriptor limit).
    pub nofile: Option<u64>,
    /// `--lease-ttl-ms`; the server's default when `None`.
    pub lease_ttl_ms: Option<u64>,
}

impl<'a> Options<'a> {
    /// SQLite in `data_dir`, no rate limit, warnings only, the tests' operator key.
    pub fn new(data_dir: &'a Path) -> Self {
        Self {
            data_dir,
            database: None,
            rate_limit: 0,
            opening_balance: super::OPENING,
            log: "warn",
            operator_key: Some(super::OPERATOR_KEY),
            extra_args: Vec::new(),
            nofile: None,
            lease_ttl_ms: None,
        }
    }
}

fn pump(
    source: impl Read + Send + 'static,
    lines: Arc<Mutex<Vec<Line>>>,
    tx: mpsc::Sender<String>,
) {
    std::thread::spawn(move || {
        for line in BufReader::new(source).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line.clone());
            if let Ok(mut all) = lines.lock() {
                all.push((Instant::now(), line));
            }
        }
    });
}

impl Server {
    /// Starts the binary on a free loopback port and waits (at most 30 s)
    /// for the line with its URL.
    pub fn start(o: &Options<'_>) -> Self {
        let binary = env!("CARGO_BIN_EXE_fairseed-server");
        let mut cmd = match o.nofile {
            Some(n) => {
                let mut c = Command::new("prlimit");
                c.arg(format!("--nofile={n}:{n}")).arg("--").arg(binary);
                c
            }
            None => Command::new(binary),
        };
        cmd.args(&o.extra_args)
            .arg("--listen")
            .arg("127.0.0.1:0")
            .arg("--rate-limit")
            .arg(o.rate_limit.to_string())
            .arg("--opening-balance")
            .arg(o.opening_balance.to_string())
            .arg("--data-dir")
            .arg(o.data_dir)
            .env("RUST_LOG", o.log)
            .env_remove("FAIRSEED_DATABASE_URL")
            .env_remove("FAIRSEED_OPERATOR_KEY")
            .env_remove("FAIRSEED_LEASE_TTL_MS")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if o.rate_limit == 0 {
            cmd.args([
                "--signups-per-minute",
                "0",
                "--auth-failures-per-minute",
                "0",
            ]);
        }
        if let Some(db) = o.database {
            cmd.arg("--database").arg(db);
        }
        if let Some(key) = o.operator_key {
            cmd.arg("--operator-key").arg(key);
        }
        if let Some(ttl) = o.lease_ttl_ms {
            cmd.arg("--lease-ttl-ms").arg(ttl.to_string());
        }
        let mut child = cmd.spawn().expect("start fairseed-server");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        pump(
            child.stdout.take().expect("stdout"),
            Arc::clone(&lines),
            tx.clone(),
        );
        pump(child.stderr.take().expect("stderr"), Arc::clone(&lines), tx);
        let deadline = Instant::now() + Duration::from_secs(30);
        let addr = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    if let Some(rest) = line.split("http://").nth(1) {
                        break rest.split_whitespace().next().expect("addr").to_owned();
                    }
                }
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    let out = lines.lock().map(|l| dump(&l)).unwrap_or_default();
                    panic!("fairseed-server did not print its URL in time:\n{out}");
                }
            }
        };
        Self { child, addr, lines }
    }

    /// `kill -9`: no shutdown code runs.
    pub fn kill9(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reap");
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Every line printed so far (stdout and stderr interleaved as read).
    pub fn lines(&self) -> Vec<Line> {
        self.lines.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

/// The lines as one text, for failure messages.
pub fn dump(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|(_, l)| l.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

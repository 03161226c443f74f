//! `fairseed serve` configured as an operator would, through the real
//! binary: a TOML file under the environment and the flags,
//! `--check-config`, and `/metrics` kept off the players' listener.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const SECRET: &str = "operator-secret-not-to-print-4711";

fn fairseed() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fairseed"));
    for var in [
        "FAIRSEED_DATABASE_URL",
        "FAIRSEED_OPERATOR_KEY",
        "FAIRSEED_LOG_ORIGIN",
        "FAIRSEED_LEASE_TTL_MS",
        "FAIRSEED_CONFIG",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn write_config(dir: &Path, body: &str) -> std::path::PathBuf {
    let path = dir.join("fairseed.toml");
    std::fs::write(&path, body).expect("config written");
    path
}

fn check(config: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = fairseed();
    cmd.args(["serve", "--config"]).arg(config).args(extra);
    cmd.arg("--check-config");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

fn value_of(stdout: &str, key: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("{key} missing:\n{stdout}"))
        .to_owned()
}

#[test]
fn flags_then_environment_then_file_then_defaults() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = write_config(
        dir.path(),
        &format!(
            r#"
listen = "127.0.0.1:9999"
rate_limit = 5
opening_balance = 42
log_origin = "file.example/fairseed"
operator_key = "{SECRET}"
trusted_proxies = ["127.0.0.1", "10.0.0.0/8"]
database = "postgres://app:db-password-4711@db.example/fair?sslmode=verify-full"
"#
        ),
    );
    let out = check(
        &config,
        &["--rate-limit", "7"],
        &[("FAIRSEED_LOG_ORIGIN", "env.example/fairseed")],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    // The file over the defaults.
    assert_eq!(value_of(&stdout, "listen"), "\"127.0.0.1:9999\"");
    assert_eq!(value_of(&stdout, "opening_balance"), "42");
    assert_eq!(
        value_of(&stdout, "trusted_proxies"),
        "[\"127.0.0.1/32\", \"10.0.0.0/8\"]"
    );
    // A flag over the file, the environment over the file.
    assert_eq!(value_of(&stdout, "rate_limit"), "7");
    assert_eq!(value_of(&stdout, "log_origin"), "\"env.example/fairseed\"");
    // A default where neither says anything.
    assert_eq!(value_of(&stdout, "header_timeout"), "10");
    // Secrets redacted, the rest of the URL kept.
    assert!(
        !stdout.contains(SECRET) && !stderr.contains(SECRET),
        "{stdout}"
    );
    assert!(!stdout.contains("db-password-4711"), "{stdout}");
    assert_eq!(value_of(&stdout, "operator_key"), "\"<redacted>\"");
    assert_eq!(
        value_of(&stdout, "database"),
        "\"postgres://app:<redacted>@db.example/fair?sslmode=verify-full\""
    );
}

#[test]
fn a_bad_file_names_what_is_wrong_and_exits_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        ("colour = \"blue\"\n", "`colour` is not an option"),
        ("listen = \"nowhere\"\n", "--listen"),
        ("rate_limit = [1, [2]]\n", "`rate_limit`"),
        ("listen = \n", "not valid TOML"),
        ("trusted_proxies = [\"10.0.0.0/40\"]\n", "10.0.0.0/40"),
        ("operator_key = \"short\"\n", "operator_key: at least 16"),
        (
            "tls_cert = \"/nonexistent/cert.pem\"\ntls_key = \"/nonexistent/key.pem\"\n",
            "tls_cert: reading /nonexistent/cert.pem",
        ),
    ];
    for (body, expected) in cases {
        let config = write_config(dir.path(), body);
        let out = check(&config, &[], &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{body}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{body}: expected {expected:?} in {stderr}"
        );
    }
    let out = check(&dir.path().join("missing.toml"), &[], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.toml"));
}

/// Starts `fairseed serve`; returns the child and the lines it printed
/// until it said where it serves.
fn start(config: &Path) -> (Child, Vec<String>) {
    let mut child = fairseed()
        .args(["serve", "--config"])
        .arg(config)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        let done = line.contains("serving on ");
        lines.push(line);
        if done {
            return (child, lines);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("serve never said where it listens: {lines:?}");
}

fn address_after(lines: &[String], marker: &str) -> String {
    lines
        .iter()
        .find_map(|l| {
            let rest = l.split(marker).nth(1)?;
            Some(rest.split(['/', ' ']).next()?.to_owned())
        })
        .unwrap_or_else(|| panic!("no {marker:?} in {lines:?}"))
}

fn get(addr: &str, path: &str, key: Option<&str>) -> String {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let auth = key.map_or(String::new(), |k| format!("Authorization: Bearer {k}\r\n"));
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: t\r\n{auth}Connection: close\r\n\r\n"
    )
    .expect("sent");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("answer");
    response
}

#[test]
fn metrics_are_not_public_on_the_players_listener() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = write_config(
        dir.path(),
        &format!(
            "listen = \"127.0.0.1:0\"\nmetrics_listen = \"127.0.0.1:0\"\ndata_dir = \"{}\"\noperator_key = \"{SECRET}\"\n",
            dir.path().join("data").display()
        ),
    );
    let (mut child, lines) = start(&config);
    let players = address_after(&lines, "serving on http://");
    let metrics = address_after(&lines, "metrics on http://");
    let anonymous = get(&players, "/metrics", None);
    let operator = get(&players, "/metrics", Some(SECRET));
    let scraped = get(&metrics, "/metrics", None);
    let _ = child.kill();
    let _ = child.wait();
    assert!(anonymous.starts_with("HTTP/1.1 401"), "{anonymous}");
    assert!(!anonymous.contains("fairseed_bets_total"), "{anonymous}");
    assert!(operator.starts_with("HTTP/1.1 200"), "{operator}");
    assert!(operator.contains("fairseed_bets_total"), "{operator}");
    assert!(scraped.starts_with("HTTP/1.1 200"), "{scraped}");
    assert!(scraped.contains("fairseed_bets_total"), "{scraped}");
}

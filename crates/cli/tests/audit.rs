//! `fairseed audit` on logs written to a directory in the tlog-tiles layout:
//! an honest log passes (exit 0); an edited tile, a forked checkpoint, an
//! overdue seed and a reused nonce each exit 1 naming what is wrong.

mod common;

use std::path::Path;

use common::{code, run, text};
use fairseed_audit::sample::{Sample, Shape};
use fairseed_audit::{Entry, Kind};
use fairseed_tlog::NoteKey;

fn key() -> NoteKey {
    NoteKey::from_private_bytes("fairseed.test/log", &[3; 32]).expect("valid key name")
}

/// Writes `entries` as a log under `dir`: `checkpoint`, `key`, `tile/...`.
fn write_log(dir: &Path, entries: &[Entry]) {
    common::write_log(dir, entries, &key());
}

fn sample(n: usize, step_ms: u64) -> Vec<Entry> {
    Sample::new(
        "cli",
        Shape {
            step_ms,
            ..Shape::default()
        },
    )
    .take(n)
    .collect()
}

fn audit(dir: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["audit", dir.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    let out = run(&args, b"");
    (code(&out), text(&out.stdout) + &text(&out.stderr))
}

#[test]
fn an_honest_log_passes_and_reports() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_log(dir.path(), &sample(2000, 7));
    let html = dir.path().join("report.html");
    let (status, out) = audit(
        dir.path(),
        &[
            "--key",
            &key().vkey(),
            "--html",
            html.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains("log fairseed.test/log: checkpoint of 2000 entries"),
        "{out}"
    );
    assert!(out.contains("audit passed: no findings"), "{out}");
    assert!(out.contains("entries: 2000 (dice_v1 "), "{out}");
    assert!(out.contains(" outcomes, "), "{out}");
    let page = std::fs::read_to_string(&html).expect("html written");
    assert_eq!(
        page.matches("<svg").count(),
        2,
        "the roll histogram and the RTP line"
    );
    assert!(
        page.contains("one range")
            && page.contains("times as likely as each other is caught 9 times in 10"),
        "the power at this size"
    );
    assert!(out.contains("Dice rolls: "), "{out}");

    let out = run(
        &["audit", dir.path().to_str().expect("utf-8"), "--json"],
        b"",
    );
    assert_eq!(code(&out), 0);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(json["passed"], true);
    assert_eq!(json["checkpoint"]["size"], 2000);
    assert!(text(&out.stderr).contains("trusting the log's own key"));
}

#[test]
fn an_edited_tile_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_log(dir.path(), &sample(600, 7));
    let tile = dir.path().join("tile/0/001");
    let mut bytes = std::fs::read(&tile).expect("tile");
    bytes[17 * 32] ^= 1;
    std::fs::write(&tile, bytes).expect("tile rewritten");
    let (status, out) = audit(dir.path(), &[]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("tile tile/0/001: does not hash to its hash in the parent tile"),
        "{out}"
    );
    assert!(
        out.contains(
            "tile/entries/001 against tile/0/001: entry 17 does not hash to the tile's hash 17"
        ),
        "{out}"
    );
}

#[test]
fn a_forked_checkpoint_fails_against_the_state_file() {
    let (first, second) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let state = first.path().join("state.json");
    let state = state.to_str().expect("utf-8");
    let mut entries = sample(900, 7);
    write_log(first.path(), &entries[..500]);
    let (status, out) = audit(first.path(), &["--state", state]);
    assert_eq!(status, 0, "{out}");
    entries[3].values[0] = "changed".into();
    write_log(second.path(), &entries);
    let (status, out) = audit(second.path(), &["--state", state]);
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("checkpoint 900 is not consistent with checkpoint 500 seen before: its tiles give root "), "{out}");
    let kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(state).expect("state")).expect("JSON");
    assert_eq!(
        kept["checkpoints"].as_array().map(Vec::len),
        Some(1),
        "the fork is not remembered as seen"
    );
}

#[test]
fn an_unrevealed_overdue_seed_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let entries: Vec<Entry> = sample(800, 1000)
        .into_iter()
        .filter(|e| !(e.kind == Kind::Reveal && e.ids == ["o2", "p2"]))
        .collect();
    write_log(dir.path(), &entries);
    let (status, out) = audit(dir.path(), &[]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("dice seed pair p2 committed at 2023-11-14T22:"),
        "{out}"
    );
    assert!(
        out.contains(" never revealed, though its owner opened pair p9 at entry "),
        "{out}"
    );
}

#[test]
fn a_reused_nonce_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut entries = sample(100, 7);
    entries[6].ids[1] = "2".into();
    write_log(dir.path(), &entries);
    let (status, out) = audit(dir.path(), &[]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("entry 6: nonce 2 of dice seed pair p0 used twice (first at entry 3)"),
        "{out}"
    );
}

#[test]
fn a_missing_log_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (status, out) = audit(dir.path(), &[]);
    assert_eq!(status, 2, "{out}");
    assert!(out.contains("no checkpoint"), "{out}");
}

/// Serves `dir`'s files over plain HTTP/1.1 on a free port, one connection at a
/// time, `Connection: close`; a missing file is a 404. For the tests only.
fn serve_dir(dir: std::path::PathBuf) -> String {
    serve_dir_over(dir, None)
}

/// [`serve_dir`], over TLS with `tls` if given (`https://` then).
fn serve_dir_over(
    dir: std::path::PathBuf,
    tls: Option<std::sync::Arc<rustls::ServerConfig>>,
) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let scheme = if tls.is_some() { "https" } else { "http" };
    let url = format!("{scheme}://{}/log", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            match &tls {
                Some(config) => {
                    let Ok(conn) = rustls::ServerConnection::new(config.clone()) else {
                        continue;
                    };
                    answer(&dir, rustls::StreamOwned::new(conn, stream));
                }
                None => answer(&dir, stream),
            }
        }
    });
    url
}

/// Reads one request from `stream` and answers it with the file it names.
fn answer(dir: &Path, mut stream: impl std::io::Read + std::io::Write) {
    use std::io::{BufRead, BufReader};
    let mut reader = BufReader::new(&mut stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        header.clear();
    }
    drop(reader);
    let path = request
        .split(' ')
        .nth(1)
        .unwrap_or("/")
        .trim_start_matches("/log/");
    let _ = match std::fs::read(dir.join(path)) {
        Ok(body) => write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .and_then(|()| stream.write_all(&body)),
        Err(_) => write!(
            stream,
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    };
    let _ = stream.flush();
}

/// A CA made for the test (its PEM) and a server certificate it issued for
/// 127.0.0.1, as a rustls server configuration.
fn test_tls() -> (String, std::sync::Arc<rustls::ServerConfig>) {
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("ca params");
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca_key = rcgen::KeyPair::generate().expect("ca key");
    let ca = ca_params.self_signed(&ca_key).expect("ca");
    let server_key = rcgen::KeyPair::generate().expect("server key");
    let server = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .expect("server params")
        .signed_by(&server_key, &ca, &ca_key)
        .expect("server certificate");
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(server_key.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("protocols")
    .with_no_client_auth()
    .with_single_cert(vec![server.der().clone()], key)
    .expect("server config");
    (ca.pem(), std::sync::Arc::new(config))
}

/// An `https://` log is audited when its CA is trusted, and refused when not
/// (the built-in roots do not hold the test's CA).
#[test]
fn a_log_is_audited_over_https() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_log(dir.path(), &sample(300, 7));
    let (ca, tls) = test_tls();
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, ca).expect("ca file");
    let url = serve_dir_over(dir.path().to_owned(), Some(tls));
    let ca_arg = ca_file.to_str().expect("utf-8 path");
    let out = run(
        &["audit", &url, "--key", &key().vkey(), "--ca-file", ca_arg],
        b"",
    );
    assert_eq!(code(&out), 0, "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("checkpoint of 300 entries"));
    let out = run(&["audit", &url, "--key", &key().vkey()], b"");
    assert_eq!(code(&out), 2, "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cannot fetch"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_log_is_audited_over_http() {
    let dir = tempfile::tempdir().expect("temp dir");
    write_log(dir.path(), &sample(700, 7));
    let url = serve_dir(dir.path().to_owned());
    let out = run(&["audit", &url, "--key", &key().vkey()], b"");
    assert_eq!(code(&out), 0, "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("checkpoint of 700 entries"));
    std::fs::remove_file(dir.path().join("tile/entries/001")).expect("a bundle removed");
    let out = run(&["audit", &url, "--key", &key().vkey()], b"");
    assert_eq!(code(&out), 1);
    assert!(
        text(&out.stdout).contains("tile/0/001 or tile/entries/001 is missing"),
        "{}",
        text(&out.stdout)
    );
}

/// The real service, end to end: a player bets, rotates and bets again through
/// `fairseed serve`; `fairseed audit` reads its `/log/` over HTTP and passes,
/// with the revealed pair's rolls recomputed.
///
/// The service draws its seeds, so the test asks nothing a draw could change:
/// the revealed pair holds 4 bets, below the 5 rolls at which any outcome can
/// reach the alarm (docs/decisions/0021-exact-cell-tests.md), and at these
/// chances (3, 7, 11 and 15 %) even 4 wins give a return p-value near 0.008,
/// far above it. The report says so in words.
#[cfg(feature = "serve")]
#[test]
fn the_service_log_passes_the_audit() {
    let data = tempfile::tempdir().expect("temp dir");
    let (mut child, addr) = common::serve(data.path());
    let base = format!("http://{addr}");
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let post = |path: &str, token: Option<&str>, key: &str, body: &str| -> serde_json::Value {
        let mut request = agent
            .post(&format!("{base}{path}"))
            .header("Idempotency-Key", key)
            .header("Content-Type", "application/json");
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let mut answer = request.send(body.to_owned()).expect("an answer");
        let text = answer.body_mut().read_to_string().expect("a body");
        assert!(
            answer.status().is_success(),
            "{path}: {} {text}",
            answer.status()
        );
        serde_json::from_str(&text).expect("JSON")
    };
    let player = post("/v1/players", None, "p", "{}");
    let token = player["token"].as_str().expect("a token").to_owned();
    for i in 0..4 {
        let body = format!(
            r#"{{"amount": {}, "condition": "under", "target": {}}}"#,
            100 + i,
            300 + i * 400
        );
        post("/v1/dice/bets", Some(&token), &format!("b{i}"), &body);
    }
    post("/v1/seeds/rotate", Some(&token), "r", "{}");
    for i in 0..21 {
        post(
            "/v1/dice/bets",
            Some(&token),
            &format!("c{i}"),
            r#"{"amount": 5, "condition": "over", "target": 5000}"#,
        );
    }
    // Sequencing is batched: wait for the checkpoint to hold every entry made.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut out;
    loop {
        out = run(&["audit", &format!("{base}/log"), "--json"], b"");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if json["summary"]["counts"]["entries"].as_u64().unwrap_or(0) >= 28
            || std::time::Instant::now() > deadline
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let words = run(&["audit", &format!("{base}/log"), "--lang", "es"], b"");
    let _ = child.kill();
    let _ = child.wait();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(code(&out), 0, "{json:#}\n{}", text(&out.stderr));
    assert_eq!(json["passed"], true);
    assert_eq!(
        json["summary"]["rolls"]["n"], 4,
        "the rotated pair's 4 rolls recomputed: {json:#}"
    );
    assert_eq!(json["summary"]["rolls"]["p"], serde_json::Value::Null);
    assert_eq!(json["summary"]["rolls"]["min_n"], 5);
    // The rotated pair was revealed: only the current pair is still open.
    assert_eq!(json["summary"]["open"], 1, "{json:#}");
    let words = text(&words.stdout);
    assert!(
        words.contains("muy pocas tiradas para juzgar la uniformidad: 4; se necesitan al menos 5"),
        "{words}"
    );
    assert!(words.contains("muy pocos repartos"), "{words}");
}

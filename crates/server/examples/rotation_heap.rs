//! How far one dice seed rotation raises the process's peak resident memory,
//! for a pair carrying many bets (Linux: `/proc/self/status`).
//!
//! Usage:
//! `cargo run --release -p fairseed-server --example rotation_heap -- prepare DIR N`
//! builds a SQLite database in `DIR` with one player whose current pair
//! carries `N` bets; then
//! `cargo run --release -p fairseed-server --example rotation_heap -- rotate DIR`
//! opens it in a fresh process, rotates the pair through the service's router
//! (`POST /v1/seeds/rotate`, records built and stored as the server does) and
//! prints the rise of the peak resident set over the resident set just
//! before, with the answer's size. Two processes, so that nothing the
//! preparation allocated is reused by the rotation and hidden from the peak.
//! `rotate` reveals the prepared pair: copy `DIR` first to measure again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, ensure, Context};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use fairseed_store::{SeedCipher, SqliteStore};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// Bets sent together: the SQLite writer commits them in shared batches.
const CONCURRENT_BETS: usize = 500;

const OPERATOR_KEY: &str = "operator-key-for-the-rotation-example";

fn main() -> anyhow::Result<()> {
    let usage = "usage: rotation_heap prepare DIR N | rotation_heap rotate DIR";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Runtime::new()?;
    match args.as_slice() {
        [cmd, dir, n] if cmd == "prepare" => {
            let n: usize = n.parse().context("N must be a whole number")?;
            runtime.block_on(prepare(Path::new(dir), n))
        }
        [cmd, dir] if cmd == "rotate" => runtime.block_on(rotate(Path::new(dir))),
        _ => bail!("{usage}"),
    }
}

fn app(dir: &Path) -> anyhow::Result<Router> {
    let cipher = SeedCipher::load_or_create(&dir.join("seed.key"))?;
    let store = SqliteStore::open(&dir.join("db.sqlite"), cipher)?;
    let state = fairseed_server::state(Arc::new(store), OPERATOR_KEY, u64::MAX >> 12, 0);
    Ok(fairseed_server::app(state))
}

fn token_file(dir: &Path) -> PathBuf {
    dir.join("token")
}

async fn call(
    app: &Router,
    method: Method,
    path: &str,
    token: Option<&str>,
    key: Option<&str>,
    body: Option<&str>,
) -> anyhow::Result<(StatusCode, Vec<u8>)> {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(token) = token {
        req = req.header("authorization", format!("Bearer {token}"));
    }
    if let Some(key) = key {
        req = req.header("idempotency-key", key);
    }
    let req = match body {
        Some(body) => req
            .header("content-type", "application/json")
            .body(Body::from(body.to_owned()))?,
        None => req.body(Body::empty())?,
    };
    let res = app.clone().oneshot(req).await?;
    let status = res.status();
    Ok((status, res.into_body().collect().await?.to_bytes().to_vec()))
}

async fn prepare(dir: &Path, n: usize) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let app = app(dir)?;
    let (status, body) = call(&app, Method::POST, "/v1/players", None, None, None).await?;
    ensure!(status == StatusCode::CREATED, "signup: {status}");
    let created: serde_json::Value = serde_json::from_slice(&body)?;
    let token = created["token"].as_str().context("no token")?.to_owned();
    std::fs::write(token_file(dir), &token)?;
    let bet = r#"{"amount":1,"condition":"under","target":4950}"#;
    for start in (0..n).step_by(CONCURRENT_BETS) {
        let keys: Vec<String> = (start..n.min(start + CONCURRENT_BETS))
            .map(|i| format!("bet-{i}"))
            .collect();
        let answers = futures_util::future::join_all(keys.iter().map(|key| {
            call(
                &app,
                Method::POST,
                "/v1/dice/bets",
                Some(&token),
                Some(key),
                Some(bet),
            )
        }))
        .await;
        for answer in answers {
            let (status, body) = answer?;
            ensure!(
                status == StatusCode::OK,
                "bet: {status} {}",
                String::from_utf8_lossy(&body)
            );
        }
    }
    println!("prepared {n} bets in {}", dir.display());
    Ok(())
}

async fn rotate(dir: &Path) -> anyhow::Result<()> {
    let token = std::fs::read_to_string(token_file(dir))?;
    let app = app(dir)?;
    // Warm the router, the store and the token cache with a small call.
    let (status, _) = call(&app, Method::GET, "/v1/seeds", Some(&token), None, None).await?;
    ensure!(status == StatusCode::OK, "seeds: {status}");
    let before = kib("VmRSS")?;
    let (status, body) = call(
        &app,
        Method::POST,
        "/v1/seeds/rotate",
        Some(&token),
        None,
        None,
    )
    .await?;
    ensure!(status == StatusCode::OK, "rotate: {status}");
    let peak = kib("VmHWM")?;
    let answer: serde_json::Value = serde_json::from_slice(&body)?;
    println!(
        "bets {} | resident before {before} KiB | peak {peak} KiB | rise {} KiB | answer {} bytes, {} records listed",
        answer["revealed"]["bets"],
        peak.saturating_sub(before),
        body.len(),
        answer["records"].as_array().map_or(0, Vec::len),
    );
    Ok(())
}

/// A `/proc/self/status` field in KiB.
fn kib(field: &str) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .with_context(|| format!("no {field} in /proc/self/status"))?;
    line.trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .with_context(|| format!("{field}: {line}"))
}

//! `fairseed witness`: a C2SP tlog-witness cosigner (docs/spec.md §16.9).
//!
//! The rules are `fairseed_audit::witness`'s; this shell holds the key file,
//! the state file and one route, `POST /add-checkpoint`. The check of the old
//! size and the write of the new state happen under one lock, and the state is
//! on disk before the cosignature is sent, as the protocol requires.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use clap::Args;
use fairseed_audit::witness::{Refusal, Witness, WitnessState};
use tokio::sync::Mutex;

use crate::audit::write_state;

/// `fairseed witness` flags.
#[derive(Debug, Args)]
pub struct WitnessArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:7380")]
    pub listen: SocketAddr,

    /// The witness's name, a schema-less URL (`witness.example/w1`).
    #[arg(long)]
    pub name: String,

    /// The witness's Ed25519 private key: 32 bytes, created (mode 0600) if missing.
    #[arg(long, value_name = "FILE")]
    pub key_file: PathBuf,

    /// A log to cosign, by its verifier key (note `vkey`); repeat for more logs.
    #[arg(long = "log", value_name = "VKEY", required = true)]
    pub logs: Vec<String>,

    /// The latest cosigned checkpoint of every log, kept across restarts.
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
}

struct Shared {
    witness: Witness,
    state_file: PathBuf,
    state: Mutex<WitnessState>,
}

/// Runs the witness until the process is stopped.
pub fn run(args: WitnessArgs) -> anyhow::Result<ExitCode> {
    let key = read_or_create_key(&args.key_file)?;
    let witness = Witness::new(&args.name, &key, &args.logs);
    let state = match std::fs::read(&args.state) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .with_context(|| format!("{}: not a witness state file", args.state.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => WitnessState::default(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", args.state.display())),
    };
    println!("witness key {}", witness.vkey());
    let shared = Arc::new(Shared {
        witness,
        state_file: args.state,
        state: Mutex::new(state),
    });
    let app = Router::new()
        .route("/add-checkpoint", post(add_checkpoint))
        .with_state(shared);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        println!("listening on {}", listener.local_addr()?);
        axum::serve(listener, app)
            .await
            .context("the witness stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}

async fn add_checkpoint(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs().max(1));
    let mut state = shared.state.lock().await;
    match shared.witness.add_checkpoint(&state, &body, now) {
        Ok(accepted) => {
            let mut next = state.clone();
            next.logs.insert(accepted.origin, accepted.cosigned);
            if let Err(e) = write_state(&shared.state_file, &next) {
                eprintln!("fairseed witness: {e:#}");
                return (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "cannot store the checkpoint\n",
                )
                    .into_response();
            }
            *state = next;
            accepted.body.into_response()
        }
        Err(refusal) => refused(&refusal),
    }
}

fn refused(refusal: &Refusal) -> Response {
    let status = StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let kind = if matches!(refusal, Refusal::Conflict(_)) {
        "text/x.tlog.size"
    } else {
        "text/plain; charset=utf-8"
    };
    (status, [(header::CONTENT_TYPE, kind)], refusal.body()).into_response()
}

/// The 32 key bytes; a missing file gets fresh ones from the OS CSPRNG, mode 0600.
fn read_or_create_key(path: &Path) -> anyhow::Result<[u8; 32]> {
    match std::fs::read(path) {
        Ok(bytes) => bytes.try_into().map_err(|b: Vec<u8>| {
            anyhow::anyhow!(
                "{}: {} bytes, expected a 32-byte key",
                path.display(),
                b.len()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut key = [0u8; 32];
            getrandom::getrandom(&mut key).context("the OS random source failed")?;
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            std::io::Write::write_all(
                &mut options
                    .open(path)
                    .with_context(|| format!("cannot create {}", path.display()))?,
                &key,
            )?;
            Ok(key)
        }
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

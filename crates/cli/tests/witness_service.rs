//! The service with `--witness`, both real binaries: `fairseed witness`
//! cosigns the checkpoint the service signs, and `/log/checkpoint` then
//! carries a cosignature that verifies with the witness's key. A witness
//! that already holds a size the service never stored answers 409; the
//! service asks again from that size with a consistency proof. On
//! PostgreSQL when `FAIRSEED_TEST_DB_URI` is set.

mod common;

use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use fairseed_tlog::{cosigned_by, open_checkpoint, CosignerKey, NoteKey};

const ORIGIN: &str = "localhost/fairseed";

/// A child process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The service's log key, written before it starts so the witness can be told it.
fn log_key(data: &Path) -> NoteKey {
    let private = [11u8; 32];
    std::fs::write(data.join("log.key"), private).expect("log key");
    NoteKey::from_private_bytes(ORIGIN, &private).expect("key")
}

/// Where the service keeps its data: SQLite in `data`, or a fresh
/// PostgreSQL schema (dropped with this guard) when the tests are given one.
struct Database {
    url: Option<(String, String)>,
}

impl Database {
    fn create(data: &Path) -> Self {
        let Some(url) = std::env::var("FAIRSEED_TEST_DB_URI")
            .ok()
            .filter(|u| !u.is_empty())
        else {
            return Self { url: None };
        };
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let next = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let schema = format!("fairseed_w{}_{next}", std::process::id());
        let cipher =
            fairseed_store::SeedCipher::load_or_create(&data.join("seed.key")).expect("seed key");
        runtime().block_on(async {
            let store = fairseed_store::PgStore::connect(&url, Some(&schema), cipher)
                .await
                .expect("a fresh schema");
            store.close().await;
        });
        Self {
            url: Some((url, schema)),
        }
    }

    fn args(&self) -> Vec<String> {
        match &self.url {
            None => Vec::new(),
            Some((url, schema)) => {
                let sep = if url.contains('?') { '&' } else { '?' };
                vec![
                    "--database".into(),
                    format!("{url}{sep}options=-c%20search_path%3D{schema}"),
                ]
            }
        }
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Some((url, schema)) = self.url.take() {
            let _ = runtime().block_on(fairseed_store::PgStore::drop_schema(&url, &schema));
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// `fairseed serve` with `extra` options on a free port: the process and its address.
fn start_service(data: &Path, db: &Database, extra: &[String]) -> (Running, String) {
    let mut args = db.args();
    // A restarted service takes the sequencer lease the stopped one held.
    args.extend(["--lease-ttl-ms".to_owned(), "1000".to_owned()]);
    args.extend_from_slice(extra);
    let (child, addr) = common::serve_with(data, &args);
    (Running(child), addr)
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent()
}

fn get(addr: &str, path: &str) -> (u16, String) {
    let mut answer = agent()
        .get(&format!("http://{addr}{path}"))
        .call()
        .expect("an answer");
    let status = answer.status().as_u16();
    (status, answer.body_mut().read_to_string().expect("a body"))
}

fn new_player(addr: &str) {
    let answer = agent()
        .post(&format!("http://{addr}/v1/players"))
        .send("{}".to_owned())
        .expect("a player");
    assert_eq!(answer.status().as_u16(), 201);
}

/// Runs the service without a witness until it has signed a checkpoint
/// past the empty tree, and stops it; that checkpoint.
fn checkpoint_without_witness(data: &Path, db: &Database, log: &NoteKey) -> String {
    let (service, addr) = start_service(data, db, &[]);
    new_player(&addr);
    let first = wait_for(&addr, "/log/checkpoint", "a checkpoint past 0", |n| {
        size(n, log) > 0
    });
    drop(service);
    first
}

/// Polls `path` until `done` holds of its body, or fails after 30 s.
fn wait_for(addr: &str, path: &str, what: &str, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = get(addr, path);
        if status == 200 && done(&body) {
            return body;
        }
        assert!(Instant::now() < deadline, "{what}: last {status} {body}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The size of a checkpoint signed by the log key, past its cosignatures.
fn size(note: &str, log: &NoteKey) -> u64 {
    open_checkpoint(note.as_bytes(), &log.vkey())
        .expect("signed by the log")
        .size()
}

fn cosigned(note: &str, witness: &CosignerKey) -> bool {
    cosigned_by(note.as_bytes(), std::slice::from_ref(witness)).expect("a note") == [0]
}

#[test]
fn the_service_publishes_the_witness_cosignature() {
    let data = tempfile::tempdir().expect("temp dir");
    let wdir = tempfile::tempdir().expect("temp dir");
    let log = log_key(data.path());
    let running = common::witness(wdir.path(), &log.vkey());
    let (url, wkey) = (running.url.clone(), running.key.clone());
    let witness = CosignerKey::parse(&wkey).expect("a cosigner key");
    let db = Database::create(data.path());
    let (_service, addr) = start_service(data.path(), &db, &[format!("--witness={url}={wkey}")]);
    new_player(&addr);

    let note = wait_for(&addr, "/log/checkpoint", "a cosigned checkpoint", |n| {
        size(n, &log) > 0 && cosigned(n, &witness)
    });
    assert!(note.contains("\n— witness.test/w1 "), "{note}");
    // Another key does not verify the line.
    let other = CosignerKey::parse(&wkey.replace("witness.test/w1", "witness.test/w2"));
    assert!(other.is_err(), "the key id binds the name");

    let (status, latest_cosigned) = get(&addr, "/log/checkpoint/cosigned?min=1");
    assert_eq!(status, 200);
    assert!(cosigned(&latest_cosigned, &witness));
    assert!(size(&latest_cosigned, &log) >= size(&note, &log));
    assert_eq!(get(&addr, "/log/checkpoint/cosigned?min=2").0, 404);
    assert_eq!(get(&addr, "/log/checkpoint/cosigned?min=0").0, 422);
}

#[test]
fn a_witness_holding_another_size_is_asked_again_from_it() {
    let data = tempfile::tempdir().expect("temp dir");
    let wdir = tempfile::tempdir().expect("temp dir");
    let log = log_key(data.path());
    let db = Database::create(data.path());

    // The service runs without the witness; someone else hands the witness
    // its checkpoint, so the witness holds a size the service never stored.
    let first = checkpoint_without_witness(data.path(), &db, &log);
    let held = size(&first, &log);
    let running = common::witness(wdir.path(), &log.vkey());
    let (url, wkey) = (running.url.clone(), running.key.clone());
    let witness = CosignerKey::parse(&wkey).expect("a cosigner key");
    let mut answer = agent()
        .post(&format!("{url}/add-checkpoint"))
        .send(format!("old 0\n\n{first}"))
        .expect("an answer");
    assert_eq!(answer.status().as_u16(), 200);
    let _ = answer.body_mut().read_to_string();

    // Restarted with the witness: its `old 0` is refused with 409 and the
    // size held, and the retry from it with a proof is cosigned.
    let (_service, addr) = start_service(data.path(), &db, &[format!("--witness={url}={wkey}")]);
    new_player(&addr);
    let note = wait_for(
        &addr,
        "/log/checkpoint/cosigned",
        "a cosigned checkpoint",
        |n| size(n, &log) > held && cosigned(n, &witness),
    );
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(wdir.path().join("witness.json")).expect("state"))
            .expect("JSON");
    assert_eq!(
        state["logs"][ORIGIN]["size"].as_u64(),
        Some(size(&note, &log)),
        "the witness moved on from {held}: {state}"
    );
}

#[test]
fn an_idle_log_restarted_with_a_new_witness_gets_cosigned() {
    let data = tempfile::tempdir().expect("temp dir");
    let wdir = tempfile::tempdir().expect("temp dir");
    let log = log_key(data.path());
    let db = Database::create(data.path());
    let first = checkpoint_without_witness(data.path(), &db, &log);

    // Restarted with a witness and no new entry: nothing new is signed, and
    // the witness is still sent the latest checkpoint.
    let running = common::witness(wdir.path(), &log.vkey());
    let (url, wkey) = (running.url.clone(), running.key.clone());
    let witness = CosignerKey::parse(&wkey).expect("a cosigner key");
    let (_service, addr) = start_service(data.path(), &db, &[format!("--witness={url}={wkey}")]);
    let note = wait_for(
        &addr,
        "/log/checkpoint/cosigned",
        "the idle checkpoint cosigned",
        |n| cosigned(n, &witness),
    );
    assert_eq!(size(&note, &log), size(&first, &log));
}

//! `fairseed witness` over HTTP: it cosigns a log's first checkpoint, refuses a
//! stale old size with 409 and the size it holds, and keeps that size across a restart.

mod common;

use fairseed_tlog::{checkpoint, sign_checkpoint, MemoryLog, NoteKey};

fn log_key() -> NoteKey {
    NoteKey::from_private_bytes("fairseed.test/log", &[4; 32]).expect("key")
}

/// Starts the witness of our test log on a free port.
fn start(dir: &std::path::Path) -> common::Witness {
    common::witness(dir, &log_key().vkey())
}

fn post(url: &str, body: String) -> (u16, String) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut response = agent
        .post(&format!("{url}/add-checkpoint"))
        .send(body)
        .expect("an answer");
    let status = response.status().as_u16();
    (
        status,
        response.body_mut().read_to_string().expect("a body"),
    )
}

fn note(size: u64) -> String {
    let mut log = MemoryLog::new();
    for i in 0..size {
        log.append(format!("entry {i}").as_bytes());
    }
    let body = checkpoint(
        "fairseed.test/log",
        size,
        log.root(size).expect("root"),
        &[],
    )
    .expect("checkpoint");
    sign_checkpoint(&log_key(), &body).expect("signed")
}

#[test]
fn cosigns_then_refuses_a_stale_size_across_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let witness = start(dir.path());
    let (status, body) = post(&witness.url, format!("old 0\n\n{}", note(5)));
    assert_eq!(status, 200, "{body}");
    assert!(
        body.starts_with("— witness.test/w1 ") && body.ends_with('\n'),
        "{body}"
    );
    drop(witness);
    let key = std::fs::metadata(dir.path().join("witness.key")).expect("key file created");
    assert_eq!(key.len(), 32);
    #[cfg(unix)]
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&key.permissions()) & 0o777,
        0o600
    );

    let witness = start(dir.path());
    let (status, body) = post(&witness.url, format!("old 0\n\n{}", note(7)));
    assert_eq!((status, body.as_str()), (409, "5\n"));
}

/// The witness cosigns the checkpoint the real service publishes, by the key it serves.
#[test]
fn cosigns_the_service_checkpoint() {
    let data = tempfile::tempdir().expect("temp dir");
    let (mut service, addr) = common::serve(data.path());
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let get = |path: &str| -> String {
        let mut answer = agent
            .get(&format!("http://{addr}{path}"))
            .call()
            .expect("an answer");
        answer.body_mut().read_to_string().expect("a body")
    };
    agent
        .post(&format!("http://{addr}/v1/players"))
        .send("{}".to_owned())
        .expect("a player");
    // Sequencing is batched: wait for a checkpoint past the empty tree.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    // Before its first checkpoint the service answers 404: wait for a size past 0.
    let size = |note: &str| note.lines().nth(1).and_then(|n| n.parse::<u64>().ok());
    let mut note = get("/log/checkpoint");
    while size(&note).unwrap_or(0) == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
        note = get("/log/checkpoint");
    }
    let key = get("/log/key");
    let _ = service.kill();
    let _ = service.wait();

    assert!(
        size(&note).unwrap_or(0) > 0,
        "the service logged the player's pair: {note}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let running = common::witness(dir.path(), key.trim());
    let (status, body) = post(&running.url, format!("old 0\n\n{note}"));
    assert_eq!(status, 200, "{body}\n{note}");
    assert!(body.starts_with("— witness.test/w1 "), "{body}");
}

//! The witness's add-checkpoint rules (C2SP tlog-witness) on logs built here,
//! and its cosignature checked against the tlog-cosignature message layout.

use base64::Engine as _;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use fairseed_audit::witness::{Refusal, Witness, WitnessState};
use fairseed_tlog::{checkpoint, sign_checkpoint, MemoryLog, NoteKey};

const ORIGIN: &str = "fairseed.test/log";
const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

fn log_key() -> NoteKey {
    NoteKey::from_private_bytes(ORIGIN, &[1; 32]).expect("key")
}

fn witness() -> Witness {
    Witness::new("witness.test/w1", &[2; 32], &[log_key().vkey()])
}

fn grown(n: u64) -> MemoryLog {
    let mut log = MemoryLog::new();
    for i in 0..n {
        log.append(format!("entry {i}").as_bytes());
    }
    log
}

fn note(log: &MemoryLog, size: u64) -> String {
    let body = checkpoint(ORIGIN, size, log.root(size).expect("root"), &[]).expect("checkpoint");
    sign_checkpoint(&log_key(), &body).expect("signed")
}

fn request(log: &MemoryLog, old: u64, size: u64) -> String {
    let mut out = format!("old {old}\n");
    if old > 0 && old < size {
        for hash in log.consistency_proof(old, size).expect("proof") {
            out += &format!("{}\n", B64.encode(hash.0));
        }
    }
    out + "\n" + &note(log, size)
}

#[test]
fn cosigns_a_first_checkpoint_then_a_consistent_one() {
    let (w, log) = (witness(), grown(40));
    let mut state = WitnessState::default();
    let first = w
        .add_checkpoint(&state, request(&log, 0, 10).as_bytes(), 1_700_000_000)
        .expect("accepted");
    assert_eq!(first.cosigned.size, 10);
    state.logs.insert(first.origin.clone(), first.cosigned);
    let second = w
        .add_checkpoint(&state, request(&log, 10, 40).as_bytes(), 1_700_000_100)
        .expect("accepted");
    assert_eq!(second.cosigned.size, 40);

    // The cosignature, checked by the letter of tlog-cosignature: key ID, timestamp, Ed25519 over
    // "cosignature/v1\ntime <t>\n" + the checkpoint body.
    let line = second
        .body
        .strip_prefix("— witness.test/w1 ")
        .and_then(|l| l.strip_suffix('\n'))
        .expect("one signature line");
    let bytes = B64.decode(line).expect("base64");
    assert_eq!(bytes.len(), 4 + 8 + 64);
    let vkey = w.vkey();
    let public = &B64
        .decode(vkey.rsplit('+').next().expect("key"))
        .expect("base64")[..];
    assert_eq!(public[0], 0x04, "the cosignature key type");
    let mut id_input = b"witness.test/w1\n".to_vec();
    id_input.extend_from_slice(public);
    let id = sha2_4(&id_input);
    assert_eq!(bytes[..4], id);
    assert_eq!(
        u64::from_be_bytes(bytes[4..12].try_into().expect("8 bytes")),
        1_700_000_100
    );
    let body = note(&log, 40);
    let body = &body[..body.find("\n\n").expect("note body") + 1];
    let message = format!("cosignature/v1\ntime 1700000100\n{body}");
    let key = VerifyingKey::from_bytes(public[1..].try_into().expect("32 bytes")).expect("key");
    let signature = Signature::from_bytes(bytes[12..].try_into().expect("64 bytes"));
    key.verify(message.as_bytes(), &signature)
        .expect("the cosignature verifies");
}

fn sha2_4(input: &[u8]) -> [u8; 4] {
    use sha2::Digest;
    let d = sha2::Sha256::digest(input);
    [d[0], d[1], d[2], d[3]]
}

#[test]
fn refuses_per_the_protocol() {
    let (w, log) = (witness(), grown(40));
    let mut state = WitnessState::default();
    let ok = w
        .add_checkpoint(&state, request(&log, 0, 20).as_bytes(), 1)
        .expect("accepted");
    state.logs.insert(ok.origin, ok.cosigned);

    // A stale old size: 409 with the size last cosigned.
    let stale = w
        .add_checkpoint(&state, request(&log, 10, 30).as_bytes(), 2)
        .expect_err("conflict");
    assert_eq!((stale.status(), stale.body()), (409, "20\n".to_owned()));
    // Old size above the checkpoint's: 400.
    assert_eq!(
        w.add_checkpoint(&state, request(&log, 30, 25).as_bytes(), 2)
            .expect_err("bad")
            .status(),
        400
    );
    // A fork: another log of the same origin grown past 20 — its proof fails, 422.
    let mut fork = grown(19);
    for i in 19..40 {
        fork.append(format!("forked {i}").as_bytes());
    }
    let forked = w
        .add_checkpoint(&state, request(&fork, 20, 40).as_bytes(), 2)
        .expect_err("fork");
    assert_eq!(forked.status(), 422, "{forked:?}");
    // The same size with another root: 422.
    assert_eq!(
        w.add_checkpoint(&state, request(&fork, 20, 20).as_bytes(), 2)
            .expect_err("fork")
            .status(),
        422
    );
    // A note signed by another key: 403; an unknown origin: 404.
    let other = NoteKey::from_private_bytes(ORIGIN, &[9; 32]).expect("key");
    let body = checkpoint(ORIGIN, 30, log.root(30).expect("root"), &[]).expect("checkpoint");
    let forged = format!(
        "old 0\n\n{}",
        sign_checkpoint(&other, &body).expect("signed")
    );
    assert_eq!(
        w.add_checkpoint(&WitnessState::default(), forged.as_bytes(), 2)
            .expect_err("forged")
            .status(),
        403
    );
    let stranger = NoteKey::from_private_bytes("other.test/log", &[9; 32]).expect("key");
    let body =
        checkpoint("other.test/log", 1, log.root(1).expect("root"), &[]).expect("checkpoint");
    let unknown = format!(
        "old 0\n\n{}",
        sign_checkpoint(&stranger, &body).expect("signed")
    );
    assert!(matches!(
        w.add_checkpoint(&state, unknown.as_bytes(), 2),
        Err(Refusal::UnknownLog(_))
    ));
    // A malformed body: 400.
    assert_eq!(
        w.add_checkpoint(&state, b"old 01\n\n", 2)
            .expect_err("bad")
            .status(),
        400
    );
}

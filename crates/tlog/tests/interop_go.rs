//! Interoperability: Go's `golang.org/x/mod/sumdb/note` and `sumdb/tlog` read a
//! log this crate wrote (checkpoint, note, tiles, bundles, proofs) and verify it
//! with `interop/verify.go`.
//!
//! Needs `go` and the x/mod sources in GOPATH mode (Debian: `golang-go`,
//! `golang-golang-x-mod-dev`; `FAIRSEED_GOPATH` overrides `/usr/share/gocode`).
//! Without them the test is skipped visibly (`tests/support/skip.rs`), or
//! fails under `FAIRSEED_REQUIRE_GO=1`.

use std::io::Write as _;
use std::path::Path;

use base64::prelude::*;
use fairseed_tlog::{
    checkpoint, encode_bundle, hash_tile_data, new_entry_bundles, new_hash_tiles, sign_checkpoint,
    EntryKind, Hash, LogEntry, MemoryLog, NoteKey,
};

#[path = "../interop/go.rs"]
mod go;
#[path = "../../../tests/support/skip.rs"]
mod skip;

const ORIGIN: &str = "fairseed.example/log";

fn b64(hashes: &[Hash]) -> String {
    hashes
        .iter()
        .map(|h| BASE64_STANDARD.encode(h.0))
        .collect::<Vec<_>>()
        .join(",")
}

fn write(dir: &Path, name: &str, data: &[u8]) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("under dir")).expect("mkdir");
    std::fs::write(path, data).expect("write");
}

/// A log of `size` entries of varied lengths, published in three steps as a service would.
fn write_log(dir: &Path, size: u64) {
    let mut log = MemoryLog::new();
    let mut entries: Vec<Vec<u8>> = Vec::new();
    let mut published = 0;
    for step in [size / 3, size / 2 + 7, size] {
        while log.size() < step {
            let i = log.size();
            let entry = LogEntry {
                kind: [EntryKind::Commitment, EntryKind::Reveal][(i % 2) as usize],
                time_ms: 1_700_000_000_000 + i,
                scheme: "dice_v1".into(),
                ids: vec![format!("pair-{}", i / 2)],
                values: vec!["0f".repeat((i % 97) as usize)],
            }
            .encode()
            .expect("small");
            log.append(&entry);
            entries.push(entry);
        }
        for tile in new_hash_tiles(published, step) {
            write(
                dir,
                &tile.path(),
                &hash_tile_data(&log, &tile).expect("in log"),
            );
        }
        for bundle in new_entry_bundles(published, step) {
            let start = (bundle.index * 256) as usize;
            let slice = &entries[start..start + bundle.width as usize];
            write(dir, &bundle.path(), &encode_bundle(slice).expect("fits"));
        }
        published = step;
    }
    let key = NoteKey::from_private_bytes(ORIGIN, &[42; 32]).expect("valid name");
    let root = log.root(size).expect("in range");
    let body = checkpoint(ORIGIN, size, root, &["fairseed extension line"]).expect("valid");
    write(
        dir,
        "checkpoint",
        sign_checkpoint(&key, &body).expect("signs").as_bytes(),
    );
    write(dir, "key", format!("{}\n", key.vkey()).as_bytes());

    let mut proofs = String::new();
    for index in [0, 1, 255, 256, size / 2, size - 1] {
        let proof = log.inclusion_proof(index, size).expect("in range");
        let entry = BASE64_STANDARD.encode(&entries[index as usize]);
        proofs += &format!("inclusion {index} {entry} {}\n", b64(&proof));
    }
    for old in [1, 2, 256, size / 3, size - 1, size] {
        let proof = log.consistency_proof(old, size).expect("in range");
        let old_root = BASE64_STANDARD.encode(log.root(old).expect("in range").0);
        proofs += &format!("consistency {old} {old_root} {}\n", b64(&proof));
    }
    write(dir, "proofs", proofs.as_bytes());
}

#[test]
fn go_sumdb_verifies_our_log() {
    let Some(gopath) = go::sumdb_gopath("go_sumdb_verifies_our_log") else {
        return;
    };
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tlog-interop-go");
    let _ = std::fs::remove_dir_all(&work);
    let dir = work.join("log");
    // Big enough for tiles of three levels (65 536 leaves fill one level-2 hash).
    write_log(&dir, 66_000);

    let (ok, stdout, stderr) = go::verify(&gopath, &work, &dir);
    assert!(ok, "Go rejected our log:\n{stdout}\n{stderr}");
    for check in [
        "ok note",
        "ok checkpoint",
        "ok tiles",
        "ok entries",
        "ok rebuild",
        "ok proofs: 12",
    ] {
        assert!(stdout.contains(check), "no {check:?} in:\n{stdout}");
    }
    let _ = writeln!(std::io::stderr(), "go sumdb verified our log:\n{stdout}");

    // The Go side is no rubber stamp: one flipped bit in a leaf tile fails it.
    let tile = dir.join("tile/0/000");
    let mut data = std::fs::read(&tile).expect("published");
    data[5] ^= 1;
    std::fs::write(&tile, data).expect("write");
    let (ok, stdout, stderr) = go::verify(&gopath, &work, &dir);
    assert!(!ok, "Go accepted an edited tile:\n{stdout}");
    assert!(stderr.contains("FAIL"), "{stderr}");
}

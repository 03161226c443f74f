//! Exported hands replayed in PokerKit (PyPI `pokerkit`), an independent
//! implementation of the rules: its final stacks must equal ours.
//!
//! Without Python and PokerKit the test is skipped visibly
//! (`tests/support/skip.rs`), unless `FAIRSEED_REQUIRE_POKERKIT=1` (then it fails).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
#[path = "../../../tests/support/skip.rs"]
mod skip;
use common::{code, run, text};

fn checker() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/phh/check_stacks.py")
}

/// Whether `python3 -c "import pokerkit"` works; says so visibly when not.
fn pokerkit_present() -> bool {
    let found = Command::new("python3")
        .args(["-c", "import pokerkit"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        skip::skip(
            "PokerKit replay of exported hands",
            "FAIRSEED_REQUIRE_POKERKIT",
            "`python3 -c 'import pokerkit'` fails (pip install pokerkit)",
        );
    }
    found
}

/// `fairseed table simulate … | fairseed table export --format phh` into `file`.
fn export(seats: &str, hands: &str, seed: &str, file: &Path) {
    let simulate = [
        "table", "simulate", "--seats", seats, "--hands", hands, "--seed", seed,
    ];
    let simulated = run(&simulate, b"");
    assert_eq!(code(&simulated), 0, "{}", text(&simulated.stderr));
    let exported = run(&["table", "export", "--format", "phh"], &simulated.stdout);
    assert_eq!(code(&exported), 0, "{}", text(&exported.stderr));
    std::fs::write(file, exported.stdout).expect("the export file is written");
}

fn check(file: &Path) -> Output {
    Command::new("python3")
        .arg(checker())
        .arg(file)
        .output()
        .expect("python3 runs")
}

#[test]
fn pokerkit_ends_every_exported_hand_with_our_stacks() {
    if !pokerkit_present() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (seats, hands, seed) in [("2", "300", "21"), ("3", "300", "22"), ("6", "300", "23")] {
        let file = dir.join(format!("pokerkit-{seats}-seats.phhs"));
        export(seats, hands, seed, &file);
        let out = check(&file);
        let report = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{seats} seats:\n{report}{}",
            text(&out.stderr)
        );
        let want = format!("{hands} hands replayed in PokerKit: {hands} agree, 0 disagree");
        assert!(report.contains(&want), "{seats} seats: {report}");
    }
}

#[test]
fn pokerkit_disagrees_with_a_changed_finishing_stack() {
    if !pokerkit_present() {
        return;
    }
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pokerkit-changed.phhs");
    export("3", "5", "24", &file);
    let exported = std::fs::read_to_string(&file).expect("the export is readable");
    let changed = exported.replacen("finishing_stacks = [", "finishing_stacks = [1", 1);
    assert_ne!(changed, exported, "the export has finishing stacks");
    std::fs::write(&file, changed).expect("the changed export is written");
    let out = check(&file);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(
        report.contains("5 hands replayed in PokerKit: 4 agree, 1 disagree"),
        "{report}"
    );
}

#[test]
fn export_names_the_line_that_is_not_a_record() {
    let out = run(
        &["table", "export", "--format", "phh"],
        b"\n{\"scheme\":\"dice_v1\"}\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("line 2: not a hold'em hand record"), "{err}");
}

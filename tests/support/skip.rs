//! The one way a test of this workspace skips: visibly.
//!
//! Included by path (`#[path = "…/tests/support/skip.rs"] mod skip;`) in
//! every test that needs a tool or a machine it may not have: PostgreSQL,
//! PokerKit, Go, a SIMD backend. The test harness hides the stderr of a test
//! that passes, so a skip is also appended as a line
//! `SKIPPED: <test>: <reason>` to `$FAIRSEED_SKIP_LOG` (default
//! `target/skipped-tests.txt`), which `scripts/test.sh` empties before the
//! tests and prints after them. Where the test names its
//! `FAIRSEED_REQUIRE_*` variable and it is `1`, the test fails instead of
//! skipping: `.ci/run` sets them all, so CI runs every such test.

// Each test file uses its own share of these.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Skips `test` for `reason`, unless the environment variable `require` is
/// `1`: then the test fails with the reason.
pub fn skip(test: &str, require: &str, reason: &str) {
    assert!(
        !required(require),
        "{test}: {require}=1 but it cannot run: {reason}"
    );
    record(test, reason);
}

/// Whether the environment variable `require` asks for the test to run.
pub fn required(require: &str) -> bool {
    std::env::var(require).as_deref() == Ok("1")
}

/// Records a skip that the caller has already decided is allowed.
pub fn record(test: &str, reason: &str) {
    let line = format!("SKIPPED: {test}: {reason}");
    // Shown with `--nocapture`, and at once for a test with its own `main`.
    let _ = writeln!(std::io::stderr(), "{line}");
    let path = log_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .unwrap_or_else(|e| panic!("{line}; and {} cannot be created: {e}", dir.display()));
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("{line}; and {} cannot be opened: {e}", path.display()));
    // One short write per line: appends of concurrent tests do not interleave.
    file.write_all(format!("{line}\n").as_bytes())
        .unwrap_or_else(|e| panic!("{line}; and {} cannot be written: {e}", path.display()));
}

/// Where skips are recorded: `$FAIRSEED_SKIP_LOG`, else `skipped-tests.txt`
/// in the workspace's target directory.
pub fn log_path() -> PathBuf {
    if let Some(path) = std::env::var_os("FAIRSEED_SKIP_LOG").filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        // Every crate is `crates/<name>`: its workspace is two levels up.
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("skipped-tests.txt")
}

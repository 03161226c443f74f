//! Running Go's `sumdb/note` and `sumdb/tlog` (`verify.go`) from the tests of
//! this crate and of the server, which include this file by path.
//!
//! Needs `go` and the x/mod sources in GOPATH mode (Debian: `golang-go`,
//! `golang-golang-x-mod-dev`; `FAIRSEED_GOPATH` overrides `/usr/share/gocode`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The GOPATH holding `golang.org/x/mod`, or `None` after a visible skip
/// (`tests/support/skip.rs`; a failure under `FAIRSEED_REQUIRE_GO=1`).
pub fn sumdb_gopath(test: &str) -> Option<PathBuf> {
    let skip = |reason: &str| {
        super::skip::skip(test, "FAIRSEED_REQUIRE_GO", reason);
        None
    };
    if Command::new("go").arg("version").output().is_err() {
        return skip("`go` is not on PATH");
    }
    let gopath = std::env::var_os("FAIRSEED_GOPATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/gocode"));
    if !gopath.join("src/golang.org/x/mod/sumdb/tlog").is_dir() {
        return skip(&format!(
            "golang.org/x/mod is not under {} (set FAIRSEED_GOPATH)",
            gopath.display()
        ));
    }
    Some(gopath)
}

/// Runs `interop/verify.go` on the log copied into `dir`, with Go's cache in
/// `work`: (success, stdout, stderr).
pub fn verify(gopath: &Path, work: &Path, dir: &Path) -> (bool, String, String) {
    // From either crate's directory: `crates/<crate>/../tlog/interop`.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tlog/interop/verify.go");
    let out = Command::new("go")
        .arg("run")
        .arg(&script)
        .arg(dir)
        .env("GO111MODULE", "off")
        .env("GOPATH", gopath)
        .env("GOCACHE", work.join("gocache"))
        .env("GOFLAGS", "")
        .output()
        .expect("go runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

//! What the store's tests share: the PostgreSQL database to test against
//! (or a visible skip), and fresh schema names.

/// The PostgreSQL URL to test against. Without one the test says
/// `SKIPPED: <test>` on stderr, and fails if `FAIRSEED_REQUIRE_POSTGRES=1`
/// (CI sets it).
pub fn postgres_url(test: &str) -> Option<String> {
    if let Ok(url) = std::env::var("FAIRSEED_TEST_DB_URI") {
        return Some(url);
    }
    let why = "FAIRSEED_TEST_DB_URI is not set";
    assert!(
        std::env::var("FAIRSEED_REQUIRE_POSTGRES").as_deref() != Ok("1"),
        "{test}: FAIRSEED_REQUIRE_POSTGRES=1 but {why}"
    );
    eprintln!("SKIPPED: {test} ({why})");
    None
}

/// A schema name no other run uses.
pub fn fresh_schema_name() -> String {
    use sha2::{Digest, Sha256};
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let h = Sha256::digest(format!("{nanos}-{}", std::process::id()));
    format!("fairseed_store_test_{}", hex::encode(&h[..6]))
}

//! What the store's tests share: the PostgreSQL database to test against
//! (or a visible skip), and fresh schema names.

#[path = "../../../../tests/support/skip.rs"]
pub mod skip;

/// The PostgreSQL URL to test against. Without one the test is skipped
/// visibly (`skip::skip`), and fails if `FAIRSEED_REQUIRE_POSTGRES=1` (CI
/// sets it).
pub fn postgres_url(test: &str) -> Option<String> {
    if let Some(url) = std::env::var("FAIRSEED_TEST_DB_URI")
        .ok()
        .filter(|u| !u.is_empty())
    {
        return Some(url);
    }
    skip::skip(
        test,
        "FAIRSEED_REQUIRE_POSTGRES",
        "needs PostgreSQL (set FAIRSEED_TEST_DB_URI, e.g. postgres://postgres@127.0.0.1:5432/test)",
    );
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

//! The workspace's skip helper (`tests/support/skip.rs`, included by every
//! test that may skip): a skip is a line in the skip log that
//! `scripts/test.sh` prints, and a required test fails instead of skipping.
//! One test, so that no other test of this binary sees the variables it sets.

#[path = "../../../tests/support/skip.rs"]
mod skip;

#[test]
fn a_skip_is_recorded_and_a_required_test_fails() {
    let log = std::env::temp_dir().join(format!("fairseed-skip-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&log);
    std::env::set_var("FAIRSEED_SKIP_LOG", &log);
    std::env::remove_var("FAIRSEED_REQUIRE_SKIP_SELFTEST");

    skip::skip(
        "skip helper self-test 1 (not a real skip)",
        "FAIRSEED_REQUIRE_SKIP_SELFTEST",
        "no widget",
    );
    skip::record("skip helper self-test 2 (not a real skip)", "no gadget");
    let text = std::fs::read_to_string(&log).expect("the skip log is written");
    assert_eq!(
        text,
        "SKIPPED: skip helper self-test 1 (not a real skip): no widget\nSKIPPED: skip helper self-test 2 (not a real skip): no gadget\n"
    );

    std::env::set_var("FAIRSEED_REQUIRE_SKIP_SELFTEST", "1");
    let refused = std::panic::catch_unwind(|| {
        skip::skip(
            "skip helper self-test 3",
            "FAIRSEED_REQUIRE_SKIP_SELFTEST",
            "no widget",
        );
    });
    let message = refused.expect_err("a required test fails instead of skipping");
    let message = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("skip helper self-test 3: FAIRSEED_REQUIRE_SKIP_SELFTEST=1")
            && message.contains("no widget"),
        "{message}"
    );
    assert_eq!(
        std::fs::read_to_string(&log).expect("log"),
        text,
        "a failure is not recorded as a skip"
    );
    std::fs::remove_file(&log).expect("clean up");
}

//! Any bytes as a record: parsing, verifying and reporting must never panic,
//! and every entry point must give the same verdict.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let verdict = fairseed_core::verify_str(text);
        // Printing is part of the contract too: both outputs must survive any verdict.
        let _ = verdict.to_json(0);
        let _ = fairseed_core::report::render(0, &verdict);
        // Valid JSON takes the reference reading as well; shortcuts (the dice
        // scanner) must not change the verdict.
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            assert_eq!(fairseed_core::verify_value(&value), verdict, "verify_str and verify_value disagree");
        }
        // The bulk path `fairseed verify` takes.
        let batch = fairseed_core::Verifier::new().verify_batch(&[text]);
        assert_eq!(batch, [verdict], "verify_batch and verify_str disagree");
    }
});

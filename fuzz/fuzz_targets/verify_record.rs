//! Any bytes as a record: parsing, verifying and reporting must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let verdict = fairseed_core::verify_str(text);
        // Printing is part of the contract too: both outputs must survive any verdict.
        let _ = verdict.to_json(0);
        let _ = fairseed_core::report::render(0, &verdict);
        // Valid JSON takes the other entry point as well.
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            let again = fairseed_core::verify_value(&value);
            assert_eq!(again.valid, verdict.valid, "verify_str and verify_value disagree");
        }
    }
});

//! The log entry format, byte for byte as `docs/spec.md` writes it.

use fairseed_tlog::{EntryKind, LogEntry, TlogError};
use proptest::prelude::*;

fn dice_commitment() -> LogEntry {
    LogEntry {
        kind: EntryKind::Commitment,
        time_ms: 1,
        scheme: "dice_v1".into(),
        ids: vec!["p1".into()],
        values: vec!["ab".into()],
    }
}

/// The bytes the spec's table gives for `dice_commitment`, written out by hand.
const DICE_COMMITMENT_BYTES: &[u8] = &[
    0x01, 0x01, // version 1, commitment
    0, 0, 0, 0, 0, 0, 0, 1, // time_ms 1
    0, 7, b'd', b'i', b'c', b'e', b'_', b'v', b'1', // scheme
    1, 0, 2, b'p', b'1', // one id
    1, 0, 2, b'a', b'b', // one value
];

#[test]
fn an_entry_is_the_bytes_the_spec_describes() {
    assert_eq!(
        dice_commitment().encode().as_deref(),
        Ok(DICE_COMMITMENT_BYTES)
    );
    assert_eq!(
        LogEntry::decode(DICE_COMMITMENT_BYTES),
        Ok(dice_commitment())
    );
}

#[test]
fn anything_else_is_refused_with_the_field_named() {
    let refuse = |bytes: &[u8], field: &str| match LogEntry::decode(bytes) {
        Err(TlogError::BadEntry(reason)) => {
            assert!(reason.contains(field), "{reason:?} should name {field}")
        }
        other => panic!("{bytes:?} gave {other:?}"),
    };
    let mut bytes = DICE_COMMITMENT_BYTES.to_vec();
    bytes[0] = 2;
    refuse(&bytes, "version");
    bytes[0] = 1;
    // 0x03 (outcome) is a kind; 0x04 is not.
    bytes[1] = 4;
    refuse(&bytes, "kind");
    refuse(&DICE_COMMITMENT_BYTES[..5], "time_ms");
    refuse(&DICE_COMMITMENT_BYTES[..15], "scheme");
    refuse(
        &DICE_COMMITMENT_BYTES[..DICE_COMMITMENT_BYTES.len() - 1],
        "values[0]",
    );
    refuse(
        &[DICE_COMMITMENT_BYTES, &[0]].concat(),
        "after the last value",
    );
    let mut not_utf8 = DICE_COMMITMENT_BYTES.to_vec();
    not_utf8[12] = 0xff;
    refuse(&not_utf8, "scheme");
}

#[test]
fn oversized_entries_are_refused() {
    let mut entry = dice_commitment();
    entry.values = vec!["a".into(); 256];
    assert!(matches!(entry.encode(), Err(TlogError::BadEntry(_))));
    entry.values = vec!["a".repeat(40_000), "b".repeat(40_000)];
    assert!(matches!(entry.encode(), Err(TlogError::BadEntry(_))));
}

proptest! {
    #[test]
    fn entries_round_trip(
        reveal: bool,
        time_ms: u64,
        scheme in ".{0,20}",
        ids in prop::collection::vec(".{0,30}", 0..5),
        values in prop::collection::vec("[0-9a-f]{0,64}", 0..5),
    ) {
        let entry = LogEntry {
            kind: if reveal { EntryKind::Reveal } else { EntryKind::Commitment },
            time_ms,
            scheme,
            ids,
            values,
        };
        let bytes = entry.encode().expect("small");
        prop_assert_eq!(LogEntry::decode(&bytes), Ok(entry));
    }
}

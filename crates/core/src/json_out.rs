//! Compact JSON written straight into a `String`, byte for byte as
//! `serde_json::to_string` writes it.
//!
//! `fairseed verify --json` prints one verdict per record, a million of them for
//! a large file; going through serde's generic serializer cost more per record
//! than rolling the dice. Almost every string a verdict holds (hex digests,
//! check names, "matches") needs no escaping, so the writer looks for the bytes
//! that do and copies the runs between them whole. A property test holds the
//! output equal to serde_json's for any value.

use serde_json::Value;

/// Appends `s` as a JSON string literal, escaped exactly as serde_json escapes:
/// `"` and `\` with a backslash, `\b \t \n \f \r` by name, the other control
/// characters as `\u00XX` (lowercase hex), everything else as is.
pub(crate) fn push_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    while let Some(at) = next_escape(bytes, start) {
        // `at` is at an ASCII byte, so both slices end on character boundaries.
        out.push_str(&s[start..at]);
        push_escape(out, bytes[at]);
        start = at + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// The index of the first byte at or after `from` that must be escaped in a
/// JSON string: `"`, `\` or a control character below 0x20. (The dice
/// scanner uses it too, to find where a plain string ends.)
///
/// Eight bytes at a time, read little-endian: a byte is flagged when it is
/// below 0x20 or equals `"` or `\` (the classic "has a zero byte" test on the
/// word XORed with each of those). A subtraction's borrow only runs towards
/// higher bytes, so the lowest flagged byte is always a real one.
pub(crate) fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut chunks = rest.chunks_exact(8);
    let mut at = from;
    for chunk in &mut chunks {
        // `chunks_exact(8)` yields 8-byte slices.
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_else(|_| unreachable!()));
        if let Some(i) = first_flagged(word) {
            return Some(at + i);
        }
        at += 8;
    }
    // The last few bytes as one more word, padded with a byte that is never
    // flagged (and, not being flagged, borrows from nothing).
    let tail = chunks.remainder();
    let mut word = [b'a'; 8];
    word[..tail.len()].copy_from_slice(tail);
    first_flagged(u64::from_le_bytes(word)).map(|i| at + i)
}

/// The index of the lowest byte of `x` (little-endian) that must be escaped.
fn first_flagged(x: u64) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    // Bytes below 0x20: x - 0x20.. borrows into the high bit, unless the
    // byte already had it set (>= 0x80, not a control character).
    let flagged = (x.wrapping_sub(ONES * 0x20) & !x & HIGHS)
        | has_zero(x ^ (ONES * u64::from(b'"')))
        | has_zero(x ^ (ONES * u64::from(b'\\')));
    (flagged != 0).then(|| (flagged.trailing_zeros() / 8) as usize)
}

fn push_escape(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match b {
        b'"' => out.push_str("\\\""),
        b'\\' => out.push_str("\\\\"),
        0x08 => out.push_str("\\b"),
        0x09 => out.push_str("\\t"),
        0x0a => out.push_str("\\n"),
        0x0c => out.push_str("\\f"),
        0x0d => out.push_str("\\r"),
        _ => {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0x0f)]));
        }
    }
}

/// Appends `s` as a JSON string, or `null`.
pub(crate) fn push_opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => push_str(out, s),
        None => out.push_str("null"),
    }
}

/// Appends `v` as compact JSON (object keys in the map's own order, as serde_json).
pub(crate) fn push_value(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        // With `arbitrary_precision` a number keeps the digits serde_json writes.
        Value::Number(n) => out.push_str(n.as_str()),
        Value::String(s) => push_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_str(out, key);
                out.push(':');
                push_value(out, item);
            }
            out.push('}');
        }
    }
}

/// Appends `n` in decimal.
pub(crate) fn push_uint(out: &mut String, n: u64) {
    let mut buf = [0u8; 20];
    // Decimal digits are ASCII, so always UTF-8.
    out.push_str(core::str::from_utf8(crate::hash::decimal(n, &mut buf)).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The byte rule the word-at-a-time scan must agree with.
    fn needs_escape(b: u8) -> bool {
        b < 0x20 || b == b'"' || b == b'\\'
    }

    fn written(v: &Value) -> String {
        let mut out = String::new();
        push_value(&mut out, v);
        out
    }

    #[test]
    fn every_escape_as_serde_json() {
        let all: String = (0u8..0x80).map(char::from).chain("é€😀".chars()).collect();
        let v = Value::String(all);
        assert_eq!(written(&v), serde_json::to_string(&v).unwrap());
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u128>()
                .prop_map(|n| serde_json::Number::from_u128(n).map_or(Value::Null, Value::Number)),
            any::<f64>().prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\\x00-\\x7f]{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                prop::collection::btree_map("[\\x00-\\x7f]{0,8}|\\PC{0,4}", inner, 0..8)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The word-at-a-time scan finds exactly the first byte the byte-by-byte
        /// rule finds, wherever it sits and whatever surrounds it.
        #[test]
        fn next_escape_is_the_first_escaped_byte(
            // Mostly printable, so long clean runs come before the first escape.
            bytes in prop::collection::vec(prop_oneof![12 => 0x20u8..0x7f, 1 => any::<u8>()], 0..64),
            from in 0usize..64,
        ) {
            let from = from.min(bytes.len());
            let expected = bytes[from..].iter().position(|&b| needs_escape(b)).map(|p| from + p);
            prop_assert_eq!(next_escape(&bytes, from), expected);
        }

        #[test]
        fn any_value_as_serde_json(v in any_value()) {
            prop_assert_eq!(written(&v), serde_json::to_string(&v).unwrap());
        }
    }
}

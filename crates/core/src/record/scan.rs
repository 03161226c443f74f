//! A strict, borrowing scanner for the one JSON shape of a hot loop: a flat
//! `dice_v1` record.
//!
//! Bulk verification reads a million dice bets; serde_json's generic
//! deserializer was a quarter of the time per record. This scanner accepts
//! only the plainest spelling of JSON — objects, strings without escapes,
//! unsigned integers without fraction or exponent, `true`/`false` — and gives
//! up (`None`) on anything else, so the caller hands the text to serde_json
//! and the field reader, whose errors name the field. What it does accept, it
//! reads exactly as serde_json would; a property test holds the two paths to
//! the same verdict on the vectors and on edits of them.

use crate::json_out::next_escape;

/// A position in a JSON text. Every method skips leading whitespace and
/// returns `None` where the text is not the plain JSON it expects.
pub(crate) struct Scanner<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Skips JSON whitespace and returns the next byte, without taking it.
    pub(crate) fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        while let Some(&b) = bytes.get(self.at) {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(b);
            }
            self.at += 1;
        }
        None
    }

    /// Takes `b`, the next byte after whitespace.
    fn eat(&mut self, b: u8) -> Option<()> {
        (self.peek()? == b).then(|| self.at += 1)
    }

    /// Whether only whitespace is left.
    pub(crate) fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// A string with no escapes (and, as JSON requires, no control characters).
    pub(crate) fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        let end = next_escape(self.bytes(), start)?;
        // A backslash or a control character: not the plain spelling.
        (self.bytes()[end] == b'"').then_some(())?;
        self.at = end + 1;
        // `"` is ASCII, so `start..end` lies on character boundaries.
        self.text.get(start..end)
    }

    /// An unsigned integer as JSON spells it (`0` or no leading zero), with no
    /// fraction or exponent, that fits in a `u128`.
    pub(crate) fn uint128(&mut self) -> Option<u128> {
        self.peek()?;
        let bytes = self.bytes();
        let start = self.at;
        let digits = bytes[start..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(bytes.len() - start);
        let end = start + digits;
        let leading_zero = digits > 1 && bytes[start] == b'0';
        let float = matches!(bytes.get(end), Some(b'.' | b'e' | b'E'));
        if digits == 0 || leading_zero || float {
            return None;
        }
        self.at = end;
        let text = &bytes[start..end];
        // Up to 19 digits always fit in a u64, whose arithmetic is cheaper.
        if digits <= 19 {
            let n = text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
            return Some(u128::from(n));
        }
        text.iter().try_fold(0u128, |n, &d| {
            n.checked_mul(10)?.checked_add(u128::from(d - b'0'))
        })
    }

    /// An unsigned integer that fits in a `u64`.
    pub(crate) fn uint(&mut self) -> Option<u64> {
        u64::try_from(self.uint128()?).ok()
    }

    /// `true` or `false`.
    pub(crate) fn bool(&mut self) -> Option<bool> {
        self.peek()?;
        let rest = &self.bytes()[self.at..];
        let (value, len) = if rest.starts_with(b"true") {
            (true, 4)
        } else if rest.starts_with(b"false") {
            (false, 5)
        } else {
            return None;
        };
        self.at += len;
        // A literal runs into the next token only through a delimiter.
        let next = self.bytes().get(self.at);
        (!next.is_some_and(u8::is_ascii_alphanumeric)).then_some(value)
    }

    /// An object: `field(key, self)` reads each member's value, in order.
    /// Fails where `field` does, and on anything but `,` or `}` after a value
    /// (a trailing comma included).
    pub(crate) fn object(
        &mut self,
        mut field: impl FnMut(&'a str, &mut Self) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            field(key, self)?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }
}

/// Which of (up to 32) `keys` have been seen in an object, to refuse a
/// repeated key as serde_json does.
#[derive(Default)]
pub(crate) struct Seen(u32);

impl Seen {
    /// Marks `keys[i]` (where `keys[i] == key`) and returns `i`; `None` for an
    /// unknown key or one seen before.
    pub(crate) fn mark(&mut self, keys: &[&str], key: &str) -> Option<usize> {
        debug_assert!(keys.len() <= 32, "one bit per key in a u32");
        let i = keys
            .iter()
            .position(|k| k.len() == key.len() && k.as_bytes() == key.as_bytes())?;
        let bit = 1u32 << i;
        if self.0 & bit != 0 {
            return None;
        }
        self.0 |= bit;
        Some(i)
    }

    /// Whether `keys[i]` was seen.
    pub(crate) fn has(&self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::*;

    /// What the scanner reads of a whole text holding one value, as a JSON value.
    fn scan_value(text: &str) -> Option<Value> {
        let mut s = Scanner::new(text);
        let v = match s.peek()? {
            b'"' => Value::from(s.string()?),
            b't' | b'f' => Value::from(s.bool()?),
            _ => serde_json::from_str(&s.uint128()?.to_string()).ok()?,
        };
        s.at_end().then_some(v)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Whatever plain value the scanner accepts, serde_json reads the same.
        #[test]
        fn accepted_values_are_serde_json_values(text in "[ \\t]?(\"[a-z0-9 \"\\\\\u{1}é:,]{0,6}\"|-?[0-9]{1,4}([.eE][0-9])?|true|false|tru|falsey|1true)[ \\n]?") {
            if let Some(v) = scan_value(&text) {
                let want: Value = serde_json::from_str(&text).expect("serde_json accepts what the scanner does");
                prop_assert_eq!(v, want);
            }
        }

        /// Any integer serde_json reads as an unsigned integer, the scanner reads too.
        #[test]
        fn every_plain_uint_is_read(n in any::<u64>()) {
            prop_assert_eq!(Scanner::new(&n.to_string()).uint(), Some(n));
            prop_assert_eq!(Scanner::new(&format!(" {n}}}")).uint(), Some(n));
        }
    }

    #[test]
    fn refuses_what_is_not_plain() {
        for text in ["01", "-1", "1.5", "1e3", "", "+1", "18446744073709551616"] {
            assert_eq!(Scanner::new(text).uint(), None, "{text}");
        }
        for text in ["\"a\\\"b\"", "\"a\u{1}\"", "\"open", "x\"a\""] {
            assert_eq!(Scanner::new(text).string(), None, "{text:?}");
        }
    }

    #[test]
    fn objects_and_seen_keys() {
        let mut s = Scanner::new(" { \"a\" : 1 ,\"b\":true}  ");
        let mut seen = Seen::default();
        let mut got = Vec::new();
        s.object(|key, s| {
            let i = seen.mark(&["a", "b"], key)?;
            got.push((
                i,
                if i == 0 {
                    s.uint()?
                } else {
                    u64::from(s.bool()?)
                },
            ));
            Some(())
        })
        .unwrap();
        assert!(s.at_end());
        assert_eq!(got, [(0, 1), (1, 1)]);
        for bad in [
            "{\"a\":1,}",
            "{\"a\":1 \"b\":2}",
            "{\"a\":1,\"a\":2}",
            "{\"c\":1}",
        ] {
            let mut seen = Seen::default();
            let read = Scanner::new(bad).object(|key, s| {
                seen.mark(&["a", "b"], key)?;
                s.uint().map(drop)
            });
            assert_eq!(read, None, "{bad}");
        }
    }
}

//! Seeds, commitments and identifiers: checked newtypes that every scheme takes.
//!
//! A server seed is 32 CSPRNG bytes written as 64 lowercase hex characters, and
//! that *hex string* is what the schemes use (docs/spec.md §2.1). The core never draws
//! randomness itself: the caller passes the bytes to [`ServerSeed::from_bytes`].

use core::fmt;

use subtle::ConstantTimeEq;

use crate::error::Error;
use crate::hash::sha256;

/// A server seed: 64 lowercase hex characters, secret until revealed.
///
/// `Debug` is redacted; the hex is only reachable through [`ServerSeed::reveal`],
/// so a seed cannot slip into a log line or an error by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed(String);

impl ServerSeed {
    /// The seed for 32 bytes from the operating system's CSPRNG.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(hex::encode(bytes))
    }

    /// Parses a revealed seed; `field` names it in the error.
    ///
    /// # Errors
    /// The text is not exactly 64 lowercase hex characters. The message describes
    /// the text but never quotes it.
    pub fn parse_field(text: &str, field: &str) -> Result<Self, Error> {
        if is_lower_hex(text, 64) {
            Ok(Self(text.to_owned()))
        } else {
            Err(Error::invalid(field, describe_not_hex64(text)))
        }
    }

    /// Parses a revealed seed (field name `server_seed`).
    ///
    /// # Errors
    /// As [`ServerSeed::parse_field`].
    pub fn parse(text: &str) -> Result<Self, Error> {
        Self::parse_field(text, "server_seed")
    }

    /// The seed's hex: the one way to read it, used at the reveal.
    pub fn reveal(&self) -> &str {
        &self.0
    }

    /// The HMAC key: the hex string's bytes.
    pub(crate) fn key(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// `sha256(seed)`, published before the first draw.
    pub fn commitment(&self) -> Commitment {
        Commitment(sha256(self.key()))
    }
}

impl fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ServerSeed(<redacted>)")
    }
}

/// A SHA-256 commitment (or any 32-byte hash written as 64 hex characters).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment(pub(crate) [u8; 32]);

impl Commitment {
    /// Parses 64 lowercase hex characters, the only way a commitment is
    /// ever written (so one commitment has one spelling).
    ///
    /// # Errors
    /// The text is not 64 lowercase hex characters; `field` names it.
    pub fn parse_field(text: &str, field: &str) -> Result<Self, Error> {
        let mut out = [0u8; 32];
        if !is_lower_hex(text, 64) || hex::decode_to_slice(text, &mut out).is_err() {
            return Err(Error::invalid(field, describe_not_hex64(text)));
        }
        Ok(Self(out))
    }

    /// Parses a commitment (field name `commitment`).
    ///
    /// # Errors
    /// As [`Commitment::parse_field`].
    pub fn parse(text: &str) -> Result<Self, Error> {
        Self::parse_field(text, "commitment")
    }

    /// Whether `seed` is the seed this commits to, compared in constant time.
    pub fn matches(&self, seed: &ServerSeed) -> bool {
        self.ct_eq_commitment(&seed.commitment())
    }

    /// Constant-time equality.
    pub fn ct_eq_commitment(&self, other: &Commitment) -> bool {
        self.0.ct_eq(&other.0).into()
    }

    /// The raw 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Lowercase hex.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({})", self.to_hex())
    }
}

/// The longest client seed, in UTF-8 bytes.
pub const CLIENT_SEED_MAX_BYTES: usize = 64;

/// A player's client seed: non-empty UTF-8, at most 64 bytes (docs/spec.md §2.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClientSeed(String);

impl ClientSeed {
    /// Checks a client seed; `field` names it in the error.
    ///
    /// # Errors
    /// Empty, or longer than 64 bytes.
    pub fn parse_field(text: &str, field: &str) -> Result<Self, Error> {
        match text.len() {
            0 => Err(Error::invalid(
                field,
                "client seed is empty, expected 1 to 64 bytes",
            )),
            n if n > CLIENT_SEED_MAX_BYTES => Err(Error::invalid(
                field,
                format!("client seed is {n} bytes, expected 1 to 64"),
            )),
            _ => Ok(Self(text.to_owned())),
        }
    }

    /// Checks a client seed a player chooses now (the service, the CLI and
    /// the page): besides [`ClientSeed::parse_field`]'s length, printable
    /// text only — no control character, no bidirectional override, isolate
    /// or mark, no invisible formatting character — so a seed reads the same
    /// wherever it is shown. Records made elsewhere are still verified under
    /// the wider rule of [`ClientSeed::parse_field`].
    ///
    /// # Errors
    /// Empty, longer than 64 bytes, or a refused character (named by code
    /// point and offset).
    pub fn parse_chosen(text: &str, field: &str) -> Result<Self, Error> {
        let seed = Self::parse_field(text, field)?;
        match text.char_indices().find(|(_, c)| !is_printable(*c)) {
            None => Ok(seed),
            Some((at, c)) => Err(Error::invalid(
                field,
                format!(
                    "client seed has U+{:04X} ({}) at byte {at}; expected printable text",
                    u32::from(c),
                    refused_kind(c)
                ),
            )),
        }
    }

    /// Whether `text` is a client seed [`ClientSeed::parse`] accepts (its
    /// length; any UTF-8 text is allowed), without copying it.
    pub(crate) fn is_valid(text: &str) -> bool {
        (1..=CLIENT_SEED_MAX_BYTES).contains(&text.len())
    }

    /// Checks a client seed (field name `client_seed`).
    ///
    /// # Errors
    /// As [`ClientSeed::parse_field`].
    pub fn parse(text: &str) -> Result<Self, Error> {
        Self::parse_field(text, "client_seed")
    }

    /// The seed's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClientSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The longest identifier.
pub const IDENT_MAX_LEN: usize = 64;

/// A match id, table or session: `[A-Za-z0-9_.-]`, 1 to 64 characters.
///
/// The restricted alphabet keeps `:` and `,` (the schemes' separators) out.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ident(String);

impl Ident {
    /// Checks an identifier; `field` names it in the error.
    ///
    /// # Errors
    /// Empty, longer than 64, or a character outside `[A-Za-z0-9_.-]`.
    pub fn parse_field(text: &str, field: &str) -> Result<Self, Error> {
        if text.is_empty() || text.len() > IDENT_MAX_LEN {
            return Err(Error::invalid(
                field,
                format!("is {} characters, expected 1 to 64", text.chars().count()),
            ));
        }
        if let Some(c) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        {
            return Err(Error::invalid(
                field,
                format!("character {c:?} is not allowed, expected [A-Za-z0-9_.-]"),
            ));
        }
        Ok(Self(text.to_owned()))
    }

    /// Checks an identifier (field name `match_id`).
    ///
    /// # Errors
    /// As [`Ident::parse_field`].
    pub fn parse(text: &str) -> Result<Self, Error> {
        Self::parse_field(text, "match_id")
    }

    /// The identifier's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Constant-time equality of two byte strings (lengths are not secret).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

/// Bidirectional embeddings, overrides, isolates and marks: they reorder
/// how the text around them is displayed.
const BIDI: &[char] = &[
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

/// Invisible formatting and separators: zero-width characters, line and
/// paragraph separators, the byte-order mark, soft hyphen, interlinear
/// annotation marks.
const INVISIBLE: &[char] = &[
    '\u{00AD}', '\u{180E}', '\u{200B}', '\u{200C}', '\u{200D}', '\u{2028}', '\u{2029}', '\u{2060}',
    '\u{2061}', '\u{2062}', '\u{2063}', '\u{2064}', '\u{FEFF}', '\u{FFF9}', '\u{FFFA}', '\u{FFFB}',
];

fn is_printable(c: char) -> bool {
    !c.is_control() && !BIDI.contains(&c) && !INVISIBLE.contains(&c)
}

fn refused_kind(c: char) -> &'static str {
    if c.is_control() {
        "a control character"
    } else if BIDI.contains(&c) {
        "a bidirectional control"
    } else {
        "an invisible formatting character"
    }
}

/// Whether `text` is exactly `len` lowercase hex characters.
pub(crate) fn is_lower_hex(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Says why a text is not a 64-hex value, without quoting it (it may be a secret).
fn describe_not_hex64(text: &str) -> String {
    let bad = text
        .char_indices()
        .find(|(_, c)| !c.is_ascii_hexdigit())
        .map(|(i, c)| format!(", non-hex character {c:?} at offset {i}"))
        .unwrap_or_default();
    let upper = if bad.is_empty() && text.bytes().any(|b| b.is_ascii_uppercase()) {
        ", uppercase hex"
    } else {
        ""
    };
    format!(
        "expected 64 lowercase hex characters, got {} characters{bad}{upper}",
        text.chars().count()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_seed_round_trips_and_is_redacted() {
        let seed = ServerSeed::from_bytes([0xab; 32]);
        assert_eq!(seed.reveal(), "ab".repeat(32));
        assert_eq!(format!("{seed:?}"), "ServerSeed(<redacted>)");
        assert_eq!(ServerSeed::parse(seed.reveal()), Ok(seed.clone()));
        assert!(seed.commitment().matches(&seed));
    }

    #[test]
    fn bad_seeds_are_described_not_quoted() {
        let err = ServerSeed::parse("zz").unwrap_err().to_string();
        assert!(
            err.starts_with("server_seed: expected 64 lowercase hex"),
            "{err}"
        );
        assert!(!err.contains("zz"));
        let upper = "AB".repeat(32);
        assert!(ServerSeed::parse(&upper)
            .unwrap_err()
            .to_string()
            .contains("uppercase"));
    }

    #[test]
    fn client_seed_bounds() {
        assert!(ClientSeed::parse("").is_err());
        assert!(ClientSeed::parse(&"é".repeat(32)).is_ok());
        assert!(ClientSeed::parse(&"é".repeat(33)).is_err());
    }

    #[test]
    fn chosen_client_seeds_are_printable() {
        for ok in [
            "player",
            "a b",
            "é".repeat(32).as_str(),
            "日本語",
            "emoji 🎲",
            "~!@#$%^&*()",
        ] {
            assert!(
                ClientSeed::parse_chosen(ok, "client_seed").is_ok(),
                "{ok:?}"
            );
        }
        for (bad, code) in [
            ("nul\0", "U+0000"),
            ("new\nline", "U+000A"),
            ("tab\t", "U+0009"),
            ("del\u{7f}", "U+007F"),
            ("c1\u{85}", "U+0085"),
            ("rtl\u{202E}override", "U+202E"),
            ("isolate\u{2066}", "U+2066"),
            ("zero\u{200B}width", "U+200B"),
            ("\u{FEFF}bom", "U+FEFF"),
            ("line\u{2028}sep", "U+2028"),
        ] {
            let err = ClientSeed::parse_chosen(bad, "client_seed")
                .expect_err(bad)
                .to_string();
            assert!(err.starts_with("client_seed: "), "{err}");
            assert!(err.contains(code), "{bad:?}: {err}");
        }
        assert!(ClientSeed::parse_chosen("", "client_seed").is_err());
        assert!(ClientSeed::parse_chosen(&"x".repeat(65), "client_seed").is_err());
        // Verification keeps the wider rule: any UTF-8 of 1 to 64 bytes.
        assert!(ClientSeed::parse("rtl\u{202E}").is_ok());
    }

    #[test]
    fn commitments_are_lowercase_hex_only() {
        let lower = "ab".repeat(32);
        assert!(Commitment::parse(&lower).is_ok());
        let err = Commitment::parse(&"AB".repeat(32)).expect_err("uppercase");
        assert!(err.to_string().contains("uppercase"), "{err}");
        assert!(Commitment::parse(&"ab".repeat(31)).is_err());
    }

    #[test]
    fn ident_alphabet() {
        assert!(Ident::parse("table-1_a.b").is_ok());
        assert!(Ident::parse("a:b").is_err());
        assert!(Ident::parse(&"x".repeat(65)).is_err());
    }
}

//! The one error type of the core.
//!
//! Every message is a short lowercase phrase that names the field and the value
//! range, so a shell can print it as is ("client seed is 65 bytes, expected 1 to 64").
//! Secrets never appear in a message: a bad server seed is described, not quoted.

use thiserror::Error;

/// Why an input was refused or a draw could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A field has the wrong form or is out of range; `field` names it.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field's name as it appears in a record or a request (`server_seed`, `bet.target`).
        field: String,
        /// What is wrong and what was expected.
        reason: String,
    },
    /// A field a record needs is absent.
    #[error("{field}: missing")]
    Missing {
        /// The missing field's name.
        field: String,
    },
    /// The record names a scheme this verifier does not know.
    #[error("scheme: unknown scheme '{0}', expected one of match_seed_v2, match_seed_v1, chess_colour_v1, poker_hmac_v1, poker_hmac_v1_proof, dice_v1, selfpoker")]
    UnknownScheme(String),
    /// The input is not JSON, or not a record, array of records or JSON Lines.
    #[error("{0}")]
    Syntax(String),
    /// A mahjong wall has no tiles left to draw.
    #[error("mahjong wall is empty: cannot draw tile {draw} of a {tiles}-tile wall")]
    WallExhausted {
        /// The 1-based draw that found the wall empty.
        draw: usize,
        /// The wall's size.
        tiles: usize,
    },
}

/// Whether `text` is a field path as errors name them (`server_seed`,
/// `bet.target`, `hands[0].seats`, `client_seeds[1]`): no spaces.
fn is_field_path(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'[' | b']' | b'-'))
}

impl Error {
    /// A field that has the wrong form or range.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// A field that is absent.
    pub fn missing(field: impl Into<String>) -> Self {
        Self::Missing {
            field: field.into(),
        }
    }

    /// A stable code per kind, for showing the error in another language:
    /// `invalid`, `missing`, `unknown_scheme`, `syntax` or `wall_exhausted`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Invalid { .. } => "invalid",
            Self::Missing { .. } => "missing",
            Self::UnknownScheme(_) => "unknown_scheme",
            Self::Syntax(_) => "syntax",
            Self::WallExhausted { .. } => "wall_exhausted",
        }
    }

    /// The field an `Invalid` or `Missing` error names.
    pub fn field(&self) -> Option<&str> {
        match self {
            Self::Invalid { field, .. } | Self::Missing { field } => Some(field),
            _ => None,
        }
    }

    /// The 1-based line a JSON Lines syntax error names (`line 3: invalid JSON: …`).
    pub fn line(&self) -> Option<usize> {
        let Self::Syntax(text) = self else {
            return None;
        };
        text.strip_prefix("line ")?.split(':').next()?.parse().ok()
    }

    /// The error whose display is `text`: the inverse of `Display` for every
    /// kind, so a verdict's `error` text (a string, docs/spec.md §11.4) can be
    /// shown from its code and fields. Text of no other form is `Syntax`.
    pub fn from_message(text: &str) -> Self {
        if let Some(name) = text
            .strip_prefix("scheme: unknown scheme '")
            .and_then(|rest| rest.split_once("', expected one of "))
            .map(|(name, _)| name)
        {
            return Self::UnknownScheme(name.to_owned());
        }
        if let Some(rest) = text.strip_prefix("mahjong wall is empty: cannot draw tile ") {
            let mut numbers = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|p| !p.is_empty())
                .map(str::parse::<usize>);
            if let (Some(Ok(draw)), Some(Ok(tiles))) = (numbers.next(), numbers.next()) {
                return Self::WallExhausted { draw, tiles };
            }
        }
        match text.split_once(": ") {
            Some((field, "missing")) if is_field_path(field) => Self::missing(field),
            Some((field, reason)) if is_field_path(field) => Self::invalid(field, reason),
            _ => Self::Syntax(text.to_owned()),
        }
    }

    /// The same error with its field placed under `parent` (`nonce` → `bet.nonce`).
    #[must_use]
    pub fn within(self, parent: &str) -> Self {
        let join = |f: String| {
            if f.starts_with('[') {
                format!("{parent}{f}")
            } else {
                format!("{parent}.{f}")
            }
        };
        match self {
            Self::Invalid { field, reason } => Self::Invalid {
                field: join(field),
                reason,
            },
            Self::Missing { field } => Self::Missing { field: join(field) },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_message() {
        for e in [
            Error::invalid("server_seed", "expected 64 lowercase hex characters"),
            Error::invalid("hands[0].seats", "seat 3: expected 0 to 2: it repeats"),
            Error::missing("bet.target"),
            Error::UnknownScheme("dice_v9".into()),
            Error::Syntax("line 3: invalid JSON: expected value at line 1 column 2".into()),
            Error::Syntax("invalid JSON: EOF while parsing".into()),
            Error::WallExhausted {
                draw: 145,
                tiles: 144,
            },
        ] {
            let back = Error::from_message(&e.to_string());
            assert_eq!(back, e, "{e}");
            assert_eq!(back.code(), e.code());
        }
    }

    #[test]
    fn codes_fields_and_lines() {
        let e = Error::missing("nonce").within("bet");
        assert_eq!((e.code(), e.field()), ("missing", Some("bet.nonce")));
        assert_eq!(
            Error::Syntax("line 12: invalid JSON: x".into()).line(),
            Some(12)
        );
        assert_eq!(Error::Syntax("invalid JSON: x".into()).line(), None);
        assert_eq!(Error::from_message("no colon here").code(), "syntax");
    }
}

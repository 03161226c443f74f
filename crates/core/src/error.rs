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

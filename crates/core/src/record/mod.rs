//! Records (docs/spec.md §10): what a server writes and a verifier reads.
//!
//! One type per scheme. [`Record::from_value`] checks every field and names the
//! one that is wrong; each type's `to_value` writes the docs/spec.md §10 JSON, so the
//! server's records and the verifier's input are the same types.

mod chess;
mod common;
mod dice;
mod fields;
mod matches;
mod poker;
mod scan;
mod selfpoker;
mod split;

use serde_json::Value;

use crate::error::Error;

pub use self::chess::ChessRecord;
pub(crate) use self::dice::{ClaimedOutcome, DiceView};
pub use self::dice::{DiceBet, DiceRecord};
pub use self::matches::{MatchRecord, MatchScheme};
pub use self::poker::{PokerHand, PokerProofRecord, PokerRecord};
pub use self::selfpoker::SelfpokerRecord;
pub use self::split::split;

use self::fields::Fields;

/// Every scheme a record can name.
pub const SCHEMES: [&str; 7] = [
    "match_seed_v2",
    "match_seed_v1",
    "chess_colour_v1",
    "poker_hmac_v1",
    "poker_hmac_v1_proof",
    "dice_v1",
    "selfpoker",
];

/// A checked record of any scheme.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// `match_seed_v2` or `match_seed_v1`.
    Match(MatchRecord),
    /// `chess_colour_v1`.
    Chess(ChessRecord),
    /// `poker_hmac_v1`.
    Poker(PokerRecord),
    /// `poker_hmac_v1_proof`.
    PokerProof(PokerProofRecord),
    /// `dice_v1`.
    Dice(DiceRecord),
    /// `selfpoker`.
    Selfpoker(SelfpokerRecord),
}

impl Record {
    /// Reads and checks a record.
    ///
    /// # Errors
    /// Not an object, no or an unknown `scheme`, a missing, ill-typed,
    /// out-of-range or unknown field — the error names it.
    pub fn from_value(v: &Value) -> Result<Self, Error> {
        let f = Fields::of(v, "")?;
        let scheme = f.str("scheme")?;
        Ok(match scheme {
            "match_seed_v2" => Self::Match(MatchRecord::read(&f, MatchScheme::V2)?),
            "match_seed_v1" => Self::Match(MatchRecord::read(&f, MatchScheme::V1)?),
            "chess_colour_v1" => Self::Chess(ChessRecord::read(&f)?),
            "poker_hmac_v1" => Self::Poker(PokerRecord::read(&f)?),
            "poker_hmac_v1_proof" => Self::PokerProof(PokerProofRecord::read(&f)?),
            "dice_v1" => Self::Dice(DiceRecord::read(&f)?),
            "selfpoker" => Self::Selfpoker(SelfpokerRecord::read(&f)?),
            other => return Err(Error::UnknownScheme(other.to_owned())),
        })
    }

    /// The record as docs/spec.md §10 JSON.
    pub fn to_value(&self) -> Value {
        match self {
            Self::Match(r) => r.to_value(),
            Self::Chess(r) => r.to_value(),
            Self::Poker(r) => r.to_value(),
            Self::PokerProof(r) => r.to_value(),
            Self::Dice(r) => r.to_value(),
            Self::Selfpoker(r) => r.to_value(),
        }
    }
}

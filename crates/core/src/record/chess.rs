//! The `chess_colour_v1` record.

use serde_json::{Map, Value};

use super::common::{finish, object, only_keys, read_outcome};
use super::fields::Fields;
use crate::error::Error;
use crate::seed::{ClientSeed, Commitment, ServerSeed};

/// A chess pairing's colour draw. `commit_b` is `None` for a bot (`-` in JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct ChessRecord {
    /// Side A's seed, once revealed.
    pub seed_a: Option<ServerSeed>,
    /// Side A's commitment.
    pub commit_a: Commitment,
    /// Side A's client seed.
    pub client_a: ClientSeed,
    /// Side B's seed, once revealed (never for a bot).
    pub seed_b: Option<ServerSeed>,
    /// Side B's commitment; `None` for a bot.
    pub commit_b: Option<Commitment>,
    /// Side B's client seed; empty for a bot.
    pub client_b: String,
    /// What the server says happened.
    pub outcome: Option<Map<String, Value>>,
}

impl ChessRecord {
    pub(super) fn read(f: &Fields<'_>) -> Result<Self, Error> {
        only_keys(
            f,
            &[
                "seed_a", "commit_a", "client_a", "seed_b", "commit_b", "client_b",
            ],
        )?;
        let seed = |name: &str| {
            f.opt_str(name)?
                .map(|s| ServerSeed::parse_field(s, name))
                .transpose()
        };
        let commit_b = match f.str("commit_b")? {
            "-" => None,
            text => Some(Commitment::parse_field(text, "commit_b")?),
        };
        let client_b = f.opt_str("client_b")?.unwrap_or_default();
        let seed_b = seed("seed_b")?;
        if commit_b.is_none() {
            if seed_b.is_some() {
                return Err(Error::invalid(
                    "seed_b",
                    "a bot has no seed: expected no seed_b when commit_b is \"-\"",
                ));
            }
            if !client_b.is_empty() {
                return Err(Error::invalid(
                    "client_b",
                    "a bot has no client seed: expected \"\" when commit_b is \"-\"",
                ));
            }
        } else {
            ClientSeed::parse_field(client_b, "client_b")?;
        }
        Ok(Self {
            seed_a: seed("seed_a")?,
            commit_a: Commitment::parse_field(f.str("commit_a")?, "commit_a")?,
            client_a: ClientSeed::parse_field(f.str("client_a")?, "client_a")?,
            seed_b,
            commit_b,
            client_b: client_b.to_owned(),
            outcome: read_outcome(f)?,
        })
    }

    /// The record as docs/spec.md §10.3 JSON.
    pub fn to_value(&self) -> Value {
        let mut m = object("chess_colour_v1");
        if let Some(seed) = &self.seed_a {
            m.insert("seed_a".into(), seed.reveal().into());
        }
        m.insert("commit_a".into(), self.commit_a.to_hex().into());
        m.insert("client_a".into(), self.client_a.as_str().into());
        if let Some(seed) = &self.seed_b {
            m.insert("seed_b".into(), seed.reveal().into());
        }
        let commit_b = self.commit_b.map_or_else(|| "-".to_owned(), |c| c.to_hex());
        m.insert("commit_b".into(), commit_b.into());
        m.insert("client_b".into(), self.client_b.clone().into());
        finish(m, &self.outcome)
    }
}

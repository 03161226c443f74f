//! The `selfpoker` record.

use serde_json::{Map, Value};

use super::common::{finish, object, only_keys, read_outcome};
use super::fields::{kind, Fields};
use crate::error::Error;
use crate::seed::is_lower_hex;
use crate::selfpoker::{MAX_SEED, PLAYERS};

/// One selfpoker hand: the commit, the revealed seed, the number of players.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfpokerRecord {
    /// `sha256("selfpoker:" + seed)` as lowercase hex.
    pub commit: String,
    /// The 63-bit seed, once revealed in `hand_end`.
    pub seed: Option<u64>,
    /// Players dealt in, 2..=10.
    pub players: usize,
    /// What the server says happened.
    pub outcome: Option<Map<String, Value>>,
}

impl SelfpokerRecord {
    pub(super) fn read(f: &Fields<'_>) -> Result<Self, Error> {
        only_keys(f, &["commit", "seed", "players"])?;
        let commit = f.str("commit")?;
        if !is_lower_hex(commit, 64) {
            return Err(Error::invalid(
                "commit",
                format!(
                    "expected 64 lowercase hex characters, got {} characters",
                    commit.chars().count()
                ),
            ));
        }
        let players = f.uint("players", u64::MAX)?;
        if !(*PLAYERS.start() as u64..=*PLAYERS.end() as u64).contains(&players) {
            return Err(Error::invalid(
                "players",
                format!("{players} players, expected 2 to 10"),
            ));
        }
        Ok(Self {
            commit: commit.to_owned(),
            seed: f.opt("seed").map(read_seed).transpose()?,
            // players <= 10.
            players: players as usize,
            outcome: read_outcome(f)?,
        })
    }

    /// The record as docs/spec.md §10.7 JSON (the seed as an integer).
    pub fn to_value(&self) -> Value {
        let mut m = object("selfpoker");
        m.insert("commit".into(), self.commit.clone().into());
        if let Some(seed) = self.seed {
            m.insert("seed".into(), seed.into());
        }
        m.insert("players".into(), self.players.into());
        finish(m, &self.outcome)
    }
}

/// The seed as an integer or a canonical decimal string, `0 ..= 2^63-1`.
fn read_seed(v: &Value) -> Result<u64, Error> {
    match v {
        Value::String(s) => {
            let canonical = !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit())
                && (s == "0" || !s.starts_with('0'));
            match s.parse::<u64>() {
                Ok(n) if canonical && n <= MAX_SEED => Ok(n),
                Ok(n) if canonical => Err(Error::invalid(
                    "seed",
                    format!("{n} is out of range, expected 0 to 2^63-1"),
                )),
                _ if canonical => Err(Error::invalid(
                    "seed",
                    "is out of range, expected 0 to 2^63-1",
                )),
                _ => Err(Error::invalid(
                    "seed",
                    "expected a decimal integer without sign or leading zeros",
                )),
            }
        }
        Value::Number(_) => super::fields::uint(v, "seed", MAX_SEED),
        other => Err(Error::invalid(
            "seed",
            format!(
                "expected an integer or a decimal string, got {}",
                kind(other)
            ),
        )),
    }
}

//! The `deal` of a hand record dealt under `selfpoker_v2` (docs/spec.md §17.5)
//! or `selfpoker_v3` (§20.5): the session's commitment, the table, the seated
//! humans' client seeds, under v3 the hand's per-hand commits, revealed values
//! and withheld seats, and, once the session has ended, its secret.
//!
//! [`check`] ties the record's `seed` to them: the secret to its commitment,
//! the revealed values to their commits, then the seed to the HMAC
//! derivation. The seed's own `commit`, the deck and
//! the actions are then checked as for any hand ([`crate::record::replay`]).
//! The check reads of the record only what [`DealtHand`] holds.

use std::collections::BTreeMap;

use fairseed_core::selfpoker_v2::{self, ClientSeedEntry};
use fairseed_core::selfpoker_v3::{self, HandEntry, HandValue};
use fairseed_core::{Commitment, Error, ServerSeed};
use serde::{Deserialize, Serialize};

use crate::replay_error::ReplayError;
use crate::rules::Player;

/// The session, client seeds and (v3) per-hand values a hand's seed derives from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealV2 {
    /// [`selfpoker_v2::SCHEME`] or [`selfpoker_v3::SCHEME`].
    pub scheme: String,
    /// `sha256(session_secret)`, shown before any client seed was given.
    pub session_commit: String,
    /// The table, an identifier (docs/spec.md §1.5).
    pub table_id: String,
    /// Seat → client seed: v2, one per human seated when the hand started;
    /// v3, one per human dealt in.
    pub client_seeds: BTreeMap<usize, String>,
    /// v3: seat → commit of every seat that committed in the hand's round.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hand_commits: BTreeMap<usize, String>,
    /// v3: seat → revealed per-hand value, one per human dealt in.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hand_values: BTreeMap<usize, String>,
    /// v3: the seats that committed and did not reveal, ascending: sat out
    /// and dealt without.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withheld: Vec<usize>,
    /// The session secret, 64 lowercase hex; absent until the session ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_secret: Option<String>,
}

impl DealV2 {
    /// The deal of a hand at `table_id` under the session of `secret`;
    /// `revealed` says whether the secret goes into the record yet.
    pub fn new(
        secret: &[u8; 32],
        table_id: &str,
        client_seeds: &[ClientSeedEntry],
        revealed: bool,
    ) -> DealV2 {
        DealV2 {
            scheme: selfpoker_v2::SCHEME.to_owned(),
            session_commit: selfpoker_v2::session_commit(secret),
            table_id: table_id.to_owned(),
            client_seeds: client_seeds
                .iter()
                .map(|e| (e.seat, e.seed.as_str().to_owned()))
                .collect(),
            hand_commits: BTreeMap::new(),
            hand_values: BTreeMap::new(),
            withheld: Vec::new(),
            session_secret: revealed.then(|| ServerSeed::from_bytes(*secret).reveal().to_owned()),
        }
    }

    /// The client seeds, checked (`deal.client_seeds[<seat>]` names a bad one).
    fn entries(&self) -> Result<Vec<ClientSeedEntry>, Error> {
        self.client_seeds
            .iter()
            .map(|(seat, seed)| ClientSeedEntry::new(*seat, seed).map_err(in_deal))
            .collect()
    }

    /// Whether the deal is `selfpoker_v3`'s, with per-hand values.
    pub fn is_v3(&self) -> bool {
        self.scheme == selfpoker_v3::SCHEME
    }

    /// The v3 entries: each human dealt in with its client seed and value;
    /// a seed without a value (a derivation failure, found by [`check`]) is
    /// left out here.
    fn hand_entries(&self) -> Result<Vec<HandEntry>, Error> {
        self.entries()?
            .into_iter()
            .filter_map(|client| {
                let text = self.hand_values.get(&client.seat)?;
                let field = format!("deal.hand_values[{}]", client.seat);
                Some(HandValue::parse_field(text, &field).map(|value| HandEntry { client, value }))
            })
            .collect()
    }

    /// Checks every field's form, naming the first bad one (`deal.…`).
    ///
    /// # Errors
    /// The scheme is neither `selfpoker_v2` nor `selfpoker_v3`, a hex value
    /// is malformed, the table is not an identifier, a client seed or seat
    /// is out of range, or a v2 deal carries per-hand fields.
    pub fn check_form(&self, hand: u64) -> Result<(), Error> {
        if self.scheme != selfpoker_v2::SCHEME && !self.is_v3() {
            return Err(Error::invalid(
                "deal.scheme",
                format!("'{}', expected selfpoker_v2 or selfpoker_v3", self.scheme),
            ));
        }
        Commitment::parse_field(&self.session_commit, "deal.session_commit")?;
        if let Some(secret) = &self.session_secret {
            selfpoker_v2::parse_secret(secret, "deal.session_secret")?;
        }
        if !self.is_v3() {
            selfpoker_v2::message(&self.table_id, hand, &self.entries()?).map_err(in_deal)?;
            return self.no_hand_fields();
        }
        for (seat, commit) in &self.hand_commits {
            Commitment::parse_field(commit, &format!("deal.hand_commits[{seat}]"))?;
        }
        for (seat, value) in &self.hand_values {
            HandValue::parse_field(value, &format!("deal.hand_values[{seat}]"))?;
        }
        if let Some(pair) = self.withheld.windows(2).find(|w| w[0] >= w[1]) {
            return Err(Error::invalid(
                "deal.withheld",
                format!(
                    "seat {} after seat {}, expected seats ascending, each once",
                    pair[1], pair[0]
                ),
            ));
        }
        selfpoker_v3::message(&self.table_id, hand, &self.hand_entries()?).map_err(in_deal)?;
        Ok(())
    }

    /// A `selfpoker_v2` deal has no round: per-hand fields are an input error.
    fn no_hand_fields(&self) -> Result<(), Error> {
        let field = if !self.hand_commits.is_empty() {
            "deal.hand_commits"
        } else if !self.hand_values.is_empty() {
            "deal.hand_values"
        } else if !self.withheld.is_empty() {
            "deal.withheld"
        } else {
            return Ok(());
        };
        Err(Error::invalid(
            field,
            "per-hand values belong to selfpoker_v3, the deal says selfpoker_v2",
        ))
    }
}

/// What the deal's check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DealStatus {
    /// The secret matches its commitment and derives the record's seed.
    Derived,
    /// The session is still open: the secret is not in the record yet.
    Unrevealed,
}

/// What a deal is checked against: the hand of the record that carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealtHand {
    /// The hand's number.
    pub hand: u64,
    /// The seed the record says the hand was dealt from.
    pub seed: u64,
    /// The table's seats (`config.seats`).
    pub table_seats: usize,
    /// Each seat dealt in and who sits there, seat order.
    pub dealt_in: Vec<(usize, Player)>,
}

/// Checks the `selfpoker_v2` deal of the hand `record`: the secret (when
/// revealed) against `session_commit`, that every human dealt in (and no
/// AI) has a client seed, then that the derivation gives the record's `seed`.
///
/// # Errors
/// [`ReplayError`] naming the first thing that differs; a malformed field is
/// [`ReplayError::Input`].
pub fn check(deal: &DealV2, record: &DealtHand) -> Result<DealStatus, ReplayError> {
    let hand = record.hand;
    let input = |error| ReplayError::Input { hand, error };
    deal.check_form(hand).map_err(input)?;
    let secret = match &deal.session_secret {
        Some(text) => Some(selfpoker_v2::parse_secret(text, "deal.session_secret").map_err(input)?),
        None => None,
    };
    if let Some(secret) = &secret {
        if !selfpoker_v2::secret_matches(secret, &deal.session_commit) {
            return Err(ReplayError::SessionCommit {
                hand,
                hashed: selfpoker_v2::session_commit(secret),
                recorded: deal.session_commit.to_ascii_lowercase(),
            });
        }
    }
    if deal.is_v3() {
        check_reveals(deal, hand)?;
        check_withheld(deal, record)?;
    }
    check_seats(deal, record)?;
    let Some(secret) = secret else {
        return Ok(DealStatus::Unrevealed);
    };
    let derived = if deal.is_v3() {
        check_values_dealt_in(deal, hand)?;
        let entries = deal.hand_entries().map_err(input)?;
        selfpoker_v3::hand_seed(&secret, &deal.table_id, hand, &entries).map_err(input)?
    } else {
        let entries = deal.entries().map_err(input)?;
        selfpoker_v2::hand_seed(&secret, &deal.table_id, hand, &entries).map_err(input)?
    };
    if derived != record.seed {
        return Err(ReplayError::Derivation {
            hand,
            derived,
            recorded: record.seed,
        });
    }
    Ok(DealStatus::Derived)
}

/// v3: every revealed value is its seat's commit's (docs/spec.md §20.5, `reveals`).
fn check_reveals(deal: &DealV2, hand: u64) -> Result<(), ReplayError> {
    for (&seat, text) in &deal.hand_values {
        let Some(commit) = deal.hand_commits.get(&seat) else {
            return Err(ReplayError::Reveal {
                hand,
                seat,
                problem: " has a revealed value and no commit".to_owned(),
            });
        };
        let field = format!("deal.hand_values[{seat}]");
        let value = HandValue::parse_field(text, &field)
            .map_err(|error| ReplayError::Input { hand, error })?;
        if !value.matches(commit) {
            return Err(ReplayError::Reveal {
                hand,
                seat,
                problem: format!(
                    "'s revealed value hashes to {}, its commit is {}",
                    value.commit(),
                    commit.to_ascii_lowercase()
                ),
            });
        }
    }
    Ok(())
}

/// v3: every withheld seat committed, revealed nothing and is not dealt in
/// (docs/spec.md §20.5, `withheld`).
fn check_withheld(deal: &DealV2, record: &DealtHand) -> Result<(), ReplayError> {
    for &seat in &deal.withheld {
        let problem = if !deal.hand_commits.contains_key(&seat) {
            "is withheld and has no commit"
        } else if deal.hand_values.contains_key(&seat) {
            "is withheld and has a revealed value"
        } else if record.dealt_in.iter().any(|&(s, _)| s == seat) {
            "withheld its value and is dealt in"
        } else {
            continue;
        };
        return Err(ReplayError::Withheld {
            hand: record.hand,
            seat,
            problem,
        });
    }
    Ok(())
}

/// v3: the seats with a client seed are the seats with a value (every
/// human dealt in, [`check_seats`] ties them to the record's seats).
fn check_values_dealt_in(deal: &DealV2, hand: u64) -> Result<(), ReplayError> {
    let seeds = deal.client_seeds.keys();
    let values = deal.hand_values.keys();
    let odd = seeds
        .clone()
        .find(|s| !deal.hand_values.contains_key(s))
        .map(|s| format!("seat {s} is dealt in without a revealed value"))
        .or_else(|| {
            values
                .clone()
                .find(|s| !deal.client_seeds.contains_key(s))
                .map(|s| format!("seat {s} has a revealed value and is not dealt in"))
        });
    match odd {
        Some(difference) => Err(ReplayError::ClientSeeds { hand, difference }),
        None => Ok(()),
    }
}

/// Every human dealt in has a client seed, no AI dealt in has one, and every
/// seed's seat is at the table.
fn check_seats(deal: &DealV2, record: &DealtHand) -> Result<(), ReplayError> {
    let seats = record.table_seats;
    if let Some(seat) = deal.client_seeds.keys().find(|&&s| s >= seats) {
        return Err(ReplayError::ClientSeeds {
            hand: record.hand,
            difference: format!(
                "seat {seat} has a client seed, the table has seats 0 to {}",
                seats.saturating_sub(1)
            ),
        });
    }
    for &(seat, player) in &record.dealt_in {
        let has_seed = deal.client_seeds.contains_key(&seat);
        let problem = match player {
            Player::Human { .. } if !has_seed => "is a human dealt in without a client seed",
            Player::Ai { .. } if has_seed => "is an AI and has a client seed",
            _ => continue,
        };
        return Err(ReplayError::ClientSeeds {
            hand: record.hand,
            difference: format!("seat {seat} {problem}"),
        });
    }
    Ok(())
}

/// A core error about a field of the deal, named from the record's root.
fn in_deal(error: Error) -> Error {
    match error.field() {
        Some(field) if !field.starts_with("deal.") => {
            let reason = error.to_string();
            let reason = reason
                .strip_prefix(&format!("{field}: "))
                .unwrap_or(&reason);
            Error::invalid(format!("deal.{field}"), reason)
        }
        _ => error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Until the session ends a record carries the commitment, never the secret.
    #[test]
    fn an_unrevealed_deal_holds_no_secret() {
        let secret = [0x5a; 32];
        let seeds = [ClientSeedEntry::new(0, "me").expect("valid")];
        let hidden = DealV2::new(&secret, "t1", &seeds, false);
        let hex = ServerSeed::from_bytes(secret).reveal().to_owned();
        let json = serde_json::to_string(&hidden).expect("serializes");
        assert!(!json.contains(&hex) && !format!("{hidden:?}").contains(&hex));
        assert!(!json.contains("session_secret"), "{json}");
        assert!(json.contains(&selfpoker_v2::session_commit(&secret)));
        let shown = DealV2::new(&secret, "t1", &seeds, true);
        assert_eq!(shown.session_secret.as_deref(), Some(hex.as_str()));
    }
}

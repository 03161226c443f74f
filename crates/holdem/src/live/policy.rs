//! A table's policy: its blinds and seats, its AIs and their levels, each
//! turn's clock and the idle limit after which a table nobody can be dealt
//! into closes. Bounded (docs/spec.md, "A hold'em table's policy") and fixed
//! when the table opens: the table carries it, so a process serving the
//! table later, whatever its own settings, plays by the same policy.

use core::ops::RangeInclusive;

use fairseed_core::Error;
use fairseed_play::Millis;
use serde::{Deserialize, Serialize};

use crate::ai::Level;
use crate::rules::{apply, Command, HoldemError, Player, Table, TableConfig};

/// Each turn's clock: one second to ten minutes.
pub const ACTION_MS: RangeInclusive<i64> = 1_000..=600_000;

/// The idle limit: 100 ms to a day.
pub const IDLE_CLOSE_MS: RangeInclusive<i64> = 100..=86_400_000;

/// The largest big blind, 2^32 chips.
pub const MAX_BIG_BLIND: u64 = 1 << 32;

/// What a table plays by, fixed when it opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Seats, blinds, starting stack and each turn's clock.
    pub config: TableConfig,
    /// The AIs' levels, seated from seat 1 on (seat 0 is the opener's),
    /// or at `ai_seats` when it is given.
    pub ais: Vec<u8>,
    /// The seat of each AI of `ais`, ascending; empty for a live table's
    /// layout, seats 1, 2, … (a simulated table may seat its AIs anywhere).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai_seats: Vec<usize>,
    /// How long a table where nobody can be dealt in stays open after a
    /// person last did something there, counted while the table is served.
    pub idle_close_ms: i64,
    /// Anyone, the house included, may sit here. `false` (the default, and
    /// absent from the JSON): a private table, where a person other than its
    /// opener sits only with the invitation the opener shares
    /// (docs/spec.md §19.4).
    #[serde(default, skip_serializing_if = "is_private")]
    pub public: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
const fn is_private(public: &bool) -> bool {
    !*public
}

/// What a public table says in every view and record.
pub const PUBLIC_WORDS: &str = "a public table: anyone, the house included, may sit here";

/// What a private table says in every view.
pub const PRIVATE_WORDS: &str =
    "a private table: only its opener and the players they invite may sit here";

impl Policy {
    /// Checks every bound, naming the first field out of range (`ais[2]`,
    /// `action_ms`, …).
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the field.
    pub fn check(&self) -> Result<(), Error> {
        let c = &self.config;
        if c.small_blind == 0 {
            return Err(Error::invalid("small_blind", "0, expected at least 1"));
        }
        if c.big_blind > MAX_BIG_BLIND {
            return Err(Error::invalid(
                "big_blind",
                format!("{}, expected at most 2^32", c.big_blind),
            ));
        }
        if !ACTION_MS.contains(&c.action_ms) {
            return Err(Error::invalid(
                "action_ms",
                format!(
                    "{}, expected {} to {} (1 s to 10 min)",
                    c.action_ms,
                    ACTION_MS.start(),
                    ACTION_MS.end()
                ),
            ));
        }
        if !IDLE_CLOSE_MS.contains(&self.idle_close_ms) {
            return Err(Error::invalid(
                "idle_close_ms",
                format!(
                    "{}, expected {} to {} (100 ms to a day)",
                    self.idle_close_ms,
                    IDLE_CLOSE_MS.start(),
                    IDLE_CLOSE_MS.end()
                ),
            ));
        }
        c.validate().map_err(config_error)?;
        if !self.ai_seats.is_empty() {
            return Err(Error::invalid(
                "ai_seats",
                "a live table seats its AIs from seat 1 on; ai_seats is for simulated tables",
            ));
        }
        if self.ais.len() >= c.seats {
            return Err(Error::invalid(
                "ais",
                format!(
                    "{} AIs at {} seats, expected at most {}",
                    self.ais.len(),
                    c.seats,
                    c.seats - 1
                ),
            ));
        }
        for (i, &level) in self.ais.iter().enumerate() {
            if Level::from_number(level).is_none() {
                return Err(Error::invalid(
                    format!("ais[{i}]"),
                    format!("level {level}, expected 1 to 3"),
                ));
            }
        }
        Ok(())
    }

    /// What the policy seats at each seat of the table: `Some(level)` for
    /// an AI, `None` for a seat left to people.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `ais[i]` (a level outside 1 to 3) or
    /// `ai_seats` (not one ascending seat of the table per AI).
    pub fn layout(&self) -> Result<Vec<Option<u8>>, Error> {
        let seats = self.config.seats;
        let mut out = vec![None; seats];
        let at: Vec<usize> = if self.ai_seats.is_empty() {
            (1..=self.ais.len()).collect()
        } else if self.ai_seats.len() != self.ais.len() {
            return Err(Error::invalid(
                "ai_seats",
                format!(
                    "{} seats for {} AIs, expected one per AI",
                    self.ai_seats.len(),
                    self.ais.len()
                ),
            ));
        } else {
            self.ai_seats.clone()
        };
        for (i, (&seat, &level)) in at.iter().zip(&self.ais).enumerate() {
            if Level::from_number(level).is_none() {
                return Err(Error::invalid(
                    format!("ais[{i}]"),
                    format!("level {level}, expected 1 to 3"),
                ));
            }
            if seat >= seats || (i > 0 && seat <= at[i - 1]) {
                return Err(Error::invalid(
                    format!("ai_seats[{i}]"),
                    format!(
                        "seat {seat}, expected seats ascending, each once, 0 to {}",
                        seats.saturating_sub(1)
                    ),
                ));
            }
            out[seat] = Some(level);
        }
        Ok(out)
    }

    /// `sha256` of the policy's JSON as the table's log commits to it
    /// (docs/spec.md §19.3), lowercase hex: what a hand record's policy
    /// is compared with.
    pub fn commit(&self) -> String {
        fairseed_core::sha256_hex(self.to_json().as_bytes())
    }

    /// The policy as JSON, fields in their fixed order: the value of the
    /// table's policy entries (docs/spec.md §19).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The empty table of this policy with its AIs seated from seat 1 on.
    ///
    /// # Errors
    /// As [`Policy::check`].
    pub fn table(&self) -> Result<Table, Error> {
        self.check()?;
        let mut table = Table::new(self.config).map_err(config_error)?;
        for (seat, level) in self.layout()?.into_iter().enumerate() {
            let Some(level) = level else { continue };
            let command = Command::Sit {
                seat,
                player: Player::Ai { level },
            };
            table = apply(&table, command, Millis(0)).map_err(config_error)?.0;
        }
        Ok(table)
    }
}

fn config_error(e: HoldemError) -> Error {
    match e {
        HoldemError::Config { field, reason } => Error::invalid(field, reason),
        other => Error::invalid("config", other.to_string()),
    }
}

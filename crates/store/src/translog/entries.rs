//! Which entries each change queues (docs/spec.md §16.1): a dice pair's
//! commitment and reveal and each bet's outcome; a round's commitment when it
//! is created and its reveal when it ends. Each entry's ids and values are
//! [`fairseed_play::log_entries`]'s to build; this maps the store's rows onto
//! its inputs.

use fairseed_play::log_entries::{self, DiceOutcome};
use fairseed_tlog::LogEntry;

use crate::types::{BetRow, NewRound, RoundRow};

pub(crate) use log_entries::{dice_commitment, dice_reveal};

/// A settled bet under its pair's `commitment` and `client_seed`.
pub(crate) fn dice_outcome(commitment: &str, client_seed: &str, bet: &BetRow) -> LogEntry {
    log_entries::dice_outcome(&DiceOutcome {
        commitment,
        client_seed,
        nonce: bet.nonce,
        amount: bet.amount,
        condition: bet.condition,
        target: bet.target,
        roll: bet.roll,
        payout: bet.payout,
    })
}

/// A new round's commitment, if its kind logs one.
pub(crate) fn round_commitment(round: &NewRound) -> Option<LogEntry> {
    log_entries::round_commitment(&round.kind, &round.id, &round.commitment)
}

/// A round's revealed secret, if its kind logs one.
pub(crate) fn round_reveal(row: &RoundRow, secret: &str) -> Option<LogEntry> {
    log_entries::round_reveal(&row.kind, &row.id, secret)
}

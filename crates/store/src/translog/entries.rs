//! Which entries each change queues (docs/spec.md §16.1): a dice pair's
//! commitment and reveal and each bet's outcome; a round's commitment when it
//! is created and its reveal when it ends. The values are the text the
//! records carry, so a monitor can match every entry with the record a player holds.

use fairseed_tlog::{EntryKind, LogEntry};

use crate::types::{BetRow, NewRound, RoundRow};

/// The scheme of dice entries.
const DICE: &str = "dice_v1";

fn entry(kind: EntryKind, scheme: &str, ids: Vec<String>, values: Vec<String>) -> LogEntry {
    LogEntry {
        kind,
        // Set when the entry is queued.
        time_ms: 0,
        scheme: scheme.to_owned(),
        ids,
        values,
    }
}

/// The owner id of a player's dice pairs in the log: `p` and the account
/// number. It links a player's pairs, so a monitor sees that the next pair
/// rotated this one, which must then be revealed (docs/spec.md §16.7).
fn dice_owner(player_id: i64) -> String {
    format!("p{player_id}")
}

/// A new dice pair's commitment, named `[owner, pair]`, the pair by its commitment.
pub(crate) fn dice_commitment(player_id: i64, commitment: &str) -> LogEntry {
    entry(
        EntryKind::Commitment,
        DICE,
        vec![dice_owner(player_id), commitment.to_owned()],
        vec![commitment.to_owned()],
    )
}

/// A rotated dice pair's server seed, named as its commitment.
pub(crate) fn dice_reveal(player_id: i64, commitment: &str, server_seed: &str) -> LogEntry {
    entry(
        EntryKind::Reveal,
        DICE,
        vec![dice_owner(player_id), commitment.to_owned()],
        vec![server_seed.to_owned()],
    )
}

/// A settled bet under its pair's `commitment` and `client_seed`: ids the
/// commitment and the nonce; values the client seed, stake, condition,
/// target, roll and payout.
pub(crate) fn dice_outcome(commitment: &str, client_seed: &str, bet: &BetRow) -> LogEntry {
    entry(
        EntryKind::Outcome,
        DICE,
        vec![commitment.to_owned(), bet.nonce.to_string()],
        vec![
            client_seed.to_owned(),
            bet.amount.to_string(),
            bet.condition.as_str().to_owned(),
            bet.target.to_string(),
            bet.roll.to_string(),
            bet.payout.to_string(),
        ],
    )
}

/// The scheme of the rounds of `kind` whose commitment players are shown;
/// `None` for bookkeeping rounds (a poker table, a player's index).
fn round_scheme(kind: &str) -> Option<&'static str> {
    match kind {
        "match" => Some("match_seed_v1"),
        "chess" => Some("chess_colour_v1"),
        "poker" => Some("poker_hmac_v1"),
        "selfpoker" => Some("selfpoker"),
        // A live hold'em table's round is its seed session, which logs its
        // commitment and its end itself, under the table's own scheme
        // (`selfpoker_v2` or `selfpoker_v3`, docs/spec.md §17.1, §20).
        _ => None,
    }
}

/// A new round's commitment, named by the round id.
pub(crate) fn round_commitment(round: &NewRound) -> Option<LogEntry> {
    let scheme = round_scheme(&round.kind)?;
    Some(entry(
        EntryKind::Commitment,
        scheme,
        vec![round.id.clone()],
        vec![round.commitment.clone()],
    ))
}

/// A round's revealed secret. A hold'em table logs its session's end
/// itself, with the reason beside the secret (docs/spec.md §17.4).
pub(crate) fn round_reveal(row: &RoundRow, secret: &str) -> Option<LogEntry> {
    let scheme = round_scheme(&row.kind)?;
    Some(entry(
        EntryKind::Reveal,
        scheme,
        vec![row.id.clone()],
        vec![secret.to_owned()],
    ))
}

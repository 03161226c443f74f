//! The seed of a live table's hands under `selfpoker_v2` (docs/spec.md
//! §17.2) and, for the hand being played, `selfpoker_v3` (§20.3): what the
//! service deals from and re-derives the cards from when it loads a table.

use fairseed_core::selfpoker_v2;

use super::error::{DerivationError, LiveError};
use super::round;
use super::session::{ClientSeed, Scheme};
use super::table::LiveTable;

/// The seed of the next hand under `selfpoker_v2`: the HMAC of docs/spec.md
/// §17.2 over the table, the next hand's number and the seated humans'
/// client seeds, keyed by the session `secret`.
///
/// # Errors
/// [`LiveError::Derivation`] when no human with a client seed is seated, or
/// the table id is not an identifier.
pub fn derived_seed(live: &LiveTable, secret: &[u8; 32]) -> Result<u64, LiveError> {
    let hand = live.table.hands_played + 1;
    session_seed(live, secret, hand, &live.seated_client_seeds())
}

/// The seed of the hand being played under `selfpoker_v2` (`None` between
/// hands): what the service re-derives its cards from when it loads a table.
///
/// # Errors
/// As [`derived_seed`].
pub fn running_seed(live: &LiveTable, secret: &[u8; 32]) -> Result<Option<u64>, LiveError> {
    let Some(hand) = &live.table.hand else {
        return Ok(None);
    };
    if live.session.scheme == Scheme::SelfpokerV3 {
        let values = live
            .round
            .as_ref()
            .filter(|r| r.hand == hand.number)
            .map(|r| &r.values)
            .ok_or(DerivationError::NoRound { hand: hand.number })?;
        return round::hand_seed(live, secret, hand.number, &live.hand_client_seeds, values)
            .map(Some);
    }
    session_seed(live, secret, hand.number, &live.hand_client_seeds).map(Some)
}

fn session_seed(
    live: &LiveTable,
    secret: &[u8; 32],
    hand: u64,
    seeds: &[ClientSeed],
) -> Result<u64, LiveError> {
    let entries = seeds
        .iter()
        .map(|c| selfpoker_v2::ClientSeedEntry::new(c.seat, &c.seed))
        .collect::<Result<Vec<_>, _>>()
        .map_err(DerivationError::Input)?;
    selfpoker_v2::hand_seed(secret, &live.table_id, hand, &entries)
        .map_err(|e| DerivationError::Input(e).into())
}

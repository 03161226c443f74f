//! A live table in storable form: the hand being played loses its seed,
//! its hole cards and its board (all derived from the seed), so the stored
//! text holds no card anyone may not see yet. The service keeps the seed
//! sealed apart and [`restore`]s the hand from it on load.

use super::table::LiveTable;
use crate::card::Card;
use crate::rules::HoldemError;

/// The card every hidden card is written as.
const BLANK: Card = match Card::new(0) {
    Some(c) => c,
    None => panic!("card 0 exists"),
};

/// `live` without the secrets of the hand being played, and that hand's
/// seed (`None` between hands).
pub fn strip(live: &LiveTable) -> (LiveTable, Option<u64>) {
    let mut out = live.clone();
    let seed = out.table.hand.as_mut().map(|hand| {
        let seed = hand.seed;
        hand.seed = 0;
        hand.board = [BLANK; 5];
        for p in &mut hand.players {
            p.hole = [BLANK; 2];
        }
        seed
    });
    (out, seed)
}

/// A stripped table with its hand's cards dealt again from `seed`, as the
/// rules deal them (player `j` in seat order takes deck cards `2j`, `2j+1`;
/// the board is cards `2n..2n+4`).
///
/// # Errors
/// [`HoldemError::Seed`] if `seed` is not the one the hand committed to, or
/// a hand is being played and no seed is given.
pub fn restore(stripped: &LiveTable, seed: Option<u64>) -> Result<LiveTable, HoldemError> {
    let mut out = stripped.clone();
    let Some(hand) = out.table.hand.as_mut() else {
        return Ok(out);
    };
    let seed = seed.ok_or(HoldemError::NoHand)?;
    if fairseed_core::selfpoker::commit(seed) != hand.commit {
        return Err(HoldemError::Seed(seed));
    }
    let deck = fairseed_core::selfpoker::deck(seed);
    let card = |i: usize| Card::from_deck(deck[i]);
    let n = hand.players.len();
    for (j, p) in hand.players.iter_mut().enumerate() {
        p.hole = [card(2 * j), card(2 * j + 1)];
    }
    hand.board = core::array::from_fn(|k| card(2 * n + k));
    hand.seed = seed;
    Ok(out)
}

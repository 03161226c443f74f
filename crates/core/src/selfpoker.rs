//! `selfpoker`: a 63-bit seed, its commit, and NumPy's deal (docs/spec.md §9).

use serde::Serialize;

use crate::error::Error;
use crate::hash::sha256_hex;
use crate::numpy::{shuffle, Pcg64};

/// The largest seed: `secrets.randbits(63)` is below 2^63.
pub const MAX_SEED: u64 = (1 << 63) - 1;
/// Players at a selfpoker table.
pub const PLAYERS: core::ops::RangeInclusive<usize> = 2..=10;

/// `sha256("selfpoker:" + seed)`.
pub fn commit(seed: u64) -> String {
    sha256_hex(format!("selfpoker:{seed}").as_bytes())
}

/// `default_rng(seed).permutation(52)` as card ids (`rank = id div 4`, `suit = id mod 4`).
pub fn deck(seed: u64) -> [u8; 52] {
    let mut deck: [u8; 52] = core::array::from_fn(|i| i as u8);
    shuffle(&mut Pcg64::new(seed), &mut deck);
    deck
}

/// A hand's deal: the deck, two cards per player (seat ascending), the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SelfpokerDeal {
    /// The whole permuted deck.
    #[serde(serialize_with = "as_slice")]
    pub deck: [u8; 52],
    /// Player `j` holds `deck[2j]`, `deck[2j+1]`.
    pub holes: Vec<[u8; 2]>,
    /// `deck[2p .. 2p+4]`.
    pub board: [u8; 5],
}

/// Deals a hand for `players` players.
///
/// # Errors
/// `seed` is 2^63 or more, or `players` is outside 2..=10.
pub fn deal(seed: u64, players: usize) -> Result<SelfpokerDeal, Error> {
    if seed > MAX_SEED {
        return Err(Error::invalid(
            "seed",
            format!("{seed} is out of range, expected 0 to 2^63-1"),
        ));
    }
    if !PLAYERS.contains(&players) {
        return Err(Error::invalid(
            "players",
            format!("{players} players, expected 2 to 10"),
        ));
    }
    let deck = deck(seed);
    Ok(SelfpokerDeal {
        deck,
        holes: (0..players)
            .map(|j| [deck[2 * j], deck[2 * j + 1]])
            .collect(),
        board: core::array::from_fn(|k| deck[2 * players + k]),
    })
}

/// serde derives stop at 32-element arrays; a deck is written as a list.
fn as_slice<S: serde::Serializer>(deck: &[u8; 52], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(deck.iter())
}

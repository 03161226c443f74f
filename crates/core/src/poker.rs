//! `poker_hmac_v1`: per-hand values, Merkle-committed decks, holes, board, proofs (docs/spec.md §7).

use std::collections::BTreeMap;

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::hash::{hmac256_keyed, hmac256_with};
use crate::merkle::{self, MerkleTree, DEPTH};
use crate::seed::{ClientSeed, Commitment, Ident, ServerSeed};
use crate::shuffle::shuffled_ids;
use crate::stream::HmacStream;

/// Cards in the deck.
pub const CARDS: usize = 52;
/// Seats are numbered 0..=9.
pub const MAX_SEAT: u8 = 9;

/// A hand's value: `hmac256(server_seed, "pk1:hand:" + T + ":" + S + ":" + n)` as hex.
///
/// Secret until the session is revealed: `Debug` is redacted, `Display` writes the hex.
#[derive(Clone, PartialEq, Eq)]
pub struct HandValue(String);

impl HandValue {
    /// `sha256(hand_value)`, stored and published before the deal.
    pub fn commitment(&self) -> Commitment {
        Commitment(crate::hash::sha256(self.0.as_bytes()))
    }

    /// The value's hex.
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for HandValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HandValue(<redacted>)")
    }
}

impl fmt::Display for HandValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The value of hand `n` of session `session` at table `table`.
pub fn hand_value(seed: &ServerSeed, table: &Ident, session: &Ident, n: u64) -> HandValue {
    let msg = format!("pk1:hand:{table}:{session}:{n}");
    HandValue(crate::hash::hmac256_hex(seed.key(), msg.as_bytes()))
}

/// `join(",", [seat + "=" + client_seed for each seat ascending])`.
fn seats_text(seats: &BTreeMap<u8, ClientSeed>) -> String {
    seats
        .iter()
        .map(|(seat, seed)| format!("{seat}={seed}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Checks a hand's seats: 2 to 10 players on seats 0..=9.
///
/// # Errors
/// Fewer than 2 players or a seat above 9 (field `seats`).
pub fn check_seats(seats: &BTreeMap<u8, ClientSeed>) -> Result<(), Error> {
    if seats.len() < 2 {
        return Err(Error::invalid(
            "seats",
            format!("{} players, expected 2 to 10", seats.len()),
        ));
    }
    if let Some(seat) = seats.keys().find(|&&s| s > MAX_SEAT) {
        return Err(Error::invalid(
            "seats",
            format!("seat {seat} does not exist, expected seats 0 to 9"),
        ));
    }
    Ok(())
}

/// One dealt hand: the deck, its salts and its Merkle tree.
#[derive(Debug, Clone)]
pub struct PokerDeck {
    deck: [u8; CARDS],
    salts: Vec<String>,
    tree: MerkleTree,
    seats: Vec<u8>,
}

/// Deals hand `n`: `deck = shuffle([0..51])` over
/// `word(hand_value, "pk1:" + T + ":" + S + ":" + n + ":" + seats + ":" + k)`,
/// then salts, leaves and the 64-leaf tree.
///
/// # Errors
/// The seats are not 2 to 10 players on seats 0..=9.
pub fn deal(
    value: &HandValue,
    table: &Ident,
    session: &Ident,
    n: u64,
    seats: &BTreeMap<u8, ClientSeed>,
) -> Result<PokerDeck, Error> {
    check_seats(seats)?;
    let prefix = format!("pk1:{table}:{session}:{n}:{}:", seats_text(seats));
    let mut stream = HmacStream::new(value.0.as_bytes(), prefix.as_bytes());
    let deck: [u8; CARDS] = shuffled_ids(&mut stream);
    let keyed = hmac256_keyed(value.0.as_bytes());
    let salts: Vec<String> = (0..CARDS)
        .map(|i| hex::encode(hmac256_with(&keyed, format!("pk1:salt:{i}").as_bytes())))
        .collect();
    let pad = merkle::pad();
    let leaves = core::array::from_fn(|i| match deck.get(i) {
        Some(&card) => merkle::leaf(i, card, &salts[i]),
        None => pad,
    });
    Ok(PokerDeck {
        deck,
        salts,
        tree: MerkleTree::new(leaves),
        seats: seats.keys().copied().collect(),
    })
}

impl PokerDeck {
    /// The shuffled deck, card ids as in docs/spec.md §4.1.
    pub fn deck(&self) -> &[u8; CARDS] {
        &self.deck
    }

    /// `deck_root` as hex, published before the first card.
    pub fn root(&self) -> String {
        hex::encode(self.tree.root())
    }

    /// Each seated player's two cards: the `j`-th seat ascending gets `deck[2j]`, `deck[2j+1]`.
    pub fn holes(&self) -> BTreeMap<u8, [u8; 2]> {
        self.seats
            .iter()
            .enumerate()
            .map(|(j, &seat)| (seat, [self.deck[2 * j], self.deck[2 * j + 1]]))
            .collect()
    }

    /// Deck positions of a seat's hole cards, if the seat is in the hand.
    pub fn hole_positions(&self, seat: u8) -> Option<[usize; 2]> {
        let j = self.seats.iter().position(|&s| s == seat)?;
        Some([2 * j, 2 * j + 1])
    }

    /// Deck positions of the board: `2p .. 2p+4`.
    pub fn board_positions(&self) -> [usize; 5] {
        let p = self.seats.len();
        core::array::from_fn(|k| 2 * p + k)
    }

    /// The board, `deck[2p .. 2p+4]`; no burn cards.
    pub fn board(&self) -> [u8; 5] {
        self.board_positions().map(|i| self.deck[i])
    }

    /// The proof of deck position `i`: card, salt and Merkle path.
    ///
    /// # Panics
    /// `i >= 52` is a caller bug.
    pub fn proof(&self, i: usize) -> LeafProof {
        assert!(i < CARDS, "deck position {i} is outside the 52-card deck");
        LeafProof {
            i,
            card: self.deck[i],
            salt: self.salts[i].clone(),
            path: self.tree.path(i).map(hex::encode),
        }
    }
}

/// One proven card: position, card, salt and the 6 siblings, leaf level first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeafProof {
    /// Deck position, 0..=51.
    pub i: usize,
    /// The card id at that position.
    pub card: u8,
    /// `salt_i` as hex.
    pub salt: String,
    /// Sibling hashes as hex, leaf level first.
    pub path: [String; DEPTH],
}

/// Checks one proof against `deck_root` without the seed.
///
/// # Errors
/// A malformed field (named), or a path that does not lead to the root.
pub fn verify_proof(deck_root: &Commitment, proof: &LeafProof) -> Result<(), Error> {
    if proof.i >= CARDS {
        return Err(Error::invalid(
            "i",
            format!("position {} is not a card, expected 0 to 51", proof.i),
        ));
    }
    if usize::from(proof.card) >= CARDS {
        return Err(Error::invalid(
            "card",
            format!("card id {} is out of range, expected 0 to 51", proof.card),
        ));
    }
    if !crate::seed::is_lower_hex(&proof.salt, 64) {
        return Err(Error::invalid(
            "salt",
            "expected 64 lowercase hex characters",
        ));
    }
    let mut path = [[0u8; 32]; DEPTH];
    for (k, (dst, src)) in path.iter_mut().zip(&proof.path).enumerate() {
        *dst = Commitment::parse_field(src, &format!("path[{k}]"))?.0;
    }
    let leaf = merkle::leaf(proof.i, proof.card, &proof.salt);
    merkle::check_path(proof.i, leaf, &path, deck_root.as_bytes())
}

//! `selfpoker_v3`: `selfpoker_v2` with no last word (docs/spec.md §20).
//!
//! Under `selfpoker_v2` the house knows the session secret, so a seat it
//! controls that gives its client seed after a real player's knows every
//! other input of the coming hand seeds and can try seeds offline until the
//! decks suit it. Here every human dealt into a hand also gives a fresh
//! per-hand value, committed to before any value of that hand is revealed:
//! the last to reveal can only reveal what it committed to, or withhold and
//! be dealt out, in plain sight. The hand seed is an HMAC of the session
//! secret over the table, the hand number and, per human dealt in, the client
//! seed and the revealed value; its commit and deck are §9's unchanged, so
//! the source site's own Python check still holds hand by hand.

use crate::error::Error;
use crate::seed::{ClientSeed, ServerSeed};
use crate::selfpoker_v2::{self, by_seat, header, push_seed, seed_of_message, ClientSeedEntry};

pub use crate::selfpoker_v2::DerivedHand;

/// The scheme name.
pub const SCHEME: &str = "selfpoker_v3";
/// The first bytes of every hand message.
pub const MESSAGE_PREFIX: &str = "selfpoker_v3:";

/// A per-hand value: 32 random bytes a human's browser draws for one hand,
/// written as 64 lowercase hex characters. Its `Debug` shows no byte: the
/// value is the seat's secret until the hand's reveal.
#[derive(Clone, PartialEq, Eq)]
pub struct HandValue(ServerSeed);

impl core::fmt::Debug for HandValue {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("HandValue(..)")
    }
}

impl HandValue {
    /// The value of these 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> HandValue {
        HandValue(ServerSeed::from_bytes(bytes))
    }

    /// Reads a revealed value: 64 lowercase hex characters.
    ///
    /// # Errors
    /// Anything else; `field` names it and the text is described, never quoted.
    pub fn parse_field(text: &str, field: &str) -> Result<HandValue, Error> {
        ServerSeed::parse_field(text, field).map(HandValue)
    }

    /// The 64 lowercase hex characters: what is revealed, hashed and derived from.
    pub fn as_hex(&self) -> &str {
        self.0.reveal()
    }

    /// `sha256` of the 64 hex characters, as lowercase hex: the commit a
    /// browser sends before any value of the hand is revealed (as §2.2).
    pub fn commit(&self) -> String {
        self.0.commitment().to_hex()
    }

    /// Whether this is the value `commit` (64 hex characters, either case)
    /// commits to, compared in constant time.
    pub fn matches(&self, commit: &str) -> bool {
        crate::seed::ct_eq(
            self.commit().as_bytes(),
            commit.to_ascii_lowercase().as_bytes(),
        )
    }
}

/// One human dealt into the hand: its seat, client seed and revealed value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandEntry {
    /// The seat and the seed the player chose after seeing the session commitment.
    pub client: ClientSeedEntry,
    /// The value revealed for this hand.
    pub value: HandValue,
}

impl HandEntry {
    /// An entry for `seat`: its client `seed` (checked as docs/spec.md §2.3)
    /// and its revealed `value` (64 lowercase hex characters).
    ///
    /// # Errors
    /// The seed is empty or longer than 64 bytes (`client_seeds[<seat>]`), or
    /// the value is not 64 lowercase hex characters (`hand_values[<seat>]`).
    pub fn new(seat: usize, seed: &str, value: &str) -> Result<HandEntry, Error> {
        Ok(HandEntry {
            client: ClientSeedEntry::new(seat, seed)?,
            value: HandValue::parse_field(value, &format!("hand_values[{seat}]"))?,
        })
    }

    /// The seat.
    pub fn seat(&self) -> usize {
        self.client.seat
    }

    /// The client seed.
    pub fn seed(&self) -> &ClientSeed {
        &self.client.seed
    }
}

/// The exact bytes the hand's HMAC is computed over:
///
/// ```text
/// "selfpoker_v3:" + table_id + ":" + hand + ":" + count
///   + for each human dealt in, seat ascending:
///       ":" + seat + "=" + len + ":" + client_seed + ":" + value
/// ```
///
/// As `selfpoker_v2`'s message with each revealed value (64 hex characters,
/// fixed length) after its seat's client seed, so it reads back one way only.
///
/// # Errors
/// `table_id` is not an identifier, `hand` is 0, a seat is above 9 or appears
/// twice, or there is no entry at all; the error names the field.
pub fn message(table_id: &str, hand: u64, entries: &[HandEntry]) -> Result<Vec<u8>, Error> {
    let sorted = by_seat(entries, HandEntry::seat, "client_seeds")?;
    let mut msg = header(MESSAGE_PREFIX, table_id, hand, sorted.len())?;
    for entry in sorted {
        push_seed(&mut msg, &entry.client);
        msg.push(b':');
        msg.extend_from_slice(entry.value.as_hex().as_bytes());
    }
    Ok(msg)
}

/// The hand's selfpoker seed: HMAC-SHA256, keyed by the secret's 64 lowercase
/// hex characters, of [`message`]; its first 8 bytes read big-endian with the
/// top bit cleared, as `selfpoker_v2`'s.
///
/// # Errors
/// As [`message`].
pub fn hand_seed(
    secret: &[u8; 32],
    table_id: &str,
    hand: u64,
    entries: &[HandEntry],
) -> Result<u64, Error> {
    let msg = message(table_id, hand, entries)?;
    Ok(seed_of_message(secret, &msg))
}

/// [`hand_seed`], then its commit and deck.
///
/// # Errors
/// As [`message`].
pub fn derive_hand(
    secret: &[u8; 32],
    table_id: &str,
    hand: u64,
    entries: &[HandEntry],
) -> Result<DerivedHand, Error> {
    hand_seed(secret, table_id, hand, entries).map(DerivedHand::of)
}

/// The session's commitment, as `selfpoker_v2`'s: the secret is the same kind.
pub fn session_commit(secret: &[u8; 32]) -> String {
    selfpoker_v2::session_commit(secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn message_bytes_are_exact_and_seat_ordered() {
        let entries = [
            HandEntry::new(4, "b:o", B).expect("valid"),
            HandEntry::new(0, "ann", A).expect("valid"),
        ];
        let msg = message("t1", 3, &entries).expect("valid");
        let want = format!("selfpoker_v3:t1:3:2:0=3:ann:{A}:4=3:b:o:{B}");
        assert_eq!(msg, want.as_bytes());
    }

    #[test]
    fn bad_inputs_name_their_field() {
        let upper = HandEntry::new(2, "x", &A.to_ascii_uppercase()).expect_err("upper");
        assert!(upper.to_string().starts_with("hand_values[2]: "), "{upper}");
        let short = HandEntry::new(2, "x", "ab").expect_err("short");
        assert!(short.to_string().starts_with("hand_values[2]: "), "{short}");
        assert!(!short.to_string().contains("ab\""), "{short}");
        let none = message("t", 1, &[]).expect_err("empty");
        assert!(none.to_string().starts_with("client_seeds: "), "{none}");
        let twice = [
            HandEntry::new(1, "a", A).expect("valid"),
            HandEntry::new(1, "b", B).expect("valid"),
        ];
        let err = message("t", 1, &twice).expect_err("twice");
        assert!(err.to_string().starts_with("client_seeds[1]: "), "{err}");
    }

    #[test]
    fn a_value_matches_its_commit_only() {
        let value = HandValue::parse_field(A, "v").expect("valid");
        assert!(value.matches(&value.commit()));
        assert!(value.matches(&value.commit().to_ascii_uppercase()));
        let other = HandValue::parse_field(B, "v").expect("valid");
        assert!(!other.matches(&value.commit()));
        assert!(!format!("{value:?}").contains(A));
    }
}

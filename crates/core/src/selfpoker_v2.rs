//! `selfpoker_v2`: each hand's selfpoker seed derived from a committed session
//! secret and the players' client seeds (docs/spec.md §17).
//!
//! Plain `selfpoker` (§9) lets the house draw each seed alone, so it could draw
//! until a deck favours its own AI seats and every commitment would still check.
//! Here the house commits to a session secret first; each human then gives a
//! client seed, and every hand's seed is an HMAC of the secret over the table,
//! the hand number and those client seeds. The house cannot pick the secret
//! after seeing the client seeds, nor the client seeds at all. The seed then
//! feeds [`selfpoker::commit`] and [`selfpoker::deck`] unchanged, so the source
//! site's own two-line Python check still holds hand by hand.

use crate::error::Error;
use crate::hash::{hmac256_keyed, hmac256_with};
use crate::seed::{ClientSeed, Ident, ServerSeed};
use crate::selfpoker::{self, MAX_SEED};

/// The scheme name.
pub const SCHEME: &str = "selfpoker_v2";
/// Seats a client seed may belong to: `0..=9` (at most 10 players, as §9).
pub const MAX_SEAT: usize = 9;
/// The first bytes of every hand message.
pub const MESSAGE_PREFIX: &str = "selfpoker_v2:";

/// One seated human's client seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientSeedEntry {
    /// The seat, `0..=9`.
    pub seat: usize,
    /// The seed the player chose after seeing the session commitment.
    pub seed: ClientSeed,
}

impl ClientSeedEntry {
    /// An entry for `seat` holding `seed` (checked as in docs/spec.md §2.3).
    ///
    /// # Errors
    /// The seed is empty or longer than 64 bytes (`client_seeds[<seat>]`).
    pub fn new(seat: usize, seed: &str) -> Result<Self, Error> {
        let seed = ClientSeed::parse_field(seed, &format!("client_seeds[{seat}]"))?;
        Ok(Self { seat, seed })
    }
}

/// `sha256` of the secret's 64 lowercase hex characters, as lowercase hex:
/// the session secret is a server seed in the sense of docs/spec.md §2.1, and
/// this is its §2.2 commitment.
pub fn session_commit(secret: &[u8; 32]) -> String {
    ServerSeed::from_bytes(*secret).commitment().to_hex()
}

/// Reads a revealed session secret: 64 lowercase hex characters.
///
/// # Errors
/// Anything else; `field` names it and the text is described, never quoted.
pub fn parse_secret(text: &str, field: &str) -> Result<[u8; 32], Error> {
    let seed = ServerSeed::parse_field(text, field)?;
    let mut out = [0u8; 32];
    hex::decode_to_slice(seed.reveal(), &mut out)
        .map_err(|_| Error::invalid(field, "expected 64 lowercase hex characters"))?;
    Ok(out)
}

/// Whether `secret` is the one `commit` (64 hex characters, either case)
/// commits to, compared in constant time.
pub fn secret_matches(secret: &[u8; 32], commit: &str) -> bool {
    crate::seed::ct_eq(
        session_commit(secret).as_bytes(),
        commit.to_ascii_lowercase().as_bytes(),
    )
}

/// The exact bytes the hand's HMAC is computed over:
///
/// ```text
/// "selfpoker_v2:" + table_id + ":" + hand + ":" + count
///   + for each client seed, seat ascending: ":" + seat + "=" + len + ":" + seed
/// ```
///
/// `hand`, `count` (how many client seeds), `seat` and `len` (the seed's UTF-8
/// byte length) are plain decimal; `table_id` is an identifier (no `:`), so the
/// message reads back one way only whatever bytes the seeds hold.
///
/// # Errors
/// `table_id` is not an identifier, `hand` is 0, a seat is above 9 or appears
/// twice, or there is no client seed at all; the error names the field.
pub fn message(
    table_id: &str,
    hand: u64,
    client_seeds: &[ClientSeedEntry],
) -> Result<Vec<u8>, Error> {
    let sorted = by_seat(client_seeds, |e| e.seat, "client_seeds")?;
    let mut msg = header(MESSAGE_PREFIX, table_id, hand, sorted.len())?;
    for entry in sorted {
        push_seed(&mut msg, entry);
    }
    Ok(msg)
}

/// `prefix + table_id + ":" + hand + ":" + count`, the start of every hand
/// message of this scheme and its successors.
///
/// # Errors
/// `table_id` is not an identifier or `hand` is 0.
pub(crate) fn header(
    prefix: &str,
    table_id: &str,
    hand: u64,
    count: usize,
) -> Result<Vec<u8>, Error> {
    let table = Ident::parse_field(table_id, "table_id")?;
    if hand == 0 {
        return Err(Error::invalid("hand", "0, expected 1 or more"));
    }
    Ok(format!("{prefix}{}:{hand}:{count}", table.as_str()).into_bytes())
}

/// Appends `":" + seat + "=" + len + ":" + seed` for one client seed.
pub(crate) fn push_seed(msg: &mut Vec<u8>, entry: &ClientSeedEntry) {
    let seed = entry.seed.as_str();
    msg.extend_from_slice(format!(":{}={}:", entry.seat, seed.len()).as_bytes());
    msg.extend_from_slice(seed.as_bytes());
}

/// `entries` in seat order (`seat_of` reads an entry's seat), refusing an
/// empty list, a seat out of range or a seat given twice; `field` names the
/// list in errors (`field[<seat>]` a bad entry).
pub(crate) fn by_seat<'a, T>(
    entries: &'a [T],
    seat_of: impl Fn(&T) -> usize,
    field: &str,
) -> Result<Vec<&'a T>, Error> {
    if entries.is_empty() {
        return Err(Error::invalid(
            field,
            "no client seed, expected one per seated human (1 to 10)",
        ));
    }
    let mut sorted: Vec<&T> = entries.iter().collect();
    sorted.sort_by_key(|e| seat_of(e));
    for (i, e) in sorted.iter().enumerate() {
        let seat = seat_of(e);
        if seat > MAX_SEAT {
            return Err(Error::invalid(
                format!("{field}[{seat}]"),
                format!("seat {seat}, expected 0 to {MAX_SEAT}"),
            ));
        }
        if i > 0 && seat_of(sorted[i - 1]) == seat {
            return Err(Error::invalid(
                format!("{field}[{seat}]"),
                format!("seat {seat} has two client seeds"),
            ));
        }
    }
    Ok(sorted)
}

/// The 63-bit seed of a hand message: the first 8 bytes of its
/// [`session_hmac`], big-endian, top bit cleared.
pub(crate) fn seed_of_message(secret: &[u8; 32], msg: &[u8]) -> u64 {
    let mac = session_hmac(secret, msg);
    let mut first = [0u8; 8];
    first.copy_from_slice(&mac[..8]);
    u64::from_be_bytes(first) & MAX_SEED
}

/// The hand's selfpoker seed: HMAC-SHA256, keyed by the secret's 64 lowercase
/// hex characters, of [`message`]; its first 8 bytes read big-endian with the
/// top bit cleared, so `0 ≤ seed < 2^63` as §9 requires.
///
/// # Errors
/// As [`message`].
pub fn hand_seed(
    secret: &[u8; 32],
    table_id: &str,
    hand: u64,
    client_seeds: &[ClientSeedEntry],
) -> Result<u64, Error> {
    let msg = message(table_id, hand, client_seeds)?;
    Ok(seed_of_message(secret, &msg))
}

/// HMAC-SHA256 of `msg` keyed, as [`hand_seed`] is, by the session secret's
/// 64 lowercase hex characters: what else a session derives from its secret
/// (the hold'em AIs' decisions) uses this key, with a message of its own.
pub fn session_hmac(secret: &[u8; 32], msg: &[u8]) -> [u8; 32] {
    let key = ServerSeed::from_bytes(*secret);
    hmac256_with(&hmac256_keyed(key.reveal().as_bytes()), msg)
}

/// A derived hand: its seed, the public commit and the deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedHand {
    /// [`hand_seed`].
    pub seed: u64,
    /// `sha256("selfpoker:" + seed)` ([`selfpoker::commit`]).
    pub commit: String,
    /// `default_rng(seed).permutation(52)` ([`selfpoker::deck`]).
    pub deck: [u8; 52],
}

/// [`hand_seed`], then its commit and deck: everything a hand needs.
///
/// # Errors
/// As [`message`].
pub fn derive_hand(
    secret: &[u8; 32],
    table_id: &str,
    hand: u64,
    client_seeds: &[ClientSeedEntry],
) -> Result<DerivedHand, Error> {
    let seed = hand_seed(secret, table_id, hand, client_seeds)?;
    Ok(DerivedHand::of(seed))
}

impl DerivedHand {
    /// The commit and deck of `seed` (docs/spec.md §9).
    pub fn of(seed: u64) -> DerivedHand {
        DerivedHand {
            seed,
            commit: selfpoker::commit(seed),
            deck: selfpoker::deck(seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds(list: &[(usize, &str)]) -> Vec<ClientSeedEntry> {
        list.iter()
            .map(|&(seat, s)| ClientSeedEntry::new(seat, s).expect("valid seed"))
            .collect()
    }

    #[test]
    fn message_bytes_are_exact_and_seat_ordered() {
        let msg = message("t1", 3, &seeds(&[(4, "b:o"), (0, "ann")])).expect("valid");
        assert_eq!(msg, b"selfpoker_v2:t1:3:2:0=3:ann:4=3:b:o");
        let utf8 = message("t", 1, &seeds(&[(2, "é")])).expect("valid");
        assert_eq!(utf8, "selfpoker_v2:t:1:1:2=2:é".as_bytes());
    }

    #[test]
    fn bad_inputs_name_their_field() {
        let one = seeds(&[(0, "a")]);
        let field = |r: Result<Vec<u8>, Error>| r.expect_err("refused").to_string();
        assert!(field(message("a:b", 1, &one)).starts_with("table_id: "));
        assert!(field(message("t", 0, &one)).starts_with("hand: "));
        assert!(field(message("t", 1, &[])).starts_with("client_seeds: "));
        assert!(field(message("t", 1, &seeds(&[(10, "a")]))).starts_with("client_seeds[10]: "));
        assert!(
            field(message("t", 1, &seeds(&[(1, "a"), (1, "b")]))).starts_with("client_seeds[1]: ")
        );
        let empty = ClientSeedEntry::new(3, "").expect_err("empty");
        assert!(
            empty.to_string().starts_with("client_seeds[3]: "),
            "{empty}"
        );
    }

    #[test]
    fn seeds_are_63_bit_and_commit_as_selfpoker() {
        let secret = [7u8; 32];
        let hand = derive_hand(&secret, "t1", 1, &seeds(&[(0, "x")])).expect("valid");
        assert!(hand.seed <= MAX_SEED);
        assert_eq!(hand.commit, selfpoker::commit(hand.seed));
        assert_eq!(hand.deck, selfpoker::deck(hand.seed));
    }

    #[test]
    fn secrets_parse_and_match_their_commitment() {
        let secret = [0xab; 32];
        let text = "ab".repeat(32);
        assert_eq!(parse_secret(&text, "session_secret"), Ok(secret));
        assert!(secret_matches(&secret, &session_commit(&secret)));
        assert!(secret_matches(
            &secret,
            &session_commit(&secret).to_ascii_uppercase()
        ));
        assert!(!secret_matches(&[0xac; 32], &session_commit(&secret)));
        let err = parse_secret("AB", "session_secret").expect_err("short");
        assert!(err.to_string().starts_with("session_secret: "));
    }
}

//! A poker table's state: its seats, its current session and that session's
//! hands, and the seed the session deals from (never stored unsealed).

use std::collections::BTreeMap;

use fairseed_core::poker::{self, PokerDeck};
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use serde::{Deserialize, Serialize};

use super::error::PokerError;
use super::rotation::RotateWhy;
use crate::{codec, Millis, PlayerId};

/// The highest seat number.
pub const MAX_SEAT: u8 = fairseed_core::poker::MAX_SEAT;

/// How far a hand has been dealt. Stored as 0 (preflop) to 3 (river).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Street {
    /// Hole cards only.
    Preflop,
    /// Three board cards.
    Flop,
    /// Four.
    Turn,
    /// Five.
    River,
}

impl Street {
    /// Board cards public at this street.
    pub fn board_len(self) -> usize {
        match self {
            Self::Preflop => 0,
            Self::Flop => 3,
            Self::Turn => 4,
            Self::River => 5,
        }
    }

    /// The street after this one, if any.
    pub fn next(self) -> Option<Self> {
        match self {
            Self::Preflop => Some(Self::Flop),
            Self::Flop => Some(Self::Turn),
            Self::Turn => Some(Self::River),
            Self::River => None,
        }
    }
}

impl From<Street> for u8 {
    fn from(street: Street) -> u8 {
        street as u8
    }
}

impl TryFrom<u8> for Street {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        match n {
            0 => Ok(Self::Preflop),
            1 => Ok(Self::Flop),
            2 => Ok(Self::Turn),
            3 => Ok(Self::River),
            other => Err(format!("street {other}, expected 0 to 3")),
        }
    }
}

/// A seated player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The player.
    pub player: PlayerId,
    /// Their client seed for the current session; `None` after a rotation
    /// until they give a new one (the seat sits out meanwhile).
    #[serde(with = "codec::optional_client_seed", default)]
    pub client_seed: Option<ClientSeed>,
}

impl Seat {
    /// Whether the seat is dealt into the next hand.
    pub fn ready(&self) -> bool {
        self.client_seed.is_some()
    }
}

/// A table: its seats and which session is current.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The table id (`T`).
    #[serde(with = "codec::ident")]
    pub table: Ident,
    /// The current session's number (`s<k>`).
    pub session_no: u64,
    /// Seats 0..=9.
    pub seats: BTreeMap<u8, Seat>,
}

/// One hand of a session: who was dealt in and what was published before the first card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    /// The hand's number in the session, from 1.
    pub n: u64,
    /// Seat → client seed, as dealt.
    #[serde(with = "codec::client_seeds_by_seat")]
    pub seats: BTreeMap<u8, ClientSeed>,
    /// Seat → player.
    pub players: BTreeMap<u8, PlayerId>,
    /// `sha256(hand_value)`.
    #[serde(with = "codec::commitment")]
    pub hand_commitment: Commitment,
    /// The deck's Merkle root.
    #[serde(with = "codec::commitment")]
    pub deck_root: Commitment,
    /// How far it is dealt.
    pub street: Street,
    /// Seats whose player left the table during or after this hand, with the
    /// street dealt at that moment: what their proofs may cover.
    #[serde(default)]
    pub left: BTreeMap<u8, Street>,
}

impl Hand {
    /// The seat `player` was dealt in at, if any.
    pub fn seat_of(&self, player: PlayerId) -> Option<u8> {
        self.players
            .iter()
            .find(|(_, p)| **p == player)
            .map(|(seat, _)| *seat)
    }
}

/// A seed session's public book: the hands dealt under its seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The table id (`T`).
    #[serde(with = "codec::ident")]
    pub table: Ident,
    /// The session id (`S`, `s<k>`).
    #[serde(with = "codec::ident")]
    pub session: Ident,
    /// When it opened.
    #[serde(rename = "opened_ms")]
    pub opened: Millis,
    /// Hands in the order played.
    pub hands: Vec<Hand>,
}

impl Session {
    /// A new session with no hand.
    pub fn open(table: Ident, session_no: u64, opened: Millis) -> Result<Self, PokerError> {
        Ok(Self {
            table,
            session: session_ident(session_no)?,
            opened,
            hands: Vec::new(),
        })
    }

    /// The hand numbered `n`.
    pub fn hand(&self, n: u64) -> Result<&Hand, PokerError> {
        let index = usize::try_from(n).ok().and_then(|n| n.checked_sub(1));
        index
            .and_then(|i| self.hands.get(i))
            .ok_or(PokerError::NoSuchHand(n))
    }
}

/// The session id `s<k>`.
pub fn session_ident(session_no: u64) -> Result<Ident, PokerError> {
    Ok(Ident::parse_field(&format!("s{session_no}"), "session")?)
}

/// A session's server seed with its published commitment. The seed is
/// private to this module: only a [`RotatedSession`] reveals it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSeed {
    pub(super) commitment: Commitment,
    pub(super) seed: ServerSeed,
}

impl SessionSeed {
    /// A fresh seed (its commitment computed).
    pub fn new(seed: ServerSeed) -> Self {
        Self {
            commitment: seed.commitment(),
            seed,
        }
    }

    /// A stored seed with its stored commitment, checked against each other.
    pub fn unsealed(commitment: Commitment, seed: ServerSeed) -> Result<Self, PokerError> {
        if commitment.matches(&seed) {
            Ok(Self { commitment, seed })
        } else {
            Err(PokerError::Corrupt(
                "the unsealed seed does not match its commitment".into(),
            ))
        }
    }

    /// The published commitment.
    pub fn commitment(&self) -> Commitment {
        self.commitment
    }
}

/// A table with its current (open) seed session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Seats and the current session number.
    pub table: Table,
    /// The current session's hands.
    pub session: Session,
    /// The current session's seed.
    pub seed: SessionSeed,
}

impl State {
    /// A new table `table` with its first session `s1` under `seed`.
    pub fn open(table: Ident, seed: ServerSeed, now: Millis) -> Result<Self, PokerError> {
        Ok(Self {
            session: Session::open(table.clone(), 1, now)?,
            table: Table {
                table,
                session_no: 1,
                seats: BTreeMap::new(),
            },
            seed: SessionSeed::new(seed),
        })
    }

    /// A table and session loaded together; refuses a session that is not the table's current one.
    pub fn load(table: Table, session: Session, seed: SessionSeed) -> Result<Self, PokerError> {
        if session.table != table.table || session.session != session_ident(table.session_no)? {
            return Err(PokerError::Corrupt(format!(
                "session {} is not table {}'s current session s{}",
                session.session, table.table, table.session_no
            )));
        }
        Ok(Self {
            table,
            session,
            seed,
        })
    }
}

/// A session that rotated: its seed is public now, with every hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RotatedSession {
    /// Why it rotated.
    pub why: RotateWhy,
    /// Its hands.
    pub session: Session,
    pub(super) seed: SessionSeed,
}

impl RotatedSession {
    /// The revealed seed.
    pub fn server_seed(&self) -> &ServerSeed {
        &self.seed.seed
    }

    /// The session's commitment.
    pub fn commitment(&self) -> Commitment {
        self.seed.commitment
    }
}

/// Deals hand `hand` of `session` again from its seed (decks are never stored).
pub(super) fn deal(
    session: &Session,
    seed: &ServerSeed,
    hand: &Hand,
) -> Result<PokerDeck, PokerError> {
    let value = poker::hand_value(seed, &session.table, &session.session, hand.n);
    Ok(poker::deal(
        &value,
        &session.table,
        &session.session,
        hand.n,
        &hand.seats,
    )?)
}

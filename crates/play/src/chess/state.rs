//! Where each committed chess seed is: its phase, its seek, its game.

use fairseed_core::{ClientSeed, Commitment, ServerSeed};
use serde::{Deserialize, Serialize};

use super::error::ChessError;
use crate::{codec, Millis, PlayerId};

/// How long a seek stays open: ten minutes after it was made.
pub const SEEK_TTL_MS: i64 = 10 * 60 * 1000;

/// One committed chess seed and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seed {
    /// The seed's id (side A's id names a game).
    pub id: String,
    /// The player whose connection holds it.
    pub owner: PlayerId,
    /// `sha256(seed)`, shown before the seek, challenge or bot game.
    #[serde(with = "codec::commitment")]
    pub commitment: Commitment,
    /// Where it is.
    pub phase: SeedPhase,
}

/// A seed's phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum SeedPhase {
    /// Committed, not used yet.
    Committed,
    /// An open seek or challenge (side A).
    Seeking(Seek),
    /// In a game.
    Playing(Pairing),
    /// The game ended; the seed is revealed.
    Finished {
        /// The game it played.
        pairing: Pairing,
        /// The revealed seed.
        #[serde(with = "codec::server_seed")]
        server_seed: ServerSeed,
    },
    /// Withdrawn by its owner (or expired) before any colour was drawn; revealed.
    Withdrawn {
        /// Cancelled, or expired first.
        why: Withdrawal,
        /// The revealed seed.
        #[serde(with = "codec::server_seed")]
        server_seed: ServerSeed,
    },
}

/// An open seek.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seek {
    /// The seeker's client seed.
    #[serde(with = "codec::client_seed")]
    pub client: ClientSeed,
    /// A challenge: only this player may accept.
    pub opponent: Option<PlayerId>,
    /// When the seek opened.
    pub since: Millis,
}

impl Seek {
    /// When the seek stops being acceptable.
    pub fn expires_at(&self) -> Millis {
        Millis(self.since.0.saturating_add(SEEK_TTL_MS))
    }
}

/// Which side of a game: A owns the seek (or plays the bot), B accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The seeker.
    A,
    /// The one who accepted (or the bot).
    B,
}

impl Side {
    /// `"A"` or `"B"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::A => "A",
            Self::B => "B",
        }
    }
}

/// A seed's part in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The game's id: side A's seed id.
    pub game: String,
    /// This seed's side.
    pub side: Side,
    /// Who plays White.
    pub white: Side,
    /// This side's client seed.
    #[serde(with = "codec::client_seed")]
    pub client: ClientSeed,
    /// The other side's seed id; `None` against a bot.
    pub other: Option<String>,
}

/// Why a seed was withdrawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Withdrawal {
    /// Its owner cancelled it.
    Cancelled,
    /// Its seek expired before anyone accepted; its owner then closed it.
    Expired,
}

impl Seed {
    /// A newly committed seed of `owner`.
    pub fn new(id: String, owner: PlayerId, commitment: Commitment) -> Self {
        Self {
            id,
            owner,
            commitment,
            phase: SeedPhase::Committed,
        }
    }

    /// The status word the API shows.
    pub fn status(&self, now: Millis) -> &'static str {
        match &self.phase {
            SeedPhase::Committed => "committed",
            SeedPhase::Seeking(seek) if now >= seek.expires_at() => "expired",
            SeedPhase::Seeking(_) => "seeking",
            SeedPhase::Playing(_) => "playing",
            SeedPhase::Finished { .. } => "finished",
            SeedPhase::Withdrawn {
                why: Withdrawal::Cancelled,
                ..
            } => "cancelled",
            SeedPhase::Withdrawn {
                why: Withdrawal::Expired,
                ..
            } => "expired",
        }
    }

    /// Whether `player` may accept this seek at `now`.
    pub fn open_to(&self, player: PlayerId, now: Millis) -> bool {
        match &self.phase {
            SeedPhase::Seeking(seek) => {
                self.owner != player
                    && seek.opponent.is_none_or(|o| o == player)
                    && now < seek.expires_at()
            }
            _ => false,
        }
    }

    pub(super) fn wrong_status(&self, expected: &'static str, now: Millis) -> ChessError {
        ChessError::WrongStatus {
            status: self.status(now),
            expected,
        }
    }

    /// The caller's own seed, shown with its commitment, in the committed phase.
    pub(super) fn own_committed(
        &self,
        player: PlayerId,
        shown: &Commitment,
        now: Millis,
    ) -> Result<(), ChessError> {
        if self.owner != player {
            return Err(ChessError::NotFound("chess seed"));
        }
        if !self.commitment.ct_eq_commitment(shown) {
            return Err(ChessError::CommitmentMismatch);
        }
        match self.phase {
            SeedPhase::Committed => Ok(()),
            _ => Err(self.wrong_status("committed", now)),
        }
    }

    pub(super) fn check_seed(&self, seed: &ServerSeed) -> Result<(), ChessError> {
        if self.commitment.matches(seed) {
            Ok(())
        } else {
            Err(ChessError::SeedMismatch)
        }
    }

    pub(super) fn with(&self, phase: SeedPhase) -> Self {
        Self {
            phase,
            ..self.clone()
        }
    }
}

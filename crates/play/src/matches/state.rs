//! A match's state, phase by phase, and what each command did.

use fairseed_core::games::{self, Game, MatchOutcome, MatchStream};
use fairseed_core::record::MatchScheme;
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use serde::{Deserialize, Serialize};

use super::error::MatchError;
use super::step::{Drawn, Progress};
use crate::{codec, PlayerId, Record};

/// Which of the two match schemes a match draws with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Scheme {
    /// `match_seed_v2`: every player's client seed mixed in.
    #[default]
    #[serde(rename = "match_seed_v2")]
    V2,
    /// `match_seed_v1` (legacy): the server seed alone, no client seeds.
    #[serde(rename = "match_seed_v1")]
    V1,
}

impl Scheme {
    /// The core's name for it.
    pub fn core(self) -> MatchScheme {
        match self {
            Self::V2 => MatchScheme::V2,
            Self::V1 => MatchScheme::V1,
        }
    }
}

/// A match between requests. Holds no secret until [`Phase::Revealed`]
/// (or [`Phase::Withdrawn`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// v2, or the legacy v1.
    #[serde(default)]
    pub scheme: Scheme,
    /// The game.
    #[serde(with = "codec::game")]
    pub game: Game,
    /// The match id, part of every draw's message.
    #[serde(with = "codec::ident")]
    pub match_id: Ident,
    /// `sha256(server_seed)`, published at the open.
    #[serde(with = "codec::commitment")]
    pub commitment: Commitment,
    /// The operator's labels of the players, by client-seed index.
    pub labels: Vec<String>,
    /// Mahjong's wall size (144 or 136); 0 for the other games.
    pub tiles: usize,
    /// Where the match is.
    pub phase: Phase,
}

/// The match's phase, with what each phase knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Committed: client seeds come in.
    Committed {
        /// By player index, once given.
        #[serde(with = "codec::optional_client_seeds")]
        client_seeds: Vec<Option<ClientSeed>>,
    },
    /// Started: the seat order is drawn; the game's draws follow.
    Drawing(Played),
    /// Finished: the seed is revealed and the record stored.
    Revealed {
        /// What was played.
        played: Played,
        /// The revealed seed.
        #[serde(with = "codec::server_seed")]
        server_seed: ServerSeed,
        /// The accounts the operator linked to player indexes: the readers of the record.
        accounts: Vec<(usize, PlayerId)>,
    },
    /// Withdrawn before it started (a restore retires every open match of
    /// the backup): nothing was drawn, the seed is revealed, no record.
    Withdrawn {
        /// By player index, as given before the withdrawal.
        #[serde(with = "codec::optional_client_seeds")]
        client_seeds: Vec<Option<ClientSeed>>,
        /// The revealed seed.
        #[serde(with = "codec::server_seed")]
        server_seed: ServerSeed,
    },
}

/// What a started match has played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// Every player's client seed, by index.
    #[serde(with = "codec::client_seeds")]
    pub client_seeds: Vec<ClientSeed>,
    /// `seat_order[s]`: the index of the player at seat `s`.
    pub seat_order: Vec<usize>,
    /// The draws after the seat order.
    pub progress: Progress,
}

/// What a command did, in order. Each becomes a log entry and a live
/// event, built with [`Event::view`].
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A client seed was taken.
    ClientSeed {
        /// The player's index.
        index: usize,
        /// The seed.
        client_seed: ClientSeed,
    },
    /// The seat order was drawn.
    Started {
        /// `seat_order[s]`: the index of the player at seat `s`.
        seat_order: Vec<usize>,
    },
    /// A draw (holds every hand: the operator's alone).
    Drawn(Drawn),
    /// The seed was revealed; the record is made.
    Finished {
        /// The record, with the linked accounts as readers.
        record: Record,
    },
    /// The match was withdrawn before it started; the seed is revealed.
    Withdrawn,
}

/// The status word the API shows for a phase.
pub(crate) fn status(phase: &Phase) -> &'static str {
    match phase {
        Phase::Committed { .. } => "open",
        Phase::Drawing(_) => "started",
        Phase::Revealed { .. } => "finished",
        Phase::Withdrawn { .. } => "withdrawn",
    }
}

impl Match {
    /// The status word the API shows: `open`, `started`, `finished` or `withdrawn`.
    pub fn status(&self) -> &'static str {
        status(&self.phase)
    }

    /// A new match, committed to `commitment`. `tiles` is mahjong's wall
    /// size (0 for other games); `labels` has one entry per player. A v2
    /// match waits for a client seed per player; a v1 match takes none.
    pub fn open(
        scheme: Scheme,
        game: Game,
        match_id: Ident,
        commitment: Commitment,
        labels: Vec<String>,
        tiles: usize,
    ) -> Self {
        let seeds = match scheme {
            Scheme::V2 => labels.len(),
            Scheme::V1 => 0,
        };
        Self {
            scheme,
            game,
            match_id,
            commitment,
            phase: Phase::Committed {
                client_seeds: vec![None; seeds],
            },
            labels,
            tiles,
        }
    }

    pub(super) fn wrong_status(&self, doing: &'static str, expected: &'static str) -> MatchError {
        MatchError::WrongStatus {
            doing,
            status: status(&self.phase),
            expected,
        }
    }

    pub(super) fn check_seed(&self, seed: &ServerSeed) -> Result<(), MatchError> {
        if self.commitment.matches(seed) {
            Ok(())
        } else {
            Err(MatchError::SeedMismatch)
        }
    }

    /// The match replayed with `seed` over `played`. The client seeds are
    /// one per player (checked at the open) and the progress fits the game
    /// and the wall (checked by [`Progress::advance`]), so a refusal here
    /// is a bug; it is reported, never drawn around.
    pub(super) fn replay(
        &self,
        seed: &ServerSeed,
        played: &Played,
    ) -> Result<MatchOutcome, MatchError> {
        let stream = match self.scheme {
            Scheme::V2 => MatchStream::v2(seed, self.game, &self.match_id, &played.client_seeds),
            Scheme::V1 => Ok(MatchStream::v1(seed, self.game, &self.match_id)),
        };
        stream
            .and_then(|s| games::play(s, self.game, &played.progress.play(self.tiles)))
            .map_err(|e| MatchError::Replay(e.to_string()))
    }
}

//! A table-game match (`match_seed_v2`, or the legacy `match_seed_v1`):
//! committed (client seeds come in, each only with the commitment its
//! player was shown; v1 takes none) → drawing (the seat order, then the
//! game's draws step by step) → revealed (the seed and the record).
//!
//! The state never holds an unrevealed server seed: the caller unseals it
//! and passes it with each command that draws ([`Command::Start`],
//! [`Command::Draw`], [`Command::Finish`]); the machine checks it against
//! the commitment before using it. Every draw replays the match from its
//! start with the core's [`games::play`] and takes the new part, so what
//! the operator is dealt is by construction what the verifier recomputes.

mod error;
pub mod setup;
mod step;
mod view;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

use fairseed_core::games::{self, Game, MatchOutcome, MatchStream};
use fairseed_core::record::MatchScheme;
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use serde::{Deserialize, Serialize};

use crate::{codec, Millis, PlayerId, Record};

pub use error::MatchError;
pub use step::{Drawn, Progress, Step, MAX_STEPS};
pub use view::{view, MatchView};

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

/// A match between requests. Holds no secret until [`Phase::Revealed`].
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

/// What the operator asks of a match.
#[derive(Debug, Clone)]
pub enum Command {
    /// Player `index`'s client seed, chosen after being shown `shown`.
    ClientSeed {
        /// The player's index.
        index: usize,
        /// The seed.
        client_seed: ClientSeed,
        /// The commitment the player saw.
        shown: Commitment,
    },
    /// Every client seed is in: draw the seat order.
    Start {
        /// The unsealed server seed.
        seed: ServerSeed,
    },
    /// The next draw of the game.
    Draw {
        /// Which draw.
        step: Step,
        /// The unsealed server seed.
        seed: ServerSeed,
    },
    /// Reveal the seed and make the record.
    Finish {
        /// The unsealed server seed.
        seed: ServerSeed,
        /// Player index → account: these players may read the record.
        accounts: Vec<(usize, PlayerId)>,
    },
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
}

/// The status word the API shows for a phase.
pub(crate) fn status(phase: &Phase) -> &'static str {
    match phase {
        Phase::Committed { .. } => "open",
        Phase::Drawing(_) => "started",
        Phase::Revealed { .. } => "finished",
    }
}

impl Match {
    /// The status word the API shows: `open`, `started` or `finished`.
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

    fn wrong_status(&self, doing: &'static str, expected: &'static str) -> MatchError {
        MatchError::WrongStatus {
            doing,
            status: status(&self.phase),
            expected,
        }
    }

    fn check_seed(&self, seed: &ServerSeed) -> Result<(), MatchError> {
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
    fn replay(&self, seed: &ServerSeed, played: &Played) -> Result<MatchOutcome, MatchError> {
        let stream = match self.scheme {
            Scheme::V2 => MatchStream::v2(seed, self.game, &self.match_id, &played.client_seeds),
            Scheme::V1 => Ok(MatchStream::v1(seed, self.game, &self.match_id)),
        };
        stream
            .and_then(|s| games::play(s, self.game, &played.progress.play(self.tiles)))
            .map_err(|e| MatchError::Replay(e.to_string()))
    }
}

/// Applies `command` to `state`: the new state and what happened, or the
/// rule it breaks (and `state` unchanged, as the caller still holds it).
pub fn apply(
    state: &Match,
    command: Command,
    _now: Millis,
) -> Result<(Match, Vec<Event>), MatchError> {
    match command {
        Command::ClientSeed {
            index,
            client_seed,
            shown,
        } => take_client_seed(state, index, client_seed, &shown),
        Command::Start { seed } => start(state, &seed),
        Command::Draw { step, seed } => draw(state, step, &seed),
        Command::Finish { seed, accounts } => finish(state, seed, accounts),
    }
}

fn take_client_seed(
    state: &Match,
    index: usize,
    client_seed: ClientSeed,
    shown: &Commitment,
) -> Result<(Match, Vec<Event>), MatchError> {
    let Phase::Committed { client_seeds } = &state.phase else {
        return Err(state.wrong_status("submit a client seed", "open"));
    };
    if state.scheme == Scheme::V1 {
        return Err(MatchError::NoClientSeeds);
    }
    if !state.commitment.ct_eq_commitment(shown) {
        return Err(MatchError::CommitmentMismatch(shown.to_hex()));
    }
    let mut client_seeds = client_seeds.clone();
    let players = client_seeds.len();
    let slot = client_seeds
        .get_mut(index)
        .ok_or_else(|| MatchError::InvalidIndex {
            field: "index".into(),
            index,
            players,
        })?;
    if slot.is_some() {
        return Err(MatchError::SeedAlreadySet(index));
    }
    *slot = Some(client_seed.clone());
    let next = Match {
        phase: Phase::Committed { client_seeds },
        ..state.clone()
    };
    Ok((next, vec![Event::ClientSeed { index, client_seed }]))
}

fn start(state: &Match, seed: &ServerSeed) -> Result<(Match, Vec<Event>), MatchError> {
    let Phase::Committed { client_seeds } = &state.phase else {
        return Err(state.wrong_status("start", "open"));
    };
    let missing: Vec<usize> = client_seeds
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| i)
        .collect();
    if !missing.is_empty() {
        return Err(MatchError::ClientSeedsMissing(missing));
    }
    state.check_seed(seed)?;
    let mut played = Played {
        client_seeds: client_seeds.iter().flatten().cloned().collect(),
        seat_order: Vec::new(),
        progress: Progress::new(state.game),
    };
    played.seat_order = state.replay(seed, &played)?.seat_order;
    let event = Event::Started {
        seat_order: played.seat_order.clone(),
    };
    let next = Match {
        phase: Phase::Drawing(played),
        ..state.clone()
    };
    Ok((next, vec![event]))
}

fn draw(state: &Match, step: Step, seed: &ServerSeed) -> Result<(Match, Vec<Event>), MatchError> {
    let Phase::Drawing(played) = &state.phase else {
        return Err(state.wrong_status("draw", "started"));
    };
    let mut played = played.clone();
    played.progress.advance(step, state.tiles)?;
    state.check_seed(seed)?;
    let outcome = state.replay(seed, &played)?;
    let drawn = Drawn::last(&outcome, step).ok_or_else(|| {
        MatchError::Replay(format!("the replay lacks the '{}' just drawn", step.name()))
    })?;
    let next = Match {
        phase: Phase::Drawing(played),
        ..state.clone()
    };
    Ok((next, vec![Event::Drawn(drawn)]))
}

fn finish(
    state: &Match,
    seed: ServerSeed,
    accounts: Vec<(usize, PlayerId)>,
) -> Result<(Match, Vec<Event>), MatchError> {
    let Phase::Drawing(played) = &state.phase else {
        return Err(state.wrong_status("finish", "started"));
    };
    let players = state.labels.len();
    if let Some(&(index, _)) = accounts.iter().find(|(i, _)| *i >= players) {
        return Err(MatchError::InvalidIndex {
            field: format!("players.{index}"),
            index,
            players,
        });
    }
    state.check_seed(&seed)?;
    let next = Match {
        phase: Phase::Revealed {
            played: played.clone(),
            server_seed: seed,
            accounts,
        },
        ..state.clone()
    };
    let record = view::record(&next)?;
    Ok((next, vec![Event::Finished { record }]))
}

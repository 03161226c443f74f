//! A table-game match (`match_seed_v2`, or the legacy `match_seed_v1`):
//! committed (client seeds come in, each only with the commitment its
//! player was shown; v1 takes none) → drawing (the seat order, then the
//! game's draws step by step) → revealed (the seed and the record); or
//! committed → withdrawn (nothing drawn, the seed revealed, no record).
//!
//! The state never holds an unrevealed server seed: the caller unseals it
//! and passes it with each command that draws ([`Command::Start`],
//! [`Command::Draw`], [`Command::Finish`]); the machine checks it against
//! the commitment before using it. Every draw replays the match from its
//! start with the core's [`fairseed_core::games::play`] and takes the new part, so what
//! the operator is dealt is by construction what the verifier recomputes.

mod error;
pub mod setup;
mod state;
mod step;
mod view;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

use fairseed_core::{ClientSeed, Commitment, ServerSeed};

use crate::{Millis, PlayerId};

pub use error::MatchError;
pub use state::{Event, Match, Phase, Played, Scheme};
pub use step::{Drawn, Progress, Step, MAX_STEPS};
pub use view::{view, MatchView};

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
    /// Withdraw a match not yet started: nothing was drawn with its seed,
    /// which is revealed (the owner of no outcome is harmed) and never
    /// used again.
    Withdraw {
        /// The unsealed server seed.
        seed: ServerSeed,
    },
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
        Command::Withdraw { seed } => withdraw(state, seed),
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

fn withdraw(state: &Match, seed: ServerSeed) -> Result<(Match, Vec<Event>), MatchError> {
    let Phase::Committed { client_seeds } = &state.phase else {
        return Err(state.wrong_status("withdraw", "open"));
    };
    state.check_seed(&seed)?;
    let next = Match {
        phase: Phase::Withdrawn {
            client_seeds: client_seeds.clone(),
            server_seed: seed,
        },
        ..state.clone()
    };
    Ok((next, vec![Event::Withdrawn]))
}

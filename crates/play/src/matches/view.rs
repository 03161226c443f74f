//! The one door out of a match: what each viewer may see of its state and
//! of each event, and the record made from the revealed state.
//!
//! The rule (unchanged from the service's first version): a draw holds
//! every player's hand, so draws go to the operator alone; client seeds,
//! the seat order and the finish are public; the seed only once revealed.
//! The operator's labels and the linked accounts are the operator's; a
//! linked player is told which indexes are theirs.

use std::collections::BTreeMap;

use fairseed_core::games::Game;
use fairseed_core::record::MatchRecord;
use serde::Serialize;
use serde_json::{json, Value};

use super::error::MatchError;
use super::state::{status, Event, Match, Phase, Played};
use crate::{Record, Viewer};

/// A match as one viewer sees it (the API's match object).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchView {
    /// `match_seed_v2` or `match_seed_v1`.
    pub scheme: &'static str,
    /// The match id.
    pub match_id: String,
    /// The game.
    pub game: &'static str,
    /// The commitment.
    pub commitment: String,
    /// `open`, `started`, `finished` or `withdrawn`.
    pub status: &'static str,
    /// The operator's labels (empty for anyone else).
    pub players: Vec<String>,
    /// Client seeds by index, once given.
    pub client_seeds: Vec<Option<String>>,
    /// The seat order, once started.
    pub seat_order: Option<Vec<usize>>,
    /// Mahjong's wall size.
    pub tiles: Option<usize>,
    /// Draws made after the seat order.
    pub draws: u64,
    /// The seed, once revealed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
    /// Operator only: player index → linked account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accounts: Option<BTreeMap<usize, i64>>,
    /// A linked player only: the indexes that are theirs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<Vec<usize>>,
}

fn played(phase: &Phase) -> Option<&Played> {
    match phase {
        Phase::Committed { .. } | Phase::Withdrawn { .. } => None,
        Phase::Drawing(played) | Phase::Revealed { played, .. } => Some(played),
    }
}

/// What `viewer` may see of `state`.
pub fn view(state: &Match, viewer: Viewer) -> MatchView {
    let client_seeds = match &state.phase {
        Phase::Committed { client_seeds } | Phase::Withdrawn { client_seeds, .. } => client_seeds
            .iter()
            .map(|s| s.as_ref().map(|s| s.as_str().to_owned()))
            .collect(),
        Phase::Drawing(p) | Phase::Revealed { played: p, .. } => p
            .client_seeds
            .iter()
            .map(|s| Some(s.as_str().to_owned()))
            .collect(),
    };
    let accounts = match &state.phase {
        Phase::Revealed { accounts, .. } => accounts.as_slice(),
        _ => &[],
    };
    let played = played(&state.phase);
    let mut out = MatchView {
        scheme: state.scheme.core().as_str(),
        match_id: state.match_id.as_str().to_owned(),
        game: state.game.as_str(),
        commitment: state.commitment.to_hex(),
        status: status(&state.phase),
        players: Vec::new(),
        client_seeds,
        seat_order: played.map(|p| p.seat_order.clone()),
        tiles: (state.game == Game::Mahjong).then_some(state.tiles),
        draws: played.map_or(0, |p| p.progress.draws()),
        server_seed: match &state.phase {
            Phase::Revealed { server_seed, .. } | Phase::Withdrawn { server_seed, .. } => {
                Some(server_seed.reveal().to_owned())
            }
            _ => None,
        },
        accounts: None,
        you: None,
    };
    match viewer {
        Viewer::Operator => {
            out.players = state.labels.clone();
            out.accounts = Some(accounts.iter().copied().collect());
        }
        Viewer::Player(id) => {
            let mine: Vec<usize> = accounts
                .iter()
                .filter(|(_, a)| *a == id)
                .map(|(i, _)| *i)
                .collect();
            out.you = (!mine.is_empty()).then_some(mine);
        }
        Viewer::Public => {}
    }
    out
}

impl Event {
    /// What `viewer` may see of this event: draws to the operator only.
    pub fn view(&self, viewer: Viewer) -> Option<Value> {
        match self {
            Self::ClientSeed { index, client_seed } => Some(
                json!({"step": "client_seed", "index": index, "client_seed": client_seed.as_str()}),
            ),
            Self::Started { seat_order } => {
                Some(json!({"step": "start", "seat_order": seat_order}))
            }
            Self::Drawn(drawn) => match viewer {
                Viewer::Operator => serde_json::to_value(drawn).ok(),
                Viewer::Player(_) | Viewer::Public => None,
            },
            Self::Finished { .. } => Some(json!({"step": "finish"})),
            Self::Withdrawn => Some(json!({"step": "withdrawn"})),
        }
    }
}

/// The `match_seed_v2` record of a revealed match, with the full outcome,
/// readable by the linked accounts (and the operator).
pub(super) fn record(state: &Match) -> Result<Record, MatchError> {
    let Phase::Revealed {
        played,
        server_seed,
        accounts,
    } = &state.phase
    else {
        return Err(state.wrong_status("make a record", "finished"));
    };
    let outcome = match serde_json::to_value(state.replay(server_seed, played)?) {
        Ok(Value::Object(map)) => map,
        _ => {
            return Err(MatchError::Replay(
                "an outcome that is not an object".into(),
            ))
        }
    };
    let body = MatchRecord {
        scheme: state.scheme.core(),
        game: state.game,
        match_id: state.match_id.clone(),
        commitment: state.commitment,
        server_seed: Some(server_seed.clone()),
        client_seeds: played.client_seeds.clone(),
        play: played.progress.play(state.tiles),
        outcome: Some(outcome),
    }
    .to_value();
    let mut readers: Vec<i64> = accounts.iter().map(|(_, a)| *a).collect();
    readers.sort_unstable();
    readers.dedup();
    Ok(Record {
        scheme: state.scheme.core().as_str(),
        body,
        readers,
    })
}

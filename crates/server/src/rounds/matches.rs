//! `match_seed_v2` table games: open with a commitment, take each player's
//! client seed with the commitment they saw, start (seat order), draw step
//! by step, finish (reveal and record).
//!
//! Every draw replays the match from its start with the core's
//! [`games::play`] and takes the new part: the server never keeps a stream
//! position of its own, so what it deals is by construction what the
//! verifier recomputes from the record.

use fairseed_core::games::{self, Game, Hands, MatchOutcome, MatchStream, Play};
use fairseed_core::record::{MatchRecord, MatchScheme};
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use fairseed_store::{
    NewRecord, RecordOut, RoundChange, RoundFn, RoundRow, SecretSeed, StoreError,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{core_bug, load, save};

/// Status words of a match round.
pub const OPEN: &str = "open";
/// All client seeds in, seat order drawn.
pub const STARTED: &str = "started";
/// Revealed.
pub const FINISHED: &str = "finished";

/// The most deals, games, hands or moves per game/hand (the verifier's bound).
const MAX_STEPS: usize = 1000;

/// A match's state between requests.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatchState {
    /// The game.
    pub game: String,
    /// The match id.
    pub match_id: String,
    /// Operator labels of the players, by client-seed index.
    pub players: Vec<String>,
    /// Client seeds by index, once submitted.
    pub client_seeds: Vec<Option<String>>,
    /// Mahjong wall size (144 or 136).
    pub tiles: usize,
    /// The seat order, once started.
    pub seat_order: Option<Vec<usize>>,
    /// Backgammon: moves after the opening, per game.
    #[serde(default)]
    pub games: Vec<u32>,
    /// Tarneeb, trix, bridge: deals so far.
    #[serde(default)]
    pub deals: u32,
    /// Baloot: the buyer of each hand (`None`: nobody, or not yet).
    #[serde(default)]
    pub buyers: Vec<Option<usize>>,
    /// Mahjong: tiles drawn per hand.
    #[serde(default)]
    pub draws: Vec<usize>,
}

impl MatchState {
    /// A new match's state.
    pub fn new(game: Game, match_id: &Ident, players: Vec<String>, tiles: usize) -> Self {
        Self {
            game: game.as_str().to_owned(),
            match_id: match_id.as_str().to_owned(),
            client_seeds: vec![None; players.len()],
            players,
            tiles,
            seat_order: None,
            games: Vec::new(),
            deals: 0,
            buyers: Vec::new(),
            draws: Vec::new(),
        }
    }

    fn game(&self) -> Result<Game, StoreError> {
        Game::parse(&self.game).map_err(core_bug)
    }

    /// What was played so far, as the record's `play`.
    fn play(&self) -> Result<Play, StoreError> {
        Ok(match self.game()? {
            Game::Checkers | Game::Xiangqi => Play::SeatsOnly,
            Game::Backgammon => Play::Backgammon(self.games.clone()),
            Game::Tarneeb | Game::Trix | Game::Bridge => Play::Deals(self.deals),
            Game::Baloot => Play::Baloot(self.buyers.clone()),
            Game::Mahjong => Play::Mahjong {
                hands: self.draws.clone(),
                tiles: self.tiles,
            },
        })
    }

    fn seeds(&self) -> Result<Vec<ClientSeed>, StoreError> {
        self.client_seeds
            .iter()
            .map(|s| {
                let s = s
                    .as_deref()
                    .ok_or_else(|| StoreError::other("a client seed is missing"))?;
                ClientSeed::parse(s).map_err(core_bug)
            })
            .collect()
    }

    /// Replays the match so far with the core.
    fn replay(&self, seed: &ServerSeed) -> Result<MatchOutcome, StoreError> {
        let game = self.game()?;
        let id = Ident::parse(&self.match_id).map_err(core_bug)?;
        let stream = MatchStream::v2(seed, game, &id, &self.seeds()?).map_err(core_bug)?;
        games::play(stream, game, &self.play()?).map_err(core_bug)
    }
}

fn seed_of(secret: Option<&SecretSeed>) -> Result<ServerSeed, StoreError> {
    let secret =
        secret.ok_or_else(|| StoreError::conflict("match_finished", "the match is finished"))?;
    ServerSeed::parse(secret.expose())
        .map_err(|_| StoreError::other("a stored server seed does not parse"))
}

fn require(row: &RoundRow, status: &str, doing: &str) -> Result<(), StoreError> {
    if row.status == status {
        Ok(())
    } else {
        Err(StoreError::conflict(
            "wrong_status",
            format!(
                "cannot {doing}: the match is {}, expected {status}",
                row.status
            ),
        ))
    }
}

/// Takes player `index`'s client seed, only with the match's commitment.
pub fn submit_seed(index: usize, client_seed: ClientSeed, shown: Commitment) -> RoundFn {
    Box::new(move |row, _| {
        require(row, OPEN, "submit a client seed")?;
        let committed = Commitment::parse(&row.commitment).map_err(core_bug)?;
        if !committed.ct_eq_commitment(&shown) {
            return Err(StoreError::conflict(
                "commitment_mismatch",
                format!("commitment: '{shown}' is not this match's commitment; show the player the match's commitment first"),
            ));
        }
        let mut state: MatchState = load(&row.state)?;
        let players = state.client_seeds.len();
        let slot = state.client_seeds.get_mut(index).ok_or_else(|| {
            StoreError::conflict(
                "invalid_index",
                format!("index: {index} is not a player of this {players}-player match"),
            )
        })?;
        if slot.is_some() {
            return Err(StoreError::conflict(
                "seed_already_set",
                format!("index: player {index} already gave a client seed"),
            ));
        }
        *slot = Some(client_seed.as_str().to_owned());
        Ok(RoundChange {
            state: save(&state)?,
            status: OPEN.into(),
            log: vec![save(
                &json!({"step": "client_seed", "index": index, "client_seed": client_seed.as_str()}),
            )?],
            ..RoundChange::default()
        })
    })
}

/// Starts the match: every client seed is in; draws the seat order.
pub fn start() -> RoundFn {
    Box::new(move |row, secret| {
        require(row, OPEN, "start")?;
        let mut state: MatchState = load(&row.state)?;
        let missing: Vec<usize> = state
            .client_seeds
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_none())
            .map(|(i, _)| i)
            .collect();
        if !missing.is_empty() {
            return Err(StoreError::conflict(
                "client_seeds_missing",
                format!("players {missing:?} have not given a client seed"),
            ));
        }
        let outcome = state.replay(&seed_of(secret)?)?;
        state.seat_order = Some(outcome.seat_order.clone());
        Ok(RoundChange {
            state: save(&state)?,
            status: STARTED.into(),
            log: vec![save(
                &json!({"step": "start", "seat_order": outcome.seat_order}),
            )?],
            ..RoundChange::default()
        })
    })
}

/// One draw request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Tarneeb, trix, bridge: a 52-card deal.
    Deal,
    /// Backgammon: a new game's opening roll.
    Opening,
    /// Backgammon: the next move's dice.
    Roll,
    /// Baloot: a new hand's first distribution.
    First,
    /// Baloot: the second distribution after `buyer` bought.
    Second(usize),
    /// Mahjong: a new hand (a fresh wall).
    Hand,
    /// Mahjong: the next tile.
    Tile,
}

impl Step {
    /// The step's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Self::Deal => "deal",
            Self::Opening => "opening",
            Self::Roll => "roll",
            Self::First => "first",
            Self::Second(_) => "second",
            Self::Hand => "hand",
            Self::Tile => "tile",
        }
    }
}

fn too_long(what: &str) -> StoreError {
    StoreError::conflict(
        "match_too_long",
        format!("the match already has {MAX_STEPS} {what}; finish it"),
    )
}

fn not_now(step: Step, why: &str) -> StoreError {
    StoreError::conflict("invalid_step", format!("step: '{}' {why}", step.name()))
}

/// Applies `step` to the state's play; errors when the game does not allow it now.
fn advance(state: &mut MatchState, step: Step) -> Result<(), StoreError> {
    let game = state.game()?;
    match (game, step) {
        (Game::Tarneeb | Game::Trix | Game::Bridge, Step::Deal) => {
            if state.deals as usize >= MAX_STEPS {
                return Err(too_long("deals"));
            }
            state.deals += 1;
        }
        (Game::Backgammon, Step::Opening) => {
            if state.games.len() >= MAX_STEPS {
                return Err(too_long("games"));
            }
            state.games.push(0);
        }
        (Game::Backgammon, Step::Roll) => {
            let last = state
                .games
                .last_mut()
                .ok_or_else(|| not_now(step, "needs an opening first"))?;
            if *last as usize >= MAX_STEPS {
                return Err(too_long("moves in this game"));
            }
            *last += 1;
        }
        (Game::Baloot, Step::First) => {
            if state.buyers.len() >= MAX_STEPS {
                return Err(too_long("hands"));
            }
            state.buyers.push(None);
        }
        (Game::Baloot, Step::Second(buyer)) => {
            if buyer > 3 {
                return Err(StoreError::conflict(
                    "invalid_buyer",
                    format!("buyer: {buyer} is not a seat 0..3"),
                ));
            }
            match state.buyers.last_mut() {
                Some(last @ None) => *last = Some(buyer),
                _ => {
                    return Err(not_now(
                        step,
                        "needs a first distribution nobody bought yet",
                    ))
                }
            }
        }
        (Game::Mahjong, Step::Hand) => {
            if state.draws.len() >= MAX_STEPS {
                return Err(too_long("hands"));
            }
            state.draws.push(0);
        }
        (Game::Mahjong, Step::Tile) => {
            let tiles = state.tiles;
            let last = state
                .draws
                .last_mut()
                .ok_or_else(|| not_now(step, "needs a hand first"))?;
            if *last >= tiles {
                return Err(StoreError::conflict(
                    "wall_empty",
                    format!("the {tiles}-tile wall is empty; start a new hand"),
                ));
            }
            *last += 1;
        }
        (game, step) => return Err(not_now(step, &format!("is not a draw of {game}"))),
    }
    Ok(())
}

/// The part of the new outcome that `step` drew.
fn drawn(outcome: &MatchOutcome, step: Step) -> Result<Value, StoreError> {
    let missing = || StoreError::other("replay lacks the step just drawn");
    Ok(match step {
        Step::Deal => {
            json!({"hands": outcome.deals.as_ref().and_then(|d| d.last()).ok_or_else(missing)?})
        }
        Step::Opening => {
            let game = outcome
                .games
                .as_ref()
                .and_then(|g| g.last())
                .ok_or_else(missing)?;
            json!({"opening": game.opening})
        }
        Step::Roll => {
            let game = outcome
                .games
                .as_ref()
                .and_then(|g| g.last())
                .ok_or_else(missing)?;
            json!({"dice": game.rolls.last().ok_or_else(missing)?})
        }
        Step::First | Step::Second(_) => {
            let Some(Hands::Baloot(hands)) = &outcome.hands else {
                return Err(missing());
            };
            let hand = hands.last().ok_or_else(missing)?;
            if let Step::Second(buyer) = step {
                json!({"buyer": buyer, "second": hand.second})
            } else {
                json!({"first": hand.first, "face_up": hand.face_up})
            }
        }
        Step::Hand => json!({}),
        Step::Tile => {
            let Some(Hands::Mahjong(hands)) = &outcome.hands else {
                return Err(missing());
            };
            json!({"tile": hands.last().and_then(|h| h.last()).ok_or_else(missing)?})
        }
    })
}

/// Draws the next step of a started match and logs it.
pub fn draw(step: Step) -> RoundFn {
    Box::new(move |row, secret| {
        require(row, STARTED, "draw")?;
        let mut state: MatchState = load(&row.state)?;
        advance(&mut state, step)?;
        let outcome = state.replay(&seed_of(secret)?)?;
        let mut entry = drawn(&outcome, step)?;
        if let Value::Object(m) = &mut entry {
            m.insert("step".into(), step.name().into());
        }
        Ok(RoundChange {
            state: save(&state)?,
            status: STARTED.into(),
            log: vec![save(&entry)?],
            ..RoundChange::default()
        })
    })
}

/// Finishes a started match: reveals the seed and stores its record.
pub fn finish() -> RoundFn {
    Box::new(move |row, secret| {
        require(row, STARTED, "finish")?;
        let state: MatchState = load(&row.state)?;
        let seed = seed_of(secret)?;
        let outcome = state.replay(&seed)?;
        let outcome = match serde_json::to_value(&outcome).map_err(StoreError::other)? {
            Value::Object(m) => m,
            _ => return Err(StoreError::other("a match outcome is not an object")),
        };
        let record = MatchRecord {
            scheme: MatchScheme::V2,
            game: state.game()?,
            match_id: Ident::parse(&state.match_id).map_err(core_bug)?,
            commitment: Commitment::parse(&row.commitment).map_err(core_bug)?,
            server_seed: Some(seed),
            client_seeds: state.seeds()?,
            play: state.play()?,
            outcome: Some(outcome),
        };
        Ok(RoundChange {
            state: row.state.clone(),
            status: FINISHED.into(),
            log: vec![save(&json!({"step": "finish"}))?],
            reveal: true,
            records: vec![RecordOut::operator(NewRecord {
                scheme: "match_seed_v2".into(),
                body: save(&record.to_value())?,
            })],
        })
    })
}

//! `chess_colour_v1`: each player's connection holds a committed server
//! seed before it seeks, challenges or plays a bot. Pairing computes the
//! colours from both seeds (one step over both rounds); the game's end
//! reveals both seeds in a record for each player.
//!
//! A chess round is one player's seed; the game is named by the seeker's
//! (side A's) seed id.

use fairseed_core::chess::{self, ChessSide};
use fairseed_core::record::ChessRecord;
use fairseed_core::{ClientSeed, Commitment, ServerSeed};
use fairseed_store::{
    NewRecord, RecordOut, RoundChange, RoundRow, RoundsFn, SecretSeed, StoreError,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{core_bug, load, save};

/// Committed, waiting to seek or play.
pub const COMMITTED: &str = "committed";
/// Seeking (or challenging) an opponent.
pub const SEEKING: &str = "seeking";
/// In a game.
pub const PLAYING: &str = "playing";
/// Revealed.
pub const FINISHED: &str = "finished";

/// One chess seed's state.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SeedState {
    /// The player holding the seed.
    pub owner: i64,
    /// The client seed given when seeking or accepting.
    pub client: Option<String>,
    /// A challenge: only this player may accept.
    pub opponent: Option<i64>,
    /// The game: side A's round id.
    pub game: Option<String>,
    /// `A` or `B`.
    pub side: Option<String>,
    /// Who plays white: `A` or `B`.
    pub white: Option<String>,
    /// True for a game against a bot.
    pub bot: bool,
    /// The other side's round id (none for a bot).
    pub other: Option<String>,
}

fn seed_of(secret: Option<&SecretSeed>) -> Result<ServerSeed, StoreError> {
    let secret = secret
        .ok_or_else(|| StoreError::conflict("wrong_status", "this seed is already revealed"))?;
    ServerSeed::parse(secret.expose())
        .map_err(|_| StoreError::other("a stored server seed does not parse"))
}

/// Checks a player may use `row` now, having been shown its commitment.
fn check_own(
    row: &RoundRow,
    player: i64,
    shown: &Commitment,
    status: &str,
) -> Result<SeedState, StoreError> {
    let state: SeedState = load(&row.state)?;
    if state.owner != player {
        return Err(StoreError::NotFound("chess seed"));
    }
    let committed = Commitment::parse(&row.commitment).map_err(core_bug)?;
    if !committed.ct_eq_commitment(shown) {
        return Err(StoreError::conflict(
            "commitment_mismatch",
            "commitment: not this seed's commitment",
        ));
    }
    if row.status != status {
        return Err(StoreError::conflict(
            "wrong_status",
            format!("the seed is {}, expected {status}", row.status),
        ));
    }
    Ok(state)
}

fn change(
    state: &SeedState,
    status: &str,
    log: serde_json::Value,
) -> Result<RoundChange, StoreError> {
    Ok(RoundChange {
        state: save(state)?,
        status: status.into(),
        log: vec![save(&log)?],
        ..RoundChange::default()
    })
}

/// Starts seeking (or challenging `opponent`) with a client seed.
pub fn seek(player: i64, shown: Commitment, client: ClientSeed, opponent: Option<i64>) -> RoundsFn {
    Box::new(move |rounds| {
        let [(row, _)] = rounds else {
            return Err(StoreError::other("seek takes one round"));
        };
        let mut state = check_own(row, player, &shown, COMMITTED)?;
        state.client = Some(client.as_str().to_owned());
        state.opponent = opponent;
        Ok(vec![change(
            &state,
            SEEKING,
            json!({"event": "seek", "opponent": opponent}),
        )?])
    })
}

/// Pairs the caller's seed (B) with a seek (A): computes the colours.
pub fn accept(player: i64, shown: Commitment, client: ClientSeed) -> RoundsFn {
    Box::new(move |rounds| {
        let [(a_row, a_secret), (b_row, b_secret)] = rounds else {
            return Err(StoreError::other("accept takes two rounds"));
        };
        let mut a: SeedState = load(&a_row.state)?;
        if a_row.status != SEEKING {
            return Err(StoreError::conflict(
                "wrong_status",
                "that seek is no longer open",
            ));
        }
        if a.owner == player {
            return Err(StoreError::conflict(
                "own_seek",
                "a player cannot accept their own seek",
            ));
        }
        if a.opponent.is_some_and(|o| o != player) {
            return Err(StoreError::NotFound("seek"));
        }
        let mut b = check_own(b_row, player, &shown, COMMITTED)?;
        let (seed_a, seed_b) = (seed_of(a_secret.as_ref())?, seed_of(b_secret.as_ref())?);
        let (commit_a, commit_b) = (
            Commitment::parse(&a_row.commitment).map_err(core_bug)?,
            Commitment::parse(&b_row.commitment).map_err(core_bug)?,
        );
        let client_a = a
            .client
            .clone()
            .ok_or_else(|| StoreError::other("a seek without a client seed"))?;
        let white = chess::white(
            &ChessSide {
                seed: &seed_a,
                commitment: &commit_a,
                client: &client_a,
            },
            Some(&ChessSide {
                seed: &seed_b,
                commitment: &commit_b,
                client: client.as_str(),
            }),
        )
        .as_str()
        .to_owned();
        b.client = Some(client.as_str().to_owned());
        for (s, side, other) in [(&mut a, "A", &b_row.id), (&mut b, "B", &a_row.id)] {
            s.game = Some(a_row.id.clone());
            s.side = Some(side.into());
            s.white = Some(white.clone());
            s.other = Some(other.clone());
        }
        let log = json!({"event": "paired", "white": white});
        Ok(vec![
            change(&a, PLAYING, log.clone())?,
            change(&b, PLAYING, log)?,
        ])
    })
}

/// Starts a game against a bot: the bot has no seed (`commit_b` is `-`).
pub fn bot(player: i64, shown: Commitment, client: ClientSeed) -> RoundsFn {
    Box::new(move |rounds| {
        let [(row, secret)] = rounds else {
            return Err(StoreError::other("a bot game takes one round"));
        };
        let mut state = check_own(row, player, &shown, COMMITTED)?;
        let seed = seed_of(secret.as_ref())?;
        let commitment = Commitment::parse(&row.commitment).map_err(core_bug)?;
        let white = chess::white(
            &ChessSide {
                seed: &seed,
                commitment: &commitment,
                client: client.as_str(),
            },
            None,
        )
        .as_str()
        .to_owned();
        state.client = Some(client.as_str().to_owned());
        state.game = Some(row.id.clone());
        state.side = Some("A".into());
        state.white = Some(white.clone());
        state.bot = true;
        Ok(vec![change(
            &state,
            PLAYING,
            json!({"event": "paired", "white": white, "bot": true}),
        )?])
    })
}

/// Ends a game: reveals every seed and stores a record for each player.
/// `rounds` are side A then (unless a bot game) side B.
pub fn finish(player: i64) -> RoundsFn {
    Box::new(move |rounds| {
        let states: Vec<SeedState> = rounds
            .iter()
            .map(|(r, _)| load(&r.state))
            .collect::<Result<_, _>>()?;
        if !states.iter().any(|s| s.owner == player) {
            return Err(StoreError::NotFound("chess game"));
        }
        if rounds.iter().any(|(r, _)| r.status != PLAYING) {
            return Err(StoreError::conflict(
                "wrong_status",
                "the game is not being played",
            ));
        }
        let (a_row, a_secret) = &rounds[0];
        let a = &states[0];
        let b = rounds.get(1);
        let client_a =
            ClientSeed::parse(a.client.as_deref().unwrap_or_default()).map_err(core_bug)?;
        let record = ChessRecord {
            seed_a: Some(seed_of(a_secret.as_ref())?),
            commit_a: Commitment::parse(&a_row.commitment).map_err(core_bug)?,
            client_a,
            seed_b: b.map(|(_, s)| seed_of(s.as_ref())).transpose()?,
            commit_b: b
                .map(|(r, _)| Commitment::parse(&r.commitment).map_err(core_bug))
                .transpose()?,
            client_b: states
                .get(1)
                .and_then(|s| s.client.clone())
                .unwrap_or_default(),
            outcome: json!({"white": a.white}).as_object().cloned(),
        };
        let body = save(&record.to_value())?;
        rounds
            .iter()
            .zip(&states)
            .map(|((row, _), state)| {
                Ok(RoundChange {
                    state: row.state.clone(),
                    status: FINISHED.into(),
                    log: vec![save(&json!({"event": "finished"}))?],
                    reveal: true,
                    records: vec![RecordOut::for_player(
                        state.owner,
                        NewRecord {
                            scheme: "chess_colour_v1".into(),
                            body: body.clone(),
                        },
                    )],
                })
            })
            .collect()
    })
}

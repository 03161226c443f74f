//! `selfpoker` hands in the store: one round per hand (kind `selfpoker`,
//! id `selfpoker:<hand>`), its status the stage, its commitment the hand's
//! `commit`, its sealed secret the 63-bit seed. The rules and what the
//! player sees are `fairseed_play::selfpoker`'s; this module translates.

use fairseed_play::selfpoker::{self as rules, Hand, Stage, Stored};
use fairseed_play::Viewer;
use fairseed_store::{
    Commit, LoadedRound, NewRecord, NewRound, RecordOut, RoundChange, RoundWrite, SecretSeed,
};
use serde_json::Value;

use crate::error::ApiError;

use super::save;

/// The round kind.
pub const KIND: &str = "selfpoker";

/// The round id of `hand_id`, or `404` for an id that cannot be one.
pub fn round_id(hand_id: &str) -> Result<String, ApiError> {
    let ok = hand_id.len() <= 64 && hand_id.bytes().all(|b| b.is_ascii_alphanumeric());
    if !ok {
        return Err(ApiError::not_found("hand"));
    }
    Ok(format!("{KIND}:{hand_id}"))
}

/// The round of a new hand.
pub fn new_round(hand: &Hand, seed: u64) -> Result<NewRound, ApiError> {
    Ok(NewRound {
        id: round_id(&hand.id)?,
        kind: KIND.into(),
        commitment: hand.commit().to_owned(),
        secret: SecretSeed::new(seed.to_string()),
        key: None,
        state: save(&hand.stored)?,
        status: hand.stage.as_str().into(),
    })
}

/// The hand in `round` if it is `player`'s (`404` otherwise: a hand that is
/// not yours does not exist for you).
pub fn load(round: &LoadedRound, hand_id: &str, player: i64) -> Result<Hand, ApiError> {
    let row = &round.row;
    let stored: Stored = serde_json::from_str(&row.state).map_err(ApiError::internal)?;
    if row.kind != KIND || stored.owner != player {
        return Err(ApiError::not_found("hand"));
    }
    let stage = Stage::parse(&row.status)
        .ok_or_else(|| ApiError::internal(format!("unknown selfpoker stage '{}'", row.status)))?;
    // The seed is read from the revealed row once the hand ended.
    let secret = round
        .secret
        .as_ref()
        .map(|s| s.expose().to_owned())
        .or_else(|| row.revealed.clone())
        .ok_or_else(|| ApiError::internal("a selfpoker hand without its seed"))?;
    let seed = secret
        .parse()
        .map_err(|_| ApiError::internal("a stored selfpoker seed does not parse"))?;
    Ok(Hand::load(
        hand_id.to_owned(),
        stored,
        stage,
        &row.commitment,
        seed,
    )?)
}

/// The commit of `next` (one stage on from the loaded round), and the
/// owner's message of the new stage.
pub fn commit(round: &LoadedRound, next: &Hand) -> Result<(Commit, Value), ApiError> {
    let owner = next.stored.owner;
    let message = serde_json::to_value(rules::view(next, Viewer::Player(owner))?)
        .map_err(ApiError::internal)?;
    let records = match rules::record(next)? {
        Some(record) => vec![RecordOut::for_player(
            owner,
            NewRecord {
                scheme: KIND.into(),
                body: save(&record.to_value())?,
            },
        )],
        None => Vec::new(),
    };
    let write = RoundWrite {
        id: round.row.id.clone(),
        expected_version: round.row.version,
        change: RoundChange {
            state: round.row.state.clone(),
            status: next.stage.as_str().into(),
            log: vec![save(&message)?],
            reveal: next.stage == Stage::HandEnd,
            records,
            fold: None,
        },
    };
    let commit = Commit {
        writes: vec![write],
        ..Commit::default()
    };
    Ok((commit, message))
}

/// The commit dealing `round`'s hand to its end at once (its seed revealed
/// and its record written, as the owner's last `next` does), or `None` for
/// a hand already ended.
pub fn to_end(round: &LoadedRound) -> Result<Option<(Commit, Value)>, ApiError> {
    let row = &round.row;
    let stored: Stored = serde_json::from_str(&row.state).map_err(ApiError::internal)?;
    let hand_id = row
        .id
        .strip_prefix(&format!("{KIND}:"))
        .ok_or_else(|| ApiError::internal(format!("not a selfpoker round: {}", row.id)))?;
    let mut hand = load(round, hand_id, stored.owner)?;
    if hand.stage == Stage::HandEnd {
        return Ok(None);
    }
    while hand.stage != Stage::HandEnd {
        hand = rules::apply(hand, rules::Command::Next, crate::rounds::now())?.0;
    }
    commit(round, &hand).map(Some)
}

//! Selfpoker hands for a player: `POST /v1/selfpoker/hands`,
//! `GET /v1/selfpoker/hands/{id}`, `POST /v1/selfpoker/hands/{id}/next`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use fairseed_core::selfpoker;
use fairseed_store::{NewRound, RoundRow, SecretSeed, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tracing::instrument;

use crate::auth::PlayerAuth;
use crate::error::{ApiError, ApiJson, ApiPath};
use crate::events::Audience;
use crate::rounds::selfpoker::{message, next, HandState};
use crate::rounds::{load, save};
use crate::secrets;
use crate::state::AppState;

/// Body of a new hand.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewHand {
    players: usize,
}

fn round_id(hand_id: &str) -> Result<String, ApiError> {
    let ok = hand_id.len() <= 64 && hand_id.bytes().all(|b| b.is_ascii_alphanumeric());
    if !ok {
        return Err(ApiError::not_found("hand"));
    }
    Ok(format!("selfpoker:{hand_id}"))
}

/// A new hand: the seed is drawn and committed; no card yet.
#[instrument(skip_all)]
pub async fn post(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiJson(body): ApiJson<NewHand>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    if !(2..=10).contains(&body.players) {
        return Err(ApiError::invalid(
            "players",
            format!("{}, expected 2 to 10", body.players),
        ));
    }
    let bytes = secrets::random_bytes()?;
    let mut eight = [0u8; 8];
    eight.copy_from_slice(&bytes[..8]);
    // 63 bits, as secrets.randbits(63).
    let seed = u64::from_le_bytes(eight) >> 1;
    let hand_id = format!("sp{}", hex::encode(&bytes[8..20]));
    let commit = selfpoker::commit(seed);
    state
        .store()
        .create_round(NewRound {
            id: round_id(&hand_id)?,
            kind: "selfpoker".into(),
            commitment: commit.clone(),
            secret: SecretSeed::new(seed.to_string()),
            state: save(&HandState {
                owner: auth.id,
                players: body.players,
            })?,
            status: "committed".into(),
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(message(
            "committed",
            &commit,
            &hand_id,
            body.players,
            None,
            None,
        )),
    ))
}

async fn own_hand(
    state: &AppState,
    auth: PlayerAuth,
    hand_id: &str,
) -> Result<(RoundRow, HandState), ApiError> {
    let row = state
        .store()
        .round(&round_id(hand_id)?)
        .await
        .map_err(|e| match e {
            StoreError::NotFound(_) => ApiError::not_found("hand"),
            other => other.into(),
        })?;
    let hand: HandState = load(&row.state)?;
    if row.kind != "selfpoker" || hand.owner != auth.id {
        return Err(ApiError::not_found("hand"));
    }
    Ok((row, hand))
}

/// The hand's latest state message.
#[instrument(skip_all)]
pub async fn get(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(hand_id): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (row, hand) = own_hand(&state, auth, &hand_id).await?;
    if row.log_len == 0 {
        return Ok(Json(message(
            "committed",
            &row.commitment,
            &hand_id,
            hand.players,
            None,
            None,
        )));
    }
    let last = state.store().round_log(&row.id, row.log_len - 1, 1).await?;
    let body = last
        .first()
        .ok_or_else(|| ApiError::internal("hand log is shorter than its length"))?;
    Ok(Json(
        serde_json::from_str(&body.body).map_err(ApiError::internal)?,
    ))
}

/// The next stage's state message (with the record id at `hand_end`).
#[derive(Debug, Serialize)]
pub struct Next {
    #[serde(flatten)]
    message: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    record_id: Option<i64>,
}

/// Moves the hand forward: preflop, flop, turn, river, hand_end.
#[instrument(skip_all)]
pub async fn post_next(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(hand_id): ApiPath<String>,
) -> Result<Json<Next>, ApiError> {
    let (row, _) = own_hand(&state, auth, &hand_id).await?;
    let update = state
        .store()
        .update_round(&row.id, next(hand_id.clone()))
        .await?;
    let entry = update
        .log
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::internal("a stage logged nothing"))?;
    let message: Value = serde_json::from_str(&entry.body).map_err(ApiError::internal)?;
    state.events().publish(
        format!("selfpoker:{hand_id}"),
        Audience::Player(auth.id),
        message.clone(),
    );
    Ok(Json(Next {
        message,
        record_id: update.records.first().map(|r| r.id),
    }))
}

//! Selfpoker hands for a player: `POST /v1/selfpoker/hands`,
//! `GET /v1/selfpoker/hands/{id}`, `POST /v1/selfpoker/hands/{id}/next`.
//! Every message is the owner's view of the hand (`fairseed_play::selfpoker`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use fairseed_play::selfpoker::{self as rules, Command, Hand, Stored};
use fairseed_play::Viewer;
use fairseed_store::{Commit, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tracing::instrument;

use crate::auth::PlayerAuth;
use crate::error::{ApiError, ApiJson, ApiPath, ErrorCode};
use crate::events::Audience;
use crate::rounds::now;
use crate::rounds::selfpoker::{commit, load, new_round, round_id};
use crate::secrets;
use crate::state::AppState;
use crate::step;

/// Body of a new hand.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewHand {
    players: usize,
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
    let stored = Stored {
        owner: auth.id,
        players: body.players,
    };
    let hand = Hand::new(hand_id, stored, seed)?;
    let create = Commit {
        creates: vec![new_round(&hand, seed)?],
        ..Commit::default()
    };
    let updates = state.store().commit(create).await?;
    let message = rules::view(&hand, Viewer::Player(auth.id))?;
    let body = serde_json::to_value(message).map_err(ApiError::internal)?;
    Ok((
        StatusCode::CREATED,
        Json(state.with_receipts(body, &updates).await?),
    ))
}

fn hand_not_found(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound(_) => ApiError::not_found("hand"),
        other => other.into(),
    }
}

/// The hand's state as its owner sees it now. A read.
#[instrument(skip_all)]
pub async fn get(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(hand_id): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let rounds = state
        .store()
        .load_rounds(&[round_id(&hand_id)?])
        .await
        .map_err(hand_not_found)?;
    let hand = load(&rounds[0], &hand_id, auth.id)?;
    let message = rules::view(&hand, Viewer::Player(auth.id))?;
    let body = serde_json::to_value(message).map_err(ApiError::internal)?;
    let shown = crate::log::shown::round([&rounds[0].row]);
    Ok(Json(state.with_shown_receipts(body, shown).await?))
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
    let ids = [round_id(&hand_id)?];
    let (updates, message) = step::step(&state, &ids, |rounds| {
        let hand = load(&rounds[0], &hand_id, auth.id)?;
        let (next, _) = rules::apply(hand, Command::Next, now())?;
        commit(&rounds[0], &next)
    })
    .await
    .map_err(|e| match e.kind() {
        ErrorCode::NOT_FOUND => ApiError::not_found("hand"),
        _ => e,
    })?;
    state.events().publish(
        format!("selfpoker:{hand_id}"),
        Audience::Player(auth.id),
        message.clone(),
    );
    Ok(Json(Next {
        message: state.with_receipts(message, &updates).await?,
        record_id: updates
            .first()
            .and_then(|u| u.records.first())
            .map(|r| r.id),
    }))
}

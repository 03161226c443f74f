//! Who is calling: a player (bearer token) or the operator (API key).
//!
//! Tokens are looked up by their SHA-256 and compared in constant time; the
//! rate limit is taken per credential before any database work.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::StatusCode;
use fairseed_core::ct_eq;

use crate::error::ApiError;
use crate::secrets::token_hash;
use crate::state::AppState;

/// An authenticated player.
#[derive(Debug, Clone, Copy)]
pub struct PlayerAuth {
    /// The player's id.
    pub id: i64,
}

/// The authenticated operator.
#[derive(Debug, Clone, Copy)]
pub struct OperatorAuth;

fn bearer(parts: &Parts) -> Result<&str, ApiError> {
    let value = parts
        .headers
        .get(AUTHORIZATION)
        .ok_or_else(|| ApiError::unauthorized("Authorization: a bearer token is required"))?
        .to_str()
        .map_err(|_| ApiError::unauthorized("Authorization: not a valid bearer token"))?;
    value
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 256)
        .ok_or_else(|| ApiError::unauthorized("Authorization: expected 'Bearer <token>'"))
}

/// The caller's credential hash, after taking one unit of its rate limit.
fn limited_hash(parts: &Parts, state: &AppState) -> Result<String, ApiError> {
    let hash = token_hash(bearer(parts)?);
    state
        .limiter()
        .check(&hash)
        .map_err(ApiError::rate_limited)?;
    Ok(hash)
}

/// Whether a credential hash is the operator key's, compared in constant time.
fn is_operator(state: &AppState, hash: &str) -> bool {
    ct_eq(hash.as_bytes(), state.operator_key_hash().as_bytes())
}

/// The player whose token hashes to `hash`.
async fn player(state: &AppState, hash: String) -> Result<i64, ApiError> {
    if let Some(id) = state.cached_player(&hash) {
        return Ok(id);
    }
    match state.store().player_by_token(&hash).await {
        Ok(player) => {
            state.cache_player(hash, player.id);
            Ok(player.id)
        }
        Err(fairseed_store::StoreError::NotFound(_)) if is_operator(state, &hash) => {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                "this endpoint is for players; the operator key cannot use it",
            ))
        }
        Err(fairseed_store::StoreError::NotFound(_)) => {
            Err(ApiError::unauthorized("Authorization: unknown token"))
        }
        Err(other) => Err(other.into()),
    }
}

impl FromRequestParts<AppState> for PlayerAuth {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let hash = limited_hash(parts, state)?;
        player(state, hash).await.map(|id| Self { id })
    }
}

impl FromRequestParts<AppState> for OperatorAuth {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if is_operator(state, &limited_hash(parts, state)?) {
            Ok(Self)
        } else {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                "this endpoint needs the operator key",
            ))
        }
    }
}

/// Either kind of caller, for endpoints both may read.
#[derive(Debug, Clone, Copy)]
pub enum Caller {
    /// A player, by id.
    Player(i64),
    /// The operator.
    Operator,
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let hash = limited_hash(parts, state)?;
        if is_operator(state, &hash) {
            return Ok(Self::Operator);
        }
        player(state, hash).await.map(Self::Player)
    }
}

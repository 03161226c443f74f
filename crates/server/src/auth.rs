//! Who is calling: a player (bearer token) or the operator (API key).
//!
//! Tokens are looked up by their SHA-256 and compared in constant time; the
//! rate limit is taken per credential before any database work. A token not
//! in this process's cache is looked up only while its client address has
//! failed-token budget left; one found to belong to nobody costs a unit and
//! is remembered, so guessing tokens never costs a lookup per guess.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
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

/// The hash of the request's bearer token, if it has one.
pub(crate) fn bearer_hash(headers: &axum::http::HeaderMap) -> Option<String> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ")?.trim();
    (!token.is_empty() && token.len() <= 256).then(|| token_hash(token))
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

/// The client's address, when the request came through the listener.
pub(crate) fn peer(parts: &Parts) -> Option<SocketAddr> {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0)
}

/// The client's address, if known (absent when the router is driven in process).
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub Option<SocketAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(peer(parts)))
    }
}

fn too_many_failures(secs: u64) -> ApiError {
    ApiError::rate_limited_because(
        "too many unknown or refused tokens from this address; slow down",
        secs,
    )
}

/// Takes one unit of the address's failed-token limit, or answers 429.
fn take_failure(state: &AppState, peer: Option<SocketAddr>) -> Result<(), ApiError> {
    state
        .address_limits()
        .failure(peer)
        .map_err(too_many_failures)
}

fn unknown_token() -> ApiError {
    ApiError::unauthorized("Authorization: unknown token")
}

/// The player whose token hashes to `hash`.
async fn player(state: &AppState, hash: String, peer: Option<SocketAddr>) -> Result<i64, ApiError> {
    if let Some(id) = state.cached_player(&hash) {
        return Ok(id);
    }
    if is_operator(state, &hash) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            crate::error::ErrorCode::Forbidden,
            "this endpoint is for players; the operator key cannot use it",
        ));
    }
    if state.address_limits().misses().contains(&hash) {
        take_failure(state, peer)?;
        return Err(unknown_token());
    }
    state
        .address_limits()
        .may_fail(peer)
        .map_err(too_many_failures)?;
    match state.store().player_by_token(&hash).await {
        Ok(player) => {
            state.cache_player(hash, player.id);
            Ok(player.id)
        }
        Err(fairseed_store::StoreError::NotFound(_)) => {
            state.address_limits().misses().insert(hash);
            take_failure(state, peer)?;
            Err(unknown_token())
        }
        Err(other) => Err(other.into()),
    }
}

/// The player whose bearer `token` this is, for a caller that cannot send
/// headers (a WebSocket's first message); rate-limited as a header would be.
pub(crate) async fn player_of_token(
    state: &AppState,
    token: &str,
    peer: Option<SocketAddr>,
) -> Result<i64, ApiError> {
    if token.is_empty() || token.len() > 256 {
        return Err(ApiError::unauthorized("token: not a valid player token"));
    }
    let hash = token_hash(token);
    state
        .limiter()
        .check(&hash)
        .map_err(ApiError::rate_limited)?;
    player(state, hash, peer).await
}

impl FromRequestParts<AppState> for PlayerAuth {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let hash = limited_hash(parts, state)?;
        player(state, hash, peer(parts)).await.map(|id| Self { id })
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
            take_failure(state, peer(parts))?;
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                crate::error::ErrorCode::Forbidden,
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
        player(state, hash, peer(parts)).await.map(Self::Player)
    }
}

//! Players the operator creates for its own users:
//! `POST /v1/operator/players` (idempotent by `external_id`),
//! `POST`/`DELETE /v1/operator/players/{external_id}/token` (rotate, revoke),
//! `POST /v1/operator/players/{external_id}/grants` (free play chips).
//!
//! A token is shown once, when issued, with a `login_url` (`/#login=<token>`)
//! the operator hands its user; the page reads the fragment, which never
//! reaches a server log. Chips are play chips: the operator may grant them,
//! one ledger entry each, and nothing buys, converts or transfers them.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::{Deserialize, Serialize};
use tracing::instrument;

use crate::auth::OperatorAuth;
use crate::error::{ApiError, ApiJson, ApiPath};
use crate::handlers::dice::idempotency_key;
use crate::secrets;
use crate::state::AppState;

/// Longest `external_id`.
const EXTERNAL_ID_MAX: usize = 128;
/// Largest grant: what a JSON number holds exactly.
const GRANT_MAX: u64 = (1 << 53) - 1;

/// Body of `POST /v1/operator/players`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewOperatorPlayer {
    external_id: String,
}

/// Body of `POST /v1/operator/players/{external_id}/grants`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGrant {
    amount: u64,
}

/// An operator's player; `token` and `login_url` only when one was issued.
#[derive(Debug, Serialize)]
pub struct OperatorPlayerView {
    player_id: i64,
    external_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    balance: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    login_url: Option<String>,
}

/// A grant as answered.
#[derive(Debug, Serialize)]
pub struct GrantView {
    grant_id: i64,
    player_id: i64,
    amount: u128,
    balance: u128,
}

/// `external_id`: 1 to 128 of `A-Z a-z 0-9 . _ : @ -` (safe in a path).
fn check_external_id(id: &str) -> Result<(), ApiError> {
    let ok = (1..=EXTERNAL_ID_MAX).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:@-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "external_id",
            "expected 1 to 128 characters from A-Z a-z 0-9 . _ : @ -",
        ))
    }
}

fn with_token(player_id: i64, external_id: String, token: String) -> OperatorPlayerView {
    OperatorPlayerView {
        player_id,
        external_id,
        balance: None,
        login_url: Some(format!("/#login={token}")),
        token: Some(token),
    }
}

/// Creates the player for `external_id` (201, with its token) or returns
/// the existing one (200, no token: rotate to issue a new one).
#[instrument(skip_all)]
pub async fn post(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiJson(body): ApiJson<NewOperatorPlayer>,
) -> Result<(StatusCode, Json<OperatorPlayerView>), ApiError> {
    check_external_id(&body.external_id)?;
    let token = secrets::new_token()?;
    let hash = secrets::token_hash(&token);
    let player = state
        .store()
        .operator_player(
            &body.external_id,
            &hash,
            state.opening_balance(),
            secrets::new_seed_pair()?,
        )
        .await?;
    if !player.created {
        return Ok((
            StatusCode::OK,
            Json(OperatorPlayerView {
                player_id: player.player_id,
                external_id: body.external_id,
                balance: Some(player.balance),
                token: None,
                login_url: None,
            }),
        ));
    }
    state.cache_player(hash, player.player_id);
    tracing::info!(player = player.player_id, "operator player created");
    let mut view = with_token(player.player_id, body.external_id, token);
    view.balance = Some(player.balance);
    Ok((StatusCode::CREATED, Json(view)))
}

/// Issues a new token; the old one stops working.
#[instrument(skip_all)]
pub async fn rotate_token(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(external_id): ApiPath<String>,
) -> Result<Json<OperatorPlayerView>, ApiError> {
    check_external_id(&external_id)?;
    let token = secrets::new_token()?;
    let hash = secrets::token_hash(&token);
    let (player_id, old) = state
        .store()
        .set_operator_player_token(&external_id, Some(&hash))
        .await?;
    // The old token authenticates nothing more and its streams end, here
    // and in every process.
    state.events().revoke_token(&old);
    state.cache_player(hash, player_id);
    Ok(Json(with_token(player_id, external_id, token)))
}

/// Revokes the token: no token works until the next rotation.
#[instrument(skip_all)]
pub async fn revoke_token(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(external_id): ApiPath<String>,
) -> Result<Json<OperatorPlayerView>, ApiError> {
    check_external_id(&external_id)?;
    let (player_id, old) = state
        .store()
        .set_operator_player_token(&external_id, None)
        .await?;
    state.events().revoke_token(&old);
    Ok(Json(OperatorPlayerView {
        player_id,
        external_id,
        balance: None,
        token: None,
        login_url: None,
    }))
}

/// Grants free play chips, once per `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn grant(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(external_id): ApiPath<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<NewGrant>,
) -> Result<Json<GrantView>, ApiError> {
    check_external_id(&external_id)?;
    let key = idempotency_key(&headers)?;
    if !(1..=GRANT_MAX).contains(&body.amount) {
        return Err(ApiError::invalid(
            "amount",
            format!("{} is out of range, expected 1 to 2^53-1", body.amount),
        ));
    }
    let grant = state
        .store()
        .grant_chips(&external_id, &key, u128::from(body.amount))
        .await?;
    tracing::info!(player = grant.player_id, grant = grant.id, "chips granted");
    Ok(Json(GrantView {
        grant_id: grant.id,
        player_id: grant.player_id,
        amount: grant.amount,
        balance: grant.balance_after,
    }))
}

//! `POST /v1/players`, `GET /v1/me`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use tracing::instrument;

use crate::args::SignupMode;
use crate::auth::{Peer, PlayerAuth};
use crate::error::ApiError;
use crate::handlers::seeds::PairView;
use crate::secrets;
use crate::state::AppState;

/// A new account: the token is shown this once.
#[derive(Debug, Serialize)]
pub struct Created {
    player_id: i64,
    token: String,
    balance: u128,
    seed_pair: PairView,
    /// The receipt of the pair's commitment entry (none when the log is off).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    receipts: Vec<crate::log::Receipt>,
}

/// Creates an anonymous account with the opening balance and a first pair,
/// when signup is open and the client's address is within its limit.
#[instrument(skip_all)]
pub async fn post(
    State(state): State<AppState>,
    Peer(peer): Peer,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    if state.signup() == SignupMode::Operator {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            crate::error::ErrorCode::SignupClosed,
            "accounts are created by the operator (POST /v1/operator/players)",
        ));
    }
    state.address_limits().signup(peer).map_err(|secs| {
        ApiError::rate_limited_because("too many new accounts from this address; slow down", secs)
    })?;
    let token = secrets::new_token()?;
    let hash = secrets::token_hash(&token);
    let (player, pair) = state
        .store()
        .create_player(&hash, state.opening_balance(), secrets::new_seed_pair()?)
        .await?;
    state.cache_player(hash, player.id);
    tracing::info!(player = player.id, "player created");
    Ok((
        StatusCode::CREATED,
        Json(Created {
            player_id: player.id,
            token,
            balance: player.balance,
            receipts: state.receipts(&pair.appended).await?,
            seed_pair: pair.into(),
        }),
    ))
}

/// The caller's account.
#[derive(Debug, Serialize)]
pub struct Me {
    player_id: i64,
    balance: u128,
}

/// The caller's id and balance.
#[instrument(skip_all)]
pub async fn me(State(state): State<AppState>, auth: PlayerAuth) -> Result<Json<Me>, ApiError> {
    let player = state.store().player(auth.id).await?;
    Ok(Json(Me {
        player_id: player.id,
        balance: player.balance,
    }))
}

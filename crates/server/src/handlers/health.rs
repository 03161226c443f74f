//! `GET /healthz`.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use tracing::instrument;

use crate::error::ApiError;
use crate::state::AppState;

/// Serving while the database commits: answered at once from what
/// [`crate::db_watch`] saw, never waiting on the database itself, so a
/// balancer's check gets its answer however the database fails.
#[instrument(skip_all)]
pub async fn get(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    state
        .metrics()
        .db()
        .commits()
        .map_err(|_| ApiError::cannot_commit())?;
    Ok(Json(json!({"status": "ok"})))
}

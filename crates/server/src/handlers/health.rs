//! `GET /healthz`.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use tracing::instrument;

use crate::error::ApiError;
use crate::state::AppState;

/// Healthy when the database answers.
#[instrument(skip_all)]
pub async fn get(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    state.store().health().await?;
    Ok(Json(json!({"status": "ok"})))
}

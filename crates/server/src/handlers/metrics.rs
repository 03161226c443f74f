//! `GET /metrics` and the access-log middleware over the service's
//! [`Metrics`](crate::metrics::Metrics).

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::metrics;
use crate::state::AppState;

/// `GET /metrics`.
pub async fn get(State(state): State<AppState>) -> Response {
    metrics::exposition(state.metrics())
}

/// One access line per request, and the counters behind `/metrics`.
pub async fn access(State(state): State<AppState>, req: Request, next: Next) -> Response {
    metrics::access(state.metrics(), req, next).await
}

//! `GET /metrics` and the access-log middleware over the service's
//! [`Metrics`](crate::metrics::Metrics).

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::metrics;
use crate::state::AppState;

/// `GET /metrics`.
pub async fn get(State(state): State<AppState>) -> Response {
    metrics::exposition(state.metrics(), state.store().pool_use())
}

/// `GET /metrics` on the players' listener: the operator key only (without
/// `metrics_listen`, Prometheus sends it as a bearer token).
pub async fn get_for_operator(
    _operator: crate::auth::OperatorAuth,
    state: State<AppState>,
) -> Response {
    get(state).await
}

/// One access line per request, and the counters behind `/metrics`.
pub async fn access(State(state): State<AppState>, req: Request, next: Next) -> Response {
    metrics::access(state.metrics(), req, next).await
}

//! Every route of the service, in one place.

use axum::extract::DefaultBodyLimit;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post, put};
use axum::Router;

use crate::error::ApiError;
use crate::handlers::metrics;
use crate::handlers::{
    chess, dice, events, health, holdem, log, matches, operator, operator_players, players, poker,
    records, seeds, selfpoker,
};
use crate::limits::BODY_LIMIT;
use crate::state::AppState;

pub use crate::web::with_static;

/// The OpenAPI document, edited by hand beside the routes; a test checks
/// that it lists exactly the routes of [`router`], and Schemathesis checks
/// that the server is exactly as strict as its schemas.
pub const OPENAPI: &str = include_str!("openapi.json");

/// The API routes over `state`, without the web page.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(health::get))
        .route("/metrics", get(metrics::get_for_operator))
        .route("/v1/openapi.json", get(openapi))
        .route("/v1/players", post(players::post))
        .route("/v1/me", get(players::me))
        .route("/v1/seeds", get(seeds::get))
        .route("/v1/seeds/client", put(seeds::put_client))
        .route("/v1/seeds/rotate", post(seeds::rotate))
        .route("/v1/seeds/revealed", get(seeds::revealed))
        .route("/v1/dice/bets", post(dice::post).get(dice::index))
        .route("/v1/records", get(records::index))
        .route("/v1/records/export", get(records::export))
        .route("/v1/records/{id}", get(records::get))
        .route("/v1/selfpoker/hands", post(selfpoker::post))
        .route("/v1/selfpoker/hands/{id}", get(selfpoker::get))
        .route("/v1/selfpoker/hands/{id}/next", post(selfpoker::post_next))
        .route("/v1/chess/seeds", post(chess::post_seed))
        .route(
            "/v1/chess/seeks",
            post(chess::post_seek).get(chess::get_seeks),
        )
        .route("/v1/chess/seeks/{id}/accept", post(chess::post_accept))
        .route("/v1/chess/seeks/{id}/cancel", post(chess::post_cancel))
        .route("/v1/chess/bot", post(chess::post_bot))
        .route("/v1/chess/games/{id}", get(chess::get_game))
        .route("/v1/chess/games/{id}/finish", post(chess::post_finish))
        .route("/v1/events", get(events::get))
        .route("/v1/poker/hands", get(poker::get_hands))
        .route("/v1/poker/tables", post(poker::post_table))
        .route("/v1/poker/tables/{id}", get(poker::get_table))
        .route("/v1/poker/tables/{id}/seats", post(poker::post_seat))
        .route("/v1/poker/tables/{id}/leave", post(poker::post_leave))
        .route("/v1/poker/tables/{id}/hands", post(poker::post_hand))
        .route("/v1/poker/tables/{id}/hands/{n}", get(poker::get_hand))
        .route(
            "/v1/poker/tables/{id}/hands/{n}/street",
            post(poker::post_street),
        )
        .route("/v1/holdem/tables", post(holdem::post_table))
        .route("/v1/holdem/tables/{id}", get(holdem::get_table))
        .route("/v1/holdem/tables/{id}/hands", get(holdem::get_hands))
        .route("/v1/holdem/tables/{id}/ws", get(holdem::get_ws))
        .route("/v1/matches", post(matches::post))
        .route("/v1/matches/{id}", get(matches::get))
        .route(
            "/v1/matches/{id}/client-seeds",
            post(matches::post_client_seed),
        )
        .route("/v1/matches/{id}/start", post(matches::start))
        .route(
            "/v1/matches/{id}/draws",
            post(matches::post_draw).get(matches::get_draws),
        )
        .route("/v1/matches/{id}/finish", post(matches::finish))
        .route("/v1/operator/players", post(operator_players::post))
        .route(
            "/v1/operator/players/{external_id}/token",
            post(operator_players::rotate_token).delete(operator_players::revoke_token),
        )
        .route(
            "/v1/operator/players/{external_id}/grants",
            post(operator_players::grant),
        )
        .route("/v1/operator/holdem/tables", get(holdem::operator_list))
        .route(
            "/v1/operator/holdem/tables/{id}/close",
            post(holdem::operator_close),
        )
        .route("/v1/operator/records", post(operator::import))
        .route("/v1/operator/records/export", get(operator::export))
        .route("/v1/operator/records/{id}", get(operator::get_record))
        .route("/log/checkpoint", get(log::checkpoint))
        .route("/log/checkpoint/cosigned", get(log::cosigned))
        .route("/log/key", get(log::vkey))
        .route("/log/tile/{*path}", get(log::tile))
        .route("/log/receipts/{entry_hash}", get(log::receipt))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(whole_body))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            metrics::access,
        ))
        .with_state(state)
}

/// A body declared larger than the limit is refused from its headers at
/// once, instead of holding the connection open for bytes that may never come.
/// Any other body is read whole before the handler runs, even where the
/// handler ignores it (a `GET` with a body): an answer sent over unread bytes
/// and then `Connection: close` makes the kernel reset the connection, and
/// the client may lose the answer.
async fn whole_body(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u128>().ok());
    if declared.is_some_and(|n| n > BODY_LIMIT as u128) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            crate::error::ErrorCode::PayloadTooLarge,
            "body: larger than the 64 KiB limit",
        )
        .into_response();
    }
    let (parts, body) = req.into_parts();
    match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(bytes) => {
            next.run(axum::extract::Request::from_parts(parts, bytes.into()))
                .await
        }
        Err(_) => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            crate::error::ErrorCode::PayloadTooLarge,
            "body: larger than the 64 KiB limit",
        )
        .into_response(),
    }
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI)
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        crate::error::ErrorCode::MethodNotAllowed,
        "this path does not take that method",
    )
}

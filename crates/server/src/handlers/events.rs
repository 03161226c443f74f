//! `GET /v1/events?topic=…`: a Server-Sent Events stream of one topic,
//! filtered for the caller; capped per caller and per topic as every live
//! stream is (`crate::events::Hub::open_stream`, `429 too_many_streams`
//! beyond); ended within a second once the caller's token is revoked or
//! rotated.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::stream::Stream;
use futures_util::StreamExt;
use serde::Deserialize;
use tokio_stream::wrappers::BroadcastStream;
use tracing::instrument;

use crate::auth::Caller;
use crate::error::{ApiError, ApiQuery};
use crate::events::{visible, StreamCaller};
use crate::state::AppState;

/// `?topic=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topic {
    topic: String,
}

/// Streams the topic's events the caller may see.
#[instrument(skip_all)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<Topic>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let ok = (1..=80).contains(&q.topic.len())
        && q.topic
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-:".contains(&b));
    if !ok {
        return Err(ApiError::invalid(
            "topic",
            "expected dice, poker:<table>, match:<id> or selfpoker:<hand>",
        ));
    }
    let (viewer, stream_caller) = match caller {
        Caller::Player(id) => (Some(id), StreamCaller::Player(id)),
        Caller::Operator => (None, StreamCaller::Operator),
    };
    let slot = state
        .events()
        .open_stream(&stream_caller, &q.topic)
        .map_err(|refused| refused.error())?;
    // A player's stream ends once its token is revoked or rotated.
    let revoked = match (viewer, crate::auth::bearer_hash(&headers)) {
        (Some(_), Some(hash)) => Some(state.events().token_watch(&hash)),
        _ => None,
    };
    let ended = async move {
        match revoked {
            Some(mut revoked) => {
                if revoked.wait_for(|r| *r).await.map(|_| ()).is_err() {
                    std::future::pending::<()>().await;
                }
            }
            None => std::future::pending::<()>().await,
        }
    };
    let stream = BroadcastStream::new(state.events().subscribe(&q.topic))
        .take_until(ended)
        .filter_map(move |item| {
            // The slot is given back when the stream (and this closure) is dropped.
            let _held = &slot;
            let out = match item {
                Ok(event) if visible(&event, viewer) => Some(Ok(SseEvent::default()
                    .event(event.topic.clone())
                    .data(event.body.to_string()))),
                Ok(_) => None,
                // A slow subscriber missed events: say so, the client re-reads the log.
                Err(_) => Some(Ok(SseEvent::default().event("lagged").data("{}"))),
            };
            std::future::ready(out)
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

//! `GET /v1/events?topic=…`: a Server-Sent Events stream of one topic,
//! filtered for the caller; at most `MAX_STREAMS_PER_CALLER` at once per
//! caller (`429 too_many_streams` beyond).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::stream::Stream;
use futures_util::StreamExt;
use serde::Deserialize;
use tokio_stream::wrappers::BroadcastStream;
use tracing::instrument;

use crate::auth::Caller;
use crate::error::{ApiError, ApiQuery};
use crate::events::{visible, MAX_STREAMS_PER_CALLER};
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
    let (viewer, caller_key) = match caller {
        Caller::Player(id) => (Some(id), format!("player:{id}")),
        Caller::Operator => (None, "operator".to_owned()),
    };
    let slot = state.events().open_stream(caller_key).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_streams",
            format!(
                "at most {MAX_STREAMS_PER_CALLER} event streams may be open at once; close one first"
            ),
        )
    })?;
    let stream = BroadcastStream::new(state.events().subscribe(&q.topic)).filter_map(move |item| {
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

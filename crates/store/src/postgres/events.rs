//! Live events across processes: `NOTIFY` on a channel of this database
//! (one per schema, so services in different schemas of one database never
//! hear each other), `LISTEN` on a connection of its own.
//!
//! A notification carries at most 8000 bytes. A small event travels inline
//! (`i` + text); a larger one is written to `event_bodies` and the
//! notification carries its id (`r` + id), which listeners read back.
//! Bodies older than [`BODY_TTL_MS`] are deleted as new ones arrive.

use std::time::Duration;

use sha2::{Digest, Sha256};
use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use tokio::sync::mpsc;

use crate::error::{StoreError, StoreResult};
use crate::time::now_ms;
use crate::types::EventFeed;

/// The largest event sent inline (the notification limit is 8000 bytes).
const INLINE_MAX: usize = 7900;

/// How long a large event's body is kept for listeners to read.
const BODY_TTL_MS: i64 = 60_000;

/// Events held for a slow consumer of the feed before the listener waits.
const FEED_BUFFER: usize = 4096;

/// The channel of the schema the store's tables live in (however it was
/// chosen: the `schema` argument or the URL's `search_path`). Channel names
/// are at most 63 bytes and a schema name may be 63 itself, hence a digest.
pub(crate) async fn channel(pool: &PgPool) -> StoreResult<String> {
    let schema: String = sqlx::query_scalar("SELECT current_schema()")
        .fetch_one(pool)
        .await?;
    Ok(format!(
        "fairseed_events_{}",
        &hex::encode(Sha256::digest(schema.as_bytes()))[..16]
    ))
}

/// Sends `payloads`, in order, to every listener of `channel`: one
/// transaction for them all, committed without waiting for its WAL flush.
///
/// `NOTIFY` gives its transaction an id, so each notifying transaction
/// writes a commit record; sent one per event with the default
/// `synchronous_commit = on`, every event would cost a flush of its own
/// beside the bet it reports. Live events are best effort (the stored rows
/// are the record), so their commit does not wait for the disk; it is still
/// visible to listeners at once. Within a transaction PostgreSQL delivers a
/// repeated (channel, payload) once, so each inline message carries its
/// place in the batch (`i<k>:<payload>`).
pub(crate) async fn send(pool: &PgPool, channel: &str, payloads: &[String]) -> StoreResult<()> {
    if payloads.is_empty() {
        return Ok(());
    }
    let mut tx = pool.begin().await?;
    sqlx::query("SET LOCAL synchronous_commit = off")
        .execute(&mut *tx)
        .await?;
    let mut messages = Vec::with_capacity(payloads.len());
    let mut pruned = false;
    for (k, payload) in payloads.iter().enumerate() {
        if payload.len() <= INLINE_MAX {
            messages.push(format!("i{k}:{payload}"));
            continue;
        }
        let now = now_ms();
        if !pruned {
            sqlx::query("DELETE FROM event_bodies WHERE created_at < $1")
                .bind(now - BODY_TTL_MS)
                .execute(&mut *tx)
                .await?;
            pruned = true;
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO event_bodies (body, created_at) VALUES ($1, $2) RETURNING id",
        )
        .bind(payload)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        messages.push(format!("r{id}"));
    }
    sqlx::query("SELECT pg_notify($1, m) FROM unnest($2::text[]) AS m")
        .bind(channel)
        .bind(&messages)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Starts listening on `channel`; every event from now on arrives on the
/// feed, until the feed is dropped.
///
/// The listener holds a connection for as long as it listens, so it gets
/// one of its own, outside the store's pool: closing the store never waits
/// for it.
pub(crate) async fn listen(pool: &PgPool, channel: &str) -> StoreResult<EventFeed> {
    let own = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(pool.connect_options().as_ref().clone())
        .await?;
    let mut listener = PgListener::connect_with(&own).await?;
    listener.listen(channel).await?;
    let (tx, rx) = mpsc::channel(FEED_BUFFER);
    let pool = pool.clone();
    tokio::spawn(async move {
        loop {
            let received = tokio::select! {
                () = tx.closed() => break,
                received = listener.recv() => received,
            };
            let message = match received {
                Ok(n) => n.payload().to_owned(),
                Err(e) => {
                    // The listener reconnects on the next call.
                    tracing::warn!(error = %crate::error::Chain(&e), "live-event listener lost its connection");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
            let payload = match resolve(&pool, &message).await {
                Ok(p) => p,
                Err(e) => {
                    tracing::warn!(error = %crate::error::Chain(&e), "a live event could not be read");
                    continue;
                }
            };
            if tx.send(payload).await.is_err() {
                break;
            }
        }
    });
    Ok(rx)
}

/// The event a notification carries, reading a large one's body.
async fn resolve(pool: &PgPool, message: &str) -> StoreResult<String> {
    if let Some((_, inline)) = message.strip_prefix('i').and_then(|m| m.split_once(':')) {
        return Ok(inline.to_owned());
    }
    let id: i64 = message
        .strip_prefix('r')
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| StoreError::other(format!("unknown live-event message '{message:.20}'")))?;
    sqlx::query_scalar("SELECT body FROM event_bodies WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or(StoreError::NotFound("event body"))
}

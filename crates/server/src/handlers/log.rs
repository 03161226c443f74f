//! `/log/…`: the transparency log in the C2SP tlog-tiles layout, its key,
//! and receipts by entry hash (docs/api.md, "Transparency log").

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_tlog::{tiles::TILE_WIDTH, TilePath};
use serde::Deserialize;
use tracing::instrument;

use crate::error::{ApiError, ApiPath, ApiQuery};
use crate::log::{read, LogKey, Receipt};
use crate::state::AppState;

const TEXT: &str = "text/plain; charset=utf-8";
const BINARY: &str = "application/octet-stream";
/// A full tile never changes.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// A partial tile's contents never change either, but a wider one replaces it soon.
const PARTIAL: &str = "public, max-age=60";
/// The checkpoint moves every sequencing step.
const LATEST: &str = "no-cache";

fn key(state: &AppState) -> Result<&LogKey, ApiError> {
    state
        .log_key()
        .ok_or_else(|| ApiError::not_found("transparency log"))
}

fn body(content_type: &'static str, cache: &'static str, bytes: Vec<u8>) -> Response {
    (
        [(CONTENT_TYPE, content_type), (CACHE_CONTROL, cache)],
        bytes,
    )
        .into_response()
}

/// The latest signed checkpoint, with the witness cosignatures it has so far.
#[instrument(skip_all)]
pub async fn checkpoint(State(state): State<AppState>) -> Result<Response, ApiError> {
    key(&state)?;
    let head = read::latest(state.store()).await?;
    Ok(body(TEXT, LATEST, head.cosigned_note().into_bytes()))
}

/// `?min=` of `/log/checkpoint/cosigned`.
#[derive(Debug, Deserialize)]
pub struct CosignedQuery {
    min: Option<u32>,
}

/// The most cosignatures a note carries (signed-note's limit is 100 signatures).
const MAX_MIN: u32 = 99;

/// The newest checkpoint with at least `min` (default 1) witness cosignatures,
/// with them: what a client requiring cosignatures reads while witnesses lag
/// behind `/log/checkpoint`.
#[instrument(skip_all)]
pub async fn cosigned(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<CosignedQuery>,
) -> Result<Response, ApiError> {
    key(&state)?;
    let min = query.min.unwrap_or(1);
    if !(1..=MAX_MIN).contains(&min) {
        return Err(ApiError::invalid(
            "min",
            format!("expected 1 to {MAX_MIN} cosignatures"),
        ));
    }
    let head = read::cosigned(state.store(), min).await?;
    Ok(body(TEXT, LATEST, head.cosigned_note().into_bytes()))
}

/// The verifier key, in note `vkey` form.
#[instrument(skip_all)]
pub async fn vkey(State(state): State<AppState>) -> Result<Response, ApiError> {
    let vkey = format!("{}\n", key(&state)?.vkey());
    Ok(body(TEXT, IMMUTABLE, vkey.into_bytes()))
}

/// A hash tile or entry bundle: `tile/<L>/<N>[.p/<W>]`, `tile/entries/<N>[.p/<W>]`.
#[instrument(skip_all)]
pub async fn tile(
    State(state): State<AppState>,
    ApiPath(path): ApiPath<String>,
) -> Result<Response, ApiError> {
    key(&state)?;
    let tile = TilePath::parse(&format!("tile/{path}"))
        .map_err(|e| ApiError::invalid("path", e.to_string()))?;
    let head = read::latest(state.store()).await?;
    let data = read::tile(state.store(), &tile, head.size).await?;
    let cache = if tile.width == TILE_WIDTH {
        IMMUTABLE
    } else {
        PARTIAL
    };
    Ok(body(BINARY, cache, data))
}

/// The receipt of the entry whose leaf hash is `entry_hash` (hex), with its
/// inclusion proof to the latest checkpoint once sequenced.
#[instrument(skip_all)]
pub async fn receipt(
    State(state): State<AppState>,
    ApiPath(entry_hash): ApiPath<String>,
) -> Result<Json<Receipt>, ApiError> {
    let key = key(&state)?;
    let hash: [u8; 32] = hex::decode(&entry_hash)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| ApiError::invalid("entry_hash", "expected 64 hex characters"))?;
    Ok(Json(read::receipt(&state, key, hash).await?))
}

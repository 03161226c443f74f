//! `GET /v1/records`, `GET /v1/records/{id}`, `GET /v1/records/export`.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_store::{RecordReader, RecordRow, StoreError};
use serde::Serialize;
use serde_json::Value;
use tracing::instrument;

use crate::auth::PlayerAuth;
use crate::error::{ApiError, ApiPath, ApiQuery};
use crate::handlers::{next_before, PageQuery};
use crate::state::AppState;

/// Records read per query while exporting.
const EXPORT_CHUNK: u32 = 500;

/// A stored record with its id.
#[derive(Debug, Serialize)]
pub struct RecordView {
    id: i64,
    scheme: String,
    record: Value,
}

impl TryFrom<RecordRow> for RecordView {
    type Error = ApiError;

    fn try_from(row: RecordRow) -> Result<Self, ApiError> {
        Ok(Self {
            id: row.id,
            scheme: row.scheme,
            record: serde_json::from_str(&row.body).map_err(ApiError::internal)?,
        })
    }
}

/// A page of records.
#[derive(Debug, Serialize)]
pub struct RecordsPage {
    records: Vec<RecordView>,
    next_before: Option<i64>,
}

/// The player's records, newest first.
#[instrument(skip_all)]
pub async fn index(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> Result<Json<RecordsPage>, ApiError> {
    let page = query.page()?;
    let rows = state
        .store()
        .records(RecordReader::Player(auth.id), page)
        .await?;
    let next_before = next_before(&rows, page, |r| r.id);
    Ok(Json(RecordsPage {
        records: rows
            .into_iter()
            .map(RecordView::try_from)
            .collect::<Result<_, _>>()?,
        next_before,
    }))
}

/// One of the player's records, or any finished hold'em hand's
/// (docs/spec.md §17.6).
#[instrument(skip_all)]
pub async fn get(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<RecordView>, ApiError> {
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::invalid("id", format!("'{id}' is not a record id")))?;
    let row = match state
        .store()
        .record(RecordReader::Player(auth.id), id)
        .await
    {
        Ok(row) => row,
        // A finished hold'em hand is anyone's to read (docs/spec.md §17.6).
        Err(StoreError::NotFound(what)) => {
            match state.store().record(RecordReader::Operator, id).await {
                Ok(row) if row.scheme == fairseed_holdem::record::SCHEME => row,
                _ => return Err(StoreError::NotFound(what).into()),
            }
        }
        Err(e) => return Err(e.into()),
    };
    Ok(Json(row.try_into()?))
}

/// Every record of the player as JSON Lines, oldest first: the file
/// `fairseed verify` reads unchanged.
#[instrument(skip_all)]
pub async fn export(State(state): State<AppState>, auth: PlayerAuth) -> Result<Response, ApiError> {
    let body = export_body(&state, RecordReader::Player(auth.id), Line::Record).await?;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// How an export writes each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// The record exactly as stored.
    Record,
    /// The record with its stored `id` set in it (a key every verifier
    /// reads), so lines of records with equal bodies stay told apart.
    WithId,
}

fn line(row: &RecordRow, how: Line) -> Result<String, ApiError> {
    if how == Line::Record {
        return Ok(row.body.clone());
    }
    let mut record: serde_json::Map<String, Value> =
        serde_json::from_str(&row.body).map_err(ApiError::internal)?;
    record.insert("id".into(), row.id.into());
    serde_json::to_string(&record).map_err(ApiError::internal)
}

/// The viewer's records as JSON Lines, one line per record, read in chunks.
pub async fn export_body(
    state: &AppState,
    viewer: RecordReader,
    how: Line,
) -> Result<String, ApiError> {
    let mut body = String::new();
    let mut after = 0;
    loop {
        let rows = state
            .store()
            .records_after(viewer, after, EXPORT_CHUNK)
            .await?;
        let Some(last) = rows.last() else { break };
        after = last.id;
        let full = rows.len() >= EXPORT_CHUNK as usize;
        for row in &rows {
            body.push_str(&line(row, how)?);
            body.push('\n');
        }
        if !full {
            break;
        }
    }
    Ok(body)
}

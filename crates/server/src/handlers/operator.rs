//! The operator's view of records: `GET /v1/operator/records/{id}`,
//! `GET /v1/operator/records/export`, and `POST /v1/operator/records`
//! to import a revealed record (e.g. legacy `match_seed_v1`) that verifies.
//! The export has one line per record, each with its `id`.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_store::{NewRecord, RecordOut, RecordReader};
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::OperatorAuth;
use crate::error::{ApiError, ApiPath};
use crate::handlers::keyed::Keyed;
use crate::handlers::records::{export_body, Line, RecordView};
use crate::idempotent::Answer;
use crate::state::AppState;
use crate::step::OPERATOR_SCOPE;

/// Any record by id.
#[instrument(skip_all)]
pub async fn get_record(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<RecordView>, ApiError> {
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::invalid("id", format!("'{id}' is not a record id")))?;
    Ok(Json(
        state
            .store()
            .record(RecordReader::Operator, id)
            .await?
            .try_into()?,
    ))
}

/// Every record, oldest first, as JSON Lines.
#[instrument(skip_all)]
pub async fn export(
    State(state): State<AppState>,
    _op: OperatorAuth,
) -> Result<Response, ApiError> {
    let body = export_body(&state, RecordReader::Operator, Line::WithId).await?;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// Imports one revealed record after the core verified it; a retry with
/// the same `Idempotency-Key` stores nothing more.
#[instrument(skip_all)]
pub async fn import(
    State(state): State<AppState>,
    _op: OperatorAuth,
    keyed: Keyed<Value>,
) -> Result<Response, ApiError> {
    let record = &keyed.body;
    let verdict = fairseed_core::verify_value(record);
    if !verdict.valid {
        let why = verdict
            .error
            .clone()
            .or_else(|| {
                verdict
                    .first_failure()
                    .map(|c| format!("{}: {}", c.name, c.detail))
            })
            .unwrap_or_else(|| "the record does not verify".to_owned());
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            crate::error::ErrorCode::RecordInvalid,
            why,
        ));
    }
    let revealed = record.get("server_seed").is_some()
        || record.get("seed").is_some()
        || record.get("seed_a").is_some();
    if !revealed {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            crate::error::ErrorCode::RecordInvalid,
            "only revealed records are imported (no server seed in it)",
        ));
    }
    let scheme = verdict.scheme.unwrap_or_default();
    let body = serde_json::to_string(record).map_err(ApiError::internal)?;
    let answer = Answer::from(json!({"id": null, "scheme": scheme, "record": record}))
        .with_record_id_at("/id");
    let out = RecordOut::operator(NewRecord { scheme, body });
    let ran = keyed
        .run_with(&state, OPERATOR_SCOPE, StatusCode::CREATED, |entry| {
            let stored = state.store().import_record(out, entry.of(&answer));
            async move {
                let row = stored.await?;
                Ok((answer.filled(&[row.id])?, ()))
            }
        })
        .await?;
    Ok(ran.response())
}

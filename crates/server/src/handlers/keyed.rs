//! A JSON body with the call's optional `Idempotency-Key`: the extractor
//! every idempotent table-game, chess and record call takes, and the
//! replay, commit entry and answer that go with it.
//!
//! The key is hashed with the method, path and body, so a retry is
//! recognised only when it is the same request ([`crate::step::replay`]).

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
pub use fairseed_store::record_id_slot;
use fairseed_store::{fill_record_ids, Commit, Idempotent, LoadedRound};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ApiError, ApiJson};
use crate::limits::BODY_LIMIT;
use crate::state::AppState;
use crate::step;

/// The header a retried answer carries.
const REPLAYED: &str = "idempotency-replayed";

/// A request body `T` (an empty body reads as JSON `null`, so `Option<…>`
/// and ignored bodies may be left out) with its idempotency key, if any.
#[derive(Debug)]
pub struct Keyed<T> {
    /// The parsed body.
    pub body: T,
    key: Option<String>,
    hash: String,
}

/// The `Idempotency-Key` header, if sent: 1..128 visible ASCII characters.
fn key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .filter(|k| (1..=128).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()))
        .map(|k| Some(k.to_owned()))
        .ok_or_else(|| {
            ApiError::bad_request("Idempotency-Key: expected 1 to 128 visible ASCII characters")
        })
}

impl<S, T> FromRequest<S> for Keyed<T>
where
    S: Send + Sync,
    T: DeserializeOwned + Send,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let key = key(req.headers())?;
        let (parts, body) = req.into_parts();
        let bytes = axum::body::to_bytes(body, BODY_LIMIT).await.map_err(|_| {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                crate::error::ErrorCode::PayloadTooLarge,
                "body: larger than the 64 KiB limit",
            )
        })?;
        let hash = step::request_hash(parts.method.as_str(), parts.uri.path(), &bytes);
        let empty = bytes
            .is_empty()
            .then(|| serde_json::from_str::<T>("null").ok())
            .flatten();
        let body = match empty {
            Some(body) => body,
            None => {
                let req = Request::from_parts(parts, Body::from(bytes));
                ApiJson::<T>::from_request(req, state).await?.0
            }
        };
        Ok(Self { body, key, hash })
    }
}

impl<T> Keyed<T> {
    /// The stored answer to this request, when it is a retry: `status` with
    /// the first body and `Idempotency-Replayed: true`. `409
    /// idempotency_mismatch` when the key came with another request.
    pub async fn replay(
        &self,
        state: &AppState,
        scope: &str,
        status: StatusCode,
    ) -> Result<Option<Response>, ApiError> {
        let Some(key) = &self.key else {
            return Ok(None);
        };
        let Some(body) = step::replay(state, scope, key, &self.hash).await? else {
            return Ok(None);
        };
        // The first answer's receipts, from the entries the call queued.
        let entries = state.store().idempotent_log_entries(scope, key).await?;
        let body = state.with_entry_receipts(body, &entries).await?;
        Ok(Some(answer(status, body, true)))
    }

    /// The commit's idempotency entry for `response`, when a key was sent.
    pub fn entry(&self, scope: &str, response: &Value) -> Option<Idempotent> {
        self.key.as_ref().map(|key| Idempotent {
            scope: scope.to_owned(),
            key: key.clone(),
            request_hash: self.hash.clone(),
            response: response.to_string(),
        })
    }

    /// Runs an idempotent step over the rounds `ids`: a retry is answered
    /// from the stored answer; otherwise `decide` computes the commit and
    /// the answer (record ids as [`record_id_slot`]s, filled in by the
    /// store), which is committed with the change under this key.
    pub async fn run<R>(
        &self,
        state: &AppState,
        scope: &str,
        status: StatusCode,
        ids: &[String],
        mut decide: impl FnMut(&[LoadedRound]) -> Result<(Commit, Value, R), ApiError>,
    ) -> Result<Ran<R>, ApiError> {
        if let Some(replayed) = self.replay(state, scope, status).await? {
            return Ok(Ran::Replayed(replayed));
        }
        let result = step::step(state, ids, |loaded| {
            let (mut commit, body, out) = decide(loaded)?;
            commit.idempotent = self.entry(scope, &body);
            Ok((commit, (body, out)))
        })
        .await;
        let done = match result {
            Ok((updates, (body, out))) => {
                let ids: Vec<i64> = updates
                    .iter()
                    .flat_map(|u| &u.records)
                    .map(|r| r.id)
                    .collect();
                state
                    .with_receipts(body, &updates)
                    .await
                    .map(|body| (body, ids, out))
            }
            Err(e) => Err(e),
        };
        self.finish(state, scope, status, done).await
    }

    /// The answer to a step that stored the records `ids` (filling the
    /// answer's record-id slots), or, when a twin of this request committed
    /// first (`idempotency_key_used`), the twin's answer.
    pub async fn finish<R>(
        &self,
        state: &AppState,
        scope: &str,
        status: StatusCode,
        done: Result<(Value, Vec<i64>, R), ApiError>,
    ) -> Result<Ran<R>, ApiError> {
        match done {
            Ok((body, ids, out)) => {
                let body = serde_json::from_str(&fill_record_ids(&body.to_string(), &ids))
                    .map_err(ApiError::internal)?;
                Ok(Ran::Done {
                    out,
                    response: answer(status, body, false),
                })
            }
            Err(e)
                if e.kind()
                    == crate::error::ErrorCode::Store(
                        fairseed_store::Refusal::IdempotencyKeyUsed,
                    ) =>
            {
                match self.replay(state, scope, status).await? {
                    Some(replayed) => Ok(Ran::Replayed(replayed)),
                    None => Err(ApiError::internal("an idempotency key used but not stored")),
                }
            }
            Err(e) => Err(e),
        }
    }
}

/// An idempotent step done (with what it decided), or answered from the
/// first request's stored answer.
pub enum Ran<R> {
    /// This request's commit.
    Done {
        /// What the decision returned besides the answer.
        out: R,
        /// The answer.
        response: Response,
    },
    /// The first answer to the same request.
    Replayed(Response),
}

impl<R> Ran<R> {
    /// The answer to send.
    pub fn response(self) -> Response {
        match self {
            Self::Done { response, .. } | Self::Replayed(response) => response,
        }
    }
}

/// An answer `status` with `body`, marked when replayed.
pub fn answer(status: StatusCode, body: Value, replayed: bool) -> Response {
    let mut response = (status, Json(body)).into_response();
    if replayed {
        response
            .headers_mut()
            .insert(REPLAYED, HeaderValue::from_static("true"));
    }
    response
}

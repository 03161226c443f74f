//! A JSON body with the call's optional `Idempotency-Key`: the extractor
//! every idempotent table-game, chess and record call takes, and the HTTP
//! answer of the one idempotent path ([`crate::idempotent`]).
//!
//! The key is hashed with the method, path and body, so a retry is
//! recognised only when it is the same request ([`crate::idempotent::replay`]).

use std::future::Future;

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_store::{Commit, LoadedRound};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ApiError, ApiJson};
use crate::idempotent::{self, Outcome};
use crate::idempotent::{Answer, KeyEntry};
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
    /// What a commit under this request's key stores with its answer.
    fn key_entry(&self, scope: &str) -> KeyEntry {
        KeyEntry::new(scope, self.key.clone(), self.hash.clone())
    }

    /// The one idempotent path ([`idempotent::run`]) of every
    /// state-changing call: a retry is answered from the stored answer
    /// (`409 idempotency_mismatch` for another request under the key);
    /// otherwise `commit` makes the change, storing with it the [`KeyEntry`]
    /// it is given (which holds nothing without a key), and returns the
    /// complete answer; when a twin of this request committed first, the
    /// twin's answer is sent.
    pub async fn run_with<R, F, Fut>(
        &self,
        state: &AppState,
        scope: &str,
        status: StatusCode,
        commit: F,
    ) -> Result<Ran<R>, ApiError>
    where
        F: FnOnce(KeyEntry) -> Fut,
        Fut: Future<Output = Result<(Value, R), ApiError>>,
    {
        let entry = self.key_entry(scope);
        match idempotent::run(state, entry.clone(), commit).await? {
            Outcome::Committed { body, out } => Ok(Ran::Done {
                out,
                response: answer(status, body, false),
            }),
            Outcome::Replayed(body) => {
                let body = with_first_receipts(state, &entry, body).await?;
                Ok(Ran::Replayed(answer(status, body, true)))
            }
        }
    }

    /// [`Keyed::run_with`] for a step over the rounds `ids`: `decide`
    /// computes the commit and the [`Answer`] (its record ids filled in by
    /// the store), which is committed with the change under this key.
    pub async fn run<R>(
        &self,
        state: &AppState,
        scope: &str,
        status: StatusCode,
        ids: &[String],
        mut decide: impl FnMut(&[LoadedRound]) -> Result<(Commit, Answer, R), ApiError>,
    ) -> Result<Ran<R>, ApiError> {
        self.run_with(state, scope, status, |entry| async move {
            let (updates, (answer, out)) = step::step(state, ids, |loaded| {
                let (mut commit, body, out) = decide(loaded)?;
                commit.idempotent = entry.of(&body);
                Ok((commit, (body, out)))
            })
            .await?;
            let ids: Vec<i64> = updates
                .iter()
                .flat_map(|u| &u.records)
                .map(|r| r.id)
                .collect();
            let body = answer.filled(&ids)?;
            let body = state.with_receipts(body, &updates).await?;
            Ok((body, out))
        })
        .await
    }
}

/// A replayed `body` with the receipts of the entries its first commit
/// queued, as the first answer had them.
async fn with_first_receipts(
    state: &AppState,
    entry: &KeyEntry,
    body: Value,
) -> Result<Value, ApiError> {
    let Some(key) = entry.key() else {
        return Ok(body);
    };
    let entries = state
        .store()
        .idempotent_log_entries(entry.scope(), key)
        .await?;
    state.with_entry_receipts(body, &entries).await
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

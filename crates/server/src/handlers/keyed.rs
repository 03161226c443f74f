//! A JSON body with the call's optional `Idempotency-Key`: the extractor
//! every idempotent table-game, chess and record call takes, and the
//! replay, commit entry and answer that go with it.
//!
//! The key is hashed with the method, path and body, so a retry is
//! recognised only when it is the same request ([`crate::step::replay`]).

use std::future::Future;

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_store::{Commit, Idempotent, LoadedRound, RecordIdAt};
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

    /// The commit's idempotency entry for `response`, which names no record
    /// id, when a key was sent.
    pub fn entry(&self, scope: &str, response: &Value) -> Option<Idempotent> {
        self.key_entry(scope).of_value(response)
    }

    /// The commit's idempotency entry for `answer`, when a key was sent.
    pub fn answer_entry(&self, scope: &str, answer: &Answer) -> Option<Idempotent> {
        self.key_entry(scope).of(answer)
    }

    /// What a commit under this request's key stores with its answer.
    fn key_entry(&self, scope: &str) -> KeyEntry {
        KeyEntry {
            scope: scope.to_owned(),
            key: self.key.clone(),
            hash: self.hash.clone(),
        }
    }

    /// The one idempotent path of every state-changing call: a retry is
    /// answered from the stored answer (`409 idempotency_mismatch` for
    /// another request under the key); otherwise `commit` makes the change,
    /// storing with it the [`KeyEntry`] it is given (which holds nothing
    /// without a key), and returns the complete answer; when a twin of this
    /// request committed first, the twin's answer is sent.
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
        if let Some(replayed) = self.replay(state, scope, status).await? {
            return Ok(Ran::Replayed(replayed));
        }
        let done = commit(self.key_entry(scope)).await;
        self.finish(state, scope, status, done).await
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

    /// The answer to a step that committed (its body complete), or, when a
    /// twin of this request committed first (`idempotency_key_used`), the
    /// twin's answer.
    pub async fn finish<R>(
        &self,
        state: &AppState,
        scope: &str,
        status: StatusCode,
        done: Result<(Value, R), ApiError>,
    ) -> Result<Ran<R>, ApiError> {
        match done {
            Ok((body, out)) => Ok(Ran::Done {
                out,
                response: answer(status, body, false),
            }),
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

/// The idempotency entry a commit stores with its answer under the
/// request's key, in the key's scope; without a key, no entry.
#[derive(Debug, Clone)]
pub struct KeyEntry {
    scope: String,
    key: Option<String>,
    hash: String,
}

impl KeyEntry {
    /// The entry for `answer`, its record ids put where it names them.
    pub fn of(&self, answer: &Answer) -> Option<Idempotent> {
        self.at(&answer.body, &answer.record_ids_at)
    }

    /// The entry for `response`, which names no record id.
    pub fn of_value(&self, response: &Value) -> Option<Idempotent> {
        self.at(response, &[])
    }

    fn at(&self, body: &Value, record_ids_at: &[RecordIdAt]) -> Option<Idempotent> {
        self.key.as_ref().map(|key| Idempotent {
            scope: self.scope.clone(),
            key: key.clone(),
            request_hash: self.hash.clone(),
            response: body.to_string(),
            record_ids_at: record_ids_at.to_vec(),
        })
    }
}

/// An idempotent call's answer, and where in it the ids of the records its
/// commit stores go: ids exist only once the commit is stored, so the answer
/// holds `null` there and names the place as a JSON pointer, which the store
/// fills in the replay it keeps and [`Answer::filled`] in the reply.
#[derive(Debug, Clone)]
pub struct Answer {
    body: Value,
    record_ids_at: Vec<RecordIdAt>,
}

impl Answer {
    /// `body`, with the id of the commit's next stored record (the first,
    /// then the one after the last named) at `pointer` (RFC 6901), which
    /// must name a value of `body`.
    pub fn with_record_id_at(self, pointer: &str) -> Self {
        let next = self.record_ids_at.last().map_or(0, |at| at.record + 1);
        self.with_id_of_record_at(next, pointer)
    }

    /// `body`, with the id of the commit's `record`-th stored record (0 is
    /// the first) at `pointer` (RFC 6901), which must name a value of `body`.
    pub fn with_id_of_record_at(mut self, record: usize, pointer: &str) -> Self {
        self.record_ids_at.push(RecordIdAt::new(record, pointer));
        self
    }

    /// The body with the stored records' `ids` in place.
    pub fn filled(mut self, ids: &[i64]) -> Result<Value, ApiError> {
        fairseed_store::fill_record_ids(&mut self.body, &self.record_ids_at, ids)?;
        Ok(self.body)
    }
}

impl From<Value> for Answer {
    fn from(body: Value) -> Self {
        Self {
            body,
            record_ids_at: Vec::new(),
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

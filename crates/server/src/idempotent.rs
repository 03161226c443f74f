//! The one idempotent path of every keyed change, whatever carries the key
//! (an HTTP call's `Idempotency-Key`, a table socket message's `id`): a
//! retry is answered from the stored answer, otherwise the change is
//! committed with its key entry, and when a twin of the request committed
//! first, the twin's answer is given.
//!
//! The entry exists only inside the commit, so a change stored without its
//! answer, or an answer replayed that was never committed, cannot be
//! written. Nothing here knows the transport: the caller turns the answer
//! into its response or frame.

use std::future::Future;

use fairseed_store::{Idempotent, RecordIdAt, Refusal};
use serde_json::Value;

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;

/// The idempotency entry a commit stores with its answer under the
/// request's key, in the key's scope; without a key, no entry.
#[derive(Debug, Clone)]
pub struct KeyEntry {
    scope: String,
    key: Option<String>,
    request_hash: String,
}

impl KeyEntry {
    /// The entry of a request whose retry must repeat `request_hash`
    /// ([`crate::step::request_hash`]), under `key` in `scope`.
    pub fn new(scope: impl Into<String>, key: Option<String>, request_hash: String) -> Self {
        Self {
            scope: scope.into(),
            key,
            request_hash,
        }
    }

    /// The key's scope.
    pub fn scope(&self) -> &str {
        &self.scope
    }

    /// The key, if the request came with one.
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

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
            request_hash: self.request_hash.clone(),
            response: body.to_string(),
            record_ids_at: record_ids_at.to_vec(),
        })
    }

    /// The stored answer when this request is a retry (`None` without a key
    /// or for a new key).
    async fn stored(&self, state: &AppState) -> Result<Option<Value>, ApiError> {
        match &self.key {
            Some(key) => replay(state, &self.scope, key, &self.request_hash).await,
            None => Ok(None),
        }
    }
}

/// What a keyed change came to.
#[derive(Debug)]
pub enum Outcome<R> {
    /// This request's commit: its answer and what else the commit returned.
    Committed {
        /// The answer, complete.
        body: Value,
        /// What the commit returned besides the answer.
        out: R,
    },
    /// The first answer to the same request, as stored.
    Replayed(Value),
}

/// A retry is answered from the stored answer (`409 idempotency_mismatch`
/// for another request under the key); otherwise `commit` makes the change,
/// storing with it the `entry` it is given (which holds nothing without a
/// key), and returns the complete answer; when a twin of this request
/// committed first (`idempotency_key_used`), the twin's stored answer.
pub async fn run<R, F, Fut>(
    state: &AppState,
    entry: KeyEntry,
    commit: F,
) -> Result<Outcome<R>, ApiError>
where
    F: FnOnce(KeyEntry) -> Fut,
    Fut: Future<Output = Result<(Value, R), ApiError>>,
{
    if let Some(body) = entry.stored(state).await? {
        return Ok(Outcome::Replayed(body));
    }
    match commit(entry.clone()).await {
        Ok((body, out)) => Ok(Outcome::Committed { body, out }),
        Err(e) if e.is(ErrorCode::Store(Refusal::IdempotencyKeyUsed)) => entry
            .stored(state)
            .await?
            .map(Outcome::Replayed)
            .ok_or_else(|| ApiError::internal("an idempotency key used but not stored")),
        Err(e) => Err(e),
    }
}

/// The stored response to a retried call: `Some(response)` for the same
/// request, `409 idempotency_mismatch` for a different body under the same
/// key, `None` when the key is new.
pub async fn replay(
    state: &AppState,
    scope: &str,
    key: &str,
    request_hash: &str,
) -> Result<Option<Value>, ApiError> {
    let Some((stored_hash, response)) = state.store().idempotent_response(scope, key).await? else {
        return Ok(None);
    };
    if stored_hash != request_hash {
        return Err(ApiError::conflict(
            ErrorCode::IDEMPOTENCY_MISMATCH,
            format!("Idempotency-Key '{key}' was already used for a different request"),
        ));
    }
    serde_json::from_str(&response)
        .map(Some)
        .map_err(ApiError::internal)
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

#[cfg(test)]
mod tests {
    use fairseed_store::Commit;
    use serde_json::json;

    use super::*;
    use crate::step::tests::{counter, state};
    use crate::step::{player_scope, request_hash, OPERATOR_SCOPE};

    /// Creates the round `id`, storing `answer` under `entry`.
    async fn create(
        state: &AppState,
        id: &str,
        entry: &KeyEntry,
        answer: Value,
    ) -> Result<(Value, ()), ApiError> {
        let commit = Commit {
            creates: vec![counter(id)],
            idempotent: entry.of_value(&answer),
            ..Commit::default()
        };
        state.store().commit(commit).await?;
        Ok((answer, ()))
    }

    fn entry(key: Option<&str>, body: &[u8]) -> KeyEntry {
        let hash = request_hash("POST", "/v1/x", body);
        KeyEntry::new(OPERATOR_SCOPE, key.map(str::to_owned), hash)
    }

    #[tokio::test]
    async fn replay_returns_the_first_response_or_refuses_another_body() {
        let state = state();
        let hash = request_hash("POST", "/v1/x", b"{\"a\":1}");
        assert_eq!(
            replay(&state, OPERATOR_SCOPE, "k", &hash)
                .await
                .expect("new"),
            None
        );
        let first = entry(Some("k"), b"{\"a\":1}");
        create(&state, "t:3", &first, json!({"ok": true}))
            .await
            .expect("commit");
        assert_eq!(
            replay(&state, OPERATOR_SCOPE, "k", &hash)
                .await
                .expect("replay"),
            Some(json!({"ok": true}))
        );
        let other = request_hash("POST", "/v1/x", b"{\"a\":2}");
        assert_ne!(other, hash);
        let refused = replay(&state, OPERATOR_SCOPE, "k", &other).await;
        assert_eq!(
            refused.err().map(|e| e.code()),
            Some("idempotency_mismatch")
        );
        assert_eq!(
            replay(&state, &player_scope(1), "k", &hash)
                .await
                .expect("other scope"),
            None,
            "keys are per scope"
        );
    }

    #[tokio::test]
    async fn a_retry_is_answered_without_committing_again() {
        let state = state();
        let first = run(&state, entry(Some("k"), b"{}"), |e| {
            let state = state.clone();
            async move { create(&state, "t:1", &e, json!({"n": 1})).await }
        })
        .await
        .expect("first");
        assert!(matches!(first, Outcome::Committed { body, .. } if body == json!({"n": 1})));
        let retried = run(&state, entry(Some("k"), b"{}"), |_| async {
            Err::<(Value, ()), _>(ApiError::internal("a retry committed again"))
        })
        .await
        .expect("retry");
        assert!(matches!(retried, Outcome::Replayed(body) if body == json!({"n": 1})));
        let other = run(&state, entry(Some("k"), b"{\"a\":2}"), |_| async {
            Err::<(Value, ()), _>(ApiError::internal("another request committed"))
        })
        .await;
        assert_eq!(other.err().map(|e| e.code()), Some("idempotency_mismatch"));
    }

    #[tokio::test]
    async fn a_twin_committed_first_gives_its_answer() {
        let state = state();
        let twin = run(&state, entry(Some("k"), b"{}"), |e| {
            let state = state.clone();
            async move {
                // The twin commits between this request's replay and its commit.
                create(&state, "t:twin", &e, json!({"twin": true})).await?;
                create(&state, "t:mine", &e, json!({"twin": false})).await
            }
        })
        .await
        .expect("twin");
        assert!(matches!(twin, Outcome::Replayed(body) if body == json!({"twin": true})));
        let mine = state.store().round("t:mine").await;
        assert!(mine.is_err(), "the loser's change is not stored");
    }

    #[tokio::test]
    async fn without_a_key_each_call_commits() {
        let state = state();
        for id in ["t:a", "t:b"] {
            let ran = run(&state, entry(None, b"{}"), |e| {
                let state = state.clone();
                async move { create(&state, id, &e, json!({"id": id})).await }
            })
            .await
            .expect("run");
            assert!(matches!(ran, Outcome::Committed { .. }));
        }
    }
}

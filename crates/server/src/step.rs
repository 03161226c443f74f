//! The one way a handler changes rounds: load, decide (pure rules), commit,
//! and on a lost race load and decide again.
//!
//! The store compares each round's version on commit, so two processes (or
//! two requests) acting on the same round never both win: the loser gets
//! `version_conflict` and runs its decision again on the fresh rows. Calls
//! made idempotent store their first response with the commit
//! ([`crate::idempotent`]).

use std::time::Duration;

use axum::http::StatusCode;
use fairseed_store::{Commit, LoadedRound, RoundUpdate, StoreError};

use crate::error::ApiError;
use crate::state::AppState;

/// Decisions tried before a step gives up on a round too busy to change.
const MAX_ATTEMPTS: u32 = 8;

/// The idempotency scope of the operator's keys.
pub const OPERATOR_SCOPE: &str = "operator";

/// The idempotency scope of one player's keys.
pub fn player_scope(player_id: i64) -> String {
    format!("player:{player_id}")
}

/// What a retry must repeat exactly: SHA-256 hex of method, path and body.
pub fn request_hash(method: &str, path: &str, body: &[u8]) -> String {
    let mut input = Vec::with_capacity(method.len() + path.len() + body.len() + 2);
    input.extend_from_slice(method.as_bytes());
    input.push(b'\n');
    input.extend_from_slice(path.as_bytes());
    input.push(b'\n');
    input.extend_from_slice(body);
    fairseed_core::sha256_hex(&input)
}

/// Loads `ids`, lets `decide` compute the commit (pure rules inside),
/// commits; on `version_conflict` loads and decides again (up to
/// [`MAX_ATTEMPTS`] times, then `503 busy`, which a client may retry).
pub async fn step<R>(
    state: &AppState,
    ids: &[String],
    mut decide: impl FnMut(&[LoadedRound]) -> Result<(Commit, R), ApiError>,
) -> Result<(Vec<RoundUpdate>, R), ApiError> {
    let stepped = step_if(state, ids, |rounds| decide(rounds).map(Some)).await?;
    stepped.ok_or_else(|| ApiError::internal("a step decided nothing"))
}

/// [`step`] where `decide` may find nothing to change (`None`): then
/// nothing is committed and the answer is `None`.
pub async fn step_if<R>(
    state: &AppState,
    ids: &[String],
    mut decide: impl FnMut(&[LoadedRound]) -> Result<Option<(Commit, R)>, ApiError>,
) -> Result<Option<(Vec<RoundUpdate>, R)>, ApiError> {
    for attempt in 0..MAX_ATTEMPTS {
        let rounds = state.store().load_rounds(ids).await?;
        let Some((commit, out)) = decide(&rounds)? else {
            return Ok(None);
        };
        match state.store().commit(commit).await {
            Ok(updates) => return Ok(Some((updates, out))),
            Err(StoreError::Conflict {
                code: fairseed_store::Refusal::VersionConflict,
                ..
            }) => backoff(attempt).await,
            Err(other) => return Err(other.into()),
        }
    }
    Err(ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        crate::error::ErrorCode::Busy,
        "the round kept changing while this request was applied; retry",
    ))
}

/// A short random pause so racing steps stop colliding in lockstep.
async fn backoff(attempt: u32) {
    let mut byte = [0u8; 1];
    // Without randomness the pause is just shorter; it is never a secret.
    let _ = getrandom::getrandom(&mut byte);
    let cap_ms = 1u64 << attempt.min(5);
    tokio::time::sleep(Duration::from_millis(u64::from(byte[0]) % cap_ms)).await;
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use fairseed_store::{NewRound, RoundChange, RoundWrite, SecretSeed, SeedCipher, SqliteStore};

    use super::*;

    /// A service on a fresh in-memory store.
    pub(crate) fn state() -> AppState {
        let store = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("open");
        AppState::new(Arc::new(store), "op", 100, 0)
    }

    /// A round `id` whose state is a counter at 0.
    pub(crate) fn counter(id: &str) -> NewRound {
        NewRound {
            id: id.into(),
            kind: "test".into(),
            commitment: "c".into(),
            secret: SecretSeed::new("00".repeat(32)),
            key: None,
            state: "0".into(),
            status: "open".into(),
        }
    }

    /// Adds one to the counter the round holds.
    fn increment(rounds: &[LoadedRound]) -> Result<(Commit, u64), ApiError> {
        let row = &rounds[0].row;
        let n: u64 = row.state.parse().map_err(ApiError::internal)?;
        let write = RoundWrite {
            id: row.id.clone(),
            expected_version: row.version,
            change: RoundChange {
                state: (n + 1).to_string(),
                status: "open".into(),
                ..RoundChange::default()
            },
        };
        let commit = Commit {
            writes: vec![write],
            ..Commit::default()
        };
        Ok((commit, n + 1))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn racing_steps_each_apply_once() {
        let state = state();
        let create = Commit {
            creates: vec![counter("t:1")],
            ..Commit::default()
        };
        state.store().commit(create).await.expect("create");
        let ids = vec!["t:1".to_owned()];
        let mut tasks = Vec::new();
        for _ in 0..4 {
            let (state, ids) = (state.clone(), ids.clone());
            tasks.push(tokio::spawn(async move {
                let mut seen = Vec::new();
                for _ in 0..5 {
                    let (_, n) = step(&state, &ids, increment).await.expect("step");
                    seen.push(n);
                }
                seen
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.expect("join"));
        }
        all.sort_unstable();
        assert_eq!(
            all,
            (1..=20).collect::<Vec<u64>>(),
            "each increment seen once"
        );
        let row = state.store().round("t:1").await.expect("round");
        assert_eq!((row.state.as_str(), row.version), ("20", 20));
    }

    #[tokio::test]
    async fn a_rule_error_commits_nothing() {
        let state = state();
        let create = Commit {
            creates: vec![counter("t:2")],
            ..Commit::default()
        };
        state.store().commit(create).await.expect("create");
        let refused = step(
            &state,
            &["t:2".to_owned()],
            |_| -> Result<(Commit, ()), _> {
                Err(ApiError::conflict(
                    crate::error::ErrorCode::Rule(fairseed_play::Code::NotYourTurn),
                    "no",
                ))
            },
        )
        .await;
        assert_eq!(refused.err().map(|e| e.code()), Some("not_your_turn"));
        assert_eq!(state.store().round("t:2").await.expect("round").version, 0);
    }
}

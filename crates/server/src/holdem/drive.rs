//! The task that plays a live table forward in this process: it asks the
//! table's machine when it next acts by itself (an AI's action, a timeout,
//! a top-up, the next deal), sleeps until then or until the table changes,
//! and feeds it the tick in a step ([`handle`] does the same for every
//! input: load, handle, commit, announce). Time comes from here, and the
//! session secret from which each hand's seed and each AI decision's seed
//! derive. When
//! the last human leaves (or the table closes after a quiet spell), it
//! archives the hands and stops.

use std::collections::BTreeSet;
use std::time::Duration;

use fairseed_holdem::live::machine::{Input, Machine, Output};
use fairseed_holdem::live::{self, LiveError};
use fairseed_holdem::HandRecord;
use fairseed_play::Millis;
use fairseed_store::{
    Commit, Idempotent, KeyPrefix, LogFold, LogRow, NewRecord, RecordOut, RoundChange, RoundRow,
    RoundWrite, StoreError,
};
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::error::{ApiError, ErrorCode};
use crate::events::Audience;
use crate::rounds::now;
use crate::state::AppState;
use crate::step;

use super::rows::{self, Loaded};

/// How long the task sleeps with nothing due, unless the table changes.
const IDLE: Duration = Duration::from_secs(60);

/// Starts the task of `table`, taken over from the process
/// `took_over_from` if any.
pub fn spawn(state: AppState, table: String, took_over_from: Option<String>) {
    tokio::spawn(async move {
        run(&state, &table, took_over_from.as_deref()).await;
        state.holdem().stop(&table);
    });
}

async fn run(state: &AppState, table: &str, took_over_from: Option<&str>) {
    let mut changes = state.events().subscribe(&rows::topic(table));
    while let Err(e) = resume(state, table, took_over_from).await {
        if e.is(ErrorCode::NOT_FOUND) {
            return;
        }
        tracing::warn!(table, code = e.code(), error = %e.chain(), "resuming a hold'em table; retrying");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    loop {
        let wait = match pass(state, table).await {
            Ok(Some(wait)) => wait,
            Ok(None) => return,
            Err(e) if e.is(ErrorCode::NOT_FOUND) => return,
            Err(e) => {
                tracing::warn!(table, code = e.code(), error = %e.chain(), "driving a hold'em table; retrying");
                Duration::from_millis(500)
            }
        };
        tokio::select! {
            changed = changes.recv() => {
                if matches!(changed, Err(RecvError::Closed)) {
                    changes = state.events().subscribe(&rows::topic(table));
                }
            }
            () = tokio::time::sleep(wait) => {}
        }
    }
}

/// The machine of a loaded table: its session secret and this process's pacing.
fn machine<'a>(state: &AppState, loaded: &'a Loaded) -> Machine<'a> {
    Machine {
        secret: &loaded.secret,
        pacing: state.holdem().timing(),
    }
}

/// One look at the table: applies what is due now, archives a closed
/// table, and says how long to wait (`None`: the task is done).
async fn pass(state: &AppState, table: &str) -> Result<Option<Duration>, ApiError> {
    let loaded = load(state, table).await?;
    match loaded.status.as_str() {
        rows::ARCHIVED => {
            release(state, table).await;
            return Ok(None);
        }
        rows::CLOSED => {
            archive(state, table).await?;
            return Ok(Some(Duration::ZERO));
        }
        _ => {}
    }
    let Some(due) = machine(state, &loaded).due(&loaded.live) else {
        return Ok(Some(IDLE));
    };
    let left = due.0.saturating_sub(now().0);
    if left > 0 {
        return Ok(Some(Duration::from_millis(
            u64::try_from(left).unwrap_or(0),
        )));
    }
    // What is due now, if anything still is once loaded afresh.
    handle_if(state, table, None, |loaded, now| {
        match machine(state, loaded).handle(&loaded.live, Input::Tick, now) {
            Err(LiveError::NotDue) => Ok(None),
            done => Ok(Some(done?)),
        }
    })
    .await?;
    Ok(Some(Duration::ZERO))
}

/// The most steps [`close_restored`] takes on one table: a hand of ten
/// seats ends in far fewer.
const RESTORED_STEPS: usize = 2_000;

/// Closes `table` restored from a backup, before anyone is served: its
/// secret may have dealt, after the backup, cards the restored table does
/// not know were seen. The table winds down ([`Input::WindDown`]): the hand
/// or round running at the backup plays to its end with every clock run
/// out, no new hand starts, and the table closes as the operator's close
/// does. Returns the steps written (0: the table was closed already).
///
/// # Errors
/// The store failed, or the table did not close within its steps.
pub(crate) async fn close_restored(state: &AppState, table: &str) -> Result<usize, ApiError> {
    // The clock runs out at once: each step's time is its due time (never
    // before the last step's; the first step's is now).
    let mut last_step: Option<Millis> = None;
    for steps in 0..RESTORED_STEPS {
        let changed = handle_if(state, table, None, |loaded, now| {
            let now = last_step.map_or(now, |last| last.max(now));
            match machine(state, loaded).handle(&loaded.live, Input::WindDown, now) {
                Err(LiveError::Closed) => Ok(None),
                done => {
                    let done = done?;
                    last_step = Some(done.at);
                    Ok(Some(done))
                }
            }
        })
        .await?;
        if changed.is_none() {
            return Ok(steps);
        }
    }
    Err(ApiError::internal(format!(
        "restored hold'em table {table} did not close within {RESTORED_STEPS} steps"
    )))
}

/// Marks the start of this process's service of `table` (at its start, or
/// on taking the table over): time counts only while a table is served, so
/// every running clock starts again in full ([`Input::Serve`]), and the log
/// gets an entry naming the process and the one it took over from.
async fn resume(
    state: &AppState,
    table: &str,
    took_over_from: Option<&str>,
) -> Result<(), ApiError> {
    let owner = state.fleet().owner().to_owned();
    let served = Input::Serve {
        owner,
        took_over_from: took_over_from.map(str::to_owned),
    };
    let done = commit_if(state, table, None, |loaded, now| {
        // A closed table is only archived; nothing of it runs any more.
        if loaded.status != rows::OPEN {
            return Ok(None);
        }
        Ok(Some(machine(state, loaded).handle(
            &loaded.live,
            served.clone(),
            now,
        )?))
    })
    .await?;
    if let Some(seq) = done {
        // No message was added, yet every running clock changed: viewers
        // already connected (to any process of a fleet) are sent the state.
        notify(state, table, json!({ "seq": seq, "served": true }));
    }
    Ok(())
}

fn table_not_found(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound(_) => ApiError::not_found("table"),
        other => other.into(),
    }
}

/// Loads `table` (secrets unsealed).
pub async fn load(state: &AppState, table: &str) -> Result<Loaded, ApiError> {
    let rounds = state
        .store()
        .load_rounds(&[rows::round_id(table)])
        .await
        .map_err(table_not_found)?;
    rows::load(&rounds[0])
}

/// The row of `table` (no secret), or `404`.
pub async fn row(state: &AppState, table: &str) -> Result<RoundRow, ApiError> {
    state
        .store()
        .round(&rows::round_id(table))
        .await
        .map_err(table_not_found)
}

/// One `input` to `table`: loaded, handled by its machine at this
/// moment, committed with `idempotent` if given (retried on a lost race),
/// then announced. Returns the new `seq`.
pub async fn handle(
    state: &AppState,
    table: &str,
    idempotent: Option<Idempotent>,
    input: Input,
) -> Result<u64, ApiError> {
    handle_seen(state, table, idempotent, input, |_, _| Ok(())).await
}

/// [`handle`], with `seen` shown the loaded table and the machine's output
/// of each attempt before it is committed (the last attempt's is the one
/// committed): what a caller derives from the change, such as a signed
/// acknowledgement for the person's own socket.
pub async fn handle_seen(
    state: &AppState,
    table: &str,
    idempotent: Option<Idempotent>,
    input: Input,
    mut seen: impl FnMut(&Loaded, &Output) -> Result<(), ApiError>,
) -> Result<u64, ApiError> {
    let changed = handle_if(state, table, idempotent, |loaded, now| {
        let output = machine(state, loaded).handle(&loaded.live, input.clone(), now)?;
        seen(loaded, &output)?;
        Ok(Some(output))
    })
    .await?;
    changed.ok_or_else(|| ApiError::internal("a hold'em input changed nothing"))
}

/// [`handle`] where `decide` may find nothing to do (`None`): then nothing
/// is written and the answer is `None`.
async fn handle_if(
    state: &AppState,
    table: &str,
    idempotent: Option<Idempotent>,
    decide: impl FnMut(&Loaded, Millis) -> Result<Option<Output>, ApiError>,
) -> Result<Option<u64>, ApiError> {
    let seq = commit_if(state, table, idempotent, decide).await?;
    if let Some(seq) = seq {
        announce(state, table, seq);
    }
    Ok(seq)
}

/// Commits what `decide` makes of the loaded `table` at this moment: the
/// output's state, messages, log entries and reveal, in one step.
async fn commit_if(
    state: &AppState,
    table: &str,
    idempotent: Option<Idempotent>,
    mut decide: impl FnMut(&Loaded, Millis) -> Result<Option<Output>, ApiError>,
) -> Result<Option<u64>, ApiError> {
    let id = rows::round_id(table);
    let stepped = step::step_if(state, std::slice::from_ref(&id), |rounds| {
        let loaded = rows::load(&rounds[0])?;
        let Some(out) = decide(&loaded, now())? else {
            return Ok(None);
        };
        let commit = Commit {
            writes: vec![rows::write(&loaded, &out)?],
            idempotent: idempotent.clone(),
            log: out.entries,
            ..Commit::default()
        };
        Ok(Some((commit, out.next.seq)))
    })
    .await
    .map_err(|e| match e.kind() {
        ErrorCode::NOT_FOUND => ApiError::not_found("table"),
        _ => e,
    })?;
    Ok(stepped.map(|(_, seq)| seq))
}

/// Tells every viewer (in every process) that `table` reached `seq`.
pub fn announce(state: &AppState, table: &str, seq: u64) {
    notify(state, table, json!({ "seq": seq }));
}

/// Sends `notice` to every viewer of `table`, in every process.
fn notify(state: &AppState, table: &str, notice: Value) {
    state
        .events()
        .publish(rows::topic(table), Audience::All, notice);
}

/// The rows of `table`'s log stored from index `from` to `to` (exclusive):
/// every one of them, but where an archived table's log was folded
/// ([`archive`]).
pub async fn read_rows(
    state: &AppState,
    table: &str,
    from: u64,
    to: u64,
) -> Result<Vec<LogRow>, ApiError> {
    let id = rows::round_id(table);
    let mut out = Vec::new();
    let mut at = from;
    while at < to {
        let rows = state.store().round_log(&id, at, 500).await?;
        let Some(last) = rows.last() else { break };
        at = last.seq + 1;
        out.extend(rows.into_iter().filter(|r| r.seq < to));
    }
    Ok(out)
}

/// The records of every hand in `log` (its `hand_end` messages), each with
/// the session secret once `revealed`, and the humans dealt in.
pub fn hand_records(
    log: &[String],
    revealed: Option<&str>,
) -> Result<Vec<(HandRecord, Vec<i64>)>, ApiError> {
    let mut out = Vec::new();
    for body in log {
        let Some(mut record) = live::logged_record(body).map_err(ApiError::internal)? else {
            continue;
        };
        if let Some(secret) = revealed {
            record = record.with_session_secret(secret);
        }
        let humans = record.humans();
        out.push((record, humans));
    }
    Ok(out)
}

/// A hand record as the service stores and serves it: a JSON value, so its
/// keys are written sorted, as they always have been.
pub fn record_json(record: &HandRecord) -> Result<Value, ApiError> {
    serde_json::to_value(record).map_err(ApiError::internal)
}

/// Stores every hand of a closed table as a record its players read, with
/// the revealed session secret, and marks the table archived, all in one
/// commit. The same commit folds the table's log into those records: the
/// last hand and what followed it stay as they are (a socket that saw the
/// table close resumes as before), the earlier hands' ends become rows
/// naming their records ([`fairseed_store::LogFold`]; `GET …/hands` reads
/// them there), the rest of the log goes, and with it the idempotency
/// entries of the table's socket (no message to a closed table is played
/// again).
pub(crate) async fn archive(state: &AppState, table: &str) -> Result<(), ApiError> {
    let row = row(state, table).await?;
    let log = read_rows(state, table, 0, row.log_len).await?;
    let mut records = Vec::new();
    let mut records_at = Vec::new();
    let mut players = BTreeSet::new();
    for logged in &log {
        for (record, readers) in
            hand_records(std::slice::from_ref(&logged.body), row.revealed.as_deref())?
        {
            players.extend(readers.iter().copied());
            records_at.push(logged.seq);
            records.push(RecordOut {
                record: NewRecord {
                    scheme: fairseed_holdem::record::SCHEME.into(),
                    body: crate::rounds::save(&record_json(&record)?)?,
                },
                readers,
            });
        }
    }
    players.extend(rows::stored_table(&row)?.opener);
    let fold = LogFold {
        before: kept_from(&records_at),
        records_at,
        keys: players
            .into_iter()
            .map(|player| KeyPrefix {
                scope: crate::step::player_scope(player),
                prefix: rows::idempotency_prefix(table),
            })
            .collect(),
    };
    let write = RoundWrite {
        id: row.id.clone(),
        expected_version: row.version,
        change: RoundChange {
            state: row.state.clone(),
            status: rows::ARCHIVED.into(),
            records,
            fold: Some(fold),
            ..RoundChange::default()
        },
    };
    let commit = Commit {
        writes: vec![write],
        ..Commit::default()
    };
    match state.store().commit(commit).await {
        Ok(_) => {
            tracing::info!(
                table,
                "hold'em table closed: session secret revealed, hands archived"
            );
            Ok(())
        }
        // Archived meanwhile by another process: nothing left to do.
        Err(StoreError::Conflict { .. }) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Where an archived table's log stays whole: after the end of the hand
/// before the last (`hand_ends`: where each hand ended), so the last hand
/// and what followed it are kept; the whole log for a table of one hand.
fn kept_from(hand_ends: &[u64]) -> u64 {
    match hand_ends {
        [.., before_last, _] => before_last + 1,
        _ => 0,
    }
}

async fn release(state: &AppState, table: &str) {
    let owner = state.fleet().owner().to_owned();
    if let Err(e) = state
        .store()
        .release_lease(&rows::round_id(table), &owner)
        .await
    {
        tracing::warn!(table, error = %crate::error::Chain(&e), "releasing an archived hold'em table's lease");
    }
}

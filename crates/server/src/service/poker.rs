//! A poker table's operations, shared by its handlers and the fleet's
//! background tasks: run a command on the table's current session (load,
//! apply `fairseed_play::poker`, commit, publish; retried on a lost race or
//! a rotation under it), rotate a session, read a table, and keep each
//! player's index of the tables they sat at.

use fairseed_core::{Ident, ServerSeed};
use fairseed_play::poker::{
    self as rules, view, view_hand, Command, Event, PokerError, RotateWhy, TableView,
};
use fairseed_play::Viewer;
use fairseed_store::{Commit, Idempotent, LeaseGrant, Refusal, RoundUpdate, StoreError};
use serde_json::{json, Value};

use crate::clock::{now, now_ms};
use crate::error::{ApiError, ErrorCode};
use crate::events::Audience;
use crate::rounds::poker::{self as rows, Published};
use crate::secrets;
use crate::state::AppState;
use crate::step;

pub(crate) fn fresh_seed() -> Result<ServerSeed, ApiError> {
    Ok(ServerSeed::from_bytes(secrets::random_bytes()?))
}

fn table_not_found(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound(_) => ApiError::not_found("table"),
        other => other.into(),
    }
}

/// The ids a step on `table` loads: its current session, then the table.
pub(crate) async fn current_ids(state: &AppState, table: &str) -> Result<[String; 2], ApiError> {
    let row = state
        .store()
        .round(&rows::table_id(table))
        .await
        .map_err(table_not_found)?;
    let t: rules::Table = serde_json::from_str(&row.state).map_err(ApiError::internal)?;
    Ok([rows::session_id(table, t.session_no), rows::table_id(table)])
}

/// What a step answered: what it published, the stored updates and the
/// caller's own result.
pub(crate) struct Stepped<R> {
    pub(crate) published: Published,
    pub(crate) updates: Vec<RoundUpdate>,
    pub(crate) out: R,
}

/// The idempotency entry a step commits: a given one (or none), or one
/// made from the commit and what it publishes, for an answer that names the
/// records the commit stores.
pub(crate) enum Entry<'a> {
    /// This entry, or none.
    Given(Option<Idempotent>),
    /// The entry of the commit about to be stored.
    OfCommit(Box<EntryOfCommit<'a>>),
}

/// Makes a step's idempotency entry from its commit and what it publishes.
pub(crate) type EntryOfCommit<'a> =
    dyn FnOnce(&Commit, &Published) -> Result<Option<Idempotent>, ApiError> + 'a;

impl From<Option<Idempotent>> for Entry<'_> {
    fn from(entry: Option<Idempotent>) -> Self {
        Self::Given(entry)
    }
}

/// Runs a command on `table`'s current session: `decide` maps the loaded
/// state to the next state and events (and a result, and the idempotency
/// entry to commit), given a fresh seed for a session that may open.
/// Retried on a lost race; if the table moved to a new session meanwhile,
/// the step runs on the new one.
pub(crate) async fn run<'a, R>(
    state: &AppState,
    table: &str,
    mut decide: impl FnMut(
        &rules::State,
        &ServerSeed,
    ) -> Result<(rules::State, Vec<Event>, R, Entry<'a>), ApiError>,
) -> Result<Stepped<R>, ApiError> {
    let seed = fresh_seed()?;
    let mut retries = 0;
    loop {
        let ids = current_ids(state, table).await?;
        let result = step::step(state, &ids, |rounds| {
            let loaded = rows::load(rounds)?;
            let (next, events, out, entry) = decide(&loaded.state, &seed)?;
            let (commit, published) = rows::commit(&loaded, &next, &events, Some(&seed))?;
            let idempotent = match entry {
                Entry::Given(entry) => entry,
                Entry::OfCommit(of) => of(&commit, &published)?,
            };
            let commit = Commit {
                idempotent,
                ..commit
            };
            Ok((commit, (next, events, published, out)))
        })
        .await;
        if moved_on(state, table, &ids, &result, &mut retries).await? {
            continue;
        }
        let (updates, (next, events, published, out)) = result?;
        publish(state, table, &next, &events, &published);
        return Ok(Stepped {
            published,
            updates,
            out,
        });
    }
}

/// How many times a call on a table's session starts again on the next
/// session when the one it found rotated under it.
const ROTATION_RETRIES: u32 = 2;

/// Whether a call that read `ids` (the table's current session, then the
/// table) and got `result` should start again: its load found that session
/// closed (`409 session_rotated`) because the table moved on to the next
/// one between the two reads. Counts the retry in `retries`.
async fn moved_on<T>(
    state: &AppState,
    table: &str,
    ids: &[String; 2],
    result: &Result<T, ApiError>,
    retries: &mut u32,
) -> Result<bool, ApiError> {
    let rotated = matches!(result, Err(e) if e.is(ErrorCode::SESSION_ROTATED));
    if !rotated || *retries >= ROTATION_RETRIES || current_ids(state, table).await? == *ids {
        return Ok(false);
    }
    *retries += 1;
    Ok(true)
}

/// Publishes a step's public entries to everyone at the table, and each
/// dealt player's own view of a new hand to that player alone.
fn publish(
    state: &AppState,
    table: &str,
    next: &rules::State,
    events: &[Event],
    published: &Published,
) {
    let topic = format!("poker:{table}");
    for body in &published.public {
        state
            .events()
            .publish(topic.clone(), Audience::All, body.clone());
    }
    for event in events {
        let Event::HandStarted { n } = event else {
            continue;
        };
        let Ok(hand) = next.session.hand(*n) else {
            continue;
        };
        for player in hand.players.values() {
            if let Ok(own) = view_hand(next, *n, Viewer::Player(*player)) {
                state.events().publish(
                    topic.clone(),
                    Audience::Player(*player),
                    json!({"event": "hole", "view": hand_json(&own)}),
                );
            }
        }
    }
}

/// Applies one command to a clone of the loaded state.
pub(crate) fn apply(
    loaded: &rules::State,
    command: Command,
) -> Result<(rules::State, Vec<Event>), PokerError> {
    rules::apply(loaded.clone(), command, now())
}

/// Rotates the table's current session (`why`) and opens the next one.
/// Only that session: if another step rotated it first, `409
/// session_rotated` and nothing more.
pub(crate) async fn rotate(state: &AppState, table: &str, why: RotateWhy) -> Result<(), ApiError> {
    let [expected, _] = current_ids(state, table).await?;
    run(state, table, |loaded, seed| {
        if rows::session_id(table, loaded.table.session_no) != expected {
            return Err(ApiError::conflict(
                ErrorCode::SESSION_ROTATED,
                "the session was rotated meanwhile",
            ));
        }
        let command = Command::Rotate {
            why,
            next_seed: seed.clone(),
        };
        let (next, events) = apply(loaded, command)?;
        Ok((next, events, (), None.into()))
    })
    .await?;
    tracing::info!(table, why = why.as_str(), "poker session rotated");
    Ok(())
}

pub(crate) fn hand_json(v: &rules::HandView) -> Value {
    json!({
        "table": v.table.as_str(), "session": v.session.as_str(), "n": v.n, "seat": v.seat,
        "hand_commitment": v.hand_commitment.to_hex(), "deck_root": v.deck_root.to_hex(),
        "hole": v.hole, "street": u8::from(v.street), "board": v.board,
    })
}

/// Loads `table` and its current session for a read (no write, no lock);
/// a rotation between its two reads starts it again on the new session, so
/// a reader never sees `409 session_rotated` for a table simply moving on.
pub(crate) async fn read(state: &AppState, table: &str) -> Result<rules::State, ApiError> {
    let mut retries = 0;
    loop {
        let ids = current_ids(state, table).await?;
        let rounds = state
            .store()
            .load_rounds(&ids)
            .await
            .map_err(table_not_found)?;
        let loaded = rows::load(&rounds);
        if !moved_on(state, table, &ids, &loaded, &mut retries).await? {
            return Ok(loaded?.state);
        }
    }
}

/// Takes or renews the lease of `table` for this process, unless a live
/// process holds it.
pub(crate) async fn acquire(state: &AppState, table: &str) -> Result<LeaseGrant, ApiError> {
    let fleet = state.fleet();
    Ok(state
        .store()
        .acquire_lease(
            &rows::table_id(table),
            fleet.owner(),
            now_ms(),
            fleet.ttl_ms(),
        )
        .await?)
}

/// Takes the lease of a table this process is opening.
pub(crate) async fn claim(state: &AppState, table: &str) -> Result<(), ApiError> {
    if let LeaseGrant::HeldBy(owner) = acquire(state, table).await? {
        // Opening fails next (the table exists) unless its opener died first.
        tracing::debug!(
            table,
            owner,
            "a table being opened is leased by another process"
        );
    }
    Ok(())
}

/// Opens `table` with its first seed session, leased to this process,
/// committed with the idempotency entry `idempotent` gives for it. `409
/// already_exists` if the id is taken.
pub(crate) async fn open(
    state: &AppState,
    table: Ident,
    idempotent: impl FnOnce(&rules::State) -> Option<Idempotent>,
) -> Result<(rules::State, Vec<RoundUpdate>), ApiError> {
    let seed = fresh_seed()?;
    let opened = rules::State::open(table.clone(), seed.clone(), now())?;
    // The lease first: a table never exists without an owner.
    claim(state, table.as_str()).await?;
    let commit = Commit {
        creates: vec![
            rows::new_table(&opened, hex::encode(secrets::random_bytes()?))?,
            rows::new_session(&opened, &seed)?,
        ],
        idempotent: idempotent(&opened),
        ..Commit::default()
    };
    match state.store().commit(commit).await {
        Ok(updates) => Ok((opened, updates)),
        Err(StoreError::Conflict {
            code: Refusal::RoundExists,
            ..
        }) => Err(ApiError::conflict(
            ErrorCode::AlreadyExists,
            format!("table_id: table {table} already exists"),
        )),
        Err(e) => Err(e.into()),
    }
}

/// Sits `player` at `table` (`sit` is a [`Command::Sit`]), committed with
/// the idempotency entry `idempotent`, indexing the
/// table for the player first, so a crash between the two never hides a
/// hand from `GET /v1/poker/hands` (an indexed table without a seat is
/// harmless).
pub(crate) async fn sit(
    state: &AppState,
    table: &str,
    player: i64,
    sit: Command,
    idempotent: Option<Idempotent>,
) -> Result<(), ApiError> {
    current_ids(state, table).await?;
    remember_table(state, player, table).await?;
    run(state, table, |loaded, _| {
        let (next, events) = apply(loaded, sit.clone())?;
        Ok((next, events, (), idempotent.clone().into()))
    })
    .await?;
    Ok(())
}

/// Adds `table` to the player's index, creating the index on first use.
pub(crate) async fn remember_table(
    state: &AppState,
    player: i64,
    table: &str,
) -> Result<(), ApiError> {
    let id = rows::player_index_id(player);
    for _ in 0..3 {
        let result = step::step(state, std::slice::from_ref(&id), |rounds| {
            let commit = Commit {
                writes: vec![rows::remember_table(&rounds[0].row, table)?],
                ..Commit::default()
            };
            Ok((commit, ()))
        })
        .await;
        match result {
            Ok(_) => return Ok(()),
            Err(e) if e.is(ErrorCode::NOT_FOUND) => {}
            Err(e) => return Err(e),
        }
        let unused = hex::encode(secrets::random_bytes()?);
        let commit = Commit {
            creates: vec![rows::new_index(player, table, unused)?],
            ..Commit::default()
        };
        match state.store().commit(commit).await {
            Ok(_) => return Ok(()),
            // Created meanwhile by another request: update it instead.
            Err(StoreError::Conflict {
                code: Refusal::RoundExists,
                ..
            }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::internal("the player's poker index kept changing"))
}

/// `player`'s view of the current session of each table they sat at,
/// newest table first, until the views hold `enough` of their hands. A
/// table whose session rotated between its two reads is left out: its
/// hands are in its session record.
pub(crate) async fn player_tables(
    state: &AppState,
    player: i64,
    enough: usize,
) -> Result<Vec<TableView>, ApiError> {
    let index: rows::PlayerIndex = match state.store().round(&rows::player_index_id(player)).await {
        Ok(row) => serde_json::from_str(&row.state).map_err(ApiError::internal)?,
        Err(StoreError::NotFound(_)) => rows::PlayerIndex::default(),
        Err(e) => return Err(e.into()),
    };
    let mut views = Vec::new();
    let mut hands = 0;
    for table in index.tables.iter().rev() {
        if hands >= enough {
            break;
        }
        let s = match read(state, table).await {
            Ok(s) => s,
            Err(e) if e.is(ErrorCode::SESSION_ROTATED) => continue,
            Err(e) => return Err(e),
        };
        let v = view(&s, Viewer::Player(player));
        hands += v.hands.iter().filter(|h| h.seat.is_some()).count();
        views.push(v);
    }
    Ok(views)
}

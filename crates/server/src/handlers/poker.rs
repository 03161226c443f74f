//! Poker tables (`poker_hmac_v1`): the operator opens tables, starts hands
//! and deals streets; players sit with a client seed, read their own cards,
//! and leave with proofs.
//!
//! Every change is one step: load the table and its current session, run
//! the command through `fairseed_play::poker::apply`, commit with the rows'
//! versions compared (a lost race loads and applies again). Every answer
//! and event is a view from `fairseed_play::poker`. Reads are reads.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use fairseed_play::poker::{
    self as rules, view, view_hand, Command, Event, PokerError, RotateWhy, TableView,
};
use fairseed_play::Viewer;
use fairseed_store::{Commit, Idempotent, RoundUpdate, StoreError};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::{Caller, OperatorAuth, PlayerAuth};
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ErrorCode};
use crate::events::Audience;
use crate::handlers::keyed::Keyed;
use crate::handlers::records::RecordView;
use crate::rounds::now;
use crate::rounds::poker::{self as rows, Published};
use crate::secrets;
use crate::state::AppState;
use crate::step::{self, OPERATOR_SCOPE};

pub use crate::fleet::rotate_open_sessions;

fn fresh_seed() -> Result<ServerSeed, ApiError> {
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
struct Stepped<R> {
    published: Published,
    updates: Vec<RoundUpdate>,
    out: R,
}

/// Runs a command on `table`'s current session: `decide` maps the loaded
/// state to the next state and events (and a result), given a fresh seed
/// for a session that may open. Retried on a lost race; if the table moved
/// to a new session meanwhile, the step runs on the new one.
async fn run<R>(
    state: &AppState,
    table: &str,
    mut decide: impl FnMut(
        &rules::State,
        &ServerSeed,
    ) -> Result<(rules::State, Vec<Event>, R, Option<Idempotent>), ApiError>,
) -> Result<Stepped<R>, ApiError> {
    let seed = fresh_seed()?;
    let mut retries = 0;
    loop {
        let ids = current_ids(state, table).await?;
        let result = step::step(state, &ids, |rounds| {
            let loaded = rows::load(rounds)?;
            let (next, events, out, idempotent) = decide(&loaded.state, &seed)?;
            let (commit, published) = rows::commit(&loaded, &next, &events, Some(&seed))?;
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
fn apply(
    loaded: &rules::State,
    command: Command,
) -> Result<(rules::State, Vec<Event>), PokerError> {
    rules::apply(loaded.clone(), command, now())
}

/// Rotates the table's current session (`why`) and opens the next one.
/// Only that session: if another step rotated it first, `409
/// session_rotated` and nothing more.
pub async fn rotate(state: &AppState, table: &str, why: RotateWhy) -> Result<(), ApiError> {
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
        Ok((next, events, (), None))
    })
    .await?;
    tracing::info!(table, why = why.as_str(), "poker session rotated");
    Ok(())
}

fn table_json(v: &TableView) -> Value {
    json!({"table_id": v.table_id.as_str(), "session": v.session.as_str(),
           "commitment": v.commitment.to_hex(), "seats": v.seats, "hands": v.hands.len()})
}

fn hand_json(v: &rules::HandView) -> Value {
    json!({
        "table": v.table.as_str(), "session": v.session.as_str(), "n": v.n, "seat": v.seat,
        "hand_commitment": v.hand_commitment.to_hex(), "deck_root": v.deck_root.to_hex(),
        "hole": v.hole, "street": u8::from(v.street), "board": v.board,
    })
}

/// Body of `POST /v1/poker/tables`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    table_id: Option<String>,
}

/// Opens a table with its first seed session, served by this process.
#[instrument(skip_all)]
pub async fn post_table(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiJson(body): ApiJson<NewTable>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let table = match body.table_id {
        Some(t) => Ident::parse_field(&t, "table_id")?,
        None => Ident::parse_field(
            &format!("t{}", &hex::encode(secrets::random_bytes()?)[..16]),
            "table_id",
        )?,
    };
    let seed = fresh_seed()?;
    let opened = rules::State::open(table.clone(), seed.clone(), now())?;
    // The lease first: a table never exists without an owner.
    crate::fleet::claim(&state, table.as_str()).await?;
    let commit = Commit {
        creates: vec![
            rows::new_table(&opened, hex::encode(secrets::random_bytes()?))?,
            rows::new_session(&opened, &seed)?,
        ],
        ..Commit::default()
    };
    let updates = match state.store().commit(commit).await {
        Ok(updates) => updates,
        Err(StoreError::Conflict {
            code: fairseed_store::Refusal::RoundExists,
            ..
        }) => {
            return Err(ApiError::conflict(
                ErrorCode::AlreadyExists,
                format!("table_id: table {table} already exists"),
            ))
        }
        Err(e) => return Err(e.into()),
    };
    let body = table_json(&view(&opened, Viewer::Operator));
    Ok((
        StatusCode::CREATED,
        Json(state.with_receipts(body, &updates).await?),
    ))
}

/// Loads `table` and its current session for a read (no write, no lock);
/// a rotation between its two reads starts it again on the new session, so
/// a reader never sees `409 session_rotated` for a table simply moving on.
async fn read(state: &AppState, table: &str) -> Result<rules::State, ApiError> {
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

fn viewer(caller: Caller) -> Viewer {
    match caller {
        Caller::Player(id) => Viewer::Player(id),
        Caller::Operator => Viewer::Operator,
    }
}

/// The table: current session commitment, seats, hands so far.
#[instrument(skip_all)]
pub async fn get_table(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(table): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = read(&state, &table).await?;
    let v = view(&s, viewer(caller));
    // The session's commitment and the latest hand's; an earlier hand's
    // receipt comes with that hand (`GET …/hands/{n}`).
    let session = rows::session_id(&table, s.table.session_no);
    let mut shown = crate::log::shown::commitment(&[&session]);
    if let Some(last) = v.hands.last() {
        shown.extend(crate::log::shown::commitment(&[
            &session,
            &last.n.to_string(),
        ]));
    }
    Ok(Json(
        state.with_shown_receipts(table_json(&v), shown).await?,
    ))
}

/// Body of a sit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sit {
    seat: u8,
    client_seed: String,
    commitment: String,
}

/// Sits at a seat (or gives a new client seed after a rotation).
#[instrument(skip_all)]
pub async fn post_seat(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(table): ApiPath<String>,
    ApiJson(body): ApiJson<Sit>,
) -> Result<Json<Value>, ApiError> {
    if body.seat > rules::MAX_SEAT {
        return Err(ApiError::invalid(
            "seat",
            format!("{}, expected 0 to 9", body.seat),
        ));
    }
    let client = ClientSeed::parse_chosen(&body.client_seed, "client_seed")?;
    let shown = Commitment::parse_field(&body.commitment, "commitment")?;
    // Indexed before the sit, so a crash between the two never hides a hand
    // from `GET /v1/poker/hands` (an indexed table without a seat is harmless).
    current_ids(&state, &table).await?;
    remember_table(&state, auth.id, &table).await?;
    run(&state, &table, |loaded, _| {
        let command = Command::Sit {
            player: auth.id,
            seat: body.seat,
            client_seed: client.clone(),
            shown,
        };
        let (next, events) = apply(loaded, command)?;
        Ok((next, events, (), None))
    })
    .await?;
    Ok(Json(json!({"table_id": table, "seat": body.seat})))
}

/// Leaves the table: a proof record for each hand played this session, of
/// the leaver's holes and the board dealt so far.
#[instrument(skip_all)]
pub async fn post_leave(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(table): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let stepped = run(&state, &table, |loaded, seed| {
        let command = Command::Leave {
            player: auth.id,
            next_seed: seed.clone(),
        };
        let (next, events) = apply(loaded, command)?;
        Ok((next, events, (), None))
    })
    .await?;
    let records: Vec<RecordView> = stepped
        .updates
        .iter()
        .flat_map(|u| &u.records)
        .filter(|r| r.readers.contains(&auth.id))
        .cloned()
        .map(RecordView::try_from)
        .collect::<Result<_, _>>()?;
    Ok(Json(
        json!({"records": records, "session_rotated": stepped.published.rotated}),
    ))
}

/// Starts the next hand (rotating first after 500 hands or 24 hours).
/// Idempotent with an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_hand(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(table): ApiPath<String>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    if let Some(replayed) = keyed.replay(&state, OPERATOR_SCOPE, StatusCode::OK).await? {
        return Ok(replayed);
    }
    let result = run(&state, &table, |loaded, seed| {
        match apply(loaded, Command::StartHand) {
            Ok((next, events)) => {
                let answer = rules::public_event(&next, &events[0])?;
                let entry = keyed.entry(OPERATOR_SCOPE, &answer);
                Ok((next, events, Some(answer), entry))
            }
            // The limit was reached: rotate now, answer 409 below.
            Err(PokerError::SessionDue(why)) => {
                let command = Command::Rotate {
                    why,
                    next_seed: seed.clone(),
                };
                let (next, events) = apply(loaded, command)?;
                Ok((next, events, None, None))
            }
            Err(e) => Err(e.into()),
        }
    })
    .await;
    let done = match result {
        Ok(Stepped { out: None, .. }) => {
            return Err(ApiError::conflict(
                ErrorCode::SESSION_ROTATED,
                "the session reached 500 hands or 24 hours and was rotated; players must give client seeds for the new commitment",
            ))
        }
        Ok(Stepped {
            out: Some(answer),
            updates,
            ..
        }) => Ok((state.with_receipts(answer, &updates).await?, Vec::new(), ())),
        Err(e) => Err(e),
    };
    let ran = keyed.finish(&state, OPERATOR_SCOPE, StatusCode::OK, done);
    Ok(ran.await?.response())
}

/// Deals the next street of hand `n`. Idempotent with an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_street(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath((table, n)): ApiPath<(String, u64)>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    if let Some(replayed) = keyed.replay(&state, OPERATOR_SCOPE, StatusCode::OK).await? {
        return Ok(replayed);
    }
    let result = run(&state, &table, |loaded, _| {
        let (next, events) = apply(loaded, Command::DealStreet { n })?;
        let answer = rules::public_event(&next, &events[0])?;
        let entry = keyed.entry(OPERATOR_SCOPE, &answer);
        Ok((next, events, answer, entry))
    })
    .await;
    let done = result.map(|s| (s.out, Vec::new(), ()));
    let ran = keyed.finish(&state, OPERATOR_SCOPE, StatusCode::OK, done);
    Ok(ran.await?.response())
}

/// The caller's view of hand `n`: own hole cards, the board so far. A read.
#[instrument(skip_all)]
pub async fn get_hand(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath((table, n)): ApiPath<(String, u64)>,
) -> Result<Json<Value>, ApiError> {
    let s = read(&state, &table).await?;
    let v = view_hand(&s, n, Viewer::Player(auth.id))?;
    if v.seat.is_none() {
        return Err(ApiError::not_found("hand"));
    }
    let session = rows::session_id(&table, s.table.session_no);
    let shown = crate::log::shown::commitment(&[&session, &v.n.to_string()]);
    Ok(Json(state.with_shown_receipts(hand_json(&v), shown).await?))
}

/// Adds `table` to the player's index, creating the index on first use.
async fn remember_table(state: &AppState, player: i64, table: &str) -> Result<(), ApiError> {
    let id = rows::player_index_id(player);
    for _ in 0..3 {
        let result = step::step(state, std::slice::from_ref(&id), |rounds| {
            let row = &rounds[0].row;
            let mut index: rows::PlayerIndex =
                serde_json::from_str(&row.state).map_err(ApiError::internal)?;
            index.remember(table);
            let write = fairseed_store::RoundWrite {
                id: id.clone(),
                expected_version: row.version,
                change: fairseed_store::RoundChange {
                    state: serde_json::to_string(&index).map_err(ApiError::internal)?,
                    status: row.status.clone(),
                    ..Default::default()
                },
            };
            let commit = Commit {
                writes: vec![write],
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
        let mut index = rows::PlayerIndex::default();
        index.remember(table);
        let create = fairseed_store::NewRound {
            id: id.clone(),
            kind: "poker_player".into(),
            commitment: "-".into(),
            secret: fairseed_store::SecretSeed::new(hex::encode(secrets::random_bytes()?)),
            state: serde_json::to_string(&index).map_err(ApiError::internal)?,
            status: "open".into(),
        };
        let commit = Commit {
            creates: vec![create],
            ..Commit::default()
        };
        match state.store().commit(commit).await {
            Ok(_) => return Ok(()),
            // Created meanwhile by another request: update it instead.
            Err(StoreError::Conflict {
                code: fairseed_store::Refusal::RoundExists,
                ..
            }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::internal("the player's poker index kept changing"))
}

/// `?limit=` of `GET /v1/poker/hands`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandsQuery {
    limit: Option<u32>,
}

/// The caller's hands in the current session of every table they sat at
/// (the last 20), newest table first: each hand's session commitment,
/// `hand_commitment` and `deck_root` — what the page stores before the cards
/// to check the proofs and the session record against later. Reads only; no
/// card and no secret.
#[instrument(skip_all)]
pub async fn get_hands(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiQuery(query): ApiQuery<HandsQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = query.limit.unwrap_or(100);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::invalid(
            "limit",
            format!("{limit} is out of range, expected 1 to 500"),
        ));
    }
    let index: rows::PlayerIndex = match state.store().round(&rows::player_index_id(auth.id)).await
    {
        Ok(row) => serde_json::from_str(&row.state).map_err(ApiError::internal)?,
        Err(StoreError::NotFound(_)) => rows::PlayerIndex::default(),
        Err(e) => return Err(e.into()),
    };
    let mut hands = Vec::new();
    for table in index.tables.iter().rev() {
        if hands.len() >= limit as usize {
            break;
        }
        let s = match read(&state, table).await {
            Ok(s) => s,
            // Rotated between the two reads: its hands are in its record.
            Err(e) if e.is(ErrorCode::SESSION_ROTATED) => continue,
            Err(e) => return Err(e),
        };
        let v = view(&s, Viewer::Player(auth.id));
        hands.extend(v.hands.iter().rev().filter_map(|h| {
            Some(json!({
                "table": v.table_id.as_str(), "session": v.session.as_str(),
                "session_commitment": v.commitment.to_hex(), "n": h.n, "seat": h.seat?,
                "hand_commitment": h.hand_commitment.to_hex(), "deck_root": h.deck_root.to_hex(),
                "street": u8::from(h.street),
            }))
        }));
    }
    hands.truncate(limit as usize);
    Ok(Json(json!({ "hands": hands })))
}

#[cfg(test)]
#[path = "poker_hands_tests.rs"]
mod tests;

//! Poker tables (`poker_hmac_v1`): the operator opens tables, starts hands
//! and deals streets; players sit with a client seed, read their own cards,
//! and leave with proofs.

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use fairseed_store::{NewRound, RoundRow, RoundUpdate, SecretSeed, Store, StoreError};
use serde::Deserialize;
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::{Caller, OperatorAuth, PlayerAuth};
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery};
use crate::events::Audience;
use crate::handlers::records::RecordView;
use crate::rounds::poker::{self, SessionState, TableState};
use crate::rounds::{load, save};
use crate::secrets;
use crate::state::AppState;

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn not_found(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound(what) => {
            ApiError::not_found(if what == "round" { "table" } else { what })
        }
        other => other.into(),
    }
}

/// Session `k` of `table`, created first if it does not exist yet.
async fn ensure_session(store: &dyn Store, table: &str, k: u64) -> Result<RoundRow, ApiError> {
    let id = poker::session_id(table, k);
    match store.round(&id).await {
        Ok(row) => return Ok(row),
        Err(StoreError::NotFound(_)) => {}
        Err(e) => return Err(e.into()),
    }
    let seed = ServerSeed::from_bytes(secrets::random_bytes()?);
    let created = store
        .create_round(NewRound {
            id: poker::session_id(table, k),
            kind: "poker".into(),
            commitment: seed.commitment().to_hex(),
            secret: SecretSeed::new(seed.reveal().to_owned()),
            state: save(&SessionState {
                table: table.to_owned(),
                session: format!("s{k}"),
                opened_ms: now_ms(),
                hands: Vec::new(),
            })?,
            status: poker::OPEN.into(),
        })
        .await;
    match created {
        Ok(row) => Ok(row),
        // Another request opened it first: read theirs.
        Err(StoreError::Conflict {
            code: "already_exists",
            ..
        }) => Ok(store.round(&id).await?),
        Err(e) => Err(e.into()),
    }
}

/// The table and its current session (opened if it is not yet).
async fn current_session(
    store: &dyn Store,
    table: &str,
) -> Result<(TableState, RoundRow), ApiError> {
    let t = table_state(store, table).await?;
    let session = ensure_session(store, table, t.session_no).await?;
    Ok((t, session))
}

async fn table_state(store: &dyn Store, table: &str) -> Result<TableState, ApiError> {
    let row = store
        .round(&poker::table_id(table))
        .await
        .map_err(not_found)?;
    Ok(load(&row.state)?)
}

/// Runs a step over the table's current session and the table, and
/// publishes the session's new log entries (public by construction: hand
/// announcements, boards, seats, rotations) to everyone at the table.
async fn step(
    state: &AppState,
    table: &str,
    f: fairseed_store::RoundsFn,
) -> Result<Vec<RoundUpdate>, ApiError> {
    let (t, _) = current_session(state.store(), table).await?;
    let updates = state
        .store()
        .update_rounds(
            vec![
                poker::session_id(table, t.session_no),
                poker::table_id(table),
            ],
            f,
        )
        .await
        .map_err(not_found)?;
    for entry in updates.iter().flat_map(|u| &u.log) {
        if let Ok(body) = serde_json::from_str::<Value>(&entry.body) {
            state
                .events()
                .publish(format!("poker:{table}"), Audience::All, body);
        }
    }
    Ok(updates)
}

/// Rotates the table's session and opens the next one.
async fn rotate(
    state: &AppState,
    table: &str,
    why: &'static str,
) -> Result<Vec<RoundUpdate>, ApiError> {
    let updates = step(state, table, poker::rotate(why)).await?;
    current_session(state.store(), table).await?;
    tracing::info!(table, why, "poker session rotated");
    Ok(updates)
}

/// Rotates every session left open (at server start).
pub async fn rotate_open_sessions(state: &AppState) -> Result<usize, ApiError> {
    let ids = state
        .store()
        .rounds_with_status("poker", poker::OPEN)
        .await?;
    let mut n = 0;
    for id in ids {
        let row = state.store().round(&id).await?;
        let s: SessionState = load(&row.state)?;
        let t = table_state(state.store(), &s.table).await?;
        if poker::session_id(&s.table, t.session_no) == id {
            rotate(state, &s.table, "restart").await?;
            n += 1;
        }
    }
    Ok(n)
}

/// Body of `POST /v1/poker/tables`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    table_id: Option<String>,
}

fn table_view(t: &TableState, commitment: &str, hands: usize) -> Value {
    let seats: serde_json::Map<String, Value> = t
        .seats
        .iter()
        .map(|(k, v)| (k.to_string(), json!({"player_id": v.player, "ready": v.session_no == t.session_no && v.client_seed.is_some()})))
        .collect();
    json!({"table_id": t.table, "session": format!("s{}", t.session_no), "commitment": commitment, "seats": seats, "hands": hands})
}

/// Opens a table with its first seed session.
#[instrument(skip_all)]
pub async fn post_table(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiJson(body): ApiJson<NewTable>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let table = match body.table_id {
        Some(t) => Ident::parse_field(&t, "table_id")?.to_string(),
        None => format!("t{}", &hex::encode(secrets::random_bytes()?)[..16]),
    };
    ensure_session(state.store(), &table, 1).await?;
    let t = TableState {
        table: table.clone(),
        session_no: 1,
        seats: Default::default(),
    };
    let unused = hex::encode(secrets::random_bytes()?);
    state
        .store()
        .create_round(NewRound {
            id: poker::table_id(&table),
            kind: "poker_table".into(),
            commitment: "-".into(),
            secret: SecretSeed::new(unused),
            state: save(&t)?,
            status: "open".into(),
        })
        .await?;
    let session = state.store().round(&poker::session_id(&table, 1)).await?;
    Ok((
        StatusCode::CREATED,
        Json(table_view(&t, &session.commitment, 0)),
    ))
}

/// The table: current session commitment, seats, hands so far.
#[instrument(skip_all)]
pub async fn get_table(
    State(state): State<AppState>,
    _caller: Caller,
    ApiPath(table): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (t, session) = current_session(state.store(), &table).await?;
    let s: SessionState = load(&session.state)?;
    Ok(Json(table_view(&t, &session.commitment, s.hands.len())))
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
    if body.seat > 9 {
        return Err(ApiError::invalid(
            "seat",
            format!("{}, expected 0 to 9", body.seat),
        ));
    }
    let client = ClientSeed::parse_field(&body.client_seed, "client_seed")?;
    let shown = Commitment::parse_field(&body.commitment, "commitment")?;
    // Indexed before the sit, so a crash between the two never hides a hand
    // from `GET /v1/poker/hands` (an indexed table without a seat is harmless).
    table_state(state.store(), &table).await?;
    remember_table(state.store(), auth.id, &table).await?;
    step(
        &state,
        &table,
        poker::sit(auth.id, body.seat, client, shown),
    )
    .await?;
    Ok(Json(json!({"table_id": table, "seat": body.seat})))
}

/// Leaves the table: proof records for every hand played this session.
#[instrument(skip_all)]
pub async fn post_leave(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(table): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let updates = step(&state, &table, poker::leave(auth.id)).await?;
    let session = updates
        .first()
        .ok_or_else(|| ApiError::internal("leave changed nothing"))?;
    let rotated = session.row.status == poker::ROTATED;
    if rotated {
        current_session(state.store(), &table).await?;
    }
    let records: Vec<RecordView> = session
        .records
        .iter()
        .filter(|r| r.readers.contains(&auth.id))
        .cloned()
        .map(RecordView::try_from)
        .collect::<Result<_, _>>()?;
    Ok(Json(
        json!({"records": records, "session_rotated": rotated}),
    ))
}

/// Starts the next hand (rotating first after 500 hands or 24 hours).
#[instrument(skip_all)]
pub async fn post_hand(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(table): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (_, session) = current_session(state.store(), &table).await?;
    if poker::due(&session, now_ms())? {
        rotate(&state, &table, "limit").await?;
        return Err(ApiError::conflict(
            "session_rotated",
            "the session reached 500 hands or 24 hours and was rotated; players must give client seeds for the new commitment",
        ));
    }
    let updates = step(&state, &table, poker::start_hand()).await?;
    let entry = updates
        .first()
        .and_then(|u| u.log.first())
        .ok_or_else(|| ApiError::internal("a hand logged nothing"))?;
    let hand: Value = serde_json::from_str(&entry.body).map_err(ApiError::internal)?;
    // Each seated player receives their own hole cards, and only those.
    if let (Some(n), Some(session)) = (hand["n"].as_u64(), updates.first()) {
        let s: SessionState = load(&session.row.state)?;
        let players: Vec<i64> = s
            .hands
            .last()
            .map(|h| h.players.values().copied().collect())
            .unwrap_or_default();
        for player in players {
            let out = Arc::new(Mutex::new(None));
            step(&state, &table, poker::view(player, n, Arc::clone(&out))).await?;
            if let Some(view) = out.lock().ok().and_then(|mut v| v.take()) {
                state.events().publish(
                    format!("poker:{table}"),
                    Audience::Player(player),
                    json!({"event": "hole", "view": view}),
                );
            }
        }
    }
    Ok(Json(hand))
}

/// Deals the next street of hand `n`.
#[instrument(skip_all)]
pub async fn post_street(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath((table, n)): ApiPath<(String, u64)>,
) -> Result<Json<Value>, ApiError> {
    let updates = step(&state, &table, poker::street(n)).await?;
    let entry = updates
        .first()
        .and_then(|u| u.log.first())
        .ok_or_else(|| ApiError::internal("a street logged nothing"))?;
    Ok(Json(
        serde_json::from_str(&entry.body).map_err(ApiError::internal)?,
    ))
}

/// The caller's view of hand `n`: own hole cards, the board so far.
#[instrument(skip_all)]
pub async fn get_hand(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath((table, n)): ApiPath<(String, u64)>,
) -> Result<Json<Value>, ApiError> {
    let out = Arc::new(Mutex::new(None));
    step(&state, &table, poker::view(auth.id, n, Arc::clone(&out))).await?;
    let view = out.lock().ok().and_then(|mut v| v.take());
    view.map(Json).ok_or_else(|| ApiError::not_found("hand"))
}

/// Adds `table` to the player's index, creating the index on first use.
async fn remember_table(store: &dyn Store, player: i64, table: &str) -> Result<(), ApiError> {
    let id = poker::player_index_id(player);
    match store.round(&id).await {
        Ok(_) => {}
        Err(StoreError::NotFound(_)) => {
            let created = store
                .create_round(NewRound {
                    id: id.clone(),
                    kind: "poker_player".into(),
                    commitment: "-".into(),
                    secret: SecretSeed::new(hex::encode(secrets::random_bytes()?)),
                    state: save(&poker::PlayerIndex::default())?,
                    status: "open".into(),
                })
                .await;
            match created {
                Ok(_)
                | Err(StoreError::Conflict {
                    code: "already_exists",
                    ..
                }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Err(e) => return Err(e.into()),
    }
    store
        .update_round(&id, poker::remember_table(table.to_owned()))
        .await?;
    Ok(())
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
    let index: poker::PlayerIndex =
        match state.store().round(&poker::player_index_id(auth.id)).await {
            Ok(row) => load(&row.state)?,
            Err(StoreError::NotFound(_)) => poker::PlayerIndex::default(),
            Err(e) => return Err(e.into()),
        };
    let mut hands = Vec::new();
    for table in index.tables.iter().rev() {
        if hands.len() >= limit as usize {
            break;
        }
        let t = table_state(state.store(), table).await?;
        let session = match state
            .store()
            .round(&poker::session_id(table, t.session_no))
            .await
        {
            Ok(row) => row,
            // The next session opens lazily: no hand in it yet.
            Err(StoreError::NotFound(_)) => continue,
            Err(e) => return Err(e.into()),
        };
        let s: SessionState = load(&session.state)?;
        hands.extend(poker::hand_summary(&s, &session.commitment, auth.id));
    }
    hands.truncate(limit as usize);
    Ok(Json(json!({ "hands": hands })))
}

#[cfg(test)]
#[path = "poker_hands_tests.rs"]
mod tests;

//! Live hold'em tables over HTTP: open one (`POST /v1/holdem/tables`), read
//! it as the caller sees it, read its finished hands, and open its
//! WebSocket (`crate::holdem::ws`), where people sit and play.

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_core::selfpoker_v2;
use fairseed_holdem::evidence;
use fairseed_holdem::live::{view, LiveTable, Policy, Scheme, Session};
use fairseed_holdem::TableConfig;
use fairseed_play::Viewer;
use fairseed_store::Commit;
use serde::Deserialize;
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::{Caller, Peer, PlayerAuth};
use crate::error::{ApiError, ApiPath, ApiQuery};
use crate::handlers::keyed::{Keyed, Ran};
use crate::holdem::{self, rows, ws};
use crate::idempotent::KeyEntry;
use crate::rounds::now;
use crate::secrets;
use crate::state::AppState;
use crate::step;

/// Body of `POST /v1/holdem/tables`: the table's policy, fixed from now on
/// (bounds in `fairseed_holdem::live::policy`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// The AIs' levels (1 to 3), seated from seat 1 on.
    ais: Vec<u8>,
    seats: Option<usize>,
    action_ms: Option<i64>,
    small_blind: Option<u64>,
    big_blind: Option<u64>,
    starting_stack: Option<u64>,
    idle_close_ms: Option<i64>,
    /// Anyone, the house included, may sit (`true`); `false`, the default:
    /// a private table, where anyone but the opener sits only with the
    /// invitation the answer gives (docs/spec.md §19.4).
    public: Option<bool>,
    /// How hand seeds are made: `selfpoker_v3` (the default), whose hands
    /// each start with a round of per-hand values so no seat has the last
    /// word on the deck (docs/spec.md §20), or `selfpoker_v2` (§17).
    scheme: Option<Scheme>,
}

impl NewTable {
    /// The scheme asked for: a derived one, `selfpoker_v3` unless said.
    fn scheme(&self) -> Result<Scheme, ApiError> {
        match self.scheme.unwrap_or(Scheme::SelfpokerV3) {
            Scheme::Selfpoker => Err(ApiError::invalid(
                "scheme",
                "selfpoker, expected selfpoker_v2 or selfpoker_v3",
            )),
            scheme => Ok(scheme),
        }
    }

    /// The policy asked for, unset fields from the defaults and this
    /// process's idle limit.
    fn policy(&self, idle_close_ms: i64) -> Policy {
        let d = TableConfig::default();
        Policy {
            config: TableConfig {
                seats: self.seats.unwrap_or(d.seats),
                small_blind: self.small_blind.unwrap_or(d.small_blind),
                big_blind: self.big_blind.unwrap_or(d.big_blind),
                starting_stack: self.starting_stack.unwrap_or(d.starting_stack),
                action_ms: self.action_ms.unwrap_or(d.action_ms),
            },
            ais: self.ais.clone(),
            ai_seats: Vec::new(),
            idle_close_ms: self.idle_close_ms.unwrap_or(idle_close_ms),
            public: self.public.unwrap_or(false),
        }
    }
}

/// Opens a table with its AIs and a `selfpoker_v2` or `selfpoker_v3` session: the session
/// secret is drawn from the OS CSPRNG and sealed; its commitment is public
/// from now on. A private table (the default) answers its invitation, and
/// the link the page opens with it (`/#table=ID&invite=CODE`), to its
/// opener. Idempotent with an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_table(
    State(state): State<AppState>,
    auth: PlayerAuth,
    keyed: Keyed<NewTable>,
) -> Result<Response, ApiError> {
    let scope = step::player_scope(auth.id);
    let ran = keyed
        .run_with(&state, &scope, StatusCode::CREATED, |entry| {
            open_table(&state, auth.id, &keyed.body, entry)
        })
        .await?;
    if let Ran::Done { out: table_id, .. } = &ran {
        state.holdem().opened(table_id, auth.id);
        holdem::claim_and_drive(&state, table_id).await?;
    }
    Ok(ran.response())
}

/// Opens the table `asked` for `opener` with its policy, a fresh session
/// and its sealed keys, storing `entry` with it; the answer and the
/// table's id.
async fn open_table(
    state: &AppState,
    opener: i64,
    asked: &NewTable,
    entry: KeyEntry,
) -> Result<(Value, String), ApiError> {
    let policy = asked.policy(state.holdem().timing().idle_close_ms);
    policy.check()?;
    let scheme = asked.scheme()?;
    holdem::caps::check_open(state, opener).await?;
    let bytes = secrets::random_bytes()?;
    let table_id = format!("h{}", &hex::encode(bytes)[..16]);
    let secret = secrets::random_bytes()?;
    let session = Session {
        scheme,
        commit: Some(selfpoker_v2::session_commit(&secret)),
        revealed: None,
    };
    // The invitation: 128 bits from the OS CSPRNG, stored with the table
    // and answered to its opener only; nothing logged names it.
    let invitation = hex::encode(&secrets::random_bytes()?[..16]);
    // The evidence key: an Ed25519 key from the OS CSPRNG, stored sealed
    // and never revealed; its public half is logged at open and named in
    // every record (docs/spec.md §20.7).
    let evidence_key = secrets::random_bytes()?;
    let evidence_public = evidence::public_hex(&evidence::SigningKey::from_bytes(&evidence_key));
    let live = LiveTable::open(table_id.clone(), policy, session)?
        .opened_by(opener, invitation)
        .with_evidence_key(evidence_public)
        .opened_at(now());
    let answer = opened_answer(&live);
    let commit = Commit {
        creates: vec![rows::new_round(
            &live,
            hex::encode(secret),
            Some(hex::encode(evidence_key)),
        )?],
        log: rows::opening_entries(&live)?,
        idempotent: entry.of_value(&answer),
        ..Commit::default()
    };
    let updates = state.store().commit(commit).await?;
    let answer = state.with_receipts(answer, &updates).await?;
    Ok((answer, table_id))
}

/// The answer to an opening: where the table is, its session commitment
/// and seating, and for a private table its invitation (the opener's only).
fn opened_answer(live: &LiveTable) -> Value {
    let table_id = &live.table_id;
    let mut answer = json!({
        "table_id": table_id,
        "ws": format!("/v1/holdem/tables/{table_id}/ws"),
        "session_commit": live.session.commit,
        "public": live.is_public(),
        "seating": view(live, Viewer::Public).seating,
    });
    if let Some(code) = live.invitation.as_ref().filter(|_| !live.is_public()) {
        answer["invitation"] = json!(code);
        answer["invite_link"] = json!(format!("/#table={table_id}&invite={code}"));
    }
    answer
}

fn viewer(caller: Caller) -> Viewer {
    match caller {
        Caller::Player(id) => Viewer::Player(id),
        Caller::Operator => Viewer::Public,
    }
}

/// A table id as the path gives it, or `404`.
fn checked(table: &str) -> Result<&str, ApiError> {
    let ok = (1..=64).contains(&table.len()) && table.bytes().all(|b| b.is_ascii_alphanumeric());
    ok.then_some(table)
        .ok_or_else(|| ApiError::not_found("table"))
}

/// The table as the caller sees it (the WebSocket's `state`). A read.
#[instrument(skip_all)]
pub async fn get_table(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(table): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let loaded = holdem::load(&state, checked(&table)?).await?;
    let v = view(&loaded.live, viewer(caller));
    let shown = rows::shown(&v);
    let body = serde_json::to_value(v).map_err(ApiError::internal)?;
    Ok(Json(state.with_shown_receipts(body, shown).await?))
}

/// `?after=&limit=` of `GET /v1/holdem/tables/{id}/hands`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandsQuery {
    /// The `seq` the page starts after (0: the table's first hand).
    after: Option<u64>,
    /// Hands at most (1 to 100, 20 unless given).
    limit: Option<usize>,
}

/// A page of the table's finished hands, oldest first, for any caller
/// (docs/spec.md §17.6): each hand's record, with the session secret once
/// the table closed, the receipts of the log entries that published each
/// hand's commit and seed and the session's commitment (and its end), and
/// `next_after`, the next page's cursor (`null` at the log's end). A read.
#[instrument(skip_all)]
pub async fn get_hands(
    State(state): State<AppState>,
    _caller: Caller,
    ApiPath(table): ApiPath<String>,
    ApiQuery(query): ApiQuery<HandsQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = holdem::hands::limit(query.limit)?;
    let row = holdem::row(&state, checked(&table)?).await?;
    let _turn = holdem::hands::turn().await?;
    let page = holdem::hands::page(&state, &row, query.after.unwrap_or(0), limit).await?;
    let shown = rows::shown_hands(&table, &page.numbers, row.revealed.is_some());
    let body = json!({ "hands": page.hands, "next_after": page.next_after });
    Ok(Json(state.with_shown_receipts(body, shown).await?))
}

/// Upgrades to the table's WebSocket (the first message authenticates).
#[instrument(skip_all)]
pub async fn get_ws(
    State(state): State<AppState>,
    Peer(peer): Peer,
    ApiPath(table): ApiPath<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let table = checked(&table)?.to_owned();
    holdem::row(&state, &table).await?;
    let upgrade = upgrade.map_err(|e| {
        ApiError::bad_request(format!(
            "this path is a WebSocket (Upgrade: websocket): {e}"
        ))
    })?;
    Ok(upgrade
        .max_message_size(ws::MAX_READ)
        .max_frame_size(ws::MAX_READ)
        .on_upgrade(move |socket| ws::serve(socket, state, table, peer))
        .into_response())
}

/// Every hold'em table not yet archived (operator).
#[instrument(skip_all)]
pub async fn operator_list(
    State(state): State<AppState>,
    _op: crate::auth::OperatorAuth,
) -> Result<Json<Value>, ApiError> {
    let tables = holdem::caps::list(&state).await?;
    Ok(Json(json!({ "tables": tables })))
}

/// Closes a table now (operator): its people leave, its secret is revealed.
#[instrument(skip_all)]
pub async fn operator_close(
    State(state): State<AppState>,
    _op: crate::auth::OperatorAuth,
    ApiPath(table): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let seq = holdem::caps::close(&state, checked(&table)?).await?;
    Ok(Json(
        json!({ "table_id": table, "status": rows::CLOSED, "seq": seq }),
    ))
}

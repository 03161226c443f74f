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
use fairseed_core::{ClientSeed, Commitment, Ident};
use fairseed_play::poker::{self as rules, view, view_hand, Command, PokerError, TableView};
use fairseed_play::Viewer;
use fairseed_store::Commit;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::{Caller, OperatorAuth, PlayerAuth};
use crate::error::{ApiError, ApiPath, ApiQuery};
use crate::handlers::keyed::Keyed;
use crate::handlers::records::RecordView;
use crate::idempotent::Answer;
use crate::rounds::poker::{self as rows, Published};
use crate::secrets;
use crate::service::poker::{self as tables, Entry};
use crate::state::AppState;
use crate::step::{self, OPERATOR_SCOPE};

fn table_json(v: &TableView) -> Value {
    json!({"table_id": v.table_id.as_str(), "session": v.session.as_str(),
           "commitment": v.commitment.to_hex(), "seats": v.seats, "hands": v.hands.len()})
}

/// Body of `POST /v1/poker/tables`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    table_id: Option<String>,
}

/// Opens a table with its first seed session, served by this process.
/// Idempotent with an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_table(
    State(state): State<AppState>,
    _op: OperatorAuth,
    keyed: Keyed<NewTable>,
) -> Result<Response, ApiError> {
    let state = &state;
    let table = keyed.body.table_id.as_deref();
    let ran = keyed
        .run_with(
            state,
            OPERATOR_SCOPE,
            StatusCode::CREATED,
            |entry| async move {
                let table = match table {
                    Some(t) => Ident::parse_field(t, "table_id")?,
                    None => Ident::parse_field(
                        &format!("t{}", &hex::encode(secrets::random_bytes()?)[..16]),
                        "table_id",
                    )?,
                };
                let answer = |opened: &rules::State| table_json(&view(opened, Viewer::Operator));
                let (opened, updates) =
                    tables::open(state, table, |opened| entry.of_value(&answer(opened))).await?;
                Ok((state.with_receipts(answer(&opened), &updates).await?, ()))
            },
        )
        .await?;
    Ok(ran.response())
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
    let s = tables::read(&state, &table).await?;
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
/// Idempotent with an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_seat(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(table): ApiPath<String>,
    keyed: Keyed<Sit>,
) -> Result<Response, ApiError> {
    let body = &keyed.body;
    if body.seat > rules::MAX_SEAT {
        return Err(ApiError::invalid(
            "seat",
            format!("{}, expected 0 to 9", body.seat),
        ));
    }
    let client = ClientSeed::parse_chosen(&body.client_seed, "client_seed")?;
    let shown = Commitment::parse_field(&body.commitment, "commitment")?;
    let command = Command::Sit {
        player: auth.id,
        seat: body.seat,
        client_seed: client,
        shown,
    };
    let answer = json!({"table_id": table, "seat": body.seat});
    let scope = step::player_scope(auth.id);
    let state = &state;
    let ran = keyed
        .run_with(state, &scope, StatusCode::OK, |entry| async move {
            let idempotent = entry.of_value(&answer);
            tables::sit(state, &table, auth.id, command, idempotent).await?;
            Ok((answer, ()))
        })
        .await?;
    Ok(ran.response())
}

/// Leaves the table: a proof record for each hand played this session, of
/// the leaver's holes and the board dealt so far. Idempotent with an
/// `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_leave(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(table): ApiPath<String>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    let scope = step::player_scope(auth.id);
    let state = &state;
    let ran = keyed
        .run_with(state, &scope, StatusCode::OK, |entry| async move {
            let stepped = tables::run(state, &table, |loaded, seed| {
                let command = Command::Leave {
                    player: auth.id,
                    next_seed: seed.clone(),
                };
                let (next, events) = tables::apply(loaded, command)?;
                let entry = entry.clone();
                let of_commit = move |commit: &Commit, published: &Published| {
                    Ok(entry.of(&leave_answer(commit, published, auth.id)?))
                };
                Ok((next, events, (), Entry::OfCommit(Box::new(of_commit))))
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
            let rotated = stepped.published.rotated;
            Ok((json!({"records": records, "session_rotated": rotated}), ()))
        })
        .await?;
    Ok(ran.response())
}

/// The leaver's answer as stored for a retry: the records of `commit` the
/// leaver reads, each with the id the store gives it, and whether the
/// session rotated (the answer sent first is the same, read from what was
/// stored).
fn leave_answer(commit: &Commit, published: &Published, player: i64) -> Result<Answer, ApiError> {
    let stored = commit.writes.iter().flat_map(|w| &w.change.records);
    let mut records = Vec::new();
    let mut at = Vec::new();
    for (i, out) in stored.enumerate() {
        if out.readers.contains(&player) {
            let record: Value =
                serde_json::from_str(&out.record.body).map_err(ApiError::internal)?;
            at.push((i, format!("/records/{}/id", records.len())));
            records.push(json!({"id": null, "scheme": out.record.scheme, "record": record}));
        }
    }
    let body = json!({"records": records, "session_rotated": published.rotated});
    Ok(at.iter().fold(Answer::from(body), |answer, (i, pointer)| {
        answer.with_id_of_record_at(*i, pointer)
    }))
}

/// Starts the next hand (rotating first when the session is due,
/// [`rules::due`]). Idempotent with an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_hand(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(table): ApiPath<String>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    let state = &state;
    let ran = keyed
        .run_with(state, OPERATOR_SCOPE, StatusCode::OK, |entry| async move {
            let stepped = tables::run(state, &table, |loaded, seed| {
                match tables::apply(loaded, Command::StartHand) {
                    Ok((next, events)) => {
                        let answer = rules::public_event(&next, &events[0])?;
                        let idempotent = entry.of_value(&answer);
                        Ok((next, events, Ok(answer), idempotent.into()))
                    }
                    // The limit was reached: rotate now, answer 409 below.
                    Err(PokerError::SessionDue(why)) => {
                        let command = Command::Rotate {
                            why,
                            next_seed: seed.clone(),
                        };
                        let (next, events) = tables::apply(loaded, command)?;
                        Ok((next, events, Err(PokerError::SessionDue(why)), None.into()))
                    }
                    Err(e) => Err(e.into()),
                }
            })
            .await?;
            let answer = stepped.out?;
            Ok((state.with_receipts(answer, &stepped.updates).await?, ()))
        })
        .await?;
    Ok(ran.response())
}

/// Deals the next street of hand `n`. Idempotent with an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_street(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath((table, n)): ApiPath<(String, u64)>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    let state = &state;
    let ran = keyed
        .run_with(state, OPERATOR_SCOPE, StatusCode::OK, |entry| async move {
            let stepped = tables::run(state, &table, |loaded, _| {
                let (next, events) = tables::apply(loaded, Command::DealStreet { n })?;
                let answer = rules::public_event(&next, &events[0])?;
                let idempotent = entry.of_value(&answer);
                Ok((next, events, answer, idempotent.into()))
            })
            .await?;
            Ok((stepped.out, ()))
        })
        .await?;
    Ok(ran.response())
}

/// The caller's view of hand `n`: own hole cards, the board so far. A read.
#[instrument(skip_all)]
pub async fn get_hand(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath((table, n)): ApiPath<(String, u64)>,
) -> Result<Json<Value>, ApiError> {
    let s = tables::read(&state, &table).await?;
    let v = view_hand(&s, n, Viewer::Player(auth.id))?;
    if v.seat.is_none() {
        return Err(ApiError::not_found("hand"));
    }
    let session = rows::session_id(&table, s.table.session_no);
    let shown = crate::log::shown::commitment(&[&session, &v.n.to_string()]);
    Ok(Json(
        state
            .with_shown_receipts(tables::hand_json(&v), shown)
            .await?,
    ))
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
    let mut hands = Vec::new();
    for v in tables::player_tables(&state, auth.id, limit as usize).await? {
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

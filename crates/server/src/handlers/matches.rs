//! Table-game matches (`match_seed_v2`, legacy `match_seed_v1`), for the operator:
//! `POST /v1/matches`, `GET /v1/matches/{id}`, `POST …/client-seeds`,
//! `POST …/start`, `POST …/draws`, `GET …/draws`, `POST …/finish`.
//!
//! Every change is load → [`fairseed_play::matches::apply`] (pure) →
//! one versioned commit, retried on a version conflict; every answer and
//! event is a view of the new state. Each `POST` takes an optional
//! `Idempotency-Key`: the answer is stored with the change and replayed.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use fairseed_core::games::Game;
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use fairseed_play::matches::{self, setup, Command, Event, Match, Scheme, Step};
use fairseed_play::Viewer;
use fairseed_store::{Commit, LoadedRound};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::OperatorAuth;
use crate::error::{ApiError, ApiPath, ApiQuery};
use crate::events::Audience;
use crate::handlers::keyed::{Keyed, Ran};
use crate::idempotent::Answer;
use crate::rounds::matches::{self as rounds, round_id};
use crate::rounds::{now, player_exists};
use crate::secrets;
use crate::state::AppState;
use crate::step::OPERATOR_SCOPE;

/// Body of `POST /v1/matches`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenMatch {
    #[serde(default)]
    scheme: Option<String>,
    game: String,
    match_id: Option<String>,
    players: Option<Vec<String>>,
    tiles: Option<usize>,
}

fn scheme(name: Option<&str>) -> Result<Scheme, ApiError> {
    match name {
        None | Some("match_seed_v2") => Ok(Scheme::V2),
        Some("match_seed_v1") => Ok(Scheme::V1),
        Some(other) => Err(ApiError::invalid(
            "scheme",
            format!("'{other}' is not a match scheme; expected match_seed_v2 or match_seed_v1"),
        )),
    }
}

fn game(name: &str) -> Result<Game, ApiError> {
    Game::parse(name).map_err(|_| {
        ApiError::invalid(
            "game",
            format!("'{name}' is not a game; expected one of backgammon checkers xiangqi tarneeb trix bridge baloot mahjong"),
        )
    })
}

/// Opens a match: draws and commits its server seed.
#[instrument(skip_all)]
pub async fn post(
    State(state): State<AppState>,
    _op: OperatorAuth,
    keyed: Keyed<OpenMatch>,
) -> Result<Response, ApiError> {
    let body = &keyed.body;
    let game = game(&body.game)?;
    let match_id = match &body.match_id {
        Some(id) => Ident::parse_field(id, "match_id")?,
        None => Ident::parse(&format!(
            "m{}",
            &hex::encode(secrets::random_bytes()?)[..20]
        ))?,
    };
    let labels = setup::labels(game, body.players.clone())?;
    let tiles = setup::wall(game, body.tiles)?;
    let seed = ServerSeed::from_bytes(secrets::random_bytes()?);
    let scheme = scheme(body.scheme.as_deref())?;
    let opened = Match::open(
        scheme,
        game,
        match_id.clone(),
        seed.commitment(),
        labels,
        tiles,
    );
    let ran = keyed
        .run(&state, OPERATOR_SCOPE, StatusCode::CREATED, &[], |_| {
            let commit = Commit {
                creates: vec![rounds::create(&opened, &seed)?],
                ..Commit::default()
            };
            Ok((commit, view_of(&opened)?.into(), ()))
        })
        .await
        .map_err(|e| match e.kind() {
            crate::error::ErrorCode::Store(fairseed_store::Refusal::RoundExists) => {
                ApiError::conflict(
                    crate::error::ErrorCode::AlreadyExists,
                    format!("match_id: '{match_id}' is already used"),
                )
            }
            _ => e,
        })?;
    tracing::info!(match_id = %match_id, game = %game, "match opened");
    Ok(ran.response())
}

fn not_found(e: ApiError) -> ApiError {
    if e.status() == StatusCode::NOT_FOUND {
        ApiError::not_found("match")
    } else {
        e
    }
}

async fn load(state: &AppState, id: &str) -> Result<Match, ApiError> {
    Ok(load_round(state, id).await?.0)
}

/// A match and the row it was loaded from.
async fn load_round(state: &AppState, id: &str) -> Result<(Match, LoadedRound), ApiError> {
    let id = Ident::parse_field(id, "match_id")?;
    let rounds = state
        .store()
        .load_rounds(&[round_id(id.as_str())])
        .await
        .map_err(|e| not_found(e.into()))?;
    let round = rounds
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::not_found("match"))?;
    Ok((rounds::load(&round)?.0, round))
}

/// One match.
#[instrument(skip_all)]
pub async fn get(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (found, round) = load_round(&state, &id).await?;
    let view = matches::view(&found, Viewer::Operator);
    let body = serde_json::to_value(view).map_err(ApiError::internal)?;
    let shown = crate::log::shown::round([&round.row]);
    Ok(Json(state.with_shown_receipts(body, shown).await?))
}

/// A match's step: `command` (given the unsealed seed) applied to the
/// match, committed with the answer `answer` builds from the round as
/// loaded, the new state and its events; the events published by audience.
async fn step<B, A: Into<Answer>>(
    state: &AppState,
    id: &str,
    keyed: &Keyed<B>,
    command: impl Fn(ServerSeed) -> Command,
    answer: impl Fn(&LoadedRound, &Match, &[Event]) -> Result<A, ApiError>,
) -> Result<Response, ApiError> {
    let match_id = Ident::parse_field(id, "match_id")?;
    let ids = [round_id(match_id.as_str())];
    let ran = keyed
        .run(state, OPERATOR_SCOPE, StatusCode::OK, &ids, |loaded| {
            let round = loaded.first().ok_or_else(|| ApiError::not_found("match"))?;
            let (current, seed) = rounds::load(round)?;
            let (next, events) =
                matches::apply(&current, command(seed), now()).map_err(ApiError::rule)?;
            let body = answer(round, &next, &events)?.into();
            let commit = Commit {
                writes: vec![rounds::write(round, &next, &events)?],
                ..Commit::default()
            };
            Ok((commit, body, events))
        })
        .await
        .map_err(not_found)?;
    if let Ran::Done { out: events, .. } = &ran {
        for event in events {
            publish(state, match_id.as_str(), event);
        }
    }
    Ok(ran.response())
}

/// Publishes an event as each audience may see it: to everyone when the
/// public may, else to the operator alone (draws hold every hand).
fn publish(state: &AppState, match_id: &str, event: &Event) {
    let (audience, body) = match event.view(Viewer::Public) {
        Some(body) => (Audience::All, body),
        None => match event.view(Viewer::Operator) {
            Some(body) => (Audience::Operator, body),
            None => return,
        },
    };
    state
        .events()
        .publish(format!("match:{match_id}"), audience, body);
}

fn view_of(next: &Match) -> Result<Value, ApiError> {
    serde_json::to_value(matches::view(next, Viewer::Operator)).map_err(ApiError::internal)
}

/// Body of `POST /v1/matches/{id}/client-seeds`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitSeed {
    index: usize,
    client_seed: String,
    commitment: String,
}

/// Takes a player's client seed with the commitment the player was shown.
#[instrument(skip_all)]
pub async fn post_client_seed(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
    keyed: Keyed<SubmitSeed>,
) -> Result<Response, ApiError> {
    let body = &keyed.body;
    let client_seed = ClientSeed::parse_chosen(&body.client_seed, "client_seed")?;
    let shown = Commitment::parse_field(&body.commitment, "commitment")?;
    let index = body.index;
    let command = |_| Command::ClientSeed {
        index,
        client_seed: client_seed.clone(),
        shown,
    };
    step(&state, &id, &keyed, command, |_, next, _| view_of(next)).await
}

/// Starts the match: the seat order.
#[instrument(skip_all)]
pub async fn start(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    step(
        &state,
        &id,
        &keyed,
        |seed| Command::Start { seed },
        |_, next, _| view_of(next),
    )
    .await
}

/// Body of `POST /v1/matches/{id}/draws`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    step: String,
    buyer: Option<usize>,
}

impl DrawBody {
    fn step(&self) -> Result<Step, ApiError> {
        Ok(match (self.step.as_str(), self.buyer) {
            ("second", Some(buyer)) => Step::Second(buyer),
            ("second", None) => return Err(ApiError::invalid("buyer", "missing: the seat (0..3) that bought")),
            (_, Some(_)) => return Err(ApiError::invalid("buyer", "only the 'second' step takes a buyer")),
            ("deal", None) => Step::Deal,
            ("opening", None) => Step::Opening,
            ("roll", None) => Step::Roll,
            ("first", None) => Step::First,
            ("hand", None) => Step::Hand,
            ("tile", None) => Step::Tile,
            (other, None) => {
                return Err(ApiError::invalid(
                    "step",
                    format!("'{other}' is not a step; expected deal, opening, roll, first, second, hand or tile"),
                ))
            }
        })
    }
}

/// A draw as logged.
#[derive(Debug, Serialize)]
pub struct DrawView {
    seq: u64,
    draw: Value,
}

/// Draws the next step of the game; durable before the answer.
#[instrument(skip_all)]
pub async fn post_draw(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
    keyed: Keyed<DrawBody>,
) -> Result<Response, ApiError> {
    let kind = keyed.body.step()?;
    let answer = |round: &LoadedRound, _: &Match, events: &[Event]| {
        let draw = events
            .iter()
            .find_map(|e| e.view(Viewer::Operator))
            .ok_or_else(|| ApiError::internal("a draw drew nothing"))?;
        Ok(json!({"seq": round.row.log_len, "draw": draw}))
    };
    step(
        &state,
        &id,
        &keyed,
        |seed| Command::Draw { step: kind, seed },
        answer,
    )
    .await
}

/// `?from=&limit=` of the draw log.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogQuery {
    from: Option<u64>,
    limit: Option<u32>,
}

/// The match's log: client seeds, seat order, every draw, in order.
#[instrument(skip_all)]
pub async fn get_draws(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<LogQuery>,
) -> Result<Json<Vec<DrawView>>, ApiError> {
    let limit = q.limit.unwrap_or(500);
    if !(1..=1000).contains(&limit) {
        return Err(ApiError::invalid(
            "limit",
            format!("{limit} is out of range, expected 1 to 1000"),
        ));
    }
    load(&state, &id).await?;
    let rows = state
        .store()
        .round_log(&round_id(&id), q.from.unwrap_or(0), limit)
        .await?;
    rows.into_iter()
        .map(|r| {
            Ok(DrawView {
                seq: r.seq,
                draw: serde_json::from_str(&r.body).map_err(ApiError::internal)?,
            })
        })
        .collect::<Result<_, ApiError>>()
        .map(Json)
}

/// Body of `POST /v1/matches/{id}/finish` (optional): player index →
/// account, the players who may read the record.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinishBody {
    #[serde(default)]
    players: BTreeMap<String, i64>,
}

/// The linked accounts, each index a number and each id an existing player.
async fn accounts(
    state: &AppState,
    body: Option<&FinishBody>,
) -> Result<Vec<(usize, i64)>, ApiError> {
    let mut out = Vec::new();
    for (index, &player) in body.map(|b| &b.players).into_iter().flatten() {
        let field = format!("players.{index}");
        let i: usize = index
            .parse()
            .map_err(|_| ApiError::invalid(&field, format!("'{index}' is not a player index")))?;
        if !player_exists(state, player).await? {
            return Err(ApiError::invalid(
                field,
                format!("{player} is not a player id"),
            ));
        }
        out.push((i, player));
    }
    Ok(out)
}

/// Finishes the match: reveals the seed and stores the `match_seed_v2`
/// record, read by the accounts linked in the body.
#[instrument(skip_all)]
pub async fn finish(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
    keyed: Keyed<Option<FinishBody>>,
) -> Result<Response, ApiError> {
    let accounts = accounts(&state, keyed.body.as_ref()).await?;
    let command = |seed| Command::Finish {
        seed,
        accounts: accounts.clone(),
    };
    let answer = |_: &LoadedRound, next: &Match, events: &[Event]| {
        let record = events
            .iter()
            .find_map(|e| match e {
                Event::Finished { record } => Some(record),
                _ => None,
            })
            .ok_or_else(|| ApiError::internal("finish made no record"))?;
        Ok(Answer::from(json!({
            "match": matches::view(next, Viewer::Operator),
            "record": {"id": null, "scheme": record.scheme, "record": record.body},
        }))
        .with_record_id_at("/record/id"))
    };
    tracing::info!(match_id = %id, "match finishing");
    step(&state, &id, &keyed, command, answer).await
}

//! Table-game matches (`match_seed_v2`), for the operator:
//! `POST /v1/matches`, `GET /v1/matches/{id}`, `POST …/client-seeds`,
//! `POST …/start`, `POST …/draws`, `GET …/draws`, `POST …/finish`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use fairseed_core::games::Game;
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};
use fairseed_store::{NewRound, RoundRow, SecretSeed, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tracing::instrument;

use crate::auth::OperatorAuth;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery};
use crate::events::Audience;
use crate::handlers::records::RecordView;
use crate::rounds::load;
use crate::rounds::matches::{self, MatchState, Step};
use crate::secrets;
use crate::state::AppState;

fn round_id(match_id: &str) -> Result<String, ApiError> {
    let id = Ident::parse_field(match_id, "match_id")?;
    Ok(format!("match:{id}"))
}

/// Body of `POST /v1/matches`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenMatch {
    game: String,
    match_id: Option<String>,
    players: Option<Vec<String>>,
    tiles: Option<usize>,
}

/// A match as the operator sees it (the seed only once finished).
#[derive(Debug, Serialize)]
pub struct MatchView {
    match_id: String,
    game: String,
    commitment: String,
    status: String,
    players: Vec<String>,
    client_seeds: Vec<Option<String>>,
    seat_order: Option<Vec<usize>>,
    tiles: Option<usize>,
    draws: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    server_seed: Option<String>,
}

impl MatchView {
    fn from_row(row: RoundRow) -> Result<Self, ApiError> {
        let state: MatchState = load(&row.state)?;
        Ok(Self {
            tiles: (state.game == "mahjong").then_some(state.tiles),
            match_id: state.match_id,
            game: state.game,
            commitment: row.commitment,
            status: row.status,
            players: state.players,
            client_seeds: state.client_seeds,
            seat_order: state.seat_order,
            draws: row.log_len,
            server_seed: row.revealed,
        })
    }
}

/// Opens a match: draws and commits its server seed.
#[instrument(skip_all)]
pub async fn post(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiJson(body): ApiJson<OpenMatch>,
) -> Result<(StatusCode, Json<MatchView>), ApiError> {
    let game = Game::parse(&body.game).map_err(|_| {
        ApiError::invalid(
            "game",
            format!("'{}' is not a game; expected one of backgammon checkers xiangqi tarneeb trix bridge baloot mahjong", body.game),
        )
    })?;
    let match_id = match body.match_id {
        Some(id) => Ident::parse_field(&id, "match_id")?,
        None => Ident::parse(&format!(
            "m{}",
            &hex::encode(secrets::random_bytes()?)[..20]
        ))?,
    };
    let players = match body.players {
        Some(p) if p.len() != game.players() => {
            return Err(ApiError::invalid(
                "players",
                format!(
                    "{} players for {game}, expected {}",
                    p.len(),
                    game.players()
                ),
            ))
        }
        Some(p) => {
            if let Some((i, _)) = p
                .iter()
                .enumerate()
                .find(|(_, l)| l.is_empty() || l.len() > 64)
            {
                return Err(ApiError::invalid(
                    format!("players[{i}]"),
                    "expected 1 to 64 bytes",
                ));
            }
            p
        }
        None => (0..game.players()).map(|i| i.to_string()).collect(),
    };
    let tiles = match (game, body.tiles) {
        (Game::Mahjong, None) => 144,
        (Game::Mahjong, Some(t @ (136 | 144))) => t,
        (Game::Mahjong, Some(t)) => {
            return Err(ApiError::invalid(
                "tiles",
                format!("{t}, expected 144 or 136"),
            ))
        }
        (_, None) => 0,
        (_, Some(_)) => {
            return Err(ApiError::invalid(
                "tiles",
                format!("only mahjong has a wall size, not {game}"),
            ))
        }
    };
    let seed = ServerSeed::from_bytes(secrets::random_bytes()?);
    let match_state = MatchState::new(game, &match_id, players, tiles);
    let row = state
        .store()
        .create_round(NewRound {
            id: format!("match:{match_id}"),
            kind: "match".into(),
            commitment: seed.commitment().to_hex(),
            secret: SecretSeed::new(seed.reveal().to_owned()),
            state: crate::rounds::save(&match_state)?,
            status: matches::OPEN.into(),
        })
        .await?;
    tracing::info!(match_id = %match_id, game = %game, "match opened");
    Ok((StatusCode::CREATED, Json(MatchView::from_row(row)?)))
}

async fn match_row(state: &AppState, id: &str) -> Result<RoundRow, ApiError> {
    let row = state
        .store()
        .round(&round_id(id)?)
        .await
        .map_err(|e| match e {
            StoreError::NotFound(_) => ApiError::not_found("match"),
            other => other.into(),
        })?;
    Ok(row)
}

/// One match.
#[instrument(skip_all)]
pub async fn get(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<MatchView>, ApiError> {
    Ok(Json(MatchView::from_row(match_row(&state, &id).await?)?))
}

/// Body of `POST /v1/matches/{id}/client-seeds`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitSeed {
    index: usize,
    client_seed: String,
    commitment: String,
}

/// Runs a step and publishes its log: draws (which hold every hand) to the
/// operator only, the rest (client seeds, seat order, finish) to all.
async fn step(
    state: &AppState,
    id: &str,
    f: fairseed_store::RoundFn,
) -> Result<fairseed_store::RoundUpdate, ApiError> {
    let update = state
        .store()
        .update_round(&round_id(id)?, f)
        .await
        .map_err(|e| match e {
            StoreError::NotFound(_) => ApiError::not_found("match"),
            other => other.into(),
        })?;
    for entry in &update.log {
        let Ok(body) = serde_json::from_str::<Value>(&entry.body) else {
            continue;
        };
        let public = matches!(
            body["step"].as_str(),
            Some("client_seed" | "start" | "finish")
        );
        let audience = if public {
            Audience::All
        } else {
            Audience::Operator
        };
        state
            .events()
            .publish(format!("match:{id}"), audience, body);
    }
    Ok(update)
}

/// Takes a player's client seed with the commitment the player was shown.
#[instrument(skip_all)]
pub async fn post_client_seed(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<SubmitSeed>,
) -> Result<Json<MatchView>, ApiError> {
    let client = ClientSeed::parse_field(&body.client_seed, "client_seed")?;
    let shown = Commitment::parse_field(&body.commitment, "commitment")?;
    let update = step(&state, &id, matches::submit_seed(body.index, client, shown)).await?;
    Ok(Json(MatchView::from_row(update.row)?))
}

/// Starts the match: the seat order.
#[instrument(skip_all)]
pub async fn start(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<MatchView>, ApiError> {
    let update = step(&state, &id, matches::start()).await?;
    Ok(Json(MatchView::from_row(update.row)?))
}

/// Body of `POST /v1/matches/{id}/draws`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    step: String,
    buyer: Option<usize>,
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
    ApiJson(body): ApiJson<DrawBody>,
) -> Result<Json<DrawView>, ApiError> {
    let step_kind = match (body.step.as_str(), body.buyer) {
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
    };
    let update = step(&state, &id, matches::draw(step_kind)).await?;
    let entry = update
        .log
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::internal("a draw logged nothing"))?;
    Ok(Json(DrawView {
        seq: entry.seq,
        draw: serde_json::from_str(&entry.body).map_err(ApiError::internal)?,
    }))
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
    match_row(&state, &id).await?;
    let rows = state
        .store()
        .round_log(&round_id(&id)?, q.from.unwrap_or(0), limit)
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

/// The answer to finishing a match.
#[derive(Debug, Serialize)]
pub struct Finished {
    #[serde(rename = "match")]
    view: MatchView,
    record: RecordView,
}

/// Finishes the match: reveals the seed and stores the `match_seed_v2` record.
#[instrument(skip_all)]
pub async fn finish(
    State(state): State<AppState>,
    _op: OperatorAuth,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Finished>, ApiError> {
    let update = step(&state, &id, matches::finish()).await?;
    let record = update
        .records
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::internal("finish stored no record"))?;
    tracing::info!(match_id = %id, record = record.id, "match finished");
    Ok(Json(Finished {
        view: MatchView::from_row(update.row)?,
        record: record.try_into()?,
    }))
}

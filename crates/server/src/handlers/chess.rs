//! Chess colours (`chess_colour_v1`) for players: `POST /v1/chess/seeds`,
//! `POST /v1/chess/seeks`, `GET /v1/chess/seeks`,
//! `POST /v1/chess/seeks/{id}/accept`, `POST /v1/chess/bot`,
//! `GET /v1/chess/games/{id}`, `POST /v1/chess/games/{id}/finish`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use fairseed_core::{ClientSeed, Commitment, ServerSeed};
use fairseed_store::{NewRound, RoundRow, RoundUpdate, SecretSeed, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::PlayerAuth;
use crate::error::{ApiError, ApiJson, ApiPath};
use crate::handlers::records::RecordView;
use crate::rounds::chess::{self, SeedState};
use crate::rounds::{load, save};
use crate::secrets;
use crate::state::AppState;

fn round_id(seed_id: &str) -> Result<String, ApiError> {
    let ok = !seed_id.is_empty()
        && seed_id.len() <= 64
        && seed_id.bytes().all(|b| b.is_ascii_alphanumeric());
    if !ok {
        return Err(ApiError::not_found("chess seed"));
    }
    Ok(format!("chess:{seed_id}"))
}

fn seed_id(round_id: &str) -> &str {
    round_id.strip_prefix("chess:").unwrap_or(round_id)
}

fn not_found(what: &'static str) -> impl Fn(StoreError) -> ApiError {
    move |e| match e {
        StoreError::NotFound(_) => ApiError::not_found(what),
        other => other.into(),
    }
}

/// Commits a new chess seed for the caller's connection.
#[instrument(skip_all)]
pub async fn post_seed(
    State(state): State<AppState>,
    auth: PlayerAuth,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let seed = ServerSeed::from_bytes(secrets::random_bytes()?);
    let id = format!("c{}", &hex::encode(secrets::random_bytes()?)[..24]);
    let row = state
        .store()
        .create_round(NewRound {
            id: round_id(&id)?,
            kind: "chess".into(),
            commitment: seed.commitment().to_hex(),
            secret: SecretSeed::new(seed.reveal().to_owned()),
            state: save(&SeedState {
                owner: auth.id,
                ..SeedState::default()
            })?,
            status: chess::COMMITTED.into(),
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"seed_id": id, "commitment": row.commitment})),
    ))
}

/// Body naming the caller's committed seed and their client seed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UseSeed {
    seed_id: String,
    client_seed: String,
    commitment: String,
    /// Seeks only: challenge this player.
    #[serde(default)]
    opponent: Option<i64>,
}

impl UseSeed {
    fn parse(&self) -> Result<(String, ClientSeed, Commitment), ApiError> {
        Ok((
            round_id(&self.seed_id)?,
            ClientSeed::parse_field(&self.client_seed, "client_seed")?,
            Commitment::parse_field(&self.commitment, "commitment")?,
        ))
    }
}

/// A game as one of its players sees it.
#[derive(Debug, Serialize)]
pub struct GameView {
    game_id: String,
    white: Option<String>,
    you: Option<String>,
    colour: Option<&'static str>,
    bot: bool,
    status: String,
}

fn game_view(row: &RoundRow) -> Result<GameView, ApiError> {
    let s: SeedState = load(&row.state)?;
    let colour = match (&s.white, &s.side) {
        (Some(w), Some(side)) => Some(if w == side { "white" } else { "black" }),
        _ => None,
    };
    Ok(GameView {
        game_id: seed_id(s.game.as_deref().unwrap_or(&row.id)).to_owned(),
        white: s.white,
        you: s.side,
        colour,
        bot: s.bot,
        status: row.status.clone(),
    })
}

/// Seeks an opponent (or challenges `opponent`) with a committed seed.
#[instrument(skip_all)]
pub async fn post_seek(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiJson(body): ApiJson<UseSeed>,
) -> Result<Json<Value>, ApiError> {
    let (id, client, shown) = body.parse()?;
    state
        .store()
        .update_rounds(vec![id], chess::seek(auth.id, shown, client, body.opponent))
        .await
        .map_err(not_found("chess seed"))?;
    Ok(Json(
        json!({"seek_id": body.seed_id, "opponent": body.opponent}),
    ))
}

/// Open seeks the caller may accept.
#[instrument(skip_all)]
pub async fn get_seeks(
    State(state): State<AppState>,
    auth: PlayerAuth,
) -> Result<Json<Value>, ApiError> {
    let ids = state
        .store()
        .rounds_with_status("chess", chess::SEEKING)
        .await?;
    let mut seeks = Vec::new();
    for id in ids.iter().take(200) {
        let Ok(row) = state.store().round(id).await else {
            continue;
        };
        let s: SeedState = load(&row.state)?;
        if s.owner != auth.id
            && s.opponent.is_none_or(|o| o == auth.id)
            && row.status == chess::SEEKING
        {
            seeks.push(json!({"seek_id": seed_id(&row.id), "commitment": row.commitment, "challenge": s.opponent.is_some()}));
        }
    }
    Ok(Json(json!({"seeks": seeks})))
}

/// Accepts a seek with the caller's committed seed: the colours are drawn.
#[instrument(skip_all)]
pub async fn post_accept(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(seek): ApiPath<String>,
    ApiJson(body): ApiJson<UseSeed>,
) -> Result<Json<GameView>, ApiError> {
    let (id, client, shown) = body.parse()?;
    let a = round_id(&seek)?;
    if a == id {
        return Err(ApiError::conflict(
            "own_seek",
            "a player cannot accept their own seek",
        ));
    }
    let updates = state
        .store()
        .update_rounds(vec![a, id], chess::accept(auth.id, shown, client))
        .await
        .map_err(not_found("seek"))?;
    let mine = updates
        .get(1)
        .ok_or_else(|| ApiError::internal("accept changed no round"))?;
    Ok(Json(game_view(&mine.row)?))
}

/// Starts a game against a bot.
#[instrument(skip_all)]
pub async fn post_bot(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiJson(body): ApiJson<UseSeed>,
) -> Result<Json<GameView>, ApiError> {
    let (id, client, shown) = body.parse()?;
    let updates = state
        .store()
        .update_rounds(vec![id], chess::bot(auth.id, shown, client))
        .await
        .map_err(not_found("chess seed"))?;
    let mine = updates
        .first()
        .ok_or_else(|| ApiError::internal("bot game changed no round"))?;
    Ok(Json(game_view(&mine.row)?))
}

/// The caller's side of a game (`game_id` is side A's seed id; either side's works).
async fn own_side(
    state: &AppState,
    auth: PlayerAuth,
    game: &str,
) -> Result<(RoundRow, SeedState), ApiError> {
    let a = state
        .store()
        .round(&round_id(game)?)
        .await
        .map_err(not_found("chess game"))?;
    let sa: SeedState = load(&a.state)?;
    if sa.owner == auth.id {
        return Ok((a, sa));
    }
    if let Some(other) = &sa.other {
        let b = state
            .store()
            .round(other)
            .await
            .map_err(not_found("chess game"))?;
        let sb: SeedState = load(&b.state)?;
        if sb.owner == auth.id {
            return Ok((b, sb));
        }
    }
    Err(ApiError::not_found("chess game"))
}

/// One game.
#[instrument(skip_all)]
pub async fn get_game(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(game): ApiPath<String>,
) -> Result<Json<GameView>, ApiError> {
    let (row, _) = own_side(&state, auth, &game).await?;
    Ok(Json(game_view(&row)?))
}

/// Ends the game: both seeds revealed, a `chess_colour_v1` record for each player.
#[instrument(skip_all)]
pub async fn post_finish(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(game): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let (row, side) = own_side(&state, auth, &game).await?;
    let a = side
        .game
        .clone()
        .ok_or_else(|| ApiError::conflict("wrong_status", "the seed is not in a game"))?;
    let ids = if side.bot {
        vec![a.clone()]
    } else {
        let other = side
            .other
            .clone()
            .ok_or_else(|| ApiError::internal("a paired seed without its opponent"))?;
        if side.side.as_deref() == Some("A") {
            vec![row.id.clone(), other]
        } else {
            vec![other, row.id.clone()]
        }
    };
    let updates: Vec<RoundUpdate> = state
        .store()
        .update_rounds(ids, chess::finish(auth.id))
        .await
        .map_err(not_found("chess game"))?;
    let mine = updates
        .iter()
        .flat_map(|u| &u.records)
        .find(|r| r.readers.contains(&auth.id))
        .cloned()
        .ok_or_else(|| ApiError::internal("finish stored no record for the caller"))?;
    let record: RecordView = mine.try_into()?;
    Ok(Json(json!({"game_id": seed_id(&a), "record": record})))
}

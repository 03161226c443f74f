//! Chess colours (`chess_colour_v1`) for players: `POST /v1/chess/seeds`,
//! `POST /v1/chess/seeks`, `GET /v1/chess/seeks`,
//! `POST /v1/chess/seeks/{id}/accept`, `POST /v1/chess/seeks/{id}/cancel`,
//! `POST /v1/chess/bot`, `GET /v1/chess/games/{id}`,
//! `POST /v1/chess/games/{id}/finish`.
//!
//! Every change is load → [`fairseed_play::chess`] (pure) → one versioned
//! commit; every answer is a view of the new state for the caller.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use fairseed_core::{ClientSeed, Commitment, ServerSeed};
use fairseed_play::chess::{self, Command, Event, Opponent, PairCommand, Seed, SeedPhase, Side};
use fairseed_play::Viewer;
use fairseed_store::{Commit, LoadedRound};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};
use tracing::instrument;

use crate::auth::PlayerAuth;
use crate::error::{ApiError, ApiPath};
use crate::handlers::keyed::Keyed;
use crate::idempotent::Answer;
use crate::rounds::chess::{self as rounds, round_id};
use crate::rounds::{now, player_exists};
use crate::state::AppState;
use crate::{secrets, step};

/// Commits a new chess seed for the caller's connection. Idempotent with
/// an `Idempotency-Key`.
#[instrument(skip_all)]
pub async fn post_seed(
    State(state): State<AppState>,
    auth: PlayerAuth,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    let secret = ServerSeed::from_bytes(secrets::random_bytes()?);
    let id = format!("c{}", &hex::encode(secrets::random_bytes()?)[..24]);
    let seed = Seed::new(id.clone(), auth.id, secret.commitment());
    let scope = step::player_scope(auth.id);
    let ran = keyed
        .run(&state, &scope, StatusCode::CREATED, &[], |_| {
            let commit = Commit {
                creates: vec![rounds::create(&seed, &secret)?],
                ..Commit::default()
            };
            let body = json!({"seed_id": id, "commitment": seed.commitment.to_hex()});
            Ok((commit, body.into(), ()))
        })
        .await?;
    Ok(ran.response())
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
            ClientSeed::parse_chosen(&self.client_seed, "client_seed")?,
            Commitment::parse_field(&self.commitment, "commitment")?,
        ))
    }
}

/// A decision over loaded seeds: the new seeds (in the order loaded) and
/// the events.
type Decided = (Vec<Seed>, Vec<Event>);

/// Runs a step over the seeds `ids` for the caller, idempotent under the
/// request's key: `decide` applies the rules to the loaded rounds, `answer`
/// is the caller's view of the outcome; the record, if any, is stored once,
/// with the first seed's write.
async fn step_seeds<B, A: Into<Answer>>(
    state: &AppState,
    auth: &PlayerAuth,
    keyed: &Keyed<B>,
    ids: &[String],
    what: &'static str,
    decide: impl Fn(&[LoadedRound], &[Seed]) -> Result<Decided, ApiError>,
    answer: impl Fn(&Decided) -> Result<A, ApiError>,
) -> Result<Response, ApiError> {
    let scope = step::player_scope(auth.id);
    let ran = keyed
        .run(state, &scope, StatusCode::OK, ids, |loaded| {
            let current = loaded
                .iter()
                .map(rounds::load)
                .collect::<Result<Vec<_>, _>>()?;
            let decided = decide(loaded, &current)?;
            let (next, events) = &decided;
            let writes = loaded
                .iter()
                .zip(next)
                .enumerate()
                .map(|(i, (round, seed))| rounds::write(round, seed, events, i == 0))
                .collect::<Result<_, _>>()?;
            let commit = Commit {
                writes,
                ..Commit::default()
            };
            Ok((commit, answer(&decided)?.into(), ()))
        })
        .await
        .map_err(|e| not_found(e, what))?;
    Ok(ran.response())
}

/// A decision applying the one-seed command `command` builds from the
/// seed's unsealed secret.
fn on_one(
    command: impl Fn(ServerSeed) -> Command,
) -> impl Fn(&[LoadedRound], &[Seed]) -> Result<Decided, ApiError> {
    move |loaded, current| {
        let command = command(rounds::secret(&loaded[0])?);
        let (next, events) = chess::apply(&current[0], command, now()).map_err(ApiError::rule)?;
        Ok((vec![next], events))
    }
}

/// A decision applying the two-seed command `command` builds from side A's
/// and side B's unsealed secrets.
fn on_pair(
    command: impl Fn([ServerSeed; 2]) -> PairCommand,
) -> impl Fn(&[LoadedRound], &[Seed]) -> Result<Decided, ApiError> {
    move |loaded, current| {
        let command = command([rounds::secret(&loaded[0])?, rounds::secret(&loaded[1])?]);
        let ((a, b), events) =
            chess::apply_pair(&current[0], &current[1], command, now()).map_err(ApiError::rule)?;
        Ok((vec![a, b], events))
    }
}

fn not_found(e: ApiError, what: &'static str) -> ApiError {
    if e.status() == StatusCode::NOT_FOUND {
        ApiError::not_found(what)
    } else {
        e
    }
}

/// The challenged player, looked up: a positive id of an existing account.
async fn opponent(state: &AppState, id: Option<i64>) -> Result<Option<Opponent>, ApiError> {
    let Some(id) = id else { return Ok(None) };
    if id <= 0 {
        return Err(ApiError::invalid(
            "opponent",
            format!("{id} is not a player id (ids are positive)"),
        ));
    }
    let exists = player_exists(state, id).await?;
    Ok(Some(Opponent { id, exists }))
}

/// Seeks an opponent (or challenges `opponent`) with a committed seed.
#[instrument(skip_all)]
pub async fn post_seek(
    State(state): State<AppState>,
    auth: PlayerAuth,
    keyed: Keyed<UseSeed>,
) -> Result<Response, ApiError> {
    let body = &keyed.body;
    let (id, client, shown) = body.parse()?;
    let opponent = opponent(&state, body.opponent).await?;
    let decide = on_one(|_| Command::Seek {
        player: auth.id,
        shown,
        client: client.clone(),
        opponent,
    });
    let answer = |(seeds, _): &Decided| {
        let expires_at = match &seeds[0].phase {
            SeedPhase::Seeking(seek) => Some(seek.expires_at().0),
            _ => None,
        };
        Ok(json!({"seek_id": body.seed_id, "opponent": body.opponent, "expires_at": expires_at}))
    };
    step_seeds(&state, &auth, &keyed, &[id], "chess seed", decide, answer).await
}

/// Open seeks the caller may accept now.
#[instrument(skip_all)]
pub async fn get_seeks(
    State(state): State<AppState>,
    auth: PlayerAuth,
) -> Result<Json<Value>, ApiError> {
    let ids = state
        .store()
        .rounds_with_status(rounds::KIND, rounds::SEEKING)
        .await?;
    let now = now();
    let mut seeks = Vec::new();
    // Newest first: seeks past their time stay listed in the store until
    // their owners withdraw them, and are all older than the open ones.
    for id in ids.iter().rev().take(200) {
        // A seek taken or withdrawn since the listing is simply not there.
        let Ok(loaded) = state.store().load_rounds(std::slice::from_ref(id)).await else {
            continue;
        };
        let seed = rounds::load(&loaded[0])?;
        if !seed.open_to(auth.id, now) {
            continue;
        }
        if let Some(v) = chess::view(&seed, Viewer::Player(auth.id)) {
            seeks.push(json!({"seek_id": v.seed_id, "commitment": v.commitment, "challenge": v.challenge, "expires_at": v.expires_at}));
        }
    }
    Ok(Json(json!({"seeks": seeks})))
}

/// The caller's view of the `me`-th seed of a step's outcome.
fn own_view(me: usize, player: i64) -> impl Fn(&Decided) -> Result<Value, ApiError> {
    move |(seeds, _)| {
        let view = chess::view(&seeds[me], Viewer::Player(player))
            .ok_or_else(|| ApiError::internal("an owner's seed out of view"))?;
        serde_json::to_value(view).map_err(ApiError::internal)
    }
}

/// The caller's view of the game of the `me`-th seed of a step's outcome.
fn game_answer(me: usize, player: i64) -> impl Fn(&Decided) -> Result<Value, ApiError> {
    move |(seeds, _)| {
        let other = if seeds.len() > 1 {
            seeds.get(1 - me)
        } else {
            None
        };
        let view = chess::game_view(&seeds[me], other, Viewer::Player(player))
            .ok_or_else(|| ApiError::internal("a player's game out of view"))?;
        serde_json::to_value(view).map_err(ApiError::internal)
    }
}

/// Withdraws the caller's committed or seeking seed: it is revealed.
#[instrument(skip_all)]
pub async fn post_cancel(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(seek): ApiPath<String>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    let id = round_id(&seek)?;
    let decide = on_one(|seed| Command::Cancel {
        player: auth.id,
        seed,
    });
    step_seeds(
        &state,
        &auth,
        &keyed,
        &[id],
        "chess seed",
        decide,
        own_view(0, auth.id),
    )
    .await
}

/// Accepts a seek with the caller's committed seed: the colours are drawn.
#[instrument(skip_all)]
pub async fn post_accept(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(seek): ApiPath<String>,
    keyed: Keyed<UseSeed>,
) -> Result<Response, ApiError> {
    let (id, client, shown) = keyed.body.parse()?;
    let a = round_id(&seek)?;
    let decide = on_pair(|seeds| PairCommand::Accept {
        player: auth.id,
        shown,
        client: client.clone(),
        seeds,
    });
    step_seeds(
        &state,
        &auth,
        &keyed,
        &[a, id],
        "seek",
        decide,
        game_answer(1, auth.id),
    )
    .await
}

/// Starts a game against a bot.
#[instrument(skip_all)]
pub async fn post_bot(
    State(state): State<AppState>,
    auth: PlayerAuth,
    keyed: Keyed<UseSeed>,
) -> Result<Response, ApiError> {
    let (id, client, shown) = keyed.body.parse()?;
    let decide = on_one(|seed| Command::Bot {
        player: auth.id,
        shown,
        client: client.clone(),
        seed,
    });
    step_seeds(
        &state,
        &auth,
        &keyed,
        &[id],
        "chess seed",
        decide,
        game_answer(0, auth.id),
    )
    .await
}

/// The rounds of the game `game` (either side's seed id): side A's, then
/// side B's unless a bot game.
async fn game_rounds(state: &AppState, game: &str) -> Result<Vec<String>, ApiError> {
    let id = round_id(game).map_err(|_| ApiError::not_found("chess game"))?;
    let loaded = state
        .store()
        .load_rounds(&[id])
        .await
        .map_err(|e| not_found(e.into(), "chess game"))?;
    let seed = rounds::load(&loaded[0])?;
    let pairing = match &seed.phase {
        SeedPhase::Playing(p) | SeedPhase::Finished { pairing: p, .. } => p,
        _ => return Err(ApiError::not_found("chess game")),
    };
    let a = round_id(&pairing.game)?;
    Ok(match (&pairing.other, pairing.side) {
        (None, _) => vec![a],
        (Some(_), Side::B) => vec![a, round_id(&seed.id)?],
        (Some(other), Side::A) => vec![a, round_id(other)?],
    })
}

/// One game, as the caller sees it.
#[instrument(skip_all)]
pub async fn get_game(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(game): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let ids = game_rounds(&state, &game).await?;
    let loaded = state.store().load_rounds(&ids).await?;
    let seeds = loaded
        .iter()
        .map(rounds::load)
        .collect::<Result<Vec<_>, _>>()?;
    let view = chess::game_view(&seeds[0], seeds.get(1), Viewer::Player(auth.id))
        .ok_or_else(|| ApiError::not_found("chess game"))?;
    let body = serde_json::to_value(view).map_err(ApiError::internal)?;
    let shown = crate::log::shown::round(loaded.iter().map(|r| &r.row));
    Ok(Json(state.with_shown_receipts(body, shown).await?))
}

/// Ends the game: both seeds revealed, one `chess_colour_v1` record both
/// players read.
#[instrument(skip_all)]
pub async fn post_finish(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiPath(game): ApiPath<String>,
    keyed: Keyed<IgnoredAny>,
) -> Result<Response, ApiError> {
    let ids = game_rounds(&state, &game).await?;
    let player = auth.id;
    let bot = on_one(|seed| Command::Finish { player, seed });
    let paired = on_pair(|seeds| PairCommand::Finish { player, seeds });
    let decide = |loaded: &[LoadedRound], current: &[Seed]| match current.len() {
        1 => bot(loaded, current),
        _ => paired(loaded, current),
    };
    let answer = |(seeds, events): &Decided| {
        let record = events
            .iter()
            .find_map(|e| match e {
                Event::Finished { record } => Some(record),
                _ => None,
            })
            .ok_or_else(|| ApiError::internal("finish made no record"))?;
        let game_id =
            chess::game_view(&seeds[0], seeds.get(1), Viewer::Operator).map(|g| g.game_id);
        Ok(Answer::from(
            json!({"game_id": game_id, "record": {"id": null, "scheme": record.scheme, "record": record.body}}),
        )
        .with_record_id_at("/record/id"))
    };
    step_seeds(&state, &auth, &keyed, &ids, "chess game", decide, answer).await
}

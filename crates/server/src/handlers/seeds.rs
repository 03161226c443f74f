//! `GET /v1/seeds`, `PUT /v1/seeds/client`, `POST /v1/seeds/rotate`,
//! `GET /v1/seeds/revealed`.

use axum::extract::State;
use axum::Json;
use fairseed_core::{ClientSeed, Commitment};
use fairseed_store::{RevealedPair, SeedPair};
use serde::{Deserialize, Serialize};
use tracing::instrument;

use crate::auth::PlayerAuth;
use crate::dice_records;
use crate::error::{ApiError, ApiJson, ApiQuery};
use crate::handlers::records::RecordView;
use crate::handlers::{next_before, PageQuery};
use crate::secrets;
use crate::state::AppState;

/// A current pair as the player sees it: never the server seed.
#[derive(Debug, Serialize)]
pub struct PairView {
    pair_id: i64,
    commitment: String,
    client_seed: String,
    next_nonce: u64,
}

impl From<SeedPair> for PairView {
    fn from(p: SeedPair) -> Self {
        Self {
            pair_id: p.id,
            commitment: p.commitment,
            client_seed: p.client_seed,
            next_nonce: p.next_nonce,
        }
    }
}

/// A revealed pair.
#[derive(Debug, Serialize)]
pub struct RevealedView {
    pair_id: i64,
    commitment: String,
    server_seed: String,
    client_seed: String,
    bets: u64,
}

impl From<RevealedPair> for RevealedView {
    fn from(p: RevealedPair) -> Self {
        Self {
            pair_id: p.id,
            commitment: p.commitment,
            server_seed: p.server_seed,
            client_seed: p.client_seed,
            bets: p.bets,
        }
    }
}

/// The current pair with the receipt of its commitment: a player who
/// reloads the page can still prove which commitment the service showed.
#[derive(Debug, Serialize)]
pub struct CurrentPairView {
    #[serde(flatten)]
    pair: PairView,
    /// The receipt of the pair's commitment entry (none if the pair was
    /// committed while the log was off).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    receipts: Vec<crate::log::Receipt>,
}

impl CurrentPairView {
    async fn of(state: &AppState, pair: SeedPair) -> Result<Self, ApiError> {
        let entries = state.store().pair_log_entries(pair.id).await?;
        Ok(Self {
            receipts: state.receipts(&entries).await?,
            pair: pair.into(),
        })
    }
}

/// The current pair.
#[instrument(skip_all)]
pub async fn get(
    State(state): State<AppState>,
    auth: PlayerAuth,
) -> Result<Json<CurrentPairView>, ApiError> {
    let pair = state.store().current_pair(auth.id).await?;
    Ok(Json(CurrentPairView::of(&state, pair).await?))
}

/// Body of `PUT /v1/seeds/client`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetClient {
    client_seed: String,
    commitment: String,
}

/// Sets the client seed before the pair's first bet, given the commitment shown.
#[instrument(skip_all)]
pub async fn put_client(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiJson(body): ApiJson<SetClient>,
) -> Result<Json<CurrentPairView>, ApiError> {
    let client = ClientSeed::parse_chosen(&body.client_seed, "client_seed")?;
    let commitment = Commitment::parse_field(&body.commitment, "commitment")?;
    let commitment = commitment.to_hex();
    let current = state.store().current_pair(auth.id).await?;
    client_seed_changeable(&current, &commitment)?;
    match state
        .store()
        .set_client_seed(auth.id, &commitment, client.as_str())
        .await?
    {
        Some(pair) => Ok(Json(CurrentPairView::of(&state, pair).await?)),
        // A bet or a rotation got in between: say which.
        None => {
            let now = state.store().current_pair(auth.id).await?;
            client_seed_changeable(&now, &commitment)?;
            Err(ApiError::internal("the client seed did not change"))
        }
    }
}

/// A client seed changes only on the pair the player saw (`commitment`),
/// before its first bet: a roll never depends on a seed chosen after it.
fn client_seed_changeable(pair: &SeedPair, commitment: &str) -> Result<(), ApiError> {
    if pair.commitment != commitment {
        return Err(ApiError::conflict(
            crate::error::ErrorCode::COMMITMENT_MISMATCH,
            format!(
                "commitment: '{commitment}' is not the current pair's commitment '{}'; fetch the pair again",
                pair.commitment
            ),
        ));
    }
    if pair.next_nonce > 0 {
        return Err(ApiError::conflict(
            crate::error::ErrorCode::ClientSeedLocked,
            format!(
                "client_seed: the pair already carries {} bet(s); rotate the pair to choose a new client seed",
                pair.next_nonce
            ),
        ));
    }
    Ok(())
}

/// The answer to a rotation.
#[derive(Debug, Serialize)]
pub struct Rotated {
    revealed: RevealedView,
    /// The first records stored (at most `fairseed_store::ROTATION_PAGE`):
    /// an answer listing every record would grow with the pair's bets.
    records: Vec<RecordView>,
    /// How many records the rotation stored; all are in `/v1/records`.
    record_count: u64,
    seed_pair: PairView,
    /// The receipts of the reveal and of the new pair's commitment.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    receipts: Vec<crate::log::Receipt>,
}

/// Reveals the current pair with its records and commits a new one.
#[instrument(skip_all)]
pub async fn rotate(
    State(state): State<AppState>,
    auth: PlayerAuth,
) -> Result<Json<Rotated>, ApiError> {
    let next = secrets::new_seed_pair()?;
    let rotation = state
        .store()
        .rotate(auth.id, next, Box::new(dice_records::build))
        .await?;
    tracing::info!(
        player = auth.id,
        pair = rotation.revealed.id,
        bets = rotation.revealed.bets,
        "seed pair rotated"
    );
    Ok(Json(Rotated {
        revealed: rotation.revealed.into(),
        records: rotation
            .first_records
            .into_iter()
            .map(RecordView::try_from)
            .collect::<Result<_, _>>()?,
        record_count: rotation.record_count,
        receipts: state
            .receipts(&[rotation.appended, rotation.current.appended.clone()].concat())
            .await?,
        seed_pair: rotation.current.into(),
    }))
}

/// A page of revealed pairs.
#[derive(Debug, Serialize)]
pub struct RevealedPage {
    pairs: Vec<RevealedView>,
    next_before: Option<i64>,
}

/// The player's revealed pairs, newest first.
#[instrument(skip_all)]
pub async fn revealed(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> Result<Json<RevealedPage>, ApiError> {
    let page = query.page()?;
    let pairs = state.store().revealed_pairs(auth.id, page).await?;
    let next_before = next_before(&pairs, page, |p| p.id);
    Ok(Json(RevealedPage {
        pairs: pairs.into_iter().map(Into::into).collect(),
        next_before,
    }))
}

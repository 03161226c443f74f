//! `POST /v1/dice/bets`, `GET /v1/dice/bets`.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_core::dice::{Bet, Condition};
use fairseed_core::ServerSeed;
use fairseed_play::dice;
use fairseed_store::{BetDraw, BetRequest, BetRow, Refusal, SettleFn, Settled, StoreError};
use serde::{Deserialize, Serialize};
use tracing::instrument;

use crate::auth::PlayerAuth;
use crate::error::{ApiError, ApiJson, ApiQuery};
use crate::events::Audience;
use crate::handlers::next_before;
use crate::log::Receipt;
use crate::state::AppState;

/// Body of a bet.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewBet {
    amount: u64,
    condition: String,
    target: u16,
}

/// A bet as the player sees it.
#[derive(Debug, Serialize)]
pub struct BetView {
    bet_id: i64,
    pair_id: i64,
    nonce: u64,
    roll: u16,
    win: bool,
    payout: u128,
    balance: u128,
    amount: u64,
    condition: &'static str,
    target: u16,
    /// The receipt of the bet's outcome entry (absent in lists and replays).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    receipts: Vec<Receipt>,
}

impl From<BetRow> for BetView {
    fn from(b: BetRow) -> Self {
        Self {
            bet_id: b.id,
            pair_id: b.pair_id,
            nonce: b.nonce,
            roll: b.roll,
            win: b.win,
            payout: b.payout,
            balance: b.balance_after,
            amount: b.amount,
            condition: b.condition.as_str(),
            target: b.target,
            receipts: Vec::new(),
        }
    }
}

/// The `Idempotency-Key` header: 1..128 visible ASCII characters.
pub(crate) fn idempotency_key(headers: &HeaderMap) -> Result<String, ApiError> {
    let value = headers
        .get("idempotency-key")
        .ok_or_else(|| ApiError::bad_request("Idempotency-Key: header is required"))?;
    let key = value
        .to_str()
        .ok()
        .filter(|k| (1..=128).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()))
        .ok_or_else(|| {
            ApiError::bad_request("Idempotency-Key: expected 1 to 128 visible ASCII characters")
        })?;
    Ok(key.to_owned())
}

/// Places a bet; the answer is sent only after it is durable.
#[instrument(skip_all)]
pub async fn post(
    State(state): State<AppState>,
    auth: PlayerAuth,
    headers: HeaderMap,
    ApiJson(body): ApiJson<NewBet>,
) -> Result<Response, ApiError> {
    let key = idempotency_key(&headers)?;
    let condition = Condition::parse_field(&body.condition, "condition")?;
    let bet = Bet::new(body.amount, condition, body.target)?;
    let receipt = state
        .store()
        .place_bet(BetRequest {
            player_id: auth.id,
            idempotency_key: key.clone(),
            amount: bet.amount(),
            condition: bet.condition(),
            target: bet.target(),
            settle: settle(bet),
        })
        .await?;
    if receipt.replayed {
        same_bet(&receipt.bet, &bet, &key)?;
    }
    let receipts = state.receipts(&receipt.appended).await?;
    let mut view = BetView::from(receipt.bet);
    // The event is the bet as listed, without its receipt: the receipt is
    // the answer's, and on PostgreSQL every event goes to every process,
    // where a kilobyte of receipt per bet would travel for nobody.
    if !receipt.replayed && state.events().wanted("dice") {
        if let Ok(body) = serde_json::to_value(&view) {
            state
                .events()
                .publish("dice", Audience::Player(auth.id), body);
        }
    }
    view.receipts = receipts;
    let mut response = Json(view).into_response();
    if receipt.replayed {
        response
            .headers_mut()
            .insert("idempotency-replayed", HeaderValue::from_static("true"));
    }
    Ok(response)
}

/// Settles `bet` inside the bet's transaction by the play crate's rules
/// (`fairseed_play::dice`), a refusal as the store's stable code.
fn settle(bet: Bet) -> SettleFn {
    Box::new(move |draw: BetDraw<'_>| {
        let server_seed = ServerSeed::parse(draw.server_seed.expose())
            .map_err(|_| StoreError::other("a stored server seed does not parse"))?;
        let draw = dice::Draw {
            server_seed: &server_seed,
            client_seed: draw.client_seed,
            nonce: draw.nonce,
            balance: draw.balance,
        };
        let settled = dice::settle(&bet, draw).map_err(|e| match e {
            dice::Error::InsufficientBalance { .. } => {
                StoreError::conflict(Refusal::InsufficientBalance, e.to_string())
            }
            dice::Error::NonceExhausted => {
                StoreError::conflict(Refusal::NonceExhausted, e.to_string())
            }
            dice::Error::BalanceOverflow => StoreError::other(e),
        })?;
        Ok(Settled {
            roll: settled.roll,
            win: settled.win,
            payout: settled.payout,
            balance_after: settled.balance_after,
        })
    })
}

/// A retried key must carry the bet it was first used for.
fn same_bet(first: &BetRow, bet: &Bet, key: &str) -> Result<(), ApiError> {
    if dice::is_same_bet(bet, first.amount, first.condition, first.target) {
        Ok(())
    } else {
        Err(ApiError::conflict(
            crate::error::ErrorCode::IdempotencyKeyReused,
            format!(
                "Idempotency-Key '{key}' was already used for a different bet (bet {})",
                first.id
            ),
        ))
    }
}

/// `?pair_id=&before=&limit=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BetsQuery {
    pair_id: Option<i64>,
    before: Option<i64>,
    limit: Option<u32>,
}

/// A page of bets.
#[derive(Debug, Serialize)]
pub struct BetsPage {
    bets: Vec<BetView>,
    next_before: Option<i64>,
}

/// The player's bets, newest first.
#[instrument(skip_all)]
pub async fn index(
    State(state): State<AppState>,
    auth: PlayerAuth,
    ApiQuery(query): ApiQuery<BetsQuery>,
) -> Result<Json<BetsPage>, ApiError> {
    let page = crate::handlers::PageQuery {
        before: query.before,
        limit: query.limit,
    }
    .page()?;
    let bets = state.store().bets(auth.id, query.pair_id, page).await?;
    let next_before = next_before(&bets, page, |b| b.id);
    Ok(Json(BetsPage {
        bets: bets.into_iter().map(Into::into).collect(),
        next_before,
    }))
}

#[cfg(test)]
mod tests {
    use fairseed_core::dice::MAX_NONCE;
    use fairseed_store::SecretSeed;

    use super::*;

    fn refusal(result: Result<Settled, StoreError>) -> &'static str {
        match result {
            Err(StoreError::Conflict { code, .. }) => code.code(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    /// The play crate's refusals reach the store as its stable codes.
    #[test]
    fn refusals_keep_their_codes() {
        let seed = SecretSeed::new("ab".repeat(32));
        let draw = |nonce, balance| BetDraw {
            server_seed: &seed,
            client_seed: "client",
            nonce,
            balance,
        };
        let bet = Bet::new(101, Condition::Under, 5000).expect("bet");
        assert_eq!(refusal(settle(bet)(draw(0, 100))), "insufficient_balance");
        assert_eq!(
            refusal(settle(bet)(draw(MAX_NONCE + 1, 1000))),
            "nonce_exhausted"
        );
        assert!(settle(bet)(draw(MAX_NONCE, 101)).is_ok());
    }
}

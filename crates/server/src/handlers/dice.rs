//! `POST /v1/dice/bets`, `GET /v1/dice/bets`.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use fairseed_core::dice::{Bet, Condition, DiceKey, MAX_NONCE};
use fairseed_core::ServerSeed;
use fairseed_store::{BetDraw, BetRequest, BetRow, SettleFn, Settled, StoreError};
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

/// Settles `bet` on the pair's next nonce, inside the bet's transaction:
/// the balance must cover the stake and the pair must have a nonce left
/// (docs/spec.md §8.1 stops at 2^53 − 1); then the core rolls and pays.
fn settle(bet: Bet) -> SettleFn {
    Box::new(move |draw: BetDraw<'_>| {
        let amount = u128::from(bet.amount());
        if amount > draw.balance {
            return Err(StoreError::conflict(
                fairseed_store::Refusal::InsufficientBalance,
                format!("amount: {amount} is more than the balance {}", draw.balance),
            ));
        }
        if draw.nonce > MAX_NONCE {
            return Err(StoreError::conflict(
                fairseed_store::Refusal::NonceExhausted,
                "the seed pair has used every nonce; rotate it",
            ));
        }
        let seed = ServerSeed::parse(draw.server_seed.expose())
            .map_err(|_| StoreError::other("a stored server seed does not parse"))?;
        let roll = DiceKey::new(&seed).roll(draw.client_seed, draw.nonce);
        let s = bet.settle(roll);
        let balance_after = (draw.balance - amount)
            .checked_add(s.payout)
            .ok_or_else(|| StoreError::other("balance arithmetic overflowed"))?;
        Ok(Settled {
            roll,
            win: s.win,
            payout: s.payout,
            balance_after,
        })
    })
}

/// A retried key must carry the bet it was first used for.
fn same_bet(first: &BetRow, bet: &Bet, key: &str) -> Result<(), ApiError> {
    let same = first.amount == bet.amount()
        && first.condition == bet.condition()
        && first.target == bet.target();
    if same {
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
    use fairseed_store::SecretSeed;
    use proptest::prelude::*;

    use super::*;

    fn draw(seed: &SecretSeed, nonce: u64, balance: u128) -> BetDraw<'_> {
        BetDraw {
            server_seed: seed,
            client_seed: "client",
            nonce,
            balance,
        }
    }

    fn refusal(result: Result<Settled, StoreError>) -> &'static str {
        match result {
            Err(StoreError::Conflict { code, .. }) => code.code(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_stake_above_the_balance_is_refused() {
        let seed = SecretSeed::new("ab".repeat(32));
        let bet = Bet::new(101, Condition::Under, 5000).expect("bet");
        assert_eq!(
            refusal(settle(bet)(draw(&seed, 0, 100))),
            "insufficient_balance"
        );
        assert!(
            settle(bet)(draw(&seed, 0, 101)).is_ok(),
            "the whole balance"
        );
    }

    #[test]
    fn the_last_nonce_settles_and_the_next_is_refused() {
        let seed = SecretSeed::new("ab".repeat(32));
        let bet = Bet::new(1, Condition::Over, 5000).expect("bet");
        assert!(settle(bet)(draw(&seed, (1 << 53) - 1, 10)).is_ok());
        assert_eq!(
            refusal(settle(bet)(draw(&seed, 1 << 53, 10))),
            "nonce_exhausted"
        );
    }

    proptest! {
        /// Whatever the roll: the win follows the condition, a loss pays
        /// nothing, a win pays at most 9900/chance times the stake, and the
        /// balance moves by exactly payout − stake.
        #[test]
        fn settlement_keeps_the_books(
            seed in "[0-9a-f]{64}",
            nonce in 0u64..1_000_000,
            amount in 1u64..1_000_000,
            extra in 0u128..1_000_000,
            under in any::<bool>(),
            target in 200u16..9800,
        ) {
            let condition = if under { Condition::Under } else { Condition::Over };
            let bet = Bet::new(amount, condition, target).expect("bet");
            let seed = SecretSeed::new(seed);
            let balance = u128::from(amount) + extra;
            let s = settle(bet)(draw(&seed, nonce, balance)).expect("settles");
            let wins = if under { s.roll < target } else { s.roll > target };
            prop_assert_eq!(s.win, wins);
            prop_assert!(s.roll <= 9999);
            let chance = if under { u128::from(target) } else { 9999 - u128::from(target) };
            if s.win {
                prop_assert!(s.payout * chance <= u128::from(amount) * 9900);
                prop_assert!((s.payout + 1) * chance > u128::from(amount) * 9900);
            } else {
                prop_assert_eq!(s.payout, 0);
            }
            prop_assert_eq!(s.balance_after + u128::from(amount), balance + s.payout);
        }
    }
}

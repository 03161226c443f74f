//! The decisions of each transaction, shared by both backends so SQLite and
//! PostgreSQL refuse and accept exactly the same things.

use crate::error::{StoreError, StoreResult};
use crate::types::{BetReceipt, BetRequest, BetRow, SeedPair, Settled};

/// The largest nonce docs/spec.md §8.1 allows (2^53 − 1).
pub(crate) const MAX_NONCE: u64 = (1 << 53) - 1;

/// A retried idempotency key: the first answer if the bet is the same,
/// a conflict if the key is reused for a different bet.
pub(crate) fn replay(existing: BetRow, req: &BetRequest) -> StoreResult<BetReceipt> {
    if existing.amount == req.amount
        && existing.condition == req.condition
        && existing.target == req.target
    {
        Ok(BetReceipt {
            bet: existing,
            replayed: true,
        })
    } else {
        Err(StoreError::conflict(
            "idempotency_key_reused",
            format!(
                "Idempotency-Key '{}' was already used for a different bet (bet {})",
                req.idempotency_key, existing.id
            ),
        ))
    }
}

/// Refuses a bet the balance or the pair cannot carry.
pub(crate) fn check_bet(balance: u128, amount: u64, next_nonce: u64) -> StoreResult<()> {
    if u128::from(amount) > balance {
        return Err(StoreError::conflict(
            "insufficient_balance",
            format!("amount: {amount} is more than the balance {balance}"),
        ));
    }
    if next_nonce > MAX_NONCE {
        return Err(StoreError::conflict(
            "nonce_exhausted",
            "the seed pair has used every nonce; rotate it",
        ));
    }
    Ok(())
}

/// The balance after a settled bet.
pub(crate) fn balance_after(balance: u128, amount: u64, settled: Settled) -> StoreResult<u128> {
    balance
        .checked_sub(u128::from(amount))
        .and_then(|b| b.checked_add(settled.payout))
        .ok_or_else(|| StoreError::other("balance arithmetic overflowed"))
}

/// Refuses a client-seed change the pair no longer allows.
pub(crate) fn check_client_seed_change(pair: &SeedPair, commitment: &str) -> StoreResult<()> {
    if pair.commitment != commitment {
        return Err(StoreError::conflict(
            "commitment_mismatch",
            format!(
                "commitment: '{commitment}' is not the current pair's commitment '{}'; fetch the pair again",
                pair.commitment
            ),
        ));
    }
    if pair.next_nonce > 0 {
        return Err(StoreError::conflict(
            "client_seed_locked",
            format!(
                "client_seed: the pair already carries {} bet(s); rotate the pair to choose a new client seed",
                pair.next_nonce
            ),
        ));
    }
    Ok(())
}

/// Converts a stored nonce/amount (signed in SQL) back to `u64`.
pub(crate) fn to_u64(v: i64, what: &str) -> StoreResult<u64> {
    u64::try_from(v).map_err(|_| StoreError::other(format!("stored {what} {v} is negative")))
}

/// Converts a `u64` that docs/spec.md §10.9 bounds to 2^53 − 1 into SQL's `i64`.
pub(crate) fn to_i64(v: u64, what: &str) -> StoreResult<i64> {
    i64::try_from(v)
        .map_err(|_| StoreError::other(format!("{what} {v} does not fit a database integer")))
}

/// Parses a stored decimal amount.
pub(crate) fn parse_u128(text: &str, what: &str) -> StoreResult<u128> {
    text.parse()
        .map_err(|_| StoreError::other(format!("stored {what} '{text}' is not an integer")))
}

/// Converts a stored small integer.
pub(crate) fn to_u16(v: i64, what: &str) -> StoreResult<u16> {
    u16::try_from(v).map_err(|_| StoreError::other(format!("stored {what} {v} is out of range")))
}

/// A page size clamped to something sane.
pub(crate) fn limit(limit: u32) -> i64 {
    i64::from(limit.clamp(1, 1000))
}

/// Refuses a multi-round step naming a round twice.
pub(crate) fn distinct(ids: &[String]) -> StoreResult<()> {
    let set: std::collections::BTreeSet<&String> = ids.iter().collect();
    if set.len() == ids.len() {
        Ok(())
    } else {
        Err(StoreError::conflict(
            "duplicate_round",
            "a step names the same round twice",
        ))
    }
}

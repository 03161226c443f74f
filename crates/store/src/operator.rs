//! Players the operator creates for its own users: each is found by the
//! operator's id for that user (`external_id`), holds a token the operator
//! can replace or revoke, and receives free play chips only as grants, one
//! ledger row each. Nothing buys, converts or transfers chips.

use crate::error::{Refusal, StoreError, StoreResult};
use crate::tx::{SealedPair, Tx};

/// A revoked token's stored hash: never the SHA-256 hex of any token, and
/// unique per player (the column is `UNIQUE`).
pub(crate) fn revoked_hash(player_id: i64) -> String {
    format!("revoked:{player_id}")
}

/// An operator's player as found or created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorPlayer {
    /// The player's id in this service.
    pub player_id: i64,
    /// Chips now.
    pub balance: u128,
    /// Whether this call created it.
    pub created: bool,
}

/// One grant of free play chips.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChipGrant {
    /// The grant's id.
    pub id: i64,
    /// The player credited.
    pub player_id: i64,
    /// Chips granted.
    pub amount: u128,
    /// The balance right after this grant.
    pub balance_after: u128,
}

/// A retried grant must ask for the same amount as the first.
pub(crate) fn same_grant(earlier: u128, asked: u128) -> StoreResult<()> {
    if earlier == asked {
        Ok(())
    } else {
        Err(StoreError::conflict(
            Refusal::IdempotencyMismatch,
            format!("this grant key already granted {earlier} chips, not {asked}"),
        ))
    }
}

/// The balance after crediting `amount`.
pub(crate) fn credited(balance: u128, amount: u128) -> StoreResult<u128> {
    balance.checked_add(amount).ok_or_else(|| {
        StoreError::conflict(Refusal::BalanceOverflow, "the balance would pass 2^128 - 1")
    })
}

/// What an operator player is now, found by its id.
async fn existing<T: Tx>(tx: &mut T, player_id: i64) -> StoreResult<OperatorPlayer> {
    let player = crate::accounts::player(tx, player_id, false).await?;
    Ok(OperatorPlayer {
        player_id,
        balance: player.balance,
        created: false,
    })
}

/// Finds `external_id`'s player, or creates it with `token_hash`, `balance`
/// and its first seed pair. A concurrent creation of the same id makes the
/// insert fail with `operator_player_race`; the caller rolls back and finds
/// the winner with [`find`].
pub(crate) async fn find_or_create<T: Tx>(
    tx: &mut T,
    external_id: &str,
    token_hash: &str,
    balance: u128,
    pair: &SealedPair,
    now: i64,
) -> StoreResult<OperatorPlayer> {
    if let Some(id) = tx.operator_player_id(external_id, false).await? {
        return existing(tx, id).await;
    }
    let (player, _) = crate::accounts::create_player(tx, token_hash, balance, pair, now).await?;
    if !tx
        .insert_operator_player(external_id, player.id, now)
        .await?
    {
        return Err(StoreError::conflict(
            RACE,
            "another process created this player first",
        ));
    }
    Ok(OperatorPlayer {
        player_id: player.id,
        balance: player.balance,
        created: true,
    })
}

/// The refusal [`find_or_create`] answers when it lost a creation race.
pub(crate) const RACE: Refusal = Refusal::OperatorPlayerRace;

/// `external_id`'s player, which must exist.
pub(crate) async fn find<T: Tx>(tx: &mut T, external_id: &str) -> StoreResult<OperatorPlayer> {
    let id = tx
        .operator_player_id(external_id, false)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    existing(tx, id).await
}

/// Replaces (or with `None` revokes) the token; the player id and the old hash.
pub(crate) async fn set_token<T: Tx>(
    tx: &mut T,
    external_id: &str,
    token_hash: Option<&str>,
) -> StoreResult<(i64, String)> {
    let id = tx
        .operator_player_id(external_id, true)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    let new = token_hash.map_or_else(|| revoked_hash(id), str::to_owned);
    let old = tx.replace_token_hash(id, &new).await?;
    Ok((id, old))
}

/// Credits `amount` once per `key`; a retry returns the first grant.
pub(crate) async fn grant<T: Tx>(
    tx: &mut T,
    external_id: &str,
    key: &str,
    amount: u128,
    now: i64,
) -> StoreResult<ChipGrant> {
    let id = tx
        .operator_player_id(external_id, false)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    let balance = crate::accounts::player(tx, id, true).await?.balance;
    if let Some((grant_id, earlier, after)) = tx.chip_grant(id, key).await? {
        let earlier = crate::convert::parse_u128(&earlier, "amount")?;
        let after = crate::convert::parse_u128(&after, "balance_after")?;
        same_grant(earlier, amount)?;
        return Ok(ChipGrant {
            id: grant_id,
            player_id: id,
            amount: earlier,
            balance_after: after,
        });
    }
    let after = credited(balance, amount)?;
    tx.set_balance(id, after).await?;
    let grant_id = tx.insert_chip_grant(id, key, amount, after, now).await?;
    Ok(ChipGrant {
        id: grant_id,
        player_id: id,
        amount,
        balance_after: after,
    })
}

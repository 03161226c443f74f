//! Players the operator creates for its own users: each is found by the
//! operator's id for that user (`external_id`), holds a token the operator
//! can replace or revoke, and receives free play chips only as grants, one
//! ledger row each. Nothing buys, converts or transfers chips.

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
pub(crate) fn same_grant(earlier: u128, asked: u128) -> crate::StoreResult<()> {
    if earlier == asked {
        Ok(())
    } else {
        Err(crate::StoreError::conflict(
            "idempotency_mismatch",
            format!("this grant key already granted {earlier} chips, not {asked}"),
        ))
    }
}

/// The balance after crediting `amount`.
pub(crate) fn credited(balance: u128, amount: u128) -> crate::StoreResult<u128> {
    balance.checked_add(amount).ok_or_else(|| {
        crate::StoreError::conflict("balance_overflow", "the balance would pass 2^128 - 1")
    })
}

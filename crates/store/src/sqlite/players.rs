//! Operator-created players and chip grants on SQLite (see [`crate::operator`]).

use rusqlite::{params, Connection, OptionalExtension};

use super::queries::{self, SealedPair};
use crate::error::{StoreError, StoreResult};
use crate::operator::{revoked_hash, ChipGrant, OperatorPlayer};
use crate::plan::parse_u128;
use crate::time::now_ms;

fn player_id(c: &Connection, external_id: &str) -> StoreResult<Option<i64>> {
    Ok(
        c.prepare_cached("SELECT player_id FROM operator_players WHERE external_id = ?1")?
            .query_row(params![external_id], |r| r.get(0))
            .optional()?,
    )
}

/// Finds `external_id`'s player, or creates it with `token_hash` and `pair`.
pub(crate) fn find_or_create(
    c: &Connection,
    external_id: &str,
    token_hash: &str,
    balance: u128,
    pair: &SealedPair,
) -> StoreResult<OperatorPlayer> {
    if let Some(id) = player_id(c, external_id)? {
        let player = queries::player(c, id)?;
        return Ok(OperatorPlayer {
            player_id: id,
            balance: player.balance,
            created: false,
        });
    }
    let (player, _) = queries::create_player(c, token_hash, balance, pair)?;
    c.prepare_cached(
        "INSERT INTO operator_players (external_id, player_id, created_at) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![external_id, player.id, now_ms()])?;
    Ok(OperatorPlayer {
        player_id: player.id,
        balance: player.balance,
        created: true,
    })
}

/// Replaces (or with `None` revokes) the token; the player id and the old hash.
pub(crate) fn set_token(
    c: &Connection,
    external_id: &str,
    token_hash: Option<&str>,
) -> StoreResult<(i64, String)> {
    let id = player_id(c, external_id)?.ok_or(StoreError::NotFound("player"))?;
    let old: String = c
        .prepare_cached("SELECT token_hash FROM players WHERE id = ?1")?
        .query_row(params![id], |r| r.get(0))?;
    let new = token_hash.map_or_else(|| revoked_hash(id), str::to_owned);
    c.prepare_cached("UPDATE players SET token_hash = ?1 WHERE id = ?2")?
        .execute(params![new, id])?;
    Ok((id, old))
}

/// Credits `amount` once per `key`; a retry returns the first grant.
pub(crate) fn grant(
    c: &Connection,
    external_id: &str,
    key: &str,
    amount: u128,
) -> StoreResult<ChipGrant> {
    let id = player_id(c, external_id)?.ok_or(StoreError::NotFound("player"))?;
    let earlier = c
        .prepare_cached(
            "SELECT id, amount, balance_after FROM chip_grants WHERE player_id = ?1 AND grant_key = ?2",
        )?
        .query_row(params![id, key], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
        })
        .optional()?;
    if let Some((grant_id, earlier_amount, after)) = earlier {
        let earlier_amount = parse_u128(&earlier_amount, "amount")?;
        crate::operator::same_grant(earlier_amount, amount)?;
        return Ok(ChipGrant {
            id: grant_id,
            player_id: id,
            amount: earlier_amount,
            balance_after: parse_u128(&after, "balance_after")?,
        });
    }
    let after = crate::operator::credited(queries::player(c, id)?.balance, amount)?;
    c.prepare_cached("UPDATE players SET balance = ?1 WHERE id = ?2")?
        .execute(params![after.to_string(), id])?;
    c.prepare_cached(
        "INSERT INTO chip_grants (player_id, grant_key, amount, balance_after, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        id,
        key,
        amount.to_string(),
        after.to_string(),
        now_ms()
    ])?;
    Ok(ChipGrant {
        id: c.last_insert_rowid(),
        player_id: id,
        amount,
        balance_after: after,
    })
}

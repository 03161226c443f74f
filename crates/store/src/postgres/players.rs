//! Operator-created players and chip grants on PostgreSQL (see [`crate::operator`]).

use sqlx::{PgConnection, PgPool};

use super::queries;
use crate::error::{StoreError, StoreResult};
use crate::operator::{credited, revoked_hash, same_grant, ChipGrant, OperatorPlayer};
use crate::plan::parse_u128;
use crate::time::now_ms;
use crate::types::NewSeedPair;

async fn player_id(
    c: &mut PgConnection,
    external_id: &str,
    lock: bool,
) -> StoreResult<Option<i64>> {
    let sql = if lock {
        "SELECT player_id FROM operator_players WHERE external_id = $1 FOR UPDATE"
    } else {
        "SELECT player_id FROM operator_players WHERE external_id = $1"
    };
    Ok(sqlx::query_scalar(sql)
        .bind(external_id)
        .fetch_optional(&mut *c)
        .await?)
}

async fn existing(c: &mut PgConnection, id: i64) -> StoreResult<OperatorPlayer> {
    let player = queries::player(&mut *c, id, false).await?;
    Ok(OperatorPlayer {
        player_id: id,
        balance: player.balance,
        created: false,
    })
}

/// Finds `external_id`'s player, or creates it (a concurrent creation of
/// the same id wins the race and is returned).
pub(crate) async fn find_or_create(
    pool: &PgPool,
    external_id: &str,
    token_hash: &str,
    balance: u128,
    pair: &NewSeedPair,
    sealed: &[u8],
) -> StoreResult<OperatorPlayer> {
    let mut tx = pool.begin().await?;
    if let Some(id) = player_id(&mut tx, external_id, false).await? {
        return existing(&mut tx, id).await;
    }
    let (player, _) = queries::create_player(&mut tx, token_hash, balance, pair, sealed).await?;
    let inserted: Option<i64> = sqlx::query_scalar(
        "INSERT INTO operator_players (external_id, player_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (external_id) DO NOTHING RETURNING player_id",
    )
    .bind(external_id)
    .bind(player.id)
    .bind(now_ms())
    .fetch_optional(&mut *tx)
    .await?;
    if inserted.is_none() {
        tx.rollback().await?;
        let mut c = pool.acquire().await?;
        let id = player_id(&mut c, external_id, false)
            .await?
            .ok_or(StoreError::NotFound("player"))?;
        return existing(&mut c, id).await;
    }
    tx.commit().await?;
    Ok(OperatorPlayer {
        player_id: player.id,
        balance: player.balance,
        created: true,
    })
}

/// Replaces (or with `None` revokes) the token; the player id and the old hash.
pub(crate) async fn set_token(
    pool: &PgPool,
    external_id: &str,
    token_hash: Option<&str>,
) -> StoreResult<(i64, String)> {
    let mut tx = pool.begin().await?;
    let id = player_id(&mut tx, external_id, true)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    let old: String = sqlx::query_scalar("SELECT token_hash FROM players WHERE id = $1 FOR UPDATE")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    let new = token_hash.map_or_else(|| revoked_hash(id), str::to_owned);
    sqlx::query("UPDATE players SET token_hash = $1 WHERE id = $2")
        .bind(new)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok((id, old))
}

/// Credits `amount` once per `key`; a retry returns the first grant.
pub(crate) async fn grant(
    pool: &PgPool,
    external_id: &str,
    key: &str,
    amount: u128,
) -> StoreResult<ChipGrant> {
    let mut tx = pool.begin().await?;
    let id = player_id(&mut tx, external_id, false)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    let balance = queries::player(&mut *tx, id, true).await?.balance;
    let earlier: Option<(i64, String, String)> = sqlx::query_as(
        "SELECT id, amount::text, balance_after::text FROM chip_grants
         WHERE player_id = $1 AND grant_key = $2",
    )
    .bind(id)
    .bind(key)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((grant_id, earlier_amount, after)) = earlier {
        let earlier_amount = parse_u128(&earlier_amount, "amount")?;
        same_grant(earlier_amount, amount)?;
        return Ok(ChipGrant {
            id: grant_id,
            player_id: id,
            amount: earlier_amount,
            balance_after: parse_u128(&after, "balance_after")?,
        });
    }
    let after = credited(balance, amount)?;
    sqlx::query("UPDATE players SET balance = $1::numeric WHERE id = $2")
        .bind(after.to_string())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let grant_id: i64 = sqlx::query_scalar(
        "INSERT INTO chip_grants (player_id, grant_key, amount, balance_after, created_at)
         VALUES ($1, $2, $3::numeric, $4::numeric, $5) RETURNING id",
    )
    .bind(id)
    .bind(key)
    .bind(amount.to_string())
    .bind(after.to_string())
    .bind(now_ms())
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(ChipGrant {
        id: grant_id,
        player_id: id,
        amount,
        balance_after: after,
    })
}

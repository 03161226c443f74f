//! The SQL of every operation on PostgreSQL. Functions taking a
//! `PgConnection` run inside the caller's transaction.

use sqlx::postgres::{PgPool, PgRow};
use sqlx::{PgConnection, Row};

use crate::error::{StoreError, StoreResult};
use crate::plan;
use crate::rounds;
use crate::seal::SeedCipher;
use crate::time::now_ms;
use crate::types::{
    BetReceipt, BetRequest, BetRow, LogRow, NewSeedPair, Page, Player, RecordOut, RecordRow,
    RecordsFn, RevealedPair, Rotation, SeedPair,
};
use crate::Viewer;

use super::tx::PgTx;

async fn insert_pair(
    c: &mut PgConnection,
    player_id: i64,
    pair: &NewSeedPair,
    sealed: &[u8],
) -> StoreResult<SeedPair> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO seed_pairs (player_id, commitment, sealed_seed, client_seed, next_nonce, created_at)
         VALUES ($1, $2, $3, $4, 0, $5) RETURNING id",
    )
    .bind(player_id)
    .bind(&pair.commitment)
    .bind(sealed)
    .bind(&pair.client_seed)
    .bind(now_ms())
    .fetch_one(&mut *c)
    .await?;
    Ok(SeedPair {
        id,
        player_id,
        commitment: pair.commitment.clone(),
        client_seed: pair.client_seed.clone(),
        next_nonce: 0,
    })
}

pub(crate) async fn create_player(
    c: &mut PgConnection,
    token_hash: &str,
    balance: u128,
    pair: &NewSeedPair,
    sealed: &[u8],
) -> StoreResult<(Player, SeedPair)> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO players (token_hash, balance, created_at) VALUES ($1, $2::numeric, $3) RETURNING id",
    )
    .bind(token_hash)
    .bind(balance.to_string())
    .bind(now_ms())
    .fetch_one(&mut *c)
    .await?;
    let pair = insert_pair(c, id, pair, sealed).await?;
    Ok((Player { id, balance }, pair))
}

pub(crate) async fn player_by_token(pool: &PgPool, token_hash: &str) -> StoreResult<Player> {
    let row = sqlx::query(
        "SELECT id, token_hash, balance::text AS balance FROM players WHERE token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await?
    .ok_or(StoreError::NotFound("player"))?;
    let stored: String = row.try_get("token_hash")?;
    if !crate::ct_eq_str(&stored, token_hash) {
        return Err(StoreError::NotFound("player"));
    }
    Ok(Player {
        id: row.try_get("id")?,
        balance: plan::parse_u128(&row.try_get::<String, _>("balance")?, "balance")?,
    })
}

pub(crate) async fn player<'c, E>(c: E, id: i64, lock: bool) -> StoreResult<Player>
where
    E: sqlx::PgExecutor<'c>,
{
    let sql = if lock {
        "SELECT balance::text FROM players WHERE id = $1 FOR UPDATE"
    } else {
        "SELECT balance::text FROM players WHERE id = $1"
    };
    let balance: String = sqlx::query_scalar(sql)
        .bind(id)
        .fetch_optional(c)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    Ok(Player {
        id,
        balance: plan::parse_u128(&balance, "balance")?,
    })
}

/// The current pair with its sealed seed, optionally locked.
pub(crate) async fn current_pair(
    c: &mut PgConnection,
    player_id: i64,
    lock: bool,
) -> StoreResult<(SeedPair, Vec<u8>)> {
    let sql = if lock {
        "SELECT id, commitment, client_seed, next_nonce, sealed_seed FROM seed_pairs
         WHERE player_id = $1 AND revealed_at IS NULL FOR UPDATE"
    } else {
        "SELECT id, commitment, client_seed, next_nonce, sealed_seed FROM seed_pairs
         WHERE player_id = $1 AND revealed_at IS NULL"
    };
    let row = sqlx::query(sql)
        .bind(player_id)
        .fetch_optional(&mut *c)
        .await?
        .ok_or(StoreError::NotFound("seed pair"))?;
    Ok((
        SeedPair {
            id: row.try_get("id")?,
            player_id,
            commitment: row.try_get("commitment")?,
            client_seed: row.try_get("client_seed")?,
            next_nonce: plan::to_u64(row.try_get("next_nonce")?, "nonce")?,
        },
        row.try_get("sealed_seed")?,
    ))
}

pub(crate) async fn set_client_seed(
    c: &mut PgConnection,
    player_id: i64,
    commitment: &str,
    client_seed: &str,
) -> StoreResult<SeedPair> {
    player(&mut *c, player_id, true).await?;
    let (mut pair, _) = current_pair(c, player_id, true).await?;
    plan::check_client_seed_change(&pair, commitment)?;
    sqlx::query("UPDATE seed_pairs SET client_seed = $1 WHERE id = $2")
        .bind(client_seed)
        .bind(pair.id)
        .execute(&mut *c)
        .await?;
    client_seed.clone_into(&mut pair.client_seed);
    Ok(pair)
}

const BET_COLUMNS: &str = "id, player_id, pair_id, nonce, amount, condition, target, roll, win, \
     payout::text AS payout, balance_after::text AS balance_after, idempotency_key";

fn bet_row(r: &PgRow) -> StoreResult<BetRow> {
    Ok(BetRow {
        id: r.try_get("id")?,
        player_id: r.try_get("player_id")?,
        pair_id: r.try_get("pair_id")?,
        nonce: plan::to_u64(r.try_get("nonce")?, "nonce")?,
        amount: plan::to_u64(r.try_get("amount")?, "amount")?,
        condition: r.try_get("condition")?,
        target: plan::to_u16(i64::from(r.try_get::<i32, _>("target")?), "target")?,
        roll: plan::to_u16(i64::from(r.try_get::<i32, _>("roll")?), "roll")?,
        win: r.try_get("win")?,
        payout: plan::parse_u128(&r.try_get::<String, _>("payout")?, "payout")?,
        balance_after: plan::parse_u128(&r.try_get::<String, _>("balance_after")?, "balance")?,
        idempotency_key: r.try_get("idempotency_key")?,
    })
}

pub(crate) async fn place_bet(
    c: &mut PgConnection,
    cipher: &SeedCipher,
    req: BetRequest,
) -> StoreResult<BetReceipt> {
    // The player's row lock serializes this player's bets across processes.
    let player = player(&mut *c, req.player_id, true).await?;
    let existing = sqlx::query(&format!(
        "SELECT {BET_COLUMNS} FROM bets WHERE player_id = $1 AND idempotency_key = $2"
    ))
    .bind(req.player_id)
    .bind(&req.idempotency_key)
    .fetch_optional(&mut *c)
    .await?;
    if let Some(existing) = existing {
        return plan::replay(bet_row(&existing)?, &req);
    }
    let (pair, sealed) = current_pair(c, req.player_id, true).await?;
    plan::check_bet(player.balance, req.amount, pair.next_nonce)?;
    let seed = cipher.open(&sealed, &pair.commitment)?;
    let nonce = pair.next_nonce;
    let settled = (req.settle)(&seed, &pair.client_seed, nonce)?;
    drop(seed);
    let balance = plan::balance_after(player.balance, req.amount, settled)?;
    sqlx::query("UPDATE seed_pairs SET next_nonce = next_nonce + 1 WHERE id = $1")
        .bind(pair.id)
        .execute(&mut *c)
        .await?;
    sqlx::query("UPDATE players SET balance = $1::numeric WHERE id = $2")
        .bind(balance.to_string())
        .bind(req.player_id)
        .execute(&mut *c)
        .await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO bets (player_id, pair_id, nonce, amount, condition, target, roll, win, payout,
                           balance_after, idempotency_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10::numeric, $11, $12) RETURNING id",
    )
    .bind(req.player_id)
    .bind(pair.id)
    .bind(plan::to_i64(nonce, "nonce")?)
    .bind(plan::to_i64(req.amount, "amount")?)
    .bind(&req.condition)
    .bind(i32::from(req.target))
    .bind(i32::from(settled.roll))
    .bind(settled.win)
    .bind(settled.payout.to_string())
    .bind(balance.to_string())
    .bind(&req.idempotency_key)
    .bind(now_ms())
    .fetch_one(&mut *c)
    .await?;
    Ok(BetReceipt {
        bet: BetRow {
            id,
            player_id: req.player_id,
            pair_id: pair.id,
            nonce,
            amount: req.amount,
            condition: req.condition,
            target: req.target,
            roll: settled.roll,
            win: settled.win,
            payout: settled.payout,
            balance_after: balance,
            idempotency_key: req.idempotency_key,
        },
        replayed: false,
    })
}

pub(crate) async fn bets(
    pool: &PgPool,
    player_id: i64,
    pair_id: Option<i64>,
    page: Page,
) -> StoreResult<Vec<BetRow>> {
    sqlx::query(&format!(
        "SELECT {BET_COLUMNS} FROM bets
         WHERE player_id = $1 AND ($2::bigint IS NULL OR pair_id = $2) AND ($3::bigint IS NULL OR id < $3)
         ORDER BY id DESC LIMIT $4"
    ))
    .bind(player_id)
    .bind(pair_id)
    .bind(page.before)
    .bind(plan::limit(page.limit))
    .fetch_all(pool)
    .await?
    .iter()
    .map(bet_row)
    .collect()
}

pub(crate) async fn rotate(
    c: &mut PgConnection,
    cipher: &SeedCipher,
    player_id: i64,
    next: &NewSeedPair,
    sealed_next: &[u8],
    records: RecordsFn,
) -> StoreResult<Rotation> {
    player(&mut *c, player_id, true).await?;
    let (pair, sealed) = current_pair(c, player_id, true).await?;
    let seed = cipher.open(&sealed, &pair.commitment)?;
    sqlx::query(
        "UPDATE seed_pairs SET revealed_seed = $1, sealed_seed = NULL, revealed_at = $2 WHERE id = $3",
    )
    .bind(seed.expose())
    .bind(now_ms())
    .bind(pair.id)
    .execute(&mut *c)
    .await?;
    let revealed = RevealedPair {
        id: pair.id,
        player_id,
        commitment: pair.commitment,
        server_seed: seed.expose().to_owned(),
        client_seed: pair.client_seed,
        bets: pair.next_nonce,
    };
    let bets: Vec<BetRow> = sqlx::query(&format!(
        "SELECT {BET_COLUMNS} FROM bets WHERE pair_id = $1 ORDER BY nonce"
    ))
    .bind(pair.id)
    .fetch_all(&mut *c)
    .await?
    .iter()
    .map(bet_row)
    .collect::<StoreResult<_>>()?;
    let mut tx = PgTx(c);
    let mut rows = Vec::new();
    for record in records(&revealed, &bets)? {
        let out = RecordOut::for_player(player_id, record);
        rows.push(rounds::insert_record(&mut tx, &out, now_ms()).await?);
    }
    let c = tx.0;
    let records = rows;
    let current = insert_pair(c, player_id, next, sealed_next).await?;
    Ok(Rotation {
        revealed,
        records,
        current,
    })
}

pub(crate) async fn revealed_pairs(
    pool: &PgPool,
    player_id: i64,
    page: Page,
) -> StoreResult<Vec<RevealedPair>> {
    sqlx::query(
        "SELECT id, commitment, revealed_seed, client_seed, next_nonce FROM seed_pairs
         WHERE player_id = $1 AND revealed_at IS NOT NULL AND ($2::bigint IS NULL OR id < $2)
         ORDER BY id DESC LIMIT $3",
    )
    .bind(player_id)
    .bind(page.before)
    .bind(plan::limit(page.limit))
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        Ok(RevealedPair {
            id: r.try_get("id")?,
            player_id,
            commitment: r.try_get("commitment")?,
            server_seed: r.try_get("revealed_seed")?,
            client_seed: r.try_get("client_seed")?,
            bets: plan::to_u64(r.try_get("next_nonce")?, "nonce")?,
        })
    })
    .collect()
}

/// Columns of a record with its readers joined by commas.
const RECORD_COLUMNS: &str = "id, scheme, body, \
     (SELECT string_agg(player_id::text, ',') FROM record_readers WHERE record_id = records.id) AS readers";

/// Only the records a viewer may read (`$1`: the player, NULL for the operator).
const READABLE: &str = "($1::bigint IS NULL OR EXISTS (SELECT 1 FROM record_readers
                          WHERE record_id = records.id AND player_id = $1))";

fn record_row(r: &PgRow) -> StoreResult<RecordRow> {
    Ok(RecordRow {
        id: r.try_get("id")?,
        readers: rounds::parse_readers(r.try_get::<Option<String>, _>("readers")?.as_deref())?,
        scheme: r.try_get("scheme")?,
        body: r.try_get("body")?,
    })
}

fn viewer_owner(viewer: Viewer) -> Option<i64> {
    match viewer {
        Viewer::Player(id) => Some(id),
        Viewer::Operator => None,
    }
}

pub(crate) async fn record(pool: &PgPool, viewer: Viewer, id: i64) -> StoreResult<RecordRow> {
    let row = sqlx::query(&format!(
        "SELECT {RECORD_COLUMNS} FROM records WHERE {READABLE} AND id = $2"
    ))
    .bind(viewer_owner(viewer))
    .bind(id)
    .fetch_optional(pool)
    .await?
    .ok_or(StoreError::NotFound("record"))?;
    record_row(&row)
}

pub(crate) async fn records(
    pool: &PgPool,
    viewer: Viewer,
    page: Page,
) -> StoreResult<Vec<RecordRow>> {
    sqlx::query(&format!(
        "SELECT {RECORD_COLUMNS} FROM records
         WHERE {READABLE} AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3"
    ))
    .bind(viewer_owner(viewer))
    .bind(page.before)
    .bind(plan::limit(page.limit))
    .fetch_all(pool)
    .await?
    .iter()
    .map(record_row)
    .collect()
}

pub(crate) async fn records_after(
    pool: &PgPool,
    viewer: Viewer,
    after: i64,
    limit: u32,
) -> StoreResult<Vec<RecordRow>> {
    sqlx::query(&format!(
        "SELECT {RECORD_COLUMNS} FROM records WHERE {READABLE} AND id > $2 ORDER BY id LIMIT $3"
    ))
    .bind(viewer_owner(viewer))
    .bind(after)
    .bind(plan::limit(limit))
    .fetch_all(pool)
    .await?
    .iter()
    .map(record_row)
    .collect()
}

pub(crate) async fn round_log(
    pool: &PgPool,
    id: &str,
    from_seq: u64,
    limit: u32,
) -> StoreResult<Vec<LogRow>> {
    sqlx::query(
        "SELECT seq, body FROM round_log WHERE round_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3",
    )
    .bind(id)
    .bind(plan::to_i64(from_seq, "seq")?)
    .bind(plan::limit(limit))
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        Ok(LogRow {
            seq: plan::to_u64(r.try_get("seq")?, "seq")?,
            body: r.try_get("body")?,
        })
    })
    .collect()
}

pub(crate) async fn rounds_with_status(
    pool: &PgPool,
    kind: &str,
    status: &str,
) -> StoreResult<Vec<String>> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM rounds WHERE kind = $1 AND status = $2 ORDER BY created_at, id",
    )
    .bind(kind)
    .bind(status)
    .fetch_all(pool)
    .await?)
}

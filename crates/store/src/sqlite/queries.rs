//! The SQL of every operation, run on the writer's savepoint or a reader.

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::error::{StoreError, StoreResult};
use crate::plan;
use crate::rounds;
use crate::seal::SeedCipher;
use crate::time::now_ms;
use crate::tx::run_ready;
use crate::types::{
    BetReceipt, BetRequest, BetRow, LogRow, Page, Player, RecordOut, RecordRow, RecordsFn,
    RevealedPair, Rotation, SeedPair,
};
use crate::Viewer;

use super::tx::SqliteTx;

/// A sealed new pair, ready to insert.
pub(crate) struct SealedPair {
    pub(crate) commitment: String,
    pub(crate) sealed: Vec<u8>,
    pub(crate) client_seed: String,
}

pub(crate) fn insert_pair(c: &Connection, player_id: i64, p: &SealedPair) -> StoreResult<SeedPair> {
    c.prepare_cached(
        "INSERT INTO seed_pairs (player_id, commitment, sealed_seed, client_seed, next_nonce, created_at)
         VALUES (?1, ?2, ?3, ?4, 0, ?5)",
    )?
    .execute(params![player_id, p.commitment, p.sealed, p.client_seed, now_ms()])?;
    Ok(SeedPair {
        id: c.last_insert_rowid(),
        player_id,
        commitment: p.commitment.clone(),
        client_seed: p.client_seed.clone(),
        next_nonce: 0,
    })
}

pub(crate) fn create_player(
    c: &Connection,
    token_hash: &str,
    balance: u128,
    pair: &SealedPair,
) -> StoreResult<(Player, SeedPair)> {
    c.prepare_cached("INSERT INTO players (token_hash, balance, created_at) VALUES (?1, ?2, ?3)")?
        .execute(params![token_hash, balance.to_string(), now_ms()])?;
    let id = c.last_insert_rowid();
    let pair = insert_pair(c, id, pair)?;
    Ok((Player { id, balance }, pair))
}

fn player_row(row: &Row<'_>) -> rusqlite::Result<(i64, String, String)> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
}

pub(crate) fn player_by_token(c: &Connection, token_hash: &str) -> StoreResult<Player> {
    let found = c
        .prepare_cached("SELECT id, token_hash, balance FROM players WHERE token_hash = ?1")?
        .query_row(params![token_hash], player_row)
        .optional()?;
    match found {
        Some((id, stored, balance)) if crate::ct_eq_str(&stored, token_hash) => Ok(Player {
            id,
            balance: plan::parse_u128(&balance, "balance")?,
        }),
        _ => Err(StoreError::NotFound("player")),
    }
}

pub(crate) fn player(c: &Connection, id: i64) -> StoreResult<Player> {
    let balance: String = c
        .prepare_cached("SELECT balance FROM players WHERE id = ?1")?
        .query_row(params![id], |r| r.get(0))
        .optional()?
        .ok_or(StoreError::NotFound("player"))?;
    Ok(Player {
        id,
        balance: plan::parse_u128(&balance, "balance")?,
    })
}

/// The current pair with its sealed seed.
fn current_pair_sealed(c: &Connection, player_id: i64) -> StoreResult<(SeedPair, Vec<u8>)> {
    let row = c
        .prepare_cached(
            "SELECT id, commitment, client_seed, next_nonce, sealed_seed FROM seed_pairs
             WHERE player_id = ?1 AND revealed_at IS NULL",
        )?
        .query_row(params![player_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, Vec<u8>>(4)?,
            ))
        })
        .optional()?
        .ok_or(StoreError::NotFound("seed pair"))?;
    Ok((
        SeedPair {
            id: row.0,
            player_id,
            commitment: row.1,
            client_seed: row.2,
            next_nonce: plan::to_u64(row.3, "nonce")?,
        },
        row.4,
    ))
}

pub(crate) fn current_pair(c: &Connection, player_id: i64) -> StoreResult<SeedPair> {
    let row = c
        .prepare_cached(
            "SELECT id, commitment, client_seed, next_nonce FROM seed_pairs
             WHERE player_id = ?1 AND revealed_at IS NULL",
        )?
        .query_row(params![player_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get::<_, i64>(3)?,
            ))
        })
        .optional()?
        .ok_or(StoreError::NotFound("seed pair"))?;
    Ok(SeedPair {
        id: row.0,
        player_id,
        commitment: row.1,
        client_seed: row.2,
        next_nonce: plan::to_u64(row.3, "nonce")?,
    })
}

pub(crate) fn set_client_seed(
    c: &Connection,
    player_id: i64,
    commitment: &str,
    client_seed: &str,
) -> StoreResult<SeedPair> {
    let mut pair = current_pair(c, player_id)?;
    plan::check_client_seed_change(&pair, commitment)?;
    c.prepare_cached("UPDATE seed_pairs SET client_seed = ?1 WHERE id = ?2")?
        .execute(params![client_seed, pair.id])?;
    client_seed.clone_into(&mut pair.client_seed);
    Ok(pair)
}

const BET_COLUMNS: &str = "id, player_id, pair_id, nonce, amount, condition, target, roll, win, payout, balance_after, idempotency_key";

fn bet_row(r: &Row<'_>) -> rusqlite::Result<BetRowRaw> {
    Ok(BetRowRaw {
        id: r.get(0)?,
        player_id: r.get(1)?,
        pair_id: r.get(2)?,
        nonce: r.get(3)?,
        amount: r.get(4)?,
        condition: r.get(5)?,
        target: r.get(6)?,
        roll: r.get(7)?,
        win: r.get(8)?,
        payout: r.get(9)?,
        balance_after: r.get(10)?,
        idempotency_key: r.get(11)?,
    })
}

/// A bet as SQLite returns it, before range checks.
struct BetRowRaw {
    id: i64,
    player_id: i64,
    pair_id: i64,
    nonce: i64,
    amount: i64,
    condition: String,
    target: i64,
    roll: i64,
    win: bool,
    payout: String,
    balance_after: String,
    idempotency_key: String,
}

impl BetRowRaw {
    fn check(self) -> StoreResult<BetRow> {
        Ok(BetRow {
            id: self.id,
            player_id: self.player_id,
            pair_id: self.pair_id,
            nonce: plan::to_u64(self.nonce, "nonce")?,
            amount: plan::to_u64(self.amount, "amount")?,
            condition: self.condition,
            target: plan::to_u16(self.target, "target")?,
            roll: plan::to_u16(self.roll, "roll")?,
            win: self.win,
            payout: plan::parse_u128(&self.payout, "payout")?,
            balance_after: plan::parse_u128(&self.balance_after, "balance")?,
            idempotency_key: self.idempotency_key,
        })
    }
}

pub(crate) fn place_bet(
    c: &Connection,
    cipher: &SeedCipher,
    req: BetRequest,
) -> StoreResult<BetReceipt> {
    let existing = c
        .prepare_cached(&format!(
            "SELECT {BET_COLUMNS} FROM bets WHERE player_id = ?1 AND idempotency_key = ?2"
        ))?
        .query_row(params![req.player_id, req.idempotency_key], bet_row)
        .optional()?;
    if let Some(existing) = existing {
        return plan::replay(existing.check()?, &req);
    }
    let player = player(c, req.player_id)?;
    let (pair, sealed) = current_pair_sealed(c, req.player_id)?;
    plan::check_bet(player.balance, req.amount, pair.next_nonce)?;
    let seed = cipher.open(&sealed, &pair.commitment)?;
    let nonce = pair.next_nonce;
    let settled = (req.settle)(&seed, &pair.client_seed, nonce)?;
    drop(seed);
    let balance = plan::balance_after(player.balance, req.amount, settled)?;
    c.prepare_cached("UPDATE seed_pairs SET next_nonce = next_nonce + 1 WHERE id = ?1")?
        .execute(params![pair.id])?;
    c.prepare_cached("UPDATE players SET balance = ?1 WHERE id = ?2")?
        .execute(params![balance.to_string(), req.player_id])?;
    c.prepare_cached(
        "INSERT INTO bets (player_id, pair_id, nonce, amount, condition, target, roll, win, payout,
                           balance_after, idempotency_key, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        req.player_id,
        pair.id,
        plan::to_i64(nonce, "nonce")?,
        plan::to_i64(req.amount, "amount")?,
        req.condition,
        req.target,
        settled.roll,
        settled.win,
        settled.payout.to_string(),
        balance.to_string(),
        req.idempotency_key,
        now_ms(),
    ])?;
    Ok(BetReceipt {
        bet: BetRow {
            id: c.last_insert_rowid(),
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

pub(crate) fn bets(
    c: &Connection,
    player_id: i64,
    pair_id: Option<i64>,
    page: Page,
) -> StoreResult<Vec<BetRow>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {BET_COLUMNS} FROM bets
         WHERE player_id = ?1 AND (?2 IS NULL OR pair_id = ?2) AND (?3 IS NULL OR id < ?3)
         ORDER BY id DESC LIMIT ?4"
    ))?;
    let rows = stmt.query_map(
        params![player_id, pair_id, page.before, plan::limit(page.limit)],
        bet_row,
    )?;
    rows.map(|r| r.map_err(StoreError::from).and_then(BetRowRaw::check))
        .collect()
}

fn pair_bets(c: &Connection, pair_id: i64) -> StoreResult<Vec<BetRow>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {BET_COLUMNS} FROM bets WHERE pair_id = ?1 ORDER BY nonce"
    ))?;
    let rows = stmt.query_map(params![pair_id], bet_row)?;
    rows.map(|r| r.map_err(StoreError::from).and_then(BetRowRaw::check))
        .collect()
}

pub(crate) fn rotate(
    c: &Connection,
    cipher: &SeedCipher,
    player_id: i64,
    next: &SealedPair,
    records: RecordsFn,
) -> StoreResult<Rotation> {
    let (pair, sealed) = current_pair_sealed(c, player_id)?;
    let seed = cipher.open(&sealed, &pair.commitment)?;
    c.prepare_cached(
        "UPDATE seed_pairs SET revealed_seed = ?1, sealed_seed = NULL, revealed_at = ?2 WHERE id = ?3",
    )?
    .execute(params![seed.expose(), now_ms(), pair.id])?;
    let revealed = RevealedPair {
        id: pair.id,
        player_id,
        commitment: pair.commitment,
        server_seed: seed.expose().to_owned(),
        client_seed: pair.client_seed,
        bets: pair.next_nonce,
    };
    let bets = pair_bets(c, pair.id)?;
    let new_records: Vec<RecordOut> = records(&revealed, &bets)?
        .into_iter()
        .map(|r| RecordOut::for_player(player_id, r))
        .collect();
    let records = insert_records(c, &new_records)?;
    let current = insert_pair(c, player_id, next)?;
    Ok(Rotation {
        revealed,
        records,
        current,
    })
}

pub(crate) fn revealed_pairs(
    c: &Connection,
    player_id: i64,
    page: Page,
) -> StoreResult<Vec<RevealedPair>> {
    let mut stmt = c.prepare_cached(
        "SELECT id, commitment, revealed_seed, client_seed, next_nonce FROM seed_pairs
         WHERE player_id = ?1 AND revealed_at IS NOT NULL AND (?2 IS NULL OR id < ?2)
         ORDER BY id DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map(
        params![player_id, page.before, plan::limit(page.limit)],
        |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get::<_, i64>(4)?,
            ))
        },
    )?;
    rows.map(|r| {
        let (id, commitment, server_seed, client_seed, nonce) = r?;
        Ok(RevealedPair {
            id,
            player_id,
            commitment,
            server_seed,
            client_seed,
            bets: plan::to_u64(nonce, "nonce")?,
        })
    })
    .collect()
}

pub(crate) fn insert_records(c: &Connection, records: &[RecordOut]) -> StoreResult<Vec<RecordRow>> {
    let now = now_ms();
    records
        .iter()
        .map(|r| run_ready(rounds::insert_record(&mut SqliteTx(c), r, now))?)
        .collect()
}

/// Columns of a record with its readers joined by commas.
const RECORD_COLUMNS: &str = "id, scheme, body, \
     (SELECT group_concat(player_id) FROM record_readers WHERE record_id = records.id)";

/// Only the records a viewer may read (`?1`: the player, NULL for the operator).
const READABLE: &str = "(?1 IS NULL OR EXISTS (SELECT 1 FROM record_readers
                          WHERE record_id = records.id AND player_id = ?1))";

fn record_row(r: &Row<'_>) -> rusqlite::Result<(i64, String, String, Option<String>)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

fn check_record(raw: (i64, String, String, Option<String>)) -> StoreResult<RecordRow> {
    let (id, scheme, body, readers) = raw;
    Ok(RecordRow {
        id,
        readers: rounds::parse_readers(readers.as_deref())?,
        scheme,
        body,
    })
}

fn viewer_owner(viewer: Viewer) -> Option<i64> {
    match viewer {
        Viewer::Player(id) => Some(id),
        Viewer::Operator => None,
    }
}

pub(crate) fn record(c: &Connection, viewer: Viewer, id: i64) -> StoreResult<RecordRow> {
    let raw = c
        .prepare_cached(&format!(
            "SELECT {RECORD_COLUMNS} FROM records WHERE {READABLE} AND id = ?2"
        ))?
        .query_row(params![viewer_owner(viewer), id], record_row)
        .optional()?
        .ok_or(StoreError::NotFound("record"))?;
    check_record(raw)
}

pub(crate) fn records(c: &Connection, viewer: Viewer, page: Page) -> StoreResult<Vec<RecordRow>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {RECORD_COLUMNS} FROM records
         WHERE {READABLE} AND (?2 IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3"
    ))?;
    let rows = stmt.query_map(
        params![viewer_owner(viewer), page.before, plan::limit(page.limit)],
        record_row,
    )?;
    rows.map(|r| check_record(r?)).collect()
}

pub(crate) fn records_after(
    c: &Connection,
    viewer: Viewer,
    after: i64,
    limit: u32,
) -> StoreResult<Vec<RecordRow>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {RECORD_COLUMNS} FROM records WHERE {READABLE} AND id > ?2 ORDER BY id LIMIT ?3"
    ))?;
    let rows = stmt.query_map(
        params![viewer_owner(viewer), after, plan::limit(limit)],
        record_row,
    )?;
    rows.map(|r| check_record(r?)).collect()
}

pub(crate) fn round_log(
    c: &Connection,
    id: &str,
    from_seq: u64,
    limit: u32,
) -> StoreResult<Vec<LogRow>> {
    let mut stmt = c.prepare_cached(
        "SELECT seq, body FROM round_log WHERE round_id = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3",
    )?;
    let rows = stmt.query_map(
        params![id, plan::to_i64(from_seq, "seq")?, plan::limit(limit)],
        |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
    )?;
    rows.map(|r| {
        let (seq, body) = r?;
        Ok(LogRow {
            seq: plan::to_u64(seq, "seq")?,
            body,
        })
    })
    .collect()
}

pub(crate) fn rounds_with_status(
    c: &Connection,
    kind: &str,
    status: &str,
) -> StoreResult<Vec<String>> {
    let mut stmt = c.prepare_cached(
        "SELECT id FROM rounds WHERE kind = ?1 AND status = ?2 ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map(params![kind, status], |r| r.get::<_, String>(0))?;
    rows.map(|r| r.map_err(StoreError::from)).collect()
}

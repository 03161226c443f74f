//! A dice bet in two statements and no explicit transaction.
//!
//! Locking the player's row inside `BEGIN … COMMIT` first costs a bet six
//! round trips (begin, lock the player, look up the key, lock the pair,
//! write, commit), and a server process spends most of its time per bet on
//! them. Here a bet is one read and one write, each its own transaction:
//!
//! 1. **The read** takes the player's balance, the current pair with its
//!    sealed seed, and the bet already stored under the idempotency key, if
//!    any (then the answer is that bet, replayed).
//! 2. The core settles the bet from what was read ([`accounts::draw_bet`]).
//! 3. **The write** stores it only if nothing it was drawn from has changed:
//!    its first clause locks the player's and the pair's rows and checks
//!    the balance, the nonce, the client seed and that the pair is still
//!    unrevealed. Under `READ COMMITTED` a row another transaction holds is
//!    checked again on its newest version once that transaction ends, so the
//!    check and the updates see the same rows. If the check fails the write
//!    changes nothing and the bet is drawn again from a new read.
//!
//! Processes sharing one database are serialized by the same row locks as
//! the locked path, and the `(pair_id, nonce)` and `(player_id,
//! idempotency_key)` unique constraints stay the backstop: a concurrent
//! retry under the same key makes the write fail, and the next read replays
//! the bet that won. After [`OPTIMISTIC_TRIES`] lost races (a player betting
//! from many connections at once) the bet takes the locked path, which
//! waits its turn instead of retrying.

use sqlx::Row;

use super::deferred::{bind_bet, bind_entry};
use super::{tx::PgTx, PgStore};
use crate::accounts;
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::types::{BetReceipt, BetRequest, BetRow, SeedPair};

/// Draws before a bet stops retrying and locks.
const OPTIMISTIC_TRIES: usize = 3;

/// The player's balance, current pair and any bet under the key (`$2`).
const READ: &str = "SELECT p.balance::text AS balance, s.id AS pair_id, s.commitment,
        s.client_seed, s.next_nonce, s.sealed_seed, b.id AS bet_id
     FROM players p
     LEFT JOIN seed_pairs s ON s.player_id = p.id AND s.revealed_at IS NULL
     LEFT JOIN bets b ON b.player_id = p.id AND b.idempotency_key = $2
     WHERE p.id = $1";

/// The write: `$1`…`$12` the bet's columns, `$13` the client seed drawn
/// from, `$14` the balance drawn from; with the log, `$15`/`$16` the
/// outcome entry and its leaf hash. Returns the bet's id, or no row if the
/// check failed.
macro_rules! guarded_bet_sql {
    ($($queued:literal)?) => {
        concat!(
            "WITH guard AS (
                SELECT 1 FROM players p, seed_pairs s
                WHERE p.id = $1 AND s.id = $2 AND s.player_id = $1 AND s.revealed_at IS NULL
                  AND s.next_nonce = $3 AND s.client_seed = $13 AND p.balance = $14::numeric
                FOR UPDATE OF p, s),
             nonce AS (UPDATE seed_pairs SET next_nonce = $3 + 1
                WHERE id = $2 AND EXISTS (SELECT 1 FROM guard)),
             balance AS (UPDATE players SET balance = $10::numeric
                WHERE id = $1 AND EXISTS (SELECT 1 FROM guard)),
             bet AS (INSERT INTO bets (player_id, pair_id, nonce, amount, condition, target,
                                       roll, win, payout, balance_after, idempotency_key,
                                       created_at)
                SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10::numeric, $11, $12
                FROM guard RETURNING id)",
            $($queued,)?
            " SELECT id FROM bet"
        )
    };
}

const WRITE: &str = guarded_bet_sql!();

const WRITE_LOGGED: &str = guarded_bet_sql!(
    ", queued AS (INSERT INTO log_entries (entry, leaf_hash, subject, created_at)
        SELECT $15, $16, 'dice-bet' || chr(10) || lpad(id::text, 20, '0'), $12 FROM bet)"
);

/// What the read found.
enum Read {
    /// The key was used: the bet to replay.
    Replay,
    /// The state to draw the bet from.
    Draw {
        balance: u128,
        pair: SeedPair,
        sealed: Vec<u8>,
    },
}

impl PgStore {
    /// Places a bet: optimistically, then locked (see the module's doc).
    pub(super) async fn place_bet_at(&self, req: BetRequest, now: i64) -> StoreResult<BetReceipt> {
        for _ in 0..OPTIMISTIC_TRIES {
            if let Some(receipt) = self.try_bet(&req, now).await? {
                return Ok(receipt);
            }
        }
        let (cipher, log) = (std::sync::Arc::clone(&self.cipher), self.log);
        self.write_tx(async move |tx| accounts::place_bet(tx, &cipher, req, log, now).await)
            .await
    }

    /// One read and one write; `None` if the state changed in between.
    async fn try_bet(&self, req: &BetRequest, now: i64) -> StoreResult<Option<BetReceipt>> {
        let mut conn = self.pool.acquire().await?;
        let (balance, pair, sealed) = match read(&mut conn, req).await? {
            Read::Replay => {
                let mut tx = PgTx::new(&mut conn);
                return match crate::tx::Tx::bet_by_key(&mut tx, req.player_id, &req.idempotency_key)
                    .await?
                {
                    Some(existing) => accounts::replay(&mut tx, req.player_id, existing)
                        .await
                        .map(Some),
                    None => Ok(None),
                };
            }
            Read::Draw {
                balance,
                pair,
                sealed,
            } => (balance, pair, sealed),
        };
        let (mut bet, logged) =
            accounts::draw_bet(&self.cipher, req, balance, &pair, &sealed, self.log, now)?;
        match write(
            &mut conn,
            &bet,
            &pair.client_seed,
            balance,
            logged.as_deref(),
            now,
        )
        .await
        {
            Ok(Some(id)) => bet.id = id,
            Ok(None) => return Ok(None),
            // The key or the nonce was stored by a concurrent bet: the next
            // read replays it or draws the next nonce.
            Err(StoreError::Conflict { .. }) => return Ok(None),
            Err(e) => return Err(e),
        }
        Ok(Some(BetReceipt {
            bet,
            replayed: false,
            appended: logged.into_iter().collect(),
        }))
    }
}

async fn read(conn: &mut sqlx::PgConnection, req: &BetRequest) -> StoreResult<Read> {
    let row = sqlx::query(READ)
        .bind(req.player_id)
        .bind(&req.idempotency_key)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    if row.try_get::<Option<i64>, _>("bet_id")?.is_some() {
        return Ok(Read::Replay);
    }
    let pair_id: i64 = row
        .try_get::<Option<i64>, _>("pair_id")?
        .ok_or(StoreError::NotFound("seed pair"))?;
    let balance = convert::parse_u128(&row.try_get::<String, _>("balance")?, "balance")?;
    let pair = SeedPair {
        id: pair_id,
        player_id: req.player_id,
        commitment: row.try_get("commitment")?,
        client_seed: row.try_get("client_seed")?,
        next_nonce: convert::to_u64(row.try_get("next_nonce")?, "nonce")?,
        appended: Vec::new(),
    };
    let sealed = row.try_get("sealed_seed")?;
    Ok(Read::Draw {
        balance,
        pair,
        sealed,
    })
}

/// Stores `bet` if the player still has `balance` and its pair is still
/// unrevealed at `bet.nonce` with `client_seed`; the bet's id, or `None`.
async fn write(
    conn: &mut sqlx::PgConnection,
    bet: &BetRow,
    client_seed: &str,
    balance: u128,
    logged: Option<&[u8]>,
    now: i64,
) -> StoreResult<Option<i64>> {
    let sql = if logged.is_some() {
        WRITE_LOGGED
    } else {
        WRITE
    };
    let mut query = bind_bet(sqlx::query_scalar(sql), bet, now)?
        .bind(client_seed)
        .bind(balance.to_string());
    if let Some(entry) = logged {
        query = bind_entry(query, entry);
    }
    Ok(query.fetch_optional(conn).await?)
}

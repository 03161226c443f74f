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
//! A process remembers the state each player's last bet left
//! ([`LastStates`](super::last_states::LastStates)) and draws the player's next bet from it without the
//! read: while nothing else changes the player, a bet is one round trip.
//! The write checks that state like any other, so a stale one costs only a
//! read and a second write.
//!
//! Processes sharing one database are serialized by the same row locks as
//! the locked path, and the `(pair_id, nonce)` and `(player_id,
//! idempotency_key)` unique constraints stay the backstop: a concurrent
//! retry under the same key makes the write fail, and the next read replays
//! the bet that won. After [`OPTIMISTIC_TRIES`] lost races (a player betting
//! from many connections at once) the bet takes the locked path, which
//! waits its turn instead of retrying.

use sqlx::Row;

use super::deferred::bind_bet;
use super::last_states::Drawable;
use super::{tx::PgTx, PgStore};
use crate::accounts;
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::translog::bet_leaves::BetLeaves;
use crate::translog::Appender;
use crate::types::{BetReceipt, BetRequest, BetRow, SeedPair};

/// Draws before a bet stops retrying and locks: one from the player's last
/// state, three from reads.
const OPTIMISTIC_TRIES: usize = 4;

/// The player's balance, current pair and any bet under the key (`$2`).
const READ: &str = "SELECT p.balance::text AS balance, s.id AS pair_id, s.commitment,
        s.client_seed, s.next_nonce, s.sealed_seed, b.id AS bet_id
     FROM players p
     LEFT JOIN seed_pairs s ON s.player_id = p.id AND s.revealed_at IS NULL
     LEFT JOIN bets b ON b.player_id = p.id AND b.idempotency_key = $2
     WHERE p.id = $1";

/// The write's check, the updates it allows and the bet: `$1`…`$12` the
/// bet's columns, `$13` the client seed drawn from, `$14` the balance drawn
/// from. Inserts nothing if the check fails.
macro_rules! guarded_bet_sql {
    ($logged:literal) => {
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
             bet AS (INSERT INTO ",
            bet_columns_sql!(),
            " SELECT ",
            bet_values_sql!($logged),
            " FROM guard RETURNING id) SELECT id FROM bet"
        )
    };
}

/// The write; returns the bet's id, or no row if the check failed.
const WRITE: &str = guarded_bet_sql!("FALSE");

/// The write of a bet that is its own log entry (the log runs).
const WRITE_LOGGED: &str = guarded_bet_sql!("TRUE");

/// What the read found.
enum Read {
    /// The key was used: the bet to replay.
    Replay,
    /// The state to draw the bet from.
    Draw(Drawable),
}

/// How one attempt ended.
enum Attempt {
    Placed(BetReceipt),
    /// What the bet was drawn from had changed: draw again from a read.
    Stale,
}

impl PgStore {
    /// Places a bet: from the last state, then from reads, then locked (see
    /// the module's doc).
    pub(super) async fn place_bet_at(&self, req: BetRequest, now: i64) -> StoreResult<BetReceipt> {
        let placed = crate::wait::bounded("a bet", self.place_drawn(req, now)).await?;
        // Committed now: its leaf hash may be remembered.
        self.leaves.remember_placed(&placed);
        Ok(placed)
    }

    /// From the last state, then from reads, then locked.
    async fn place_drawn(&self, req: BetRequest, now: i64) -> StoreResult<BetReceipt> {
        let mut from = self.last.get(req.player_id);
        for _ in 0..OPTIMISTIC_TRIES {
            match self.try_bet(&req, from.take(), now).await? {
                Attempt::Placed(receipt) => return Ok(receipt),
                Attempt::Stale => self.last.forget(req.player_id),
            }
        }
        let cipher = std::sync::Arc::clone(&self.cipher);
        self.write_tx(async move |tx| accounts::place_bet(tx, &cipher, req, now).await)
            .await
    }

    /// One write, drawn from `known` or else from a read.
    async fn try_bet(
        &self,
        req: &BetRequest,
        known: Option<Drawable>,
        now: i64,
    ) -> StoreResult<Attempt> {
        let mut conn = self.pool.acquire().await?;
        let remembered = known.is_some();
        let leaves = &self.leaves;
        let from = match known {
            Some(state) => state,
            None => match read(&mut conn, req).await? {
                Read::Draw(state) => state,
                Read::Replay => return replay(&mut conn, leaves, self.appender, req).await,
            },
        };
        let drawn = accounts::draw_bet(
            &self.cipher,
            req,
            from.balance,
            &from.pair,
            &from.sealed,
            self.appender,
            now,
        );
        let (mut bet, logged) = match drawn {
            Ok(drawn) => drawn,
            // Refused on what this process last saw: ask the database.
            Err(_) if remembered => return Ok(Attempt::Stale),
            Err(e) => return Err(e),
        };
        let written = write(
            &mut conn,
            &bet,
            &from.pair.client_seed,
            from.balance,
            logged.is_some(),
            now,
        )
        .await;
        match written {
            Ok(Some(id)) => bet.id = id,
            Ok(None) => return Ok(Attempt::Stale),
            // The key or the nonce was stored by a concurrent bet: the next
            // read replays it or draws the next nonce.
            Err(StoreError::Conflict { .. }) => return Ok(Attempt::Stale),
            Err(e) => return Err(e),
        }
        let mut next = from;
        next.balance = bet.balance_after;
        next.pair.next_nonce += 1;
        self.last.put(req.player_id, next);
        Ok(Attempt::Placed(BetReceipt {
            bet,
            replayed: false,
            appended: logged.into_iter().collect(),
        }))
    }
}

/// The bet stored under `req`'s key, replayed.
async fn replay(
    conn: &mut sqlx::PgConnection,
    leaves: &BetLeaves,
    appender: Option<Appender>,
    req: &BetRequest,
) -> StoreResult<Attempt> {
    let mut tx = PgTx::new(conn, leaves, appender);
    match crate::tx::Tx::bet_by_key(&mut tx, req.player_id, &req.idempotency_key).await? {
        Some(existing) => accounts::replay(&mut tx, existing)
            .await
            .map(Attempt::Placed),
        None => Ok(Attempt::Stale),
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
    Ok(Read::Draw(Drawable {
        balance,
        pair,
        sealed,
    }))
}

/// Stores `bet` if the player still has `balance` and its pair is still
/// unrevealed at `bet.nonce` with `client_seed`; the bet's id, or `None`.
async fn write(
    conn: &mut sqlx::PgConnection,
    bet: &BetRow,
    client_seed: &str,
    balance: u128,
    logged: bool,
    now: i64,
) -> StoreResult<Option<i64>> {
    let sql = if logged { WRITE_LOGGED } else { WRITE };
    let query = bind_bet(sqlx::query_scalar(sql), bet, now)?
        .bind(client_seed)
        .bind(balance.to_string());
    Ok(query.fetch_optional(conn).await?)
}

//! A bet's two updates sent with its insert: one round trip instead of three.
//!
//! This serves a bet's locked path (`accounts::place_bet`), which a bet on
//! PostgreSQL takes after losing its optimistic draws (`super::bet`). There
//! a bet is, in one transaction: lock the player, look up the idempotency
//! key, lock the seed pair, bump the pair's nonce, set the balance, insert
//! the bet — each statement a round trip, with `BEGIN` and `COMMIT` eight.
//! [`PgTx`](super::tx::PgTx) holds the nonce bump and the balance back and
//! sends them as data-modifying `WITH` clauses of the bet's `INSERT`, which
//! PostgreSQL runs exactly once, in the same statement. Any other statement
//! on the transaction first sends what is held, and so does the commit, so
//! nothing ever runs against a state without them.

use sqlx::postgres::{PgArguments, Postgres};
use sqlx::PgConnection;

use crate::convert;
use crate::error::StoreResult;
use crate::sql::accounts;
use crate::types::BetRow;

/// Updates held back until the next statement.
#[derive(Debug, Default)]
pub(super) struct Deferred {
    /// The pair whose `next_nonce` goes up by one.
    nonce: Option<i64>,
    /// A player's new balance.
    balance: Option<(i64, u128)>,
}

/// A bet's held updates: (pair, player, balance).
pub(super) type BetUpdates = (i64, i64, u128);

impl Deferred {
    pub(super) async fn bump_nonce(
        &mut self,
        conn: &mut PgConnection,
        pair: i64,
    ) -> StoreResult<()> {
        if self.nonce.is_some() {
            self.flush(conn).await?;
        }
        self.nonce = Some(pair);
        Ok(())
    }

    /// A later balance of the same player replaces the held one, as a
    /// second `UPDATE` would.
    pub(super) async fn set_balance(
        &mut self,
        conn: &mut PgConnection,
        player: i64,
        balance: u128,
    ) -> StoreResult<()> {
        if self.balance.is_some_and(|(held, _)| held != player) {
            self.flush(conn).await?;
        }
        self.balance = Some((player, balance));
        Ok(())
    }

    /// Both of a bet's updates, if both are held (then none is left).
    pub(super) fn take_bet(&mut self) -> Option<BetUpdates> {
        let (Some(pair), Some((player, balance))) = (self.nonce, self.balance) else {
            return None;
        };
        *self = Self::default();
        Some((pair, player, balance))
    }

    /// Sends what is held, one statement each.
    pub(super) async fn flush(&mut self, conn: &mut PgConnection) -> StoreResult<()> {
        if let Some(pair) = self.nonce.take() {
            sqlx::query(accounts::BUMP_NONCE.postgres())
                .bind(pair)
                .execute(&mut *conn)
                .await?;
        }
        if let Some((player, balance)) = self.balance.take() {
            sqlx::query(accounts::SET_BALANCE.postgres())
                .bind(balance.to_string())
                .bind(player)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }
}

/// The `bets` columns in [`bind_bet`]'s order, then `logged`; their values
/// `$1`…`$12` and whether the bet is its own log entry (`TRUE` while the
/// log runs), also the optimistic write's (`super::bet`).
macro_rules! bet_columns_sql {
    () => {
        "bets (player_id, pair_id, nonce, amount, condition, target, roll, win, payout,
               balance_after, idempotency_key, created_at, logged)"
    };
}

macro_rules! bet_values_sql {
    ($logged:literal) => {
        concat!(
            "$1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10::numeric, $11, $12, ",
            $logged
        )
    };
}

macro_rules! insert_bet_sql {
    ($logged:literal) => {
        concat!(
            "INSERT INTO ",
            bet_columns_sql!(),
            " VALUES (",
            bet_values_sql!($logged),
            ") RETURNING id"
        )
    };
}

macro_rules! held_updates_sql {
    () => {
        "nonce AS (UPDATE seed_pairs SET next_nonce = next_nonce + 1 WHERE id = $13),
         balance AS (UPDATE players SET balance = $15::numeric WHERE id = $14)"
    };
}

/// A bet's insert, logged or not, alone or with its held updates.
const INSERT_BET: [[&str; 2]; 2] = [
    [insert_bet_sql!("FALSE"), insert_bet_sql!("TRUE")],
    [
        concat!("WITH ", held_updates_sql!(), " ", insert_bet_sql!("FALSE")),
        concat!("WITH ", held_updates_sql!(), " ", insert_bet_sql!("TRUE")),
    ],
];

/// A query returning a bet's id, with the bet's columns bound as `$1`…`$12`.
pub(super) type BetQuery<'q> = sqlx::query::QueryScalar<'q, Postgres, i64, PgArguments>;

/// Binds `bet`'s columns and `now` as `$1`…`$12`, in `bets`' column order.
pub(super) fn bind_bet<'q>(
    query: BetQuery<'q>,
    bet: &'q BetRow,
    now: i64,
) -> StoreResult<BetQuery<'q>> {
    Ok(query
        .bind(bet.player_id)
        .bind(bet.pair_id)
        .bind(convert::to_i64(bet.nonce, "nonce")?)
        .bind(convert::to_i64(bet.amount, "amount")?)
        .bind(bet.condition.as_str())
        .bind(i32::from(bet.target))
        .bind(i32::from(bet.roll))
        .bind(bet.win)
        .bind(bet.payout.to_string())
        .bind(bet.balance_after.to_string())
        .bind(&bet.idempotency_key)
        .bind(now))
}

/// Inserts `bet` (with its held updates, if given), `logged` if it is its
/// own log entry; its id.
pub(super) async fn insert_bet(
    conn: &mut PgConnection,
    bet: &BetRow,
    now: i64,
    updates: Option<BetUpdates>,
    logged: bool,
) -> StoreResult<i64> {
    let sql = INSERT_BET[usize::from(updates.is_some())][usize::from(logged)];
    let mut query = bind_bet(sqlx::query_scalar(sql), bet, now)?;
    if let Some((pair, player, balance)) = updates {
        query = query.bind(pair).bind(player).bind(balance.to_string());
    }
    Ok(query.fetch_one(conn).await?)
}

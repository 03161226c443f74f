//! The statements that read dice bets, for both backends. A bet's insert
//! stays with its backend: PostgreSQL writes it together with its pair's
//! nonce and the player's balance (`postgres/deferred.rs`, and the guarded
//! write of decision 0008), SQLite as one row among the transaction's.

use crate::sql::statement::Statement;

/// A bet's columns, amounts read as text, in the order both backends'
/// `bet_raw` read them.
macro_rules! bet_columns {
    () => {
        "SELECT id, player_id, pair_id, nonce, amount, condition, target, roll, win,
                CAST(payout AS TEXT) AS payout, CAST(balance_after AS TEXT) AS balance_after,
                idempotency_key, created_at"
    };
}

/// A player's bet by its idempotency key.
pub(crate) static BET_BY_KEY: Statement = Statement::new(concat!(
    bet_columns!(),
    " FROM bets WHERE player_id = ?1 AND idempotency_key = ?2"
));

/// A page of a player's bets, newest first: on one pair (`?2`) if given,
/// before an id (`?3`) if given.
pub(crate) static BETS: Statement = Statement::new(concat!(
    bet_columns!(),
    " FROM bets WHERE player_id = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR pair_id = ?2)
       AND (CAST(?3 AS BIGINT) IS NULL OR id < ?3)
     ORDER BY id DESC LIMIT ?4"
));

/// Up to a limit of a pair's bets in nonce order, past a nonce (`?2`) if
/// given.
pub(crate) static PAIR_BETS: Statement = Statement::new(concat!(
    bet_columns!(),
    " FROM bets WHERE pair_id = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR nonce > ?2)
     ORDER BY nonce LIMIT ?3"
));

/// The bets of a list of ids with their pair's commitment and client seed
/// (columns 13 and 14): what rebuilds each one's log entry.
pub(crate) static BET_ENTRIES: Statement = Statement::new(concat!(
    bet_columns!(),
    ", commitment, client_seed FROM bets
     JOIN (SELECT id AS pair, commitment, client_seed FROM seed_pairs) p ON p.pair = bets.pair_id
     WHERE bets.id = ANY(?1)"
));

/// Every statement here.
#[cfg(test)]
pub(crate) const ALL: [&Statement; 4] = [&BET_BY_KEY, &BETS, &PAIR_BETS, &BET_ENTRIES];

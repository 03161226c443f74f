//! The statements of accounts: players, operator players, chip grants and
//! seed pairs, for both backends.

use crate::sql::statement::Statement;

/// A new player; its id.
pub(crate) static INSERT_PLAYER: Statement = Statement::new(
    "INSERT INTO players (token_hash, balance, created_at) VALUES (?1, CAST(?2 AS AMOUNT), ?3)
     RETURNING id",
);

/// A player by its token's hash: id, hash, balance.
pub(crate) static PLAYER_BY_TOKEN: Statement = Statement::new(
    "SELECT id, token_hash, CAST(balance AS TEXT) FROM players WHERE token_hash = ?1",
);

/// A player's balance (PostgreSQL may lock the row).
pub(crate) static BALANCE: Statement =
    Statement::new("SELECT CAST(balance AS TEXT) FROM players WHERE id = ?1");

/// Sets a player's balance.
pub(crate) static SET_BALANCE: Statement =
    Statement::new("UPDATE players SET balance = CAST(?1 AS AMOUNT) WHERE id = ?2");

/// The player of an operator's external id (PostgreSQL may lock the row).
pub(crate) static OPERATOR_PLAYER_ID: Statement =
    Statement::new("SELECT player_id FROM operator_players WHERE external_id = ?1");

/// Whether a player is an operator's.
pub(crate) static IS_OPERATOR_PLAYER: Statement =
    Statement::new("SELECT 1 FROM operator_players WHERE player_id = ?1");

/// Names a player by an operator's external id unless the id is taken; the
/// player's id when it was named.
pub(crate) static INSERT_OPERATOR_PLAYER: Statement = Statement::new(
    "INSERT INTO operator_players (external_id, player_id, created_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (external_id) DO NOTHING RETURNING player_id",
);

/// A player's token hash (PostgreSQL locks the row).
pub(crate) static TOKEN_HASH: Statement =
    Statement::new("SELECT token_hash FROM players WHERE id = ?1");

/// Sets a player's token hash.
pub(crate) static SET_TOKEN_HASH: Statement =
    Statement::new("UPDATE players SET token_hash = ?1 WHERE id = ?2");

/// A chip grant by its key: id, amount, balance after.
pub(crate) static CHIP_GRANT: Statement = Statement::new(
    "SELECT id, CAST(amount AS TEXT), CAST(balance_after AS TEXT) FROM chip_grants
     WHERE player_id = ?1 AND grant_key = ?2",
);

/// A new chip grant; its id.
pub(crate) static INSERT_CHIP_GRANT: Statement = Statement::new(
    "INSERT INTO chip_grants (player_id, grant_key, amount, balance_after, created_at)
     VALUES (?1, ?2, CAST(?3 AS AMOUNT), CAST(?4 AS AMOUNT), ?5) RETURNING id",
);

/// A new seed pair, no bet on it yet; its id.
pub(crate) static INSERT_PAIR: Statement = Statement::new(
    "INSERT INTO seed_pairs (player_id, commitment, sealed_seed, client_seed, next_nonce, created_at)
     VALUES (?1, ?2, ?3, ?4, 0, ?5) RETURNING id",
);

/// A player's unrevealed pair (PostgreSQL may lock the row).
pub(crate) static CURRENT_PAIR: Statement = Statement::new(
    "SELECT id, commitment, client_seed, next_nonce, sealed_seed FROM seed_pairs
     WHERE player_id = ?1 AND revealed_at IS NULL",
);

/// Sets the client seed of a player's unrevealed pair with the commitment
/// shown, while no bet is on it.
pub(crate) static SET_CLIENT_SEED: Statement = Statement::new(
    "UPDATE seed_pairs SET client_seed = ?1
     WHERE player_id = ?2 AND revealed_at IS NULL AND commitment = ?3 AND next_nonce = 0",
);

/// A pair's commitment and client seed.
pub(crate) static PAIR_SEEDS: Statement =
    Statement::new("SELECT commitment, client_seed FROM seed_pairs WHERE id = ?1");

/// Counts a bet on a pair.
pub(crate) static BUMP_NONCE: Statement =
    Statement::new("UPDATE seed_pairs SET next_nonce = next_nonce + 1 WHERE id = ?1");

/// Reveals a pair: its seed in the clear, the sealed one dropped.
pub(crate) static REVEAL_PAIR: Statement = Statement::new(
    "UPDATE seed_pairs SET revealed_seed = ?1, sealed_seed = NULL, revealed_at = ?2 WHERE id = ?3",
);

/// Up to a limit of players past an id with an unrevealed pair, ascending.
pub(crate) static PLAYERS_WITH_UNREVEALED_PAIR: Statement = Statement::new(
    "SELECT player_id FROM seed_pairs WHERE revealed_at IS NULL AND player_id > ?1
     ORDER BY player_id LIMIT ?2",
);

/// A page of a player's revealed pairs, newest first, before an id if one
/// is given.
pub(crate) static REVEALED_PAIRS: Statement = Statement::new(
    "SELECT id, commitment, revealed_seed, client_seed, next_nonce FROM seed_pairs
     WHERE player_id = ?1 AND revealed_at IS NOT NULL AND (CAST(?2 AS BIGINT) IS NULL OR id < ?2)
     ORDER BY id DESC LIMIT ?3",
);

/// Every statement here.
#[cfg(test)]
pub(crate) const ALL: [&Statement; 19] = [
    &INSERT_PLAYER,
    &PLAYER_BY_TOKEN,
    &BALANCE,
    &SET_BALANCE,
    &OPERATOR_PLAYER_ID,
    &IS_OPERATOR_PLAYER,
    &INSERT_OPERATOR_PLAYER,
    &TOKEN_HASH,
    &SET_TOKEN_HASH,
    &CHIP_GRANT,
    &INSERT_CHIP_GRANT,
    &INSERT_PAIR,
    &CURRENT_PAIR,
    &SET_CLIENT_SEED,
    &PAIR_SEEDS,
    &BUMP_NONCE,
    &REVEAL_PAIR,
    &PLAYERS_WITH_UNREVEALED_PAIR,
    &REVEALED_PAIRS,
];

//! The [`Tx`] primitives in SQLite's dialect.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::record_body::{self, StoredBody};
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::sql::statement::Statement;
use crate::sql::{accounts, bets, idempotency, leases, records, rounds};
use crate::translog::bet_leaves::BetLeaves;
use crate::translog::Appender;
use crate::tx::{reader, BetRaw, LeaseRow, RoundRaw, RoundSet, SealedPair, Tx};
use crate::types::RecordReader;
use crate::types::{
    BetRow, Idempotent, LogRow, NewRecord, NewRound, Page, RecordRow, RevealedPair, RoundRow,
    SeedPair,
};

/// A connection inside the writer's savepoint, or a read connection, with
/// the store's remembered bet leaf hashes and its log appender.
pub(crate) struct SqliteTx<'c>(
    pub(crate) &'c Connection,
    pub(crate) &'c BetLeaves,
    pub(crate) Option<Appender>,
);

fn round_raw(r: &rusqlite::Row<'_>) -> rusqlite::Result<(RoundRaw, i64, i64)> {
    Ok((
        RoundRaw {
            row: RoundRow {
                id: r.get(0)?,
                kind: r.get(1)?,
                commitment: r.get(2)?,
                revealed: r.get(4)?,
                state: r.get(5)?,
                status: r.get(6)?,
                log_len: 0,
                version: 0,
            },
            sealed: r.get(3)?,
            sealed_key: r.get(9)?,
        },
        r.get(7)?,
        r.get(8)?,
    ))
}

/// A bet as [`bets`]' statements read it.
fn bet_raw(r: &Row<'_>) -> rusqlite::Result<BetRaw> {
    Ok(BetRaw {
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
        created_at: r.get(12)?,
    })
}

/// A record's columns as stored: its body perhaps deflated.
type RecordRaw = (i64, String, StoredBody, Option<String>);

fn record_raw(r: &Row<'_>) -> rusqlite::Result<RecordRaw> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

fn record_row(raw: RecordRaw) -> StoreResult<RecordRow> {
    let (id, scheme, body, readers) = raw;
    Ok(RecordRow {
        id,
        readers: convert::parse_readers(readers.as_deref())?,
        scheme,
        body: body.into_text(id)?,
    })
}

impl SqliteTx<'_> {
    fn bets_where(
        &self,
        statement: &Statement,
        args: impl rusqlite::Params,
    ) -> StoreResult<Vec<BetRaw>> {
        let mut stmt = self.0.prepare_cached(statement.sqlite())?;
        let rows = stmt.query_map(args, bet_raw)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The outcome entries of the bets `ids` (sent as one JSON list), by
    /// bet id: each rebuilt from the bet and its pair.
    pub(crate) fn bet_entries(&self, ids: &[i64]) -> StoreResult<HashMap<i64, Vec<u8>>> {
        let ids = serde_json::to_string(ids).map_err(StoreError::other)?;
        let mut stmt = self.0.prepare_cached(bets::BET_ENTRIES.sqlite())?;
        let rows = stmt.query_map(params![ids], |r| {
            Ok((
                bet_raw(r)?,
                r.get::<_, String>(13)?,
                r.get::<_, String>(14)?,
            ))
        })?;
        rows.map(|row| {
            let (bet, commitment, client_seed) = row?;
            let id = bet.id;
            Ok((
                id,
                crate::accounts::bet_entry(bet, &commitment, &client_seed)?,
            ))
        })
        .collect()
    }

    /// The records `statement` selects for `args`.
    fn records_where(
        &self,
        statement: &Statement,
        args: impl rusqlite::Params,
    ) -> StoreResult<Vec<RecordRow>> {
        let mut stmt = self.0.prepare_cached(statement.sqlite())?;
        let rows = stmt.query_map(args, record_raw)?;
        rows.map(|r| record_row(r?)).collect()
    }
}

impl Tx for SqliteTx<'_> {
    async fn ping(&mut self) -> StoreResult<()> {
        self.0.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
        Ok(())
    }

    /// On the writer, a place in its next group commit.
    async fn commit_probe(&mut self) -> StoreResult<()> {
        self.ping().await
    }

    async fn insert_player(
        &mut self,
        token_hash: &str,
        balance: u128,
        now: i64,
    ) -> StoreResult<i64> {
        Ok(self
            .0
            .prepare_cached(accounts::INSERT_PLAYER.sqlite())?
            .query_row(params![token_hash, balance.to_string(), now], |r| r.get(0))?)
    }

    async fn player_by_token(
        &mut self,
        token_hash: &str,
    ) -> StoreResult<Option<(i64, String, u128)>> {
        let found = self
            .0
            .prepare_cached(accounts::PLAYER_BY_TOKEN.sqlite())?
            .query_row(params![token_hash], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .optional()?;
        found
            .map(|(id, hash, balance)| Ok((id, hash, convert::parse_u128(&balance, "balance")?)))
            .transpose()
    }

    /// No lock: the one writer runs one transaction at a time.
    async fn balance(&mut self, player_id: i64, _lock: bool) -> StoreResult<Option<u128>> {
        let balance: Option<String> = self
            .0
            .prepare_cached(accounts::BALANCE.sqlite())?
            .query_row(params![player_id], |r| r.get(0))
            .optional()?;
        balance
            .map(|b| convert::parse_u128(&b, "balance"))
            .transpose()
    }

    async fn set_balance(&mut self, player_id: i64, balance: u128) -> StoreResult<()> {
        self.0
            .prepare_cached(accounts::SET_BALANCE.sqlite())?
            .execute(params![balance.to_string(), player_id])?;
        Ok(())
    }

    async fn operator_player_id(
        &mut self,
        external_id: &str,
        _lock: bool,
    ) -> StoreResult<Option<i64>> {
        Ok(self
            .0
            .prepare_cached(accounts::OPERATOR_PLAYER_ID.sqlite())?
            .query_row(params![external_id], |r| r.get(0))
            .optional()?)
    }

    async fn is_operator_player(&mut self, player_id: i64) -> StoreResult<bool> {
        Ok(self
            .0
            .prepare_cached(accounts::IS_OPERATOR_PLAYER.sqlite())?
            .query_row(params![player_id], |_| Ok(()))
            .optional()?
            .is_some())
    }

    async fn insert_operator_player(
        &mut self,
        external_id: &str,
        player_id: i64,
        now: i64,
    ) -> StoreResult<bool> {
        let inserted: Option<i64> = self
            .0
            .prepare_cached(accounts::INSERT_OPERATOR_PLAYER.sqlite())?
            .query_row(params![external_id, player_id, now], |r| r.get(0))
            .optional()?;
        Ok(inserted.is_some())
    }

    async fn replace_token_hash(
        &mut self,
        player_id: i64,
        token_hash: &str,
    ) -> StoreResult<String> {
        let old: String = self
            .0
            .prepare_cached(accounts::TOKEN_HASH.sqlite())?
            .query_row(params![player_id], |r| r.get(0))?;
        self.0
            .prepare_cached(accounts::SET_TOKEN_HASH.sqlite())?
            .execute(params![token_hash, player_id])?;
        Ok(old)
    }

    async fn chip_grant(
        &mut self,
        player_id: i64,
        key: &str,
    ) -> StoreResult<Option<(i64, String, String)>> {
        let found = self
            .0
            .prepare_cached(accounts::CHIP_GRANT.sqlite())?
            .query_row(params![player_id, key], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .optional()?;
        Ok(found)
    }

    async fn insert_chip_grant(
        &mut self,
        player_id: i64,
        key: &str,
        amount: u128,
        balance_after: u128,
        now: i64,
    ) -> StoreResult<i64> {
        Ok(self
            .0
            .prepare_cached(accounts::INSERT_CHIP_GRANT.sqlite())?
            .query_row(
                params![
                    player_id,
                    key,
                    amount.to_string(),
                    balance_after.to_string(),
                    now
                ],
                |r| r.get(0),
            )?)
    }

    async fn insert_pair(
        &mut self,
        player_id: i64,
        pair: &SealedPair,
        now: i64,
    ) -> StoreResult<i64> {
        Ok(self
            .0
            .prepare_cached(accounts::INSERT_PAIR.sqlite())?
            .query_row(
                params![
                    player_id,
                    pair.commitment,
                    pair.sealed,
                    pair.client_seed,
                    now
                ],
                |r| r.get(0),
            )?)
    }

    async fn current_pair(
        &mut self,
        player_id: i64,
        _lock: bool,
    ) -> StoreResult<Option<(SeedPair, Vec<u8>)>> {
        let row = self
            .0
            .prepare_cached(accounts::CURRENT_PAIR.sqlite())?
            .query_row(params![player_id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Vec<u8>>(4)?,
                ))
            })
            .optional()?;
        row.map(|(id, commitment, client_seed, nonce, sealed)| {
            let pair = SeedPair {
                id,
                player_id,
                commitment,
                client_seed,
                next_nonce: convert::to_u64(nonce, "nonce")?,
                appended: Vec::new(),
            };
            Ok((pair, sealed))
        })
        .transpose()
    }

    async fn set_client_seed(
        &mut self,
        player_id: i64,
        commitment: &str,
        client_seed: &str,
    ) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(accounts::SET_CLIENT_SEED.sqlite())?
            .execute(params![client_seed, player_id, commitment])?;
        Ok(n == 1)
    }

    async fn pair_seeds(&mut self, pair_id: i64) -> StoreResult<Option<(String, String)>> {
        Ok(self
            .0
            .prepare_cached(accounts::PAIR_SEEDS.sqlite())?
            .query_row([pair_id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    async fn bump_nonce(&mut self, pair_id: i64) -> StoreResult<()> {
        self.0
            .prepare_cached(accounts::BUMP_NONCE.sqlite())?
            .execute(params![pair_id])?;
        Ok(())
    }

    async fn reveal_pair(&mut self, pair_id: i64, server_seed: &str, now: i64) -> StoreResult<()> {
        self.0
            .prepare_cached(accounts::REVEAL_PAIR.sqlite())?
            .execute(params![server_seed, now, pair_id])?;
        Ok(())
    }

    async fn players_with_unrevealed_pair(
        &mut self,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<i64>> {
        let mut stmt = self
            .0
            .prepare_cached(accounts::PLAYERS_WITH_UNREVEALED_PAIR.sqlite())?;
        let rows = stmt.query_map(params![after, limit], |r| r.get::<_, i64>(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    async fn revealed_pairs(
        &mut self,
        player_id: i64,
        page: Page,
    ) -> StoreResult<Vec<RevealedPair>> {
        let mut stmt = self.0.prepare_cached(accounts::REVEALED_PAIRS.sqlite())?;
        let rows = stmt.query_map(
            params![player_id, page.before, convert::limit(page.limit)],
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
                bets: convert::to_u64(nonce, "nonce")?,
            })
        })
        .collect()
    }

    async fn bet_by_key(&mut self, player_id: i64, key: &str) -> StoreResult<Option<BetRaw>> {
        Ok(self
            .bets_where(&bets::BET_BY_KEY, params![player_id, key])?
            .pop())
    }

    /// `logged`: the bet is its own log entry (`log_tx`).
    async fn insert_bet(&mut self, bet: &BetRow, logged: bool, now: i64) -> StoreResult<i64> {
        self.0
            .prepare_cached(
                "INSERT INTO bets (player_id, pair_id, nonce, amount, condition, target, roll, win,
                                   payout, balance_after, idempotency_key, created_at, logged)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(params![
                bet.player_id,
                bet.pair_id,
                convert::to_i64(bet.nonce, "nonce")?,
                convert::to_i64(bet.amount, "amount")?,
                bet.condition.as_str(),
                bet.target,
                bet.roll,
                bet.win,
                bet.payout.to_string(),
                bet.balance_after.to_string(),
                bet.idempotency_key,
                now,
                logged,
            ])?;
        Ok(self.0.last_insert_rowid())
    }

    async fn bets(
        &mut self,
        player_id: i64,
        pair_id: Option<i64>,
        page: Page,
    ) -> StoreResult<Vec<BetRaw>> {
        self.bets_where(
            &bets::BETS,
            params![player_id, pair_id, page.before, convert::limit(page.limit)],
        )
    }

    async fn pair_bets(
        &mut self,
        pair_id: i64,
        after: Option<u64>,
        limit: u32,
    ) -> StoreResult<Vec<BetRaw>> {
        let after = after.map(|n| convert::to_i64(n, "nonce")).transpose()?;
        self.bets_where(
            &bets::PAIR_BETS,
            params![pair_id, after, convert::limit(limit)],
        )
    }

    /// The ids sent as one JSON list.
    async fn records_with_ids(
        &mut self,
        viewer: RecordReader,
        ids: &[i64],
    ) -> StoreResult<Vec<RecordRow>> {
        let ids = serde_json::to_string(ids).map_err(StoreError::other)?;
        self.records_where(&records::RECORDS_WITH_IDS, params![reader(viewer), ids])
    }

    async fn records(&mut self, viewer: RecordReader, page: Page) -> StoreResult<Vec<RecordRow>> {
        self.records_where(
            &records::RECORDS,
            params![reader(viewer), page.before, convert::limit(page.limit)],
        )
    }

    async fn records_after(
        &mut self,
        viewer: RecordReader,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<RecordRow>> {
        self.records_where(
            &records::RECORDS_AFTER,
            params![reader(viewer), after, convert::limit(limit)],
        )
    }

    async fn round_log(&mut self, id: &str, from_seq: u64, limit: u32) -> StoreResult<Vec<LogRow>> {
        let mut stmt = self.0.prepare_cached(rounds::LOG_LINES.sqlite())?;
        let rows = stmt.query_map(
            params![id, convert::to_i64(from_seq, "seq")?, convert::limit(limit)],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
        )?;
        rows.map(|r| {
            let (seq, body) = r?;
            Ok(LogRow {
                seq: convert::to_u64(seq, "seq")?,
                body,
            })
        })
        .collect()
    }

    async fn rounds_with_status(&mut self, kind: &str, status: &str) -> StoreResult<Vec<String>> {
        let mut stmt = self.0.prepare_cached(rounds::ROUNDS_WITH_STATUS.sqlite())?;
        let rows = stmt.query_map(params![kind, status], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The ids sent as one JSON list.
    async fn rounds(&mut self, ids: &[String]) -> StoreResult<Vec<RoundRaw>> {
        let ids = serde_json::to_string(ids).map_err(StoreError::other)?;
        let mut stmt = self.0.prepare_cached(rounds::ROUNDS.sqlite())?;
        let rows = stmt.query_map(params![ids], round_raw)?;
        rows.map(|row| {
            let (mut raw, log_len, version) = row?;
            raw.row.log_len = convert::to_u64(log_len, "log length")?;
            raw.row.version = convert::to_u64(version, "version")?;
            Ok(raw)
        })
        .collect()
    }

    async fn insert_round(
        &mut self,
        round: &NewRound,
        sealed: &[u8],
        sealed_key: Option<&[u8]>,
        now: i64,
    ) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(rounds::INSERT_ROUND.sqlite())?
            .execute(params![
                round.id,
                round.kind,
                round.commitment,
                sealed,
                round.state,
                round.status,
                now
            ])?;
        if let Some(key) = sealed_key.filter(|_| n == 1) {
            self.0
                .prepare_cached(rounds::INSERT_ROUND_KEY.sqlite())?
                .execute(params![round.id, key])?;
        }
        Ok(n == 1)
    }

    async fn update_round(&mut self, set: &RoundSet<'_>) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(rounds::UPDATE_ROUND.sqlite())?
            .execute(params![
                set.state,
                set.status,
                convert::to_i64(set.log_len, "log length")?,
                set.now,
                set.reveal,
                set.id,
                convert::to_i64(set.expected_version, "version")?
            ])?;
        Ok(n == 1)
    }

    async fn insert_log(
        &mut self,
        round_id: &str,
        seq: u64,
        body: &str,
        now: i64,
    ) -> StoreResult<()> {
        self.0
            .prepare_cached(rounds::INSERT_LOG_LINE.sqlite())?
            .execute(params![round_id, convert::to_i64(seq, "seq")?, body, now])?;
        Ok(())
    }

    async fn delete_log_before(&mut self, round_id: &str, before_seq: u64) -> StoreResult<()> {
        self.0
            .prepare_cached(rounds::DELETE_LOG_BEFORE.sqlite())?
            .execute(params![round_id, convert::to_i64(before_seq, "seq")?])?;
        Ok(())
    }

    async fn insert_record(&mut self, record: &NewRecord, now: i64) -> StoreResult<i64> {
        Ok(self
            .0
            .prepare_cached(records::INSERT_RECORD.sqlite())?
            .query_row(
                params![record.scheme, record_body::stored(&record.body)?, now],
                |r| r.get(0),
            )?)
    }

    async fn insert_reader(&mut self, record_id: i64, player_id: i64) -> StoreResult<()> {
        self.0
            .prepare_cached(records::INSERT_READER.sqlite())?
            .execute(params![record_id, player_id])?;
        Ok(())
    }

    async fn insert_idempotent(&mut self, entry: &Idempotent, now: i64) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(idempotency::INSERT_ANSWER.sqlite())?
            .execute(params![
                entry.scope,
                entry.key,
                entry.request_hash,
                entry.response,
                now
            ])?;
        Ok(n == 1)
    }

    async fn delete_idempotent_prefix(&mut self, scope: &str, prefix: &str) -> StoreResult<()> {
        self.0
            .prepare_cached(idempotency::DELETE_PREFIX.sqlite())?
            .execute(params![scope, prefix])?;
        Ok(())
    }

    async fn idempotent(
        &mut self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>> {
        Ok(self
            .0
            .prepare_cached(idempotency::ANSWER.sqlite())?
            .query_row(params![scope, key], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    async fn lease(&mut self, resource: &str) -> StoreResult<Option<LeaseRow>> {
        Ok(self
            .0
            .prepare_cached(leases::LEASE.sqlite())?
            .query_row(params![resource], |r| {
                Ok(LeaseRow {
                    owner: r.get(0)?,
                    expires_at: r.get(1)?,
                })
            })
            .optional()?)
    }

    async fn take_lease(
        &mut self,
        resource: &str,
        owner: &str,
        now: i64,
        expires_at: i64,
    ) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(leases::TAKE_LEASE.sqlite())?
            .execute(params![resource, owner, expires_at, now])?;
        Ok(n == 1)
    }

    async fn set_leases_expiry(&mut self, owner: &str, expires_at: i64) -> StoreResult<u64> {
        let n = self
            .0
            .prepare_cached(leases::SET_LEASES_EXPIRY.sqlite())?
            .execute(params![expires_at, owner])?;
        Ok(n as u64)
    }

    async fn expired_leases(&mut self, prefix: &str, now: i64) -> StoreResult<Vec<String>> {
        let mut stmt = self.0.prepare_cached(leases::EXPIRED_LEASES.sqlite())?;
        let rows = stmt.query_map(params![prefix, now], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    async fn release_lease(&mut self, resource: &str, owner: &str) -> StoreResult<()> {
        self.0
            .prepare_cached(leases::RELEASE_LEASE.sqlite())?
            .execute(params![resource, owner])?;
        Ok(())
    }
}

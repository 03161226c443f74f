//! The [`Tx`] primitives in PostgreSQL's dialect.

use sqlx::postgres::PgRow;
use sqlx::{PgConnection, Row};

use super::deferred::{self, Deferred};
use crate::convert;
use crate::error::StoreResult;
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

/// A connection inside a transaction, or a pooled connection for a read,
/// with the bet's updates it has not sent yet ([`Deferred`]).
pub(crate) struct PgTx<'c> {
    conn: &'c mut PgConnection,
    deferred: Deferred,
    /// The leaf hashes of this process's bets still waiting.
    pub(super) leaves: &'c BetLeaves,
    /// The store's log appender; none with the log off.
    pub(super) appender: Option<Appender>,
}

impl<'c> PgTx<'c> {
    pub(crate) fn new(
        conn: &'c mut PgConnection,
        leaves: &'c BetLeaves,
        appender: Option<Appender>,
    ) -> Self {
        Self {
            conn,
            deferred: Deferred::default(),
            leaves,
            appender,
        }
    }

    /// The connection, once every deferred update is sent: whatever runs
    /// next sees them.
    pub(super) async fn conn(&mut self) -> StoreResult<&mut PgConnection> {
        self.deferred.flush(self.conn).await?;
        Ok(self.conn)
    }

    /// Sends what is still deferred; called before the commit.
    pub(crate) async fn finish(&mut self) -> StoreResult<()> {
        self.conn().await.map(drop)
    }
}

fn round_raw(r: &PgRow) -> StoreResult<RoundRaw> {
    Ok(RoundRaw {
        row: RoundRow {
            id: r.try_get("id")?,
            kind: r.try_get("kind")?,
            commitment: r.try_get("commitment")?,
            revealed: r.try_get("revealed_seed")?,
            state: r.try_get("state")?,
            status: r.try_get("status")?,
            log_len: convert::to_u64(r.try_get("log_len")?, "log length")?,
            version: convert::to_u64(r.try_get("version")?, "version")?,
        },
        sealed: r.try_get("sealed_seed")?,
        sealed_key: r.try_get("sealed_key")?,
    })
}

/// A bet as [`bets`]' statements read it.
pub(super) fn bet_raw(r: &PgRow) -> StoreResult<BetRaw> {
    Ok(BetRaw {
        id: r.try_get("id")?,
        player_id: r.try_get("player_id")?,
        pair_id: r.try_get("pair_id")?,
        nonce: r.try_get("nonce")?,
        amount: r.try_get("amount")?,
        condition: r.try_get("condition")?,
        target: i64::from(r.try_get::<i32, _>("target")?),
        roll: i64::from(r.try_get::<i32, _>("roll")?),
        win: r.try_get("win")?,
        payout: r.try_get("payout")?,
        balance_after: r.try_get("balance_after")?,
        idempotency_key: r.try_get("idempotency_key")?,
        created_at: r.try_get("created_at")?,
    })
}

fn record_row(r: &PgRow) -> StoreResult<RecordRow> {
    Ok(RecordRow {
        id: r.try_get("id")?,
        readers: convert::parse_readers(r.try_get::<Option<String>, _>("readers")?.as_deref())?,
        scheme: r.try_get("scheme")?,
        body: r.try_get("body")?,
    })
}

/// A shared statement with `FOR UPDATE` when its row must stay locked until
/// the transaction ends.
fn locked(statement: &Statement, lock: bool) -> String {
    format!("{}{}", statement.postgres(), lock_clause(lock))
}

/// `FOR UPDATE` when a row must stay locked until the transaction ends.
fn lock_clause(lock: bool) -> &'static str {
    if lock {
        " FOR UPDATE"
    } else {
        ""
    }
}

impl Tx for PgTx<'_> {
    async fn ping(&mut self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(self.conn().await?).await?;
        Ok(())
    }

    /// A write of one row of its own: a transaction that writes nothing
    /// else commits without waiting for a synchronous standby, even with a
    /// transaction id.
    async fn commit_probe(&mut self) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO meta (key, value) VALUES ('commit_probe', now()::text) \
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        )
        .execute(self.conn().await?)
        .await?;
        Ok(())
    }

    async fn insert_player(
        &mut self,
        token_hash: &str,
        balance: u128,
        now: i64,
    ) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(accounts::INSERT_PLAYER.postgres())
            .bind(token_hash)
            .bind(balance.to_string())
            .bind(now)
            .fetch_one(self.conn().await?)
            .await?)
    }

    async fn player_by_token(
        &mut self,
        token_hash: &str,
    ) -> StoreResult<Option<(i64, String, u128)>> {
        let found: Option<(i64, String, String)> =
            sqlx::query_as(accounts::PLAYER_BY_TOKEN.postgres())
                .bind(token_hash)
                .fetch_optional(self.conn().await?)
                .await?;
        found
            .map(|(id, hash, balance)| Ok((id, hash, convert::parse_u128(&balance, "balance")?)))
            .transpose()
    }

    async fn balance(&mut self, player_id: i64, lock: bool) -> StoreResult<Option<u128>> {
        let balance: Option<String> = sqlx::query_scalar(&locked(&accounts::BALANCE, lock))
            .bind(player_id)
            .fetch_optional(self.conn().await?)
            .await?;
        balance
            .map(|b| convert::parse_u128(&b, "balance"))
            .transpose()
    }

    async fn set_balance(&mut self, player_id: i64, balance: u128) -> StoreResult<()> {
        self.deferred
            .set_balance(self.conn, player_id, balance)
            .await
    }

    async fn operator_player_id(
        &mut self,
        external_id: &str,
        lock: bool,
    ) -> StoreResult<Option<i64>> {
        Ok(
            sqlx::query_scalar(&locked(&accounts::OPERATOR_PLAYER_ID, lock))
                .bind(external_id)
                .fetch_optional(self.conn().await?)
                .await?,
        )
    }

    async fn is_operator_player(&mut self, player_id: i64) -> StoreResult<bool> {
        let found: Option<i32> = sqlx::query_scalar(accounts::IS_OPERATOR_PLAYER.postgres())
            .bind(player_id)
            .fetch_optional(self.conn().await?)
            .await?;
        Ok(found.is_some())
    }

    async fn insert_operator_player(
        &mut self,
        external_id: &str,
        player_id: i64,
        now: i64,
    ) -> StoreResult<bool> {
        let inserted: Option<i64> = sqlx::query_scalar(accounts::INSERT_OPERATOR_PLAYER.postgres())
            .bind(external_id)
            .bind(player_id)
            .bind(now)
            .fetch_optional(self.conn().await?)
            .await?;
        Ok(inserted.is_some())
    }

    async fn replace_token_hash(
        &mut self,
        player_id: i64,
        token_hash: &str,
    ) -> StoreResult<String> {
        let old: String = sqlx::query_scalar(&locked(&accounts::TOKEN_HASH, true))
            .bind(player_id)
            .fetch_one(self.conn().await?)
            .await?;
        sqlx::query(accounts::SET_TOKEN_HASH.postgres())
            .bind(token_hash)
            .bind(player_id)
            .execute(self.conn().await?)
            .await?;
        Ok(old)
    }

    async fn chip_grant(
        &mut self,
        player_id: i64,
        key: &str,
    ) -> StoreResult<Option<(i64, String, String)>> {
        let found: Option<(i64, String, String)> = sqlx::query_as(accounts::CHIP_GRANT.postgres())
            .bind(player_id)
            .bind(key)
            .fetch_optional(self.conn().await?)
            .await?;
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
        Ok(sqlx::query_scalar(accounts::INSERT_CHIP_GRANT.postgres())
            .bind(player_id)
            .bind(key)
            .bind(amount.to_string())
            .bind(balance_after.to_string())
            .bind(now)
            .fetch_one(self.conn().await?)
            .await?)
    }

    async fn insert_pair(
        &mut self,
        player_id: i64,
        pair: &SealedPair,
        now: i64,
    ) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(accounts::INSERT_PAIR.postgres())
            .bind(player_id)
            .bind(&pair.commitment)
            .bind(&pair.sealed)
            .bind(&pair.client_seed)
            .bind(now)
            .fetch_one(self.conn().await?)
            .await?)
    }

    async fn current_pair(
        &mut self,
        player_id: i64,
        lock: bool,
    ) -> StoreResult<Option<(SeedPair, Vec<u8>)>> {
        let row = sqlx::query(&locked(&accounts::CURRENT_PAIR, lock))
            .bind(player_id)
            .fetch_optional(self.conn().await?)
            .await?;
        row.map(|row| {
            let pair = SeedPair {
                id: row.try_get("id")?,
                player_id,
                commitment: row.try_get("commitment")?,
                client_seed: row.try_get("client_seed")?,
                next_nonce: convert::to_u64(row.try_get("next_nonce")?, "nonce")?,
                appended: Vec::new(),
            };
            Ok((pair, row.try_get("sealed_seed")?))
        })
        .transpose()
    }

    async fn set_client_seed(
        &mut self,
        player_id: i64,
        commitment: &str,
        client_seed: &str,
    ) -> StoreResult<bool> {
        let done = sqlx::query(accounts::SET_CLIENT_SEED.postgres())
            .bind(client_seed)
            .bind(player_id)
            .bind(commitment)
            .execute(self.conn().await?)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn pair_seeds(&mut self, pair_id: i64) -> StoreResult<Option<(String, String)>> {
        Ok(sqlx::query_as(accounts::PAIR_SEEDS.postgres())
            .bind(pair_id)
            .fetch_optional(self.conn().await?)
            .await?)
    }

    async fn bump_nonce(&mut self, pair_id: i64) -> StoreResult<()> {
        self.deferred.bump_nonce(self.conn, pair_id).await
    }

    async fn reveal_pair(&mut self, pair_id: i64, server_seed: &str, now: i64) -> StoreResult<()> {
        sqlx::query(accounts::REVEAL_PAIR.postgres())
            .bind(server_seed)
            .bind(now)
            .bind(pair_id)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn players_with_unrevealed_pair(
        &mut self,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<i64>> {
        Ok(
            sqlx::query_scalar(accounts::PLAYERS_WITH_UNREVEALED_PAIR.postgres())
                .bind(after)
                .bind(i64::from(limit))
                .fetch_all(self.conn().await?)
                .await?,
        )
    }

    async fn revealed_pairs(
        &mut self,
        player_id: i64,
        page: Page,
    ) -> StoreResult<Vec<RevealedPair>> {
        sqlx::query(accounts::REVEALED_PAIRS.postgres())
            .bind(player_id)
            .bind(page.before)
            .bind(convert::limit(page.limit))
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(|r| {
                Ok(RevealedPair {
                    id: r.try_get("id")?,
                    player_id,
                    commitment: r.try_get("commitment")?,
                    server_seed: r.try_get("revealed_seed")?,
                    client_seed: r.try_get("client_seed")?,
                    bets: convert::to_u64(r.try_get("next_nonce")?, "nonce")?,
                })
            })
            .collect()
    }

    async fn bet_by_key(&mut self, player_id: i64, key: &str) -> StoreResult<Option<BetRaw>> {
        sqlx::query(bets::BET_BY_KEY.postgres())
            .bind(player_id)
            .bind(key)
            .fetch_optional(self.conn().await?)
            .await?
            .as_ref()
            .map(bet_raw)
            .transpose()
    }

    async fn insert_bet(&mut self, bet: &BetRow, logged: bool, now: i64) -> StoreResult<i64> {
        let updates = self.deferred.take_bet();
        deferred::insert_bet(self.conn().await?, bet, now, updates, logged).await
    }

    async fn bets(
        &mut self,
        player_id: i64,
        pair_id: Option<i64>,
        page: Page,
    ) -> StoreResult<Vec<BetRaw>> {
        sqlx::query(bets::BETS.postgres())
            .bind(player_id)
            .bind(pair_id)
            .bind(page.before)
            .bind(convert::limit(page.limit))
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(bet_raw)
            .collect()
    }

    async fn pair_bets(
        &mut self,
        pair_id: i64,
        after: Option<u64>,
        limit: u32,
    ) -> StoreResult<Vec<BetRaw>> {
        let after = after.map(|n| convert::to_i64(n, "nonce")).transpose()?;
        sqlx::query(bets::PAIR_BETS.postgres())
            .bind(pair_id)
            .bind(after)
            .bind(convert::limit(limit))
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(bet_raw)
            .collect()
    }

    async fn records_with_ids(
        &mut self,
        viewer: RecordReader,
        ids: &[i64],
    ) -> StoreResult<Vec<RecordRow>> {
        sqlx::query(records::RECORDS_WITH_IDS.postgres())
            .bind(reader(viewer))
            .bind(ids)
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(record_row)
            .collect()
    }

    async fn records(&mut self, viewer: RecordReader, page: Page) -> StoreResult<Vec<RecordRow>> {
        sqlx::query(records::RECORDS.postgres())
            .bind(reader(viewer))
            .bind(page.before)
            .bind(convert::limit(page.limit))
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(record_row)
            .collect()
    }

    async fn records_after(
        &mut self,
        viewer: RecordReader,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<RecordRow>> {
        sqlx::query(records::RECORDS_AFTER.postgres())
            .bind(reader(viewer))
            .bind(after)
            .bind(convert::limit(limit))
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(record_row)
            .collect()
    }

    async fn round_log(&mut self, id: &str, from_seq: u64, limit: u32) -> StoreResult<Vec<LogRow>> {
        sqlx::query(rounds::LOG_LINES.postgres())
            .bind(id)
            .bind(convert::to_i64(from_seq, "seq")?)
            .bind(convert::limit(limit))
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(|r| {
                Ok(LogRow {
                    seq: convert::to_u64(r.try_get("seq")?, "seq")?,
                    body: r.try_get("body")?,
                })
            })
            .collect()
    }

    async fn rounds_with_status(&mut self, kind: &str, status: &str) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(rounds::ROUNDS_WITH_STATUS.postgres())
            .bind(kind)
            .bind(status)
            .fetch_all(self.conn().await?)
            .await?)
    }

    async fn rounds(&mut self, ids: &[String]) -> StoreResult<Vec<RoundRaw>> {
        sqlx::query(rounds::ROUNDS.postgres())
            .bind(ids)
            .fetch_all(self.conn().await?)
            .await?
            .iter()
            .map(round_raw)
            .collect()
    }

    async fn insert_round(
        &mut self,
        round: &NewRound,
        sealed: &[u8],
        sealed_key: Option<&[u8]>,
        now: i64,
    ) -> StoreResult<bool> {
        let done = sqlx::query(rounds::INSERT_ROUND.postgres())
            .bind(&round.id)
            .bind(&round.kind)
            .bind(&round.commitment)
            .bind(sealed)
            .bind(&round.state)
            .bind(&round.status)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        let inserted = done.rows_affected() == 1;
        if let Some(key) = sealed_key.filter(|_| inserted) {
            sqlx::query(rounds::INSERT_ROUND_KEY.postgres())
                .bind(&round.id)
                .bind(key)
                .execute(self.conn().await?)
                .await?;
        }
        Ok(inserted)
    }

    async fn update_round(&mut self, set: &RoundSet<'_>) -> StoreResult<bool> {
        let done = sqlx::query(rounds::UPDATE_ROUND.postgres())
            .bind(set.state)
            .bind(set.status)
            .bind(convert::to_i64(set.log_len, "log length")?)
            .bind(set.now)
            .bind(set.reveal)
            .bind(set.id)
            .bind(convert::to_i64(set.expected_version, "version")?)
            .execute(self.conn().await?)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn insert_log(
        &mut self,
        round_id: &str,
        seq: u64,
        body: &str,
        now: i64,
    ) -> StoreResult<()> {
        sqlx::query(rounds::INSERT_LOG_LINE.postgres())
            .bind(round_id)
            .bind(convert::to_i64(seq, "seq")?)
            .bind(body)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn delete_log_before(&mut self, round_id: &str, before_seq: u64) -> StoreResult<()> {
        sqlx::query(rounds::DELETE_LOG_BEFORE.postgres())
            .bind(round_id)
            .bind(convert::to_i64(before_seq, "seq")?)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn insert_record(&mut self, record: &NewRecord, now: i64) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(records::INSERT_RECORD.postgres())
            .bind(&record.scheme)
            .bind(&record.body)
            .bind(now)
            .fetch_one(self.conn().await?)
            .await?)
    }

    async fn insert_reader(&mut self, record_id: i64, player_id: i64) -> StoreResult<()> {
        sqlx::query(records::INSERT_READER.postgres())
            .bind(record_id)
            .bind(player_id)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn insert_idempotent(&mut self, entry: &Idempotent, now: i64) -> StoreResult<bool> {
        let done = sqlx::query(idempotency::INSERT_ANSWER.postgres())
            .bind(&entry.scope)
            .bind(&entry.key)
            .bind(&entry.request_hash)
            .bind(&entry.response)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn delete_idempotent_prefix(&mut self, scope: &str, prefix: &str) -> StoreResult<()> {
        sqlx::query(idempotency::DELETE_PREFIX.postgres())
            .bind(scope)
            .bind(prefix)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn idempotent(
        &mut self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>> {
        Ok(sqlx::query_as(idempotency::ANSWER.postgres())
            .bind(scope)
            .bind(key)
            .fetch_optional(self.conn().await?)
            .await?)
    }

    async fn lease(&mut self, resource: &str) -> StoreResult<Option<LeaseRow>> {
        let row: Option<(String, i64)> = sqlx::query_as(leases::LEASE.postgres())
            .bind(resource)
            .fetch_optional(self.conn().await?)
            .await?;
        Ok(row.map(|(owner, expires_at)| LeaseRow { owner, expires_at }))
    }

    async fn take_lease(
        &mut self,
        resource: &str,
        owner: &str,
        now: i64,
        expires_at: i64,
    ) -> StoreResult<bool> {
        let done = sqlx::query(leases::TAKE_LEASE.postgres())
            .bind(resource)
            .bind(owner)
            .bind(expires_at)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn set_leases_expiry(&mut self, owner: &str, expires_at: i64) -> StoreResult<u64> {
        let done = sqlx::query(leases::SET_LEASES_EXPIRY.postgres())
            .bind(expires_at)
            .bind(owner)
            .execute(self.conn().await?)
            .await?;
        Ok(done.rows_affected())
    }

    async fn expired_leases(&mut self, prefix: &str, now: i64) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(leases::EXPIRED_LEASES.postgres())
            .bind(prefix)
            .bind(now)
            .fetch_all(self.conn().await?)
            .await?)
    }

    async fn release_lease(&mut self, resource: &str, owner: &str) -> StoreResult<()> {
        sqlx::query(leases::RELEASE_LEASE.postgres())
            .bind(resource)
            .bind(owner)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }
}

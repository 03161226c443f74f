//! The [`Tx`] primitives in PostgreSQL's dialect.

use sqlx::postgres::PgRow;
use sqlx::{PgConnection, Row};

use crate::error::StoreResult;
use crate::plan;
use crate::tx::{LeaseRow, RoundRaw, RoundSet, Tx};
use crate::types::{Idempotent, NewRecord, NewRound, RoundRow};

/// A connection inside a transaction, or a pooled connection for a read.
pub(crate) struct PgTx<'c>(pub(crate) &'c mut PgConnection);

const ROUND_COLUMNS: &str =
    "id, kind, commitment, sealed_seed, revealed_seed, state, status, log_len, version";

fn round_raw(r: &PgRow) -> StoreResult<RoundRaw> {
    Ok(RoundRaw {
        row: RoundRow {
            id: r.try_get("id")?,
            kind: r.try_get("kind")?,
            commitment: r.try_get("commitment")?,
            revealed: r.try_get("revealed_seed")?,
            state: r.try_get("state")?,
            status: r.try_get("status")?,
            log_len: plan::to_u64(r.try_get("log_len")?, "log length")?,
            version: plan::to_u64(r.try_get("version")?, "version")?,
        },
        sealed: r.try_get("sealed_seed")?,
    })
}

impl Tx for PgTx<'_> {
    async fn rounds(&mut self, ids: &[String], lock: bool) -> StoreResult<Vec<RoundRaw>> {
        // Locks are taken in id order so two steps cannot deadlock.
        let lock = if lock { " FOR UPDATE" } else { "" };
        sqlx::query(&format!(
            "SELECT {ROUND_COLUMNS} FROM rounds WHERE id = ANY($1) ORDER BY id{lock}"
        ))
        .bind(ids)
        .fetch_all(&mut *self.0)
        .await?
        .iter()
        .map(round_raw)
        .collect()
    }

    async fn insert_round(
        &mut self,
        round: &NewRound,
        sealed: &[u8],
        now: i64,
    ) -> StoreResult<bool> {
        let done = sqlx::query(
            "INSERT INTO rounds (id, kind, commitment, sealed_seed, state, status, log_len,
                                 version, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 0, 0, $7, $7) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&round.id)
        .bind(&round.kind)
        .bind(&round.commitment)
        .bind(sealed)
        .bind(&round.state)
        .bind(&round.status)
        .bind(now)
        .execute(&mut *self.0)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn update_round(&mut self, set: &RoundSet<'_>) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE rounds SET state = $1, status = $2, log_len = $3, updated_at = $4,
                    version = version + 1,
                    revealed_seed = COALESCE($5, revealed_seed),
                    sealed_seed = CASE WHEN $5::text IS NULL THEN sealed_seed ELSE NULL END
             WHERE id = $6 AND version = $7",
        )
        .bind(set.state)
        .bind(set.status)
        .bind(plan::to_i64(set.log_len, "log length")?)
        .bind(set.now)
        .bind(set.reveal)
        .bind(set.id)
        .bind(plan::to_i64(set.expected_version, "version")?)
        .execute(&mut *self.0)
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
        sqlx::query(
            "INSERT INTO round_log (round_id, seq, body, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(round_id)
        .bind(plan::to_i64(seq, "seq")?)
        .bind(body)
        .bind(now)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn insert_record(&mut self, record: &NewRecord, now: i64) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "INSERT INTO records (scheme, body, created_at) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(&record.scheme)
        .bind(&record.body)
        .bind(now)
        .fetch_one(&mut *self.0)
        .await?)
    }

    async fn insert_reader(&mut self, record_id: i64, player_id: i64) -> StoreResult<()> {
        sqlx::query("INSERT INTO record_readers (record_id, player_id) VALUES ($1, $2)")
            .bind(record_id)
            .bind(player_id)
            .execute(&mut *self.0)
            .await?;
        Ok(())
    }

    async fn insert_idempotent(&mut self, entry: &Idempotent, now: i64) -> StoreResult<bool> {
        let done = sqlx::query(
            "INSERT INTO idempotency (scope, key, request_hash, response, created_at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (scope, key) DO NOTHING",
        )
        .bind(&entry.scope)
        .bind(&entry.key)
        .bind(&entry.request_hash)
        .bind(&entry.response)
        .bind(now)
        .execute(&mut *self.0)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn idempotent(
        &mut self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>> {
        Ok(sqlx::query_as(
            "SELECT request_hash, response FROM idempotency WHERE scope = $1 AND key = $2",
        )
        .bind(scope)
        .bind(key)
        .fetch_optional(&mut *self.0)
        .await?)
    }

    async fn lease(&mut self, resource: &str) -> StoreResult<Option<LeaseRow>> {
        let row: Option<(String, i64)> =
            sqlx::query_as("SELECT owner, expires_at FROM leases WHERE resource = $1")
                .bind(resource)
                .fetch_optional(&mut *self.0)
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
        let done = sqlx::query(
            "INSERT INTO leases (resource, owner, expires_at) VALUES ($1, $2, $3)
             ON CONFLICT (resource) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
             WHERE leases.owner = excluded.owner OR leases.expires_at < $4",
        )
        .bind(resource)
        .bind(owner)
        .bind(expires_at)
        .bind(now)
        .execute(&mut *self.0)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn renew_leases(&mut self, owner: &str, expires_at: i64) -> StoreResult<u64> {
        let done = sqlx::query("UPDATE leases SET expires_at = $1 WHERE owner = $2")
            .bind(expires_at)
            .bind(owner)
            .execute(&mut *self.0)
            .await?;
        Ok(done.rows_affected())
    }

    async fn expired_leases(&mut self, prefix: &str, now: i64) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT resource FROM leases
             WHERE starts_with(resource, $1) AND expires_at < $2 ORDER BY resource",
        )
        .bind(prefix)
        .bind(now)
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn release_lease(&mut self, resource: &str, owner: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM leases WHERE resource = $1 AND owner = $2")
            .bind(resource)
            .bind(owner)
            .execute(&mut *self.0)
            .await?;
        Ok(())
    }
}

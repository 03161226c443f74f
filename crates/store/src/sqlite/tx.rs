//! The [`Tx`] primitives in SQLite's dialect.

use rusqlite::{params, Connection, OptionalExtension};

use crate::error::StoreResult;
use crate::plan;
use crate::tx::{LeaseRow, RoundRaw, RoundSet, Tx};
use crate::types::{Idempotent, NewRecord, NewRound, RoundRow};

/// A connection inside the writer's savepoint, or a read connection.
pub(crate) struct SqliteTx<'c>(pub(crate) &'c Connection);

const ROUND_COLUMNS: &str =
    "id, kind, commitment, sealed_seed, revealed_seed, state, status, log_len, version";

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
        },
        r.get(7)?,
        r.get(8)?,
    ))
}

impl Tx for SqliteTx<'_> {
    async fn rounds(&mut self, ids: &[String], _lock: bool) -> StoreResult<Vec<RoundRaw>> {
        let mut stmt = self
            .0
            .prepare_cached(&format!("SELECT {ROUND_COLUMNS} FROM rounds WHERE id = ?1"))?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some((mut raw, log_len, version)) =
                stmt.query_row(params![id], round_raw).optional()?
            {
                raw.row.log_len = plan::to_u64(log_len, "log length")?;
                raw.row.version = plan::to_u64(version, "version")?;
                out.push(raw);
            }
        }
        Ok(out)
    }

    async fn insert_round(
        &mut self,
        round: &NewRound,
        sealed: &[u8],
        now: i64,
    ) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(
                "INSERT INTO rounds (id, kind, commitment, sealed_seed, state, status, log_len,
                                     version, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 0, ?7, ?7) ON CONFLICT (id) DO NOTHING",
            )?
            .execute(params![
                round.id,
                round.kind,
                round.commitment,
                sealed,
                round.state,
                round.status,
                now
            ])?;
        Ok(n == 1)
    }

    async fn update_round(&mut self, set: &RoundSet<'_>) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(
                "UPDATE rounds SET state = ?1, status = ?2, log_len = ?3, updated_at = ?4,
                        version = version + 1,
                        revealed_seed = COALESCE(?5, revealed_seed),
                        sealed_seed = CASE WHEN ?5 IS NULL THEN sealed_seed ELSE NULL END
                 WHERE id = ?6 AND version = ?7",
            )?
            .execute(params![
                set.state,
                set.status,
                plan::to_i64(set.log_len, "log length")?,
                set.now,
                set.reveal,
                set.id,
                plan::to_i64(set.expected_version, "version")?
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
            .prepare_cached(
                "INSERT INTO round_log (round_id, seq, body, created_at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![round_id, plan::to_i64(seq, "seq")?, body, now])?;
        Ok(())
    }

    async fn insert_record(&mut self, record: &NewRecord, now: i64) -> StoreResult<i64> {
        self.0
            .prepare_cached("INSERT INTO records (scheme, body, created_at) VALUES (?1, ?2, ?3)")?
            .execute(params![record.scheme, record.body, now])?;
        Ok(self.0.last_insert_rowid())
    }

    async fn insert_reader(&mut self, record_id: i64, player_id: i64) -> StoreResult<()> {
        self.0
            .prepare_cached("INSERT INTO record_readers (record_id, player_id) VALUES (?1, ?2)")?
            .execute(params![record_id, player_id])?;
        Ok(())
    }

    async fn insert_idempotent(&mut self, entry: &Idempotent, now: i64) -> StoreResult<bool> {
        let n = self
            .0
            .prepare_cached(
                "INSERT INTO idempotency (scope, key, request_hash, response, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (scope, key) DO NOTHING",
            )?
            .execute(params![
                entry.scope,
                entry.key,
                entry.request_hash,
                entry.response,
                now
            ])?;
        Ok(n == 1)
    }

    async fn idempotent(
        &mut self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>> {
        Ok(self
            .0
            .prepare_cached(
                "SELECT request_hash, response FROM idempotency WHERE scope = ?1 AND key = ?2",
            )?
            .query_row(params![scope, key], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    async fn lease(&mut self, resource: &str) -> StoreResult<Option<LeaseRow>> {
        Ok(self
            .0
            .prepare_cached("SELECT owner, expires_at FROM leases WHERE resource = ?1")?
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
            .prepare_cached(
                "INSERT INTO leases (resource, owner, expires_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (resource) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                 WHERE leases.owner = excluded.owner OR leases.expires_at < ?4",
            )?
            .execute(params![resource, owner, expires_at, now])?;
        Ok(n == 1)
    }

    async fn renew_leases(&mut self, owner: &str, expires_at: i64) -> StoreResult<u64> {
        let n = self
            .0
            .prepare_cached("UPDATE leases SET expires_at = ?1 WHERE owner = ?2")?
            .execute(params![expires_at, owner])?;
        Ok(n as u64)
    }

    async fn expired_leases(&mut self, prefix: &str, now: i64) -> StoreResult<Vec<String>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT resource FROM leases
             WHERE substr(resource, 1, length(?1)) = ?1 AND expires_at < ?2 ORDER BY resource",
        )?;
        let rows = stmt.query_map(params![prefix, now], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    async fn release_lease(&mut self, resource: &str, owner: &str) -> StoreResult<()> {
        self.0
            .prepare_cached("DELETE FROM leases WHERE resource = ?1 AND owner = ?2")?
            .execute(params![resource, owner])?;
        Ok(())
    }
}

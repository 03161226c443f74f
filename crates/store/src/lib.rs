//! Durable storage for the fairseed service.
//!
//! One trait per concern ([`AccountStore`], [`RoundStore`], [`LogStore`],
//! [`LeaseStore`], [`IdempotencyStore`]; [`Store`] is all of them), two
//! backends: [`SqliteStore`] (embedded, the default) and [`PgStore`]
//! (PostgreSQL, for several server processes). What each operation does is
//! written once (`accounts`, `rounds`, `leases`, `translog`, over the
//! `tx::Tx` primitives); a backend supplies only its SQL
//! dialect, its connections and its migrations. The store keeps data atomic
//! and versioned; it runs no game rule. Unrevealed server seeds are sealed
//! with a [`SeedCipher`] whose key lives outside the database.

#![forbid(unsafe_code)]

mod accounts;
mod api;
pub mod backup;
mod convert;
mod error;
mod leases;
pub mod operator;
mod postgres;
mod rounds;
mod seal;
mod settings;
mod sql;
mod sqlite;
mod time;
mod translog;
mod tx;
mod types;
pub mod wait;

pub use api::{AccountStore, IdempotencyStore, LeaseStore, LogStore, RoundStore, Store};
pub use error::{BoxError, Chain, Refusal, StoreError, StoreResult};
pub use operator::{ChipGrant, OperatorPlayer};
pub use postgres::PgStore;
pub use seal::{create_private_dir, write_private, SecretSeed, SeedCipher};
pub use settings::{DbSettings, SqliteTuning};
pub use sqlite::{SqliteStore, WalStats};
pub use translog::{
    entry_name as log_entry_name, LogCheckpoint, LogStep, LoggedEntry, SignFn,
    MAX_BATCH as MAX_LOG_BATCH,
};
pub use types::{
    fill_record_ids, folded_records, folded_row, BetDraw, BetReceipt, BetRequest, BetRow, Commit,
    Condition, EventFeed, Idempotent, KeyPrefix, LeaseGrant, LoadedRound, LogFold, LogRow,
    NewRecord, NewRound, NewSeedPair, Page, Player, RecordIdAt, RecordOut, RecordReader, RecordRow,
    RecordsFn, RevealedPair, Rotation, RoundChange, RoundRow, RoundUpdate, RoundWrite, SeedPair,
    SettleFn, Settled, FOLDED_PER_ROW, ROTATION_PAGE,
};

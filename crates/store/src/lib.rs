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
mod sqlite;
mod time;
mod translog;
mod tx;
mod types;
pub mod wait;

pub use api::{AccountStore, IdempotencyStore, LeaseStore, LogStore, RoundStore, Store};
pub use error::{BoxError, Refusal, StoreError, StoreResult};
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
    fill_record_ids, BetDraw, BetReceipt, BetRequest, BetRow, Commit, Condition, Idempotent,
    LeaseGrant, LoadedRound, LogRow, NewRecord, NewRound, NewSeedPair, Page, Player, RecordOut,
    RecordRow, RecordsFn, RevealedPair, Rotation, RoundChange, RoundRow, RoundUpdate, RoundWrite,
    SeedPair, SettleFn, Settled, ROTATION_PAGE,
};

/// Compares two secrets' hex digests in constant time.
pub(crate) fn ct_eq_str(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The meta key under which the sealing key's fingerprint is kept.
pub(crate) const KEY_FINGERPRINT: &str = "seal_key_fingerprint";

/// Who is reading records: a player sees only their own, the operator all.
/// (Who looks at a game's state is `fairseed_play::Viewer`, another question.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordReader {
    /// A player, by id.
    Player(i64),
    /// The operator.
    Operator,
}

/// Live events from every process on the database, as broadcast.
pub type EventFeed = tokio::sync::mpsc::Receiver<String>;

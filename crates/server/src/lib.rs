//! The fairseed HTTP service.
//!
//! It commits before every draw, accepts client seeds only after the
//! commitment was shown, counts nonces, and reveals on rotation; every
//! scheme is computed by `fairseed-core` and every write is durable (through
//! `fairseed-store`) before the answer. The CLI runs [`serve`] as
//! `fairseed serve`; tests drive [`app`] directly.

#![forbid(unsafe_code)]

mod args;
mod auth;
pub mod clock;
pub mod config;
pub mod db_health;
mod db_watch;
mod dice_records;
mod error;
pub mod events;
pub mod fleet;
pub mod fork_guard;
pub mod handlers;
mod holdem;
pub mod idempotent;
mod lease;
mod limits;
mod listener;
pub mod log;
mod logs;
pub mod metrics;
pub mod new_log;
pub mod proxy;
mod ratelimit;
mod reload;
mod retire;
mod rounds;
mod router;
mod secrets;
mod serve;
mod service;
mod state;
pub mod step;
mod tls;
mod token_cache;
pub mod web;

use std::sync::Arc;

use fairseed_store::Store;

pub use args::{LogFormat, ServeArgs, SignupMode, DEFAULT_PORT};
pub use auth::{OperatorAuth, Peer, PlayerAuth};
pub use error::{ApiError, ApiJson, ApiPath, ApiQuery};
pub use lease::Fleet;
pub use limits::BODY_LIMIT;
pub use ratelimit::AddressLimits;
pub use router::{router, OPENAPI};
pub use serve::serve;
pub use state::{AppState, ServiceOptions};
pub use web::{with_page, with_static};

/// The whole service over `state` (API plus the embedded player page at `/`), as `serve` runs it.
pub fn app(state: AppState) -> axum::Router {
    with_static(router(state), None)
}

/// A state over any store with test-friendly settings (no rate limit unless given).
pub fn state(
    store: Arc<dyn Store>,
    operator_key: &str,
    opening_balance: u64,
    rate_limit: u32,
) -> AppState {
    AppState::new(store, operator_key, opening_balance, rate_limit)
}

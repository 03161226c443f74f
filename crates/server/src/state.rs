//! What every handler shares.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use fairseed_store::Store;

use crate::events::Hub;
use crate::fleet::{Fleet, DEFAULT_LEASE_TTL_MS};
use crate::ratelimit::RateLimiter;

/// Token hashes → player ids cached so a bet costs no extra read.
/// Tokens never change owner, so the cache is safe across processes.
const TOKEN_CACHE_MAX: usize = 200_000;

/// Shared state: the store and the service's settings. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    opening_balance: u128,
    operator_key_hash: String,
    limiter: RateLimiter,
    tokens: RwLock<HashMap<String, i64>>,
    events: Hub,
    fleet: Fleet,
}

impl AppState {
    /// State over `store`; `operator_key` authenticates the operator.
    pub fn new(
        store: Arc<dyn Store>,
        operator_key: &str,
        opening_balance: u64,
        rate_limit: u32,
    ) -> Self {
        let fleet = Fleet::alone(DEFAULT_LEASE_TTL_MS);
        Self::in_fleet(store, operator_key, opening_balance, rate_limit, fleet)
    }

    /// State over `store` for a process holding leases as `fleet`.
    pub fn in_fleet(
        store: Arc<dyn Store>,
        operator_key: &str,
        opening_balance: u64,
        rate_limit: u32,
        fleet: Fleet,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                store,
                opening_balance: u128::from(opening_balance),
                operator_key_hash: crate::secrets::token_hash(operator_key),
                limiter: RateLimiter::new(rate_limit),
                tokens: RwLock::new(HashMap::new()),
                events: Hub::default(),
                fleet,
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.inner.store.as_ref()
    }

    /// Chips for a new account.
    pub fn opening_balance(&self) -> u128 {
        self.inner.opening_balance
    }

    pub(crate) fn operator_key_hash(&self) -> &str {
        &self.inner.operator_key_hash
    }

    /// This process's owner id and lease lifetime.
    pub fn fleet(&self) -> &Fleet {
        &self.inner.fleet
    }

    /// The live-event hub.
    pub fn events(&self) -> &Hub {
        &self.inner.events
    }

    pub(crate) fn limiter(&self) -> &RateLimiter {
        &self.inner.limiter
    }

    pub(crate) fn cached_player(&self, token_hash: &str) -> Option<i64> {
        self.inner.tokens.read().ok()?.get(token_hash).copied()
    }

    pub(crate) fn cache_player(&self, token_hash: String, id: i64) {
        if let Ok(mut tokens) = self.inner.tokens.write() {
            if tokens.len() >= TOKEN_CACHE_MAX {
                tokens.clear();
            }
            tokens.insert(token_hash, id);
        }
    }
}

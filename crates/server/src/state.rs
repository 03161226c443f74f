//! What every handler shares.

use std::sync::Arc;

use fairseed_store::Store;

use crate::args::SignupMode;
use crate::error::ApiError;
use crate::events::Hub;
use crate::holdem::tables::Tables;
use crate::lease::Fleet;
use crate::limits::DEFAULT_LEASE_TTL_MS;
use crate::log::{LogKey, Receipt, Signer};
use crate::metrics::Metrics;
use crate::ratelimit::{AddressLimiter, AddressLimits, RateLimiter};

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
    address_limits: AddressLimiter,
    signup: SignupMode,
    events: Hub,
    metrics: Metrics,
    fleet: Fleet,
    holdem: Tables,
    log: Option<(Arc<LogKey>, Signer)>,
    /// Set once when the process begins to stop (SIGTERM).
    stopping: tokio::sync::watch::Sender<bool>,
}

impl Default for ServiceOptions {
    fn default() -> Self {
        Self {
            metrics: Metrics::default(),
            address_limits: AddressLimits::default(),
            signup: SignupMode::default(),
            fleet: Fleet::alone(DEFAULT_LEASE_TTL_MS),
            holdem: fairseed_holdem::live::driver::Timing::default(),
            holdem_caps: crate::limits::TableCaps::default(),
            log: None,
        }
    }
}

/// Settings `fairseed serve` sets beyond the ones tests need.
#[derive(Debug)]
pub struct ServiceOptions {
    /// What `/metrics` reports.
    pub metrics: Metrics,
    /// Per-address limits (off by default).
    pub address_limits: AddressLimits,
    /// Who may create accounts.
    pub signup: SignupMode,
    /// This process's place in a fleet (its lease owner id).
    pub fleet: Fleet,
    /// The pace of live hold'em tables (AI delay, pause between hands).
    pub holdem: fairseed_holdem::live::driver::Timing,
    /// How many live hold'em tables may be open.
    pub holdem_caps: crate::limits::TableCaps,
    /// The transparency log's key; `None`: no receipts, no `/log/`.
    pub log: Option<Arc<LogKey>>,
}

impl AppState {
    /// State over `store`; `operator_key` authenticates the operator.
    pub fn new(
        store: Arc<dyn Store>,
        operator_key: &str,
        opening_balance: u64,
        rate_limit: u32,
    ) -> Self {
        Self::with_options(
            store,
            operator_key,
            opening_balance,
            rate_limit,
            ServiceOptions::default(),
        )
    }

    /// [`Self::new`] with the service's own options.
    pub fn with_options(
        store: Arc<dyn Store>,
        operator_key: &str,
        opening_balance: u64,
        rate_limit: u32,
        options: ServiceOptions,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                store,
                opening_balance: u128::from(opening_balance),
                operator_key_hash: crate::secrets::token_hash(operator_key),
                limiter: RateLimiter::new(rate_limit),
                address_limits: AddressLimiter::new(options.address_limits),
                signup: options.signup,
                events: Hub::default(),
                metrics: options.metrics,
                fleet: options.fleet,
                holdem: Tables::new(options.holdem).with_caps(options.holdem_caps),
                log: options
                    .log
                    .map(|key| (Arc::clone(&key), Signer::spawn(key))),
                stopping: tokio::sync::watch::channel(false).0,
            }),
        }
    }

    /// Tells long-lived connections (WebSockets) that the process stops.
    pub fn stop(&self) {
        self.inner.stopping.send_replace(true);
    }

    /// Resolves once [`AppState::stop`] was called.
    pub fn stopping(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut rx = self.inner.stopping.subscribe();
        async move {
            let _ = rx.wait_for(|stopping| *stopping).await;
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

    /// The live hold'em tables this process drives.
    pub(crate) fn holdem(&self) -> &Tables {
        &self.inner.holdem
    }

    /// The transparency log's key, when the log is on.
    pub fn log_key(&self) -> Option<&LogKey> {
        self.inner.log.as_ref().map(|(key, _)| key.as_ref())
    }

    /// Receipts for the log entries a change queued (none when the log is off).
    pub(crate) async fn receipts(&self, entries: &[Vec<u8>]) -> Result<Vec<Receipt>, ApiError> {
        let Some((_, signer)) = &self.inner.log else {
            return Ok(Vec::new());
        };
        let leaves: Vec<_> = entries
            .iter()
            .map(|e| fairseed_tlog::leaf_hash(e))
            .collect();
        let signed = signer.sign(leaves.clone()).await?;
        Ok(entries
            .iter()
            .zip(leaves)
            .zip(signed)
            .map(|((entry, leaf), batch)| Receipt::signed(entry, leaf, batch))
            .collect())
    }

    /// `body` (a JSON object) with `receipts` for every log entry `updates` queued.
    pub(crate) async fn with_receipts(
        &self,
        body: serde_json::Value,
        updates: &[fairseed_store::RoundUpdate],
    ) -> Result<serde_json::Value, ApiError> {
        let entries: Vec<Vec<u8>> = updates.iter().flat_map(|u| u.appended.clone()).collect();
        self.with_entry_receipts(body, &entries).await
    }

    /// `body` (a JSON object) with `receipts` for `entries`.
    pub(crate) async fn with_entry_receipts(
        &self,
        mut body: serde_json::Value,
        entries: &[Vec<u8>],
    ) -> Result<serde_json::Value, ApiError> {
        let receipts = self.receipts(entries).await?;
        if let (Some(object), false) = (body.as_object_mut(), receipts.is_empty()) {
            let receipts = serde_json::to_value(receipts).map_err(ApiError::internal)?;
            object.insert("receipts".into(), receipts);
        }
        Ok(body)
    }

    /// `body` (a JSON object) with `receipts` for the entries queued under
    /// `names` ([`crate::log::shown`]): the commitments and reveals it shows.
    pub(crate) async fn with_shown_receipts(
        &self,
        body: serde_json::Value,
        names: Vec<String>,
    ) -> Result<serde_json::Value, ApiError> {
        if self.inner.log.is_none() {
            return Ok(body);
        }
        let entries = self.store().named_log_entries(names).await?;
        self.with_entry_receipts(body, &entries).await
    }

    /// The live-event hub.
    pub fn events(&self) -> &Hub {
        &self.inner.events
    }

    /// The counters behind `/metrics`.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    pub(crate) fn limiter(&self) -> &RateLimiter {
        &self.inner.limiter
    }

    /// Who may create accounts.
    pub fn signup(&self) -> SignupMode {
        self.inner.signup
    }

    pub(crate) fn address_limits(&self) -> &AddressLimiter {
        &self.inner.address_limits
    }

    /// The player of a token seen lately (see [`crate::token_cache`]).
    pub(crate) fn cached_player(&self, token_hash: &str) -> Option<i64> {
        self.inner.events.players().get(token_hash)
    }

    pub(crate) fn cache_player(&self, token_hash: String, id: i64) {
        self.inner.events.players().put(token_hash, id);
    }
}

//! `fairseed serve`: first-start setup, then the HTTP server until a signal.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use fairseed_store::{PgStore, SeedCipher, SqliteStore, Store};

use crate::args::{LogSwitch, ServeArgs};
use crate::error::Chain;
use crate::lease::Fleet;
use crate::listener::{Connections, Front, Limits};
use crate::log::LogKey;
use crate::metrics::Metrics;
use crate::ratelimit::AddressLimits;
use crate::router::{router, with_static};
use crate::state::{AppState, ServiceOptions};
use crate::tls::Tls;

/// File names inside the data directory.
const SEED_KEY_FILE: &str = "seed.key";
const OPERATOR_KEY_FILE: &str = "operator.key";
const SQLITE_FILE: &str = "fairseed.sqlite";

/// The most a stop spends after the requests in flight (which get
/// [`crate::listener`]'s 10 s), nothing when the database cannot commit:
/// whatever the database does, a stop ends within 15 s of SIGTERM, inside
/// the unit's `TimeoutStopSec`.
const LAST_STEPS: Duration = Duration::from_secs(5);

/// Runs the service until Ctrl-C or SIGTERM, then drains in-flight requests.
///
/// # Errors
/// The data directory, a key file or the database cannot be opened, or the
/// address cannot be bound.
pub async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    if args.check_config {
        return check_config(&args);
    }
    let logs = crate::logs::init(args.log_format, args.log_level.as_deref())?;
    check_log_origin(&args)?;
    // From here on a SIGHUP waits for the reload task instead of ending
    // the process (its default).
    let hangups = crate::reload::watch();
    let tls = tls(&args)?;

    let cipher = open_data_dir(&args)?;
    let operator_key = operator_key(&args)?;
    let opened = open_store(&args, cipher).await?;
    let log_key = if args.log == LogSwitch::On {
        crate::new_log::not_frozen(&args.data_dir, &args.log_origin)?;
        let key =
            crate::fork_guard::log_key(opened.store.as_ref(), &args.data_dir, &args.log_origin);
        Some(Arc::new(key.await?))
    } else {
        None
    };
    let connections = Arc::new(Connections::default());
    let options = service_options(&args, &opened, &connections, log_key.clone());
    let state = AppState::with_options(
        Arc::clone(&opened.store),
        &operator_key,
        args.opening_balance,
        args.rate_limit,
        options,
    );
    before_serving(&state, &args, log_key.as_ref(), Arc::clone(&opened.store)).await?;
    let background = Background::spawn(&state, &args, log_key).await?;

    let app = crate::new_log::with_frozen(router(state.clone()), &args.data_dir)?;
    let app = with_static(app, args.web_dir.as_deref());
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("binding {}", args.listen))?;
    let addr = listener.local_addr()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let backend = &opened.backend;
    let line = format!("fairseed serving on {scheme}://{addr}  (database: {backend})");
    crate::logs::announce(args.log_format, &line);
    tracing::info!(%addr, database = %backend, scheme, "listening");
    let limits = Limits {
        header_timeout: Duration::from_secs(args.header_timeout),
        max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
    };
    let front = Front {
        tls: tls.as_ref().map(Tls::acceptor),
        trusted_proxies: args.trusted_proxies.clone().into(),
    };
    let reload = crate::reload::spawn(
        hangups,
        crate::reload::Reload {
            running: args.clone(),
            tls,
            logs,
            state: state.clone(),
        },
    );
    let stopping = state.clone();
    let shutdown = async move {
        shutdown_signal().await;
        // WebSockets close with 1001 at once; requests in flight finish.
        stopping.stop();
    };
    crate::listener::serve(listener, app, limits, front, connections, shutdown).await;
    reload.abort();
    background.stop(&state, &args, opened.sqlite).await;
    tracing::info!("stopped");
    Ok(())
}

/// The store `args` names, with its description for the log and this
/// process's place in the fleet.
struct Opened {
    store: Arc<dyn Store>,
    backend: String,
    fleet: Fleet,
    /// The SQLite store, for its metrics and the stop's checkpoint.
    sqlite: Option<SqliteStore>,
}

/// The data directory, made if new (never a backup's), and its seed key.
fn open_data_dir(args: &ServeArgs) -> anyhow::Result<SeedCipher> {
    crate::fork_guard::not_a_backup_dir(&args.data_dir)?;
    fairseed_store::create_private_dir(&args.data_dir).context("the data directory")?;
    SeedCipher::load_or_create(&args.data_dir.join(SEED_KEY_FILE)).context("opening the seed key")
}

/// The database: PostgreSQL when `database` is set, else the data
/// directory's SQLite (never a backup's copy).
async fn open_store(args: &ServeArgs, cipher: SeedCipher) -> anyhow::Result<Opened> {
    let log_on = args.log == LogSwitch::On;
    if let Some(url) = &args.database {
        let store = PgStore::connect(url, None, cipher)
            .await
            .context("connecting to PostgreSQL")?
            .with_log(log_on);
        return Ok(Opened {
            store: Arc::new(store),
            backend: "postgresql".to_owned(),
            // Several processes may share the database: each its own owner.
            fleet: Fleet::member(args.lease_ttl_ms)
                .map_err(|_| anyhow::anyhow!("the OS random generator failed"))?,
            sqlite: None,
        });
    }
    let path = args.data_dir.join(SQLITE_FILE);
    crate::fork_guard::not_a_backup_copy(&path)?;
    let store = SqliteStore::open(&path, cipher)
        .context("opening the SQLite database")?
        .with_log(log_on);
    Ok(Opened {
        store: Arc::new(store.clone()),
        backend: format!("sqlite {}", path.display()),
        fleet: Fleet::alone(args.lease_ttl_ms),
        sqlite: Some(store),
    })
}

/// The service's settings from `args`.
fn service_options(
    args: &ServeArgs,
    opened: &Opened,
    connections: &Arc<Connections>,
    log: Option<Arc<LogKey>>,
) -> ServiceOptions {
    ServiceOptions {
        metrics: Metrics::new(opened.sqlite.clone(), Some(Arc::clone(connections))),
        address_limits: AddressLimits {
            signups_per_minute: args.signups_per_minute,
            auth_failures_per_minute: args.auth_failures_per_minute,
        },
        signup: args.signup,
        fleet: opened.fleet.clone(),
        holdem: fairseed_holdem::live::driver::Timing {
            ai_delay_ms: args.holdem_ai_delay_ms,
            next_hand_ms: args.holdem_next_hand_ms,
            idle_close_ms: args.holdem_idle_close_ms,
        },
        holdem_caps: crate::limits::TableCaps {
            per_player: args.holdem_max_tables_per_player,
            in_all: args.holdem_max_tables,
        },
        log,
    }
}

/// What must hold before the first request: the log not behind a
/// published tree, a restore's secrets retired, live events flowing, and
/// poker sessions of processes gone rotated.
async fn before_serving(
    state: &AppState,
    args: &ServeArgs,
    log_key: Option<&Arc<LogKey>>,
    store: Arc<dyn Store>,
) -> anyhow::Result<()> {
    // Before anything is written or signed: not behind a published tree.
    if let Some(key) = log_key {
        crate::fork_guard::check(state, key, &args.witnesses, &args.data_dir).await?;
    }
    // After a restore every poker session rotates there, whatever its lease.
    let restored = crate::retire::pending(&args.data_dir);
    if restored {
        crate::retire::after_restore(state, &args.data_dir).await?;
    }
    state
        .events()
        .connect(store)
        .await
        .context("listening for live events")?;
    if restored {
        return Ok(());
    }
    let rotated = crate::fleet::rotate_open_sessions(state, false)
        .await
        .map_err(|e| anyhow::anyhow!("rotating poker sessions left open: {}", e.chain()))?;
    if rotated > 0 {
        tracing::info!(
            sessions = rotated,
            "rotated poker sessions whose process is gone"
        );
    }
    Ok(())
}

/// The service's own tasks beside the requests.
struct Background {
    db_watch: tokio::task::JoinHandle<()>,
    heartbeat: tokio::task::JoinHandle<()>,
    holdem: tokio::task::JoinHandle<()>,
    metrics: Option<tokio::task::JoinHandle<()>>,
    checkpoint_age: Option<tokio::task::JoinHandle<()>>,
    witness: Option<tokio::task::JoinHandle<()>>,
    record: Option<tokio::task::JoinHandle<()>>,
    sequencer: Option<tokio::task::JoinHandle<()>>,
    log_key: Option<Arc<LogKey>>,
}

impl Background {
    /// Starts them: the database watch, the fleet's heartbeat, the tables'
    /// sweep, the metrics listener and, with a log, its sequencer,
    /// witnesses, published record and checkpoint age.
    async fn spawn(
        state: &AppState,
        args: &ServeArgs,
        log_key: Option<Arc<LogKey>>,
    ) -> anyhow::Result<Background> {
        let db_watch = crate::db_watch::spawn(state.clone());
        let heartbeat = crate::fleet::spawn_heartbeat(state.clone());
        let holdem = crate::holdem::spawn_sweep(state.clone());
        let logged = log_key.is_some();
        let record =
            logged.then(|| crate::fork_guard::spawn_record(state.clone(), args.data_dir.clone()));
        let checkpoint_age =
            logged.then(|| crate::log::age::spawn(state.clone(), !args.witnesses.is_empty()));
        let mut witness = None;
        let sequencer = log_key.clone().map(|key| {
            let line = format!("transparency log {} key {}", key.origin(), key.vkey());
            crate::logs::announce(args.log_format, &line);
            let signed = (!args.witnesses.is_empty()).then(|| {
                let (wake, task) = crate::log::witness::spawn(
                    state.clone(),
                    Arc::clone(&key),
                    args.witnesses.clone(),
                );
                witness = Some(task);
                wake
            });
            crate::log::sequencer::spawn(state.clone(), key, signed)
        });
        let metrics = match args.metrics_listen {
            Some(at) => Some(serve_metrics(at, state.clone(), args.log_format).await?),
            None => None,
        };
        Ok(Background {
            db_watch,
            heartbeat,
            holdem,
            metrics,
            checkpoint_age,
            witness,
            record,
            sequencer,
            log_key,
        })
    }

    /// Ends them once the requests are done, with the stop's last steps
    /// inside their budget.
    async fn stop(self, state: &AppState, args: &ServeArgs, sqlite: Option<SqliteStore>) {
        for task in [Some(self.heartbeat), Some(self.holdem), Some(self.db_watch)]
            .into_iter()
            .chain([self.metrics, self.checkpoint_age])
            .flatten()
        {
            task.abort();
        }
        // A database that cannot commit now would only make the stop wait.
        let budget = match state.metrics().db().commits() {
            Ok(()) => LAST_STEPS,
            Err(_) => Duration::ZERO,
        };
        let last = last_steps(
            state,
            args,
            self.sequencer,
            self.log_key,
            self.record,
            sqlite,
        );
        if tokio::time::timeout(budget, last).await.is_err() {
            tracing::error!(
                seconds = budget.as_secs(),
                "stopping without the last signing or the leases' release: the database did not \
                 commit (the next start signs what is left; another process takes the leases over \
                 when they expire)"
            );
        }
        if let Some(witness) = self.witness {
            witness.abort();
        }
    }
}

/// What a stop does after the requests in flight, in order: the log signed
/// up to its last entry and the published record written, the leases
/// released, the SQLite WAL copied into the database file.
async fn last_steps(
    state: &AppState,
    args: &ServeArgs,
    sequencer: Option<tokio::task::JoinHandle<()>>,
    log_key: Option<Arc<LogKey>>,
    record: Option<tokio::task::JoinHandle<()>>,
    sqlite: Option<SqliteStore>,
) {
    if let Some(sequencer) = sequencer {
        sequencer.abort();
        let _ = sequencer.await;
    }
    if let Some(key) = &log_key {
        sign_the_rest(state, key).await;
        if let Some(record) = record {
            record.abort();
        }
        crate::fork_guard::record(state, &args.data_dir, 0).await;
    }
    // Every lease of this process ends now, so another process of the fleet
    // takes its tables and the log over at its next heartbeat instead of
    // waiting for them to expire.
    match state
        .store()
        .release_leases(state.fleet().owner(), crate::clock::now_ms())
        .await
    {
        Ok(n) => tracing::info!(leases = n, "released this process's leases"),
        Err(e) => {
            tracing::warn!(error = %Chain(&e), "leases not released; they expire on their own")
        }
    }
    if let Some(sqlite) = sqlite {
        checkpoint_to_file(&sqlite).await;
    }
}

/// What was acknowledged is sequenced and signed before the lease goes:
/// rounds until one finds nothing left (a round takes a batch).
async fn sign_the_rest(state: &AppState, key: &Arc<LogKey>) {
    let mut signed = 0;
    for _ in 0..1000 {
        match crate::log::sequencer::step(state, key).await {
            Ok(stepped) if stepped.holds && stepped.signed > 0 => signed += stepped.signed,
            Ok(_) => break,
            Err(e) => {
                tracing::warn!(error = %Chain(&e), "the last checkpoint was not signed");
                break;
            }
        }
    }
    tracing::info!(signed, "the log is signed up to its last entry");
}

/// The last step of a stop on SQLite: every commit copied from the WAL
/// into the database file, so the stopped service's data directory is one
/// complete file an operator may copy or move on its own.
async fn checkpoint_to_file(sqlite: &SqliteStore) {
    match sqlite.checkpoint_to_file().await {
        Ok(()) => tracing::info!("the database file holds every commit; its WAL is empty"),
        Err(e) => tracing::warn!(
            error = %Chain(&e),
            "the WAL was not copied into the database file; keep the -wal file with it"
        ),
    }
}

/// `--check-config`: what `serve` would check before opening anything, then
/// the effective configuration with its secrets redacted.
fn check_config(args: &ServeArgs) -> anyhow::Result<()> {
    if let Some(key) = &args.operator_key {
        check_operator_key(key)?;
    }
    check_log_origin(args)?;
    tls(args)?;
    print!("{}", crate::config::effective(args));
    Ok(())
}

/// The TLS pair, if configured.
fn tls(args: &ServeArgs) -> anyhow::Result<Option<Tls>> {
    match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Tls::load(cert, key).map(Some),
        (None, None) => Ok(None),
        _ => anyhow::bail!("tls_cert and tls_key: set both or neither"),
    }
}

/// `GET /metrics` without a credential on its own listener.
async fn serve_metrics(
    at: std::net::SocketAddr,
    state: AppState,
    format: crate::args::LogFormat,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let listener = tokio::net::TcpListener::bind(at)
        .await
        .with_context(|| format!("metrics_listen: binding {at}"))?;
    let addr = listener.local_addr()?;
    crate::logs::announce(
        format,
        &format!("fairseed metrics on http://{addr}/metrics"),
    );
    let app = axum::Router::new()
        .route(
            "/metrics",
            axum::routing::get(crate::handlers::metrics::get),
        )
        .with_state(state);
    Ok(tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!(error = %e, "the metrics listener stopped");
        }
    }))
}

/// With the log on, its origin must be set: it names the log for good.
fn check_log_origin(args: &ServeArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.log == LogSwitch::Off || !args.log_origin.trim().is_empty(),
        "log_origin is empty: set it to <your host>/fairseed (e.g. \"fair.example/fairseed\") \
         before the first start; it names the transparency log for good (docs/operating.md, \"Keys\")"
    );
    Ok(())
}

fn check_operator_key(key: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        key.len() >= 16,
        "operator_key: at least 16 characters, got {}",
        key.len()
    );
    Ok(())
}

/// The operator key: given, or read from (or generated into) the data dir.
fn operator_key(args: &ServeArgs) -> anyhow::Result<String> {
    if let Some(key) = &args.operator_key {
        check_operator_key(key)?;
        return Ok(key.clone());
    }
    let path = args.data_dir.join(OPERATOR_KEY_FILE);
    if path.exists() {
        let key = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        return Ok(key.trim().to_owned());
    }
    let key = crate::secrets::new_token()
        .map_err(|_| anyhow::anyhow!("the OS random generator failed"))?;
    fairseed_store::write_private(&path, key.as_bytes())?;
    let line = format!("generated an operator key in {}", path.display());
    crate::logs::announce(args.log_format, &line);
    Ok(key)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}

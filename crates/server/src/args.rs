//! The command line of `fairseed serve`, mirrored as a clap struct the CLI
//! crate flattens into its own parser.

use std::net::SocketAddr;
use std::path::PathBuf;

/// The default port: unassigned by IANA and used by no common service.
pub const DEFAULT_PORT: u16 = 7878;

/// Options of `fairseed serve`.
#[derive(Clone, clap::Args)]
pub struct ServeArgs {
    /// A TOML file setting any of these options, one key per option named
    /// like its field (`listen`, `data_dir`, `trusted_proxies`, ...); flags
    /// and environment variables override it (docs/operating.md).
    #[arg(long, env = "FAIRSEED_CONFIG")]
    pub config: Option<PathBuf>,

    /// Check the configuration (file, environment, flags, TLS files), print
    /// the effective one with its secrets redacted, and exit: 0 valid, 2 not.
    #[arg(long)]
    pub check_config: bool,

    /// Address to listen on.
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)))]
    pub listen: SocketAddr,

    /// Serve `GET /metrics` without a credential on this address (e.g.
    /// 127.0.0.1:9187, for Prometheus); on the players' listener `/metrics`
    /// always needs the operator key.
    #[arg(long)]
    pub metrics_listen: Option<SocketAddr>,

    /// A PEM certificate chain: the listener speaks HTTPS (with --tls-key).
    /// Both files are read again on SIGHUP; open connections keep theirs.
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// The PEM private key of --tls-cert (PKCS#8, PKCS#1 or SEC1).
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// Reverse proxies (addresses or CIDRs, comma-separated) whose
    /// `X-Forwarded-For` names the client: the rightmost address in it that
    /// is not itself a trusted proxy is the one per-address limits and logs
    /// use. Without this the header is ignored.
    #[arg(long, value_delimiter = ',', value_parser = crate::proxy::Cidr::parse)]
    pub trusted_proxies: Vec<crate::proxy::Cidr>,

    /// Directory for the SQLite database and the key files (created on first start).
    #[arg(long, default_value = "./.fairseed")]
    pub data_dir: PathBuf,

    /// A PostgreSQL URL (postgres://user@host/db) to use instead of SQLite.
    #[arg(long = "database", env = "FAIRSEED_DATABASE_URL")]
    pub database: Option<String>,

    /// The operator's API key; if absent, one is generated on first start
    /// and kept in DATA_DIR/operator.key.
    #[arg(long, env = "FAIRSEED_OPERATOR_KEY", hide_env_values = true)]
    pub operator_key: Option<String>,

    /// Chips every new player account starts with.
    #[arg(long, default_value_t = 1_000_000)]
    pub opening_balance: u64,

    /// Requests per second allowed per token (burst twice that); 0 disables.
    #[arg(long, default_value_t = 100)]
    pub rate_limit: u32,

    /// Seconds a connection has to send a whole request header, also while
    /// idle between kept-alive requests.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,

    /// Most connections open at once (kept below the descriptor limit); when
    /// full, the oldest connection still silent is closed, else a 503.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,

    /// Who creates player accounts: anyone (`open`, for the demo page) or
    /// only the operator through POST /v1/operator/players (`operator`).
    #[arg(long, value_enum, default_value_t = SignupMode::Open)]
    pub signup: SignupMode,

    /// Accounts one client address may create per minute (0: no limit).
    #[arg(long, default_value_t = 20)]
    pub signups_per_minute: u32,

    /// Unknown or refused tokens one client address may present per minute
    /// before getting 429 (0: no limit).
    #[arg(long, default_value_t = 60)]
    pub auth_failures_per_minute: u32,

    /// Log lines as plain text (colours only on a terminal) or one JSON object each.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Which log lines are written: a level (`warn`, `info`, `debug`) or
    /// `tracing` directives (`info,fairseed::access=warn`). Unset: the
    /// `RUST_LOG` variable, else `info`. Read again on SIGHUP.
    #[arg(long, value_parser = parse_log_level)]
    pub log_level: Option<String>,

    /// Serve the player page's files from this directory (laid out like
    /// `web/`) instead of the copy built into the binary; for editing the page.
    #[arg(long)]
    pub web_dir: Option<PathBuf>,

    /// How long (ms) a process's lease on a poker table lasts without its
    /// heartbeat: after that another process of the fleet takes the table
    /// over and rotates its session. Renewed three times per lifetime.
    #[arg(long, env = "FAIRSEED_LEASE_TTL_MS", default_value_t = crate::limits::DEFAULT_LEASE_TTL_MS,
          value_parser = clap::value_parser!(i64).range(300..=3_600_000))]
    pub lease_ttl_ms: i64,

    /// How long (ms) an AI at a live hold'em table waits after its turn
    /// began before it acts (never before the state showing its turn went out).
    #[arg(long, default_value_t = 700, value_parser = clap::value_parser!(i64).range(0..=60_000))]
    pub holdem_ai_delay_ms: i64,

    /// The pause (ms) between the end of a hold'em hand and the next deal.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(i64).range(0..=600_000))]
    pub holdem_next_hand_ms: i64,

    /// How long (ms) a hold'em table where nobody can be dealt in (no person
    /// sitting in) stays open after a person last acted there; then the
    /// people still seated leave, the table closes and its secret is revealed.
    #[arg(long, default_value_t = 600_000, value_parser = clap::value_parser!(i64).range(100..=86_400_000))]
    pub holdem_idle_close_ms: i64,

    /// Open hold'em tables one player may have opened (beyond: 429
    /// too_many_tables); 0: no cap.
    #[arg(long, default_value_t = 4)]
    pub holdem_max_tables_per_player: usize,

    /// Open hold'em tables in all (beyond: 409 tables_full); 0: no cap.
    #[arg(long, default_value_t = 1000)]
    pub holdem_max_tables: usize,

    /// The transparency log (docs/service.md): `on` queues every commitment,
    /// reveal and bet outcome, sequences them, serves `/log/` and gives
    /// receipts; `off` only to measure what it costs.
    #[arg(long, value_enum, default_value_t = LogSwitch::On)]
    pub log: LogSwitch,

    /// The log's origin: its name in checkpoints and the key's name
    /// (no spaces or `+`), conventionally `<host>/fairseed`.
    #[arg(
        long,
        env = "FAIRSEED_LOG_ORIGIN",
        default_value = "localhost/fairseed"
    )]
    pub log_origin: String,

    /// A witness that cosigns the log's checkpoints (C2SP tlog-witness), as
    /// `<URL>=<vkey>`: its `add-checkpoint` base URL (http://) and its
    /// cosigner verifier key as `fairseed witness` prints it; repeat for more.
    #[arg(long = "witness", value_name = "URL=VKEY", value_parser = parse_witness)]
    pub witnesses: Vec<WitnessArg>,
}

/// One `--witness`: where to send checkpoints and the key its cosignatures must verify with.
#[derive(Debug, Clone)]
pub struct WitnessArg {
    /// The base URL; requests go to `<url>/add-checkpoint`.
    pub url: String,
    /// The witness's cosigner key (type 0x04).
    pub key: fairseed_tlog::CosignerKey,
}

/// `<URL>=<vkey>`, split at the first `=`: a witness URL has no query, and a
/// cosigner key (33 bytes in base64) has no padding.
fn parse_witness(text: &str) -> Result<WitnessArg, String> {
    let (url, vkey) = text
        .split_once('=')
        .ok_or_else(|| "expected <URL>=<vkey>".to_owned())?;
    if !url.starts_with("http://") || url.len() <= "http://".len() {
        return Err(format!(
            "witness URL {url:?}: expected http://host[:port][/path] (put an https witness behind a local proxy)"
        ));
    }
    let key = fairseed_tlog::CosignerKey::parse(vkey).map_err(|e| e.to_string())?;
    Ok(WitnessArg {
        url: url.trim_end_matches('/').to_owned(),
        key,
    })
}

/// A `log_level` that `tracing` accepts.
fn parse_log_level(text: &str) -> Result<String, String> {
    tracing_subscriber::EnvFilter::try_new(text)
        .map(|_| text.to_owned())
        .map_err(|e| format!("not a level or tracing directives: {e}"))
}

/// Whether the transparency log runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogSwitch {
    /// Queue, sequence, serve and give receipts.
    On,
    /// Nothing is logged (for measuring the log's cost only).
    Off,
}

impl std::fmt::Debug for ServeArgs {
    /// Never prints the operator key or the database password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeArgs")
            .field("config", &self.config)
            .field("check_config", &self.check_config)
            .field("listen", &self.listen)
            .field("metrics_listen", &self.metrics_listen)
            .field("tls_cert", &self.tls_cert)
            .field("tls_key", &self.tls_key)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("data_dir", &self.data_dir)
            .field("database", &self.database.as_ref().map(|_| "<set>"))
            .field("operator_key", &self.operator_key.as_ref().map(|_| "<set>"))
            .field("opening_balance", &self.opening_balance)
            .field("rate_limit", &self.rate_limit)
            .field("header_timeout", &self.header_timeout)
            .field("max_connections", &self.max_connections)
            .field("signup", &self.signup)
            .field("signups_per_minute", &self.signups_per_minute)
            .field("auth_failures_per_minute", &self.auth_failures_per_minute)
            .field("log_format", &self.log_format)
            .field("log_level", &self.log_level)
            .field("web_dir", &self.web_dir)
            .field("lease_ttl_ms", &self.lease_ttl_ms)
            .field("holdem_ai_delay_ms", &self.holdem_ai_delay_ms)
            .field("holdem_next_hand_ms", &self.holdem_next_hand_ms)
            .field("holdem_idle_close_ms", &self.holdem_idle_close_ms)
            .field(
                "holdem_max_tables_per_player",
                &self.holdem_max_tables_per_player,
            )
            .field("holdem_max_tables", &self.holdem_max_tables)
            .field("log", &self.log)
            .field("log_origin", &self.log_origin)
            .field("witnesses", &self.witnesses)
            .finish()
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Who may create player accounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SignupMode {
    /// Anyone, anonymously (`POST /v1/players`).
    #[default]
    Open,
    /// Only the operator (`POST /v1/operator/players`).
    Operator,
}

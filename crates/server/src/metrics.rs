//! `GET /metrics`: counters and gauges in the Prometheus text format, and
//! the access-log middleware that feeds them.
//!
//! Hand-written rather than a metrics crate: a dozen series, no labels
//! beyond the route and the status class, and the exposition format is a
//! few lines of text.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use fairseed_store::SqliteStore;
use http_body_util::BodyExt;

use crate::db_health::DbHealth;
use crate::listener::Connections;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// The route whose successful `POST`s are bets.
const BET_ROUTE: &str = "/v1/dice/bets";
/// The route of live-event streams.
const EVENTS_ROUTE: &str = "/v1/events";
/// The header carrying a request's id, echoed in the response and the log.
const REQUEST_ID: &str = "x-request-id";

/// What the service counts.
#[derive(Debug, Default)]
pub struct Metrics {
    routes: Mutex<BTreeMap<String, RouteStats>>,
    bets: AtomicU64,
    rate_limited: AtomicU64,
    event_streams: Arc<AtomicU64>,
    next_request_id: AtomicU64,
    sqlite: Option<SqliteStore>,
    connections: Option<Arc<Connections>>,
    /// When the last bet was placed, or the process started (Unix s).
    last_bet_at: AtomicU64,
    db: Arc<DbHealth>,
    log: Stamped,
    witnesses: Stamped,
    /// When the newest checkpoint was signed (Unix s; 0: none read yet).
    checkpoint_at: AtomicU64,
    /// When the newest checkpoint a witness cosigned was signed (Unix s;
    /// 0: no witness configured, or none read yet).
    cosigned_at: AtomicU64,
}

/// A background task's last success (Unix s; 0: none yet) and failures.
#[derive(Debug, Default)]
struct Stamped {
    ok_at: AtomicU64,
    failures: AtomicU64,
}

impl Stamped {
    fn record(&self, ok: bool) {
        if ok {
            self.ok_at.store(now_secs(), Ordering::Relaxed);
        } else {
            self.failures.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Its two series (`[ok name, help, failures name, help]`), once the task ran.
    fn series(&self, names: [&'static str; 4]) -> Vec<Series> {
        let (ok_at, failures) = (
            self.ok_at.load(Ordering::Relaxed),
            self.failures.load(Ordering::Relaxed),
        );
        if ok_at == 0 && failures == 0 {
            return Vec::new();
        }
        vec![
            (names[0], names[1], "gauge", ok_at.to_string()),
            (names[2], names[3], "counter", failures.to_string()),
        ]
    }
}

/// A series: name, help, type, value.
type Series = (&'static str, &'static str, &'static str, String);

/// Now, in Unix seconds.
fn now_secs() -> u64 {
    u64::try_from(crate::clock::now_ms()).unwrap_or(0) / 1000
}

#[derive(Debug, Default, Clone)]
struct RouteStats {
    /// Answers by status class (index 1..=5 for 1xx..5xx).
    by_class: [u64; 6],
    /// Cumulative count per bucket, then the count above the last one.
    buckets: [u64; BUCKETS.len() + 1],
    seconds: f64,
}

impl Metrics {
    /// Metrics that also report the SQLite WAL and the listener's connections.
    pub fn new(sqlite: Option<SqliteStore>, connections: Option<Arc<Connections>>) -> Self {
        Self {
            sqlite,
            connections,
            last_bet_at: AtomicU64::new(now_secs()),
            ..Self::default()
        }
    }

    /// What the database watch saw ([`crate::db_health`]).
    pub fn db(&self) -> &DbHealth {
        &self.db
    }

    /// One round of the log's sequencer, done or failed.
    pub fn sequenced(&self, ok: bool) {
        self.log.record(ok);
    }

    /// When the newest checkpoint was signed (Unix s), as last read.
    pub fn checkpoint_signed(&self, at: u64) {
        self.checkpoint_at.store(at, Ordering::Relaxed);
    }

    /// When the newest checkpoint a witness cosigned was signed (Unix s;
    /// 0: none yet), as last read.
    pub fn cosigned_signed(&self, at: u64) {
        self.cosigned_at.store(at, Ordering::Relaxed);
    }

    /// When the last bet was placed, or the process started (Unix s).
    pub fn last_bet_secs(&self) -> u64 {
        self.last_bet_at.load(Ordering::Relaxed)
    }

    /// One witness asked, cosigned (or already holding the checkpoint) or failed.
    pub fn witnessed(&self, ok: bool) {
        self.witnesses.record(ok);
    }

    fn observe(&self, method: &str, route: &str, status: StatusCode, seconds: f64) {
        if status.is_success() && method == "POST" && route == BET_ROUTE {
            self.bets.fetch_add(1, Ordering::Relaxed);
            self.last_bet_at.store(now_secs(), Ordering::Relaxed);
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            self.rate_limited.fetch_add(1, Ordering::Relaxed);
        }
        let Ok(mut routes) = self.routes.lock() else {
            return;
        };
        let stats = routes.entry(format!("{method} {route}")).or_default();
        stats.by_class[usize::from(status.as_u16() / 100).min(5)] += 1;
        let bucket = BUCKETS
            .iter()
            .position(|&le| seconds <= le)
            .unwrap_or(BUCKETS.len());
        stats.buckets[bucket] += 1;
        stats.seconds += seconds;
    }

    fn request_id(&self, given: Option<&HeaderValue>) -> String {
        given
            .and_then(|v| v.to_str().ok())
            .filter(|v| {
                (1..=64).contains(&v.len())
                    && v.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
            })
            .map_or_else(
                || {
                    format!(
                        "r{:x}",
                        self.next_request_id.fetch_add(1, Ordering::Relaxed)
                    )
                },
                str::to_owned,
            )
    }

    /// The exposition text; `pool` is the database pool's `(in use, most)`.
    pub fn render(&self, pool: Option<(u32, u32)>) -> String {
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed).to_string();
        let mut series: Vec<Series> = vec![
            (
                "fairseed_bets_total",
                "Dice bets placed (durable).",
                "counter",
                load(&self.bets),
            ),
            (
                "fairseed_rate_limited_total",
                "Requests refused with 429.",
                "counter",
                load(&self.rate_limited),
            ),
            (
                "fairseed_event_streams",
                "Live-event streams open.",
                "gauge",
                load(&self.event_streams),
            ),
            (
                "fairseed_last_bet_timestamp_seconds",
                "When the last dice bet was placed, or this process started (Unix s).",
                "gauge",
                load(&self.last_bet_at),
            ),
        ];
        series.extend(self.db_series(pool));
        series.extend(self.log.series([
            "fairseed_log_sequencer_ok_timestamp_seconds",
            "When a round of the log's sequencer last succeeded (Unix s).",
            "fairseed_log_sequencer_failures_total",
            "Rounds of the log's sequencer that failed.",
        ]));
        series.extend(self.witnesses.series([
            "fairseed_witness_ok_timestamp_seconds",
            "When a witness last held or cosigned the latest checkpoint (Unix s).",
            "fairseed_witness_failures_total",
            "Witness requests that failed.",
        ]));
        series.extend(self.checkpoint_series());
        if let Some(conns) = &self.connections {
            series.extend([
                (
                    "fairseed_connections",
                    "HTTP connections open.",
                    "gauge",
                    conns.open().to_string(),
                ),
                (
                    "fairseed_connections_evicted_total",
                    "Silent connections closed to make room.",
                    "counter",
                    conns.evicted().to_string(),
                ),
                (
                    "fairseed_connections_refused_total",
                    "Connections refused with 503, all busy.",
                    "counter",
                    conns.refused().to_string(),
                ),
            ]);
        }
        if let Some(store) = &self.sqlite {
            let file = store.wal_file_bytes().unwrap_or(0).to_string();
            series.push((
                "fairseed_sqlite_wal_file_bytes",
                "Size of the -wal file.",
                "gauge",
                file,
            ));
        }
        if let Some(wal) = self.sqlite.as_ref().and_then(SqliteStore::wal_stats) {
            series.extend([
                (
                    "fairseed_sqlite_wal_log_bytes",
                    "Log written since the WAL last restarted.",
                    "gauge",
                    wal.wal_bytes().to_string(),
                ),
                (
                    "fairseed_sqlite_checkpoints_total",
                    "WAL restarts run by the writer.",
                    "counter",
                    wal.checkpoints().to_string(),
                ),
                (
                    "fairseed_sqlite_checkpoint_seconds_total",
                    "Time the writer spent in them.",
                    "counter",
                    wal.checkpoint_seconds().to_string(),
                ),
                (
                    "fairseed_sqlite_checkpoints_deferred_total",
                    "Restarts a reader put off to the next batch.",
                    "counter",
                    wal.deferred().to_string(),
                ),
            ]);
        }
        let mut out = String::new();
        for (name, help, kind, value) in series {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        self.render_routes(&mut out);
        out
    }

    /// The newest checkpoint's signing time, and the newest cosigned one's,
    /// once read ([`crate::log::age`]).
    fn checkpoint_series(&self) -> Vec<Series> {
        let mut series = Vec::new();
        let signed = self.checkpoint_at.load(Ordering::Relaxed);
        if signed > 0 {
            series.push((
                "fairseed_log_checkpoint_timestamp_seconds",
                "When the log's newest checkpoint was signed (Unix s).",
                "gauge",
                signed.to_string(),
            ));
        }
        let cosigned = self.cosigned_at.load(Ordering::Relaxed);
        if cosigned > 0 {
            series.push((
                "fairseed_log_cosigned_checkpoint_timestamp_seconds",
                "When the newest checkpoint a witness cosigned was signed (Unix s).",
                "gauge",
                cosigned.to_string(),
            ));
        }
        series
    }

    /// Whether the database commits, its waits given up, its pool.
    fn db_series(&self, pool: Option<(u32, u32)>) -> Vec<Series> {
        let mut series = vec![
            (
                "fairseed_db_can_commit",
                "1 while the database commits within a second, else 0 (/healthz answers 503).",
                "gauge",
                u8::from(self.db.commits().is_ok()).to_string(),
            ),
            (
                "fairseed_db_last_commit_timestamp_seconds",
                "When a probe of the database last committed (Unix s).",
                "gauge",
                self.db.committed_at_secs().to_string(),
            ),
            (
                "fairseed_db_stalls_total",
                "Times the database stopped committing.",
                "counter",
                self.db.stalls().to_string(),
            ),
            (
                "fairseed_db_timeouts_total",
                "Database transactions given up unanswered after their timeout.",
                "counter",
                fairseed_store::wait::timed_out().to_string(),
            ),
        ];
        if let Some((in_use, max)) = pool {
            series.extend([
                (
                    "fairseed_db_pool_in_use",
                    "Connections of the pool in use.",
                    "gauge",
                    in_use.to_string(),
                ),
                (
                    "fairseed_db_pool_max",
                    "Most connections the pool opens.",
                    "gauge",
                    max.to_string(),
                ),
            ]);
        }
        series
    }

    fn render_routes(&self, out: &mut String) {
        let routes = self.routes.lock().map(|r| r.clone()).unwrap_or_default();
        out.push_str("# HELP fairseed_http_requests_total Answers by route and status class.\n# TYPE fairseed_http_requests_total counter\n");
        for (route, stats) in &routes {
            for (class, n) in stats.by_class.iter().enumerate().filter(|(_, n)| **n > 0) {
                let _ = writeln!(
                    out,
                    "fairseed_http_requests_total{{route=\"{route}\",status=\"{class}xx\"}} {n}"
                );
            }
        }
        out.push_str("# HELP fairseed_http_request_duration_seconds Time to the response head, by route.\n# TYPE fairseed_http_request_duration_seconds histogram\n");
        for (route, stats) in &routes {
            let name = "fairseed_http_request_duration_seconds";
            let mut cumulative = 0;
            for (le, n) in BUCKETS.iter().zip(stats.buckets) {
                cumulative += n;
                let _ = writeln!(
                    out,
                    "{name}_bucket{{route=\"{route}\",le=\"{le}\"}} {cumulative}"
                );
            }
            let count = cumulative + stats.buckets[BUCKETS.len()];
            let _ = writeln!(
                out,
                "{name}_bucket{{route=\"{route}\",le=\"+Inf\"}} {count}\n{name}_sum{{route=\"{route}\"}} {}\n{name}_count{{route=\"{route}\"}} {count}",
                stats.seconds
            );
        }
    }
}

/// `GET /metrics`: the counters in the Prometheus text format.
pub fn exposition(metrics: &Metrics, pool: Option<(u32, u32)>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        metrics.render(pool),
    )
        .into_response()
}

/// One access line per request (method, matched route, status, latency,
/// request id, the client's address — behind a trusted proxy the one it
/// forwarded — never the query, a header value or a body, so no token or
/// seed), and the counters behind `/metrics`.
pub async fn access(metrics: &Metrics, mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = metrics.request_id(req.headers().get(REQUEST_ID));
    if let Ok(value) = HeaderValue::from_str(&id) {
        req.headers_mut().insert(REQUEST_ID, value);
    }
    let method = req.method().as_str().to_owned();
    let client = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map_or_else(|| "-".to_owned(), |c| c.0.ip().to_string());
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let mut response = next.run(req).await;
    let seconds = started.elapsed().as_secs_f64();
    let status = response.status();
    metrics.observe(&method, &route, status, seconds);
    tracing::info!(
        target: "fairseed::access",
        method = %method,
        route = %route,
        status = status.as_u16(),
        ms = seconds * 1e3,
        request_id = %id,
        client = %client,
        "request"
    );
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    if route == EVENTS_ROUTE && status.is_success() {
        response = count_stream(response, &metrics.event_streams);
    }
    response
}

/// Counts an open event stream until its body is dropped.
fn count_stream(response: Response, open: &Arc<AtomicU64>) -> Response {
    struct Open(Arc<AtomicU64>);
    impl Drop for Open {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::Relaxed);
        }
    }
    open.fetch_add(1, Ordering::Relaxed);
    let guard = Open(Arc::clone(open));
    let (parts, body) = response.into_parts();
    let body = body.map_frame(move |frame| {
        let _held = &guard;
        frame
    });
    Response::from_parts(parts, axum::body::Body::new(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_cumulative_and_bets_count_only_successes() {
        let m = Metrics::default();
        m.observe("POST", BET_ROUTE, StatusCode::OK, 0.002);
        m.observe("POST", BET_ROUTE, StatusCode::OK, 7.0);
        m.observe("POST", BET_ROUTE, StatusCode::TOO_MANY_REQUESTS, 0.0001);
        let text = m.render(None);
        assert!(text.contains("fairseed_bets_total 2\n"), "{text}");
        assert!(text.contains("fairseed_rate_limited_total 1\n"), "{text}");
        let route = "route=\"POST /v1/dice/bets\"";
        let bucket = "fairseed_http_request_duration_seconds_bucket";
        for (le, n) in [("0.001", 1), ("0.0025", 2), ("5", 2), ("+Inf", 3)] {
            let line = format!("{bucket}{{{route},le=\"{le}\"}} {n}\n");
            assert!(text.contains(&line), "{line} missing from {text}");
        }
        let line = format!("fairseed_http_requests_total{{{route},status=\"4xx\"}} 1\n");
        assert!(text.contains(&line), "{line} missing from {text}");
    }

    #[test]
    fn checkpoint_ages_are_exported_once_read() {
        let m = Metrics::default();
        let name = "fairseed_log_checkpoint_timestamp_seconds";
        let cosigned = "fairseed_log_cosigned_checkpoint_timestamp_seconds";
        assert!(!m.render(None).contains(name));
        m.checkpoint_signed(1_700_000_000);
        let text = m.render(None);
        assert!(text.contains(&format!("{name} 1700000000\n")), "{text}");
        assert!(!text.contains(cosigned), "{text}");
        m.cosigned_signed(1_699_999_000);
        let text = m.render(None);
        assert!(text.contains(&format!("{cosigned} 1699999000\n")), "{text}");
    }

    #[test]
    fn request_ids_are_taken_only_when_plain() {
        let m = Metrics::default();
        let given = HeaderValue::from_static("abc-123");
        assert_eq!(m.request_id(Some(&given)), "abc-123");
        let odd = HeaderValue::from_static("a b");
        assert!(m.request_id(Some(&odd)).starts_with('r'));
        assert_ne!(m.request_id(None), m.request_id(None));
    }
}

//! The HTTP listener: connections are bounded in number and in how long they
//! may stay silent, so a flood of half-open connections cannot starve the
//! service.
//!
//! - A connection waiting for a request — its first or, kept alive, its next —
//!   has [`Limits::header_timeout`] to send the whole header (hyper's header
//!   timer starts as soon as the connection is ready for a request), so this
//!   is also the idle keep-alive timeout.
//! - At most [`Limits::max_connections`] are open, fewer than the process's
//!   descriptor limit so `accept` never fails for lack of one. When full, the
//!   oldest connection that has not yet sent a complete request is closed to
//!   make room (a slow-header flood only ever displaces itself); when every
//!   connection is busy with requests, the new one gets an immediate `503`.
//! - Accept errors back off exponentially and are logged once per burst.
//! - Connections are served with upgrades, so a request may become a
//!   WebSocket (the live hold'em tables); an upgraded connection leaves the
//!   budget and the drain, and lives as long as its socket.
//! - With TLS, the handshake runs on the connection's own task within the
//!   header timeout; with trusted proxies, a request's client address is
//!   read from `X-Forwarded-For` as [`crate::proxy`] says.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::ApiError;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch, Notify};
use tower::Service;

/// Descriptors kept out of the connection budget: the database files and
/// connections, the runtime, logs.
const RESERVED_DESCRIPTORS: u64 = 64;

/// How long in-flight requests get to finish after a shutdown signal.
const DRAIN: Duration = Duration::from_secs(10);

/// The listener's bounds.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Time to send a whole request header, also while idle between requests.
    pub header_timeout: Duration,
    /// Most connections open at once (further clamped to the descriptor limit).
    pub max_connections: usize,
}

/// What stands between a socket and the router: TLS, and the proxies whose
/// `X-Forwarded-For` is believed.
#[derive(Clone, Default)]
pub struct Front {
    /// HTTPS when set.
    pub tls: Option<tokio_rustls::TlsAcceptor>,
    /// Trusted reverse proxies.
    pub trusted_proxies: Arc<[crate::proxy::Cidr]>,
}

impl std::fmt::Debug for Front {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Front")
            .field("tls", &self.tls.is_some())
            .field("trusted_proxies", &self.trusted_proxies)
            .finish()
    }
}

/// A connection's byte stream, plain or TLS.
trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// The open connections, oldest first, and whether each has sent a request.
#[derive(Debug, Default)]
pub struct Connections {
    open: Mutex<BTreeMap<u64, Arc<Slot>>>,
    next_id: AtomicU64,
    evicted: AtomicU64,
    refused: AtomicU64,
}

#[derive(Debug, Default)]
struct Slot {
    spoke: AtomicBool,
    close: Notify,
}

/// A place among the open connections, given back when dropped.
struct Admitted {
    id: u64,
    slot: Arc<Slot>,
    conns: Arc<Connections>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Ok(mut open) = self.conns.open.lock() {
            open.remove(&self.id);
        }
    }
}

impl Connections {
    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.lock().map_or(0, |o| o.len())
    }

    /// Silent connections closed to make room, since start.
    pub fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
    }

    /// Connections refused with a `503` because all were busy, since start.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// A place for a new connection, closing the oldest silent one if full.
    fn admit(self: &Arc<Self>, max: usize) -> Option<Admitted> {
        let mut open = self.open.lock().ok()?;
        if open.len() >= max {
            let silent = open
                .iter()
                .find(|(_, slot)| !slot.spoke.load(Ordering::Relaxed))
                .map(|(id, _)| *id)?;
            if let Some(slot) = open.remove(&silent) {
                slot.close.notify_one();
                self.evicted.fetch_add(1, Ordering::Relaxed);
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot::default());
        open.insert(id, Arc::clone(&slot));
        Some(Admitted {
            id,
            slot,
            conns: Arc::clone(self),
        })
    }
}

/// The connection budget: `wanted`, but never more than the soft descriptor
/// limit leaves after [`RESERVED_DESCRIPTORS`].
pub fn connection_budget(wanted: usize) -> usize {
    let budget = match rustix::process::getrlimit(rustix::process::Resource::Nofile).current {
        Some(soft) => usize::try_from(soft.saturating_sub(RESERVED_DESCRIPTORS)).unwrap_or(wanted),
        None => wanted,
    };
    wanted.min(budget).max(1)
}

/// Serves `app` on `listener` until `shutdown` resolves, then drains.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    front: Front,
    conns: Arc<Connections>,
    shutdown: impl Future<Output = ()>,
) {
    let max = connection_budget(limits.max_connections);
    tracing::info!(
        max_connections = max,
        header_timeout_s = limits.header_timeout.as_secs_f64(),
        "accepting connections"
    );
    let drain = Drain::new();
    let mut backoff = AcceptBackoff::default();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => {
                backoff.reset();
                pair
            }
            Err(e) => {
                tokio::time::sleep(backoff.failed(&e)).await;
                continue;
            }
        };
        let Some(admitted) = conns.admit(max) else {
            conns.refused.fetch_add(1, Ordering::Relaxed);
            tokio::spawn(refuse(stream));
            continue;
        };
        let _ = stream.set_nodelay(true);
        spawn_connection(stream, peer, app.clone(), limits, &front, admitted, &drain);
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, drain.finish()).await.is_err() {
        tracing::warn!("connections still open after the drain period; closing them");
    }
}

/// The connections being served and the signal asking them to finish:
/// each holds a sender of `alive`, so the drain is over when none is left.
struct Drain {
    stop: watch::Sender<bool>,
    alive: mpsc::Sender<()>,
    gone: mpsc::Receiver<()>,
}

impl Drain {
    fn new() -> Self {
        let (alive, gone) = mpsc::channel(1);
        Self {
            stop: watch::channel(false).0,
            alive,
            gone,
        }
    }

    /// Asks every connection to finish its request in flight and close,
    /// then waits until all did.
    async fn finish(self) {
        let Self {
            stop,
            alive,
            mut gone,
        } = self;
        let _ = stop.send(true);
        drop(alive);
        while gone.recv().await.is_some() {}
    }
}

/// Serves one HTTP/1.1 connection (upgrades included) to `app` on its own
/// task, after its TLS handshake if any, marking its slot once a request
/// arrived; it ends early if evicted, and after its request in flight once
/// the server stops.
fn spawn_connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    front: &Front,
    admitted: Admitted,
    drain: &Drain,
) {
    let slot = Arc::clone(&admitted.slot);
    let trusted = Arc::clone(&front.trusted_proxies);
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        slot.spoke.store(true, Ordering::Relaxed);
        let client = crate::proxy::client_addr(peer, req.headers(), &trusted);
        req.extensions_mut().insert(ConnectInfo(client));
        app.clone().call(req)
    });
    let tls = front.tls.clone();
    let mut stop = drain.stop.subscribe();
    let alive = drain.alive.clone();
    tokio::spawn(async move {
        let io: Option<Box<dyn Io>> = match tls {
            None => Some(Box::new(stream)),
            Some(acceptor) => {
                let handshake =
                    tokio::time::timeout(limits.header_timeout, acceptor.accept(stream));
                tokio::select! {
                    done = handshake => match done {
                        Ok(Ok(tls)) => Some(Box::new(tls) as Box<dyn Io>),
                        Ok(Err(e)) => {
                            tracing::debug!(error = %e, "TLS handshake failed");
                            None
                        }
                        Err(_) => None,
                    },
                    () = admitted.slot.close.notified() => None,
                    _ = stop.changed() => None,
                }
            }
        };
        if let Some(io) = io {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(TokioIo::new(io), service)
                .with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = admitted.slot.close.notified() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        }
        drop(admitted);
        drop(alive);
    });
}

/// Answers `503` at once and closes, without reading the request.
async fn refuse(mut stream: TcpStream) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream
            .write_all(&ApiError::overloaded().to_http1_close())
            .await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Exponential pause after accept errors (e.g. out of descriptors), and one
/// log line per burst instead of one per failure.
#[derive(Debug, Default)]
struct AcceptBackoff {
    failures: u32,
    logged_at: Option<Instant>,
}

impl AcceptBackoff {
    const FIRST: Duration = Duration::from_millis(5);
    const MAX: Duration = Duration::from_secs(1);
    const LOG_EVERY: Duration = Duration::from_secs(10);

    fn failed(&mut self, error: &std::io::Error) -> Duration {
        self.failures = self.failures.saturating_add(1);
        if self
            .logged_at
            .is_none_or(|at| at.elapsed() >= Self::LOG_EVERY)
        {
            tracing::warn!(%error, failures = self.failures, "accept failed; backing off");
            self.logged_at = Some(Instant::now());
        }
        Self::FIRST
            .saturating_mul(1 << self.failures.min(10))
            .min(Self::MAX)
    }

    fn reset(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_evicts_the_oldest_silent_connection_else_refuses() {
        let conns = Arc::new(Connections::default());
        let a = conns.admit(2).expect("room");
        let b = conns.admit(2).expect("room");
        a.slot.spoke.store(true, Ordering::Relaxed);
        let c = conns.admit(2).expect("b was silent");
        assert_eq!(conns.evicted(), 1);
        assert_eq!(conns.open(), 2);
        c.slot.spoke.store(true, Ordering::Relaxed);
        assert!(conns.admit(2).is_none(), "both busy: refuse");
        drop(b);
        drop(c);
        assert_eq!(conns.open(), 1);
        drop(a);
        assert_eq!(conns.open(), 0);
    }

    #[test]
    fn backoff_grows_to_a_cap_and_resets() {
        let mut backoff = AcceptBackoff::default();
        let e = std::io::Error::other("EMFILE");
        let first = backoff.failed(&e);
        let later = (0..20).map(|_| backoff.failed(&e)).last();
        assert!(first < AcceptBackoff::MAX);
        assert_eq!(later, Some(AcceptBackoff::MAX));
        backoff.reset();
        assert!(backoff.failed(&e) < AcceptBackoff::MAX);
    }

    #[test]
    fn budget_stays_under_the_descriptor_limit() {
        let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
        let budget = connection_budget(usize::MAX);
        if let Some(soft) = soft {
            assert!((budget as u64) < soft);
        }
        assert_eq!(connection_budget(1), 1);
    }
}

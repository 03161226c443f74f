//! The service's log lines: plain text (ANSI colours only when stdout is a
//! terminal) or JSON lines, filtered by `log_level` (else `RUST_LOG`, else
//! `info`), a filter that SIGHUP may change while the process runs.

use std::sync::Arc;

use tracing_subscriber::EnvFilter;

use crate::args::LogFormat;

/// A start-up line on stdout whatever the filter (people and scripts wait
/// for it): plain text, or with `json` a JSON line like the log's others.
pub(crate) fn announce(format: LogFormat, text: &str) {
    match format {
        LogFormat::Text => println!("{text}"),
        LogFormat::Json => {
            use tracing_subscriber::fmt::time::FormatTime as _;
            let mut timestamp = String::new();
            let _ = tracing_subscriber::fmt::time::SystemTime.format_time(
                &mut tracing_subscriber::fmt::format::Writer::new(&mut timestamp),
            );
            let line = serde_json::json!({
                "timestamp": timestamp,
                "level": "INFO",
                "message": text,
                "target": "fairseed::start",
            });
            println!("{line}");
        }
    }
}

/// Changes the filter of the installed subscriber.
#[derive(Clone)]
pub(crate) struct LogLevel(Arc<dyn Fn(EnvFilter) -> anyhow::Result<()> + Send + Sync>);

impl LogLevel {
    /// Filters by `level` from now on.
    ///
    /// # Errors
    /// `level` is no filter, or the subscriber is gone.
    pub(crate) fn set(&self, level: Option<&str>) -> anyhow::Result<()> {
        (self.0)(filter(level)?)
    }
}

/// The filter `level` (a `log_level`) asks for.
fn filter(level: Option<&str>) -> anyhow::Result<EnvFilter> {
    match level {
        Some(level) => EnvFilter::try_new(level)
            .map_err(|e| anyhow::anyhow!("log_level: {level:?} is not a level: {e}")),
        None => Ok(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"))),
    }
}

/// Installs the subscriber; its filter's handle, or `None` when a CLI
/// installed its own subscriber first (which is kept).
///
/// # Errors
/// `level` is no filter.
pub(crate) fn init(format: LogFormat, level: Option<&str>) -> anyhow::Result<Option<LogLevel>> {
    use std::io::IsTerminal as _;
    let builder = tracing_subscriber::fmt().with_env_filter(filter(level)?);
    let level = match format {
        LogFormat::Text => {
            let builder = builder
                .with_ansi(std::io::stdout().is_terminal())
                .with_filter_reloading();
            let handle = builder.reload_handle();
            builder
                .try_init()
                .ok()
                .map(|()| LogLevel(Arc::new(move |f: EnvFilter| Ok(handle.reload(f)?))))
        }
        LogFormat::Json => {
            let builder = builder.json().flatten_event(true).with_filter_reloading();
            let handle = builder.reload_handle();
            builder
                .try_init()
                .ok()
                .map(|()| LogLevel(Arc::new(move |f: EnvFilter| Ok(handle.reload(f)?))))
        }
    };
    Ok(level)
}

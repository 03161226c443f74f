//! SIGHUP (`systemctl reload`): what can change while the process runs is
//! read again; nothing else changes, and the process never exits for it.
//!
//! Reloaded: the TLS certificate and key (their files' contents), the log
//! filter (`log_level`) and the request limits (`rate_limit`,
//! `signups_per_minute`, `auth_failures_per_minute`), from the
//! configuration file as it now is, under the command line's options.
//! Any other option that changed in the file is named in a warning: it
//! takes effect at the next start. A file that no longer parses changes
//! nothing and says why.

use std::collections::BTreeMap;

use crate::args::ServeArgs;
use crate::logs::LogLevel;
use crate::ratelimit::{AddressLimits, RateLimiter};
use crate::state::AppState;
use crate::tls::Tls;

/// The options a reload applies; every other one needs a restart.
const RELOADABLE: [&str; 4] = [
    "log_level",
    "rate_limit",
    "signups_per_minute",
    "auth_failures_per_minute",
];

/// What a reload reads and changes.
pub(crate) struct Reload {
    /// The options in effect (reloaded ones updated as they change).
    pub running: ServeArgs,
    pub tls: Option<Tls>,
    pub logs: Option<LogLevel>,
    pub state: AppState,
}

/// Where SIGHUP arrives, watched from the start of `serve` so one sent
/// during the start-up is not the signal's default (an exit).
#[cfg(unix)]
pub(crate) type Hangups = Option<tokio::signal::unix::Signal>;
#[cfg(not(unix))]
pub(crate) type Hangups = Option<()>;

/// Starts watching SIGHUP.
pub(crate) fn watch() -> Hangups {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::hangup()) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::warn!(error = %e, "SIGHUP cannot be watched: nothing is ever reloaded");
                None
            }
        }
    }
    #[cfg(not(unix))]
    None
}

/// Reloads on every SIGHUP until aborted.
pub(crate) fn spawn(hangups: Hangups, mut reload: Reload) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        #[cfg(unix)]
        if let Some(mut hangups) = hangups {
            while hangups.recv().await.is_some() {
                reload.once();
            }
        }
        #[cfg(not(unix))]
        drop((hangups, &mut reload));
    })
}

impl Reload {
    /// One reload, every outcome logged.
    pub(crate) fn once(&mut self) {
        if let Some(tls) = &self.tls {
            match tls.reload() {
                Ok(()) => tracing::info!("SIGHUP: TLS certificate and key reloaded"),
                Err(e) => tracing::warn!(
                    error = %format!("{e:#}"),
                    "SIGHUP: TLS certificate not reloaded; the current one stays"
                ),
            }
        }
        let Some(config) = self.running.config.clone() else {
            tracing::info!("SIGHUP: no configuration file to read again (--config)");
            return;
        };
        let wanted = match crate::config::reread(&config) {
            Ok(wanted) => wanted,
            Err(e) => {
                tracing::error!(
                    error = %format!("{e:#}"),
                    "SIGHUP: the configuration was not reloaded; every option stays as it is"
                );
                return;
            }
        };
        let (reload, restart) = changed(&self.running, &wanted);
        if !restart.is_empty() {
            tracing::warn!(
                options = ?restart,
                "SIGHUP: these options changed but take effect only at the next start"
            );
        }
        // The new log level last, so the lines about this reload are
        // written under the level they were asked under.
        let (level, others): (Vec<&str>, Vec<&str>) =
            reload.into_iter().partition(|key| *key == "log_level");
        let applied: Vec<&str> = others
            .into_iter()
            .filter(|key| self.apply(key, &wanted))
            .chain(level.iter().copied())
            .collect();
        tracing::info!(changed = ?applied, "SIGHUP: configuration reloaded");
        for key in level {
            self.apply(key, &wanted);
        }
    }

    /// Applies one reloadable option; whether it took.
    fn apply(&mut self, key: &str, wanted: &ServeArgs) -> bool {
        match key {
            "log_level" => {
                let Some(logs) = &self.logs else {
                    tracing::warn!("SIGHUP: log_level cannot change: the log was set up elsewhere");
                    return false;
                };
                if let Err(e) = logs.set(wanted.log_level.as_deref()) {
                    tracing::warn!(error = %format!("{e:#}"), "SIGHUP: log_level not changed");
                    return false;
                }
                self.running.log_level.clone_from(&wanted.log_level);
            }
            "rate_limit" => {
                let limiter = RateLimiter::new(wanted.rate_limit);
                self.state.limiter().set_rate_of(&limiter);
                self.running.rate_limit = wanted.rate_limit;
            }
            _ => {
                self.state.address_limits().set(AddressLimits {
                    signups_per_minute: wanted.signups_per_minute,
                    auth_failures_per_minute: wanted.auth_failures_per_minute,
                });
                self.running.signups_per_minute = wanted.signups_per_minute;
                self.running.auth_failures_per_minute = wanted.auth_failures_per_minute;
            }
        }
        true
    }
}

/// The options that differ between `running` and `wanted`, as the
/// effective configuration names them: those a reload applies, and the
/// others.
fn changed(running: &ServeArgs, wanted: &ServeArgs) -> (Vec<&'static str>, Vec<String>) {
    let lines = |args| -> BTreeMap<String, String> {
        crate::config::effective(args)
            .lines()
            .filter_map(|l| l.split_once(" = "))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    };
    let (before, after) = (lines(running), lines(wanted));
    let mut reload = Vec::new();
    let mut restart = Vec::new();
    for (key, value) in &after {
        if before.get(key) == Some(value) {
            continue;
        }
        match RELOADABLE.iter().find(|r| **r == key) {
            Some(r) => reload.push(*r),
            None => restart.push(key.clone()),
        }
    }
    (reload, restart)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;

    #[derive(clap::Parser)]
    struct Only {
        #[command(flatten)]
        serve: ServeArgs,
    }

    fn args(flags: &[&str]) -> ServeArgs {
        Only::parse_from(std::iter::once("x").chain(flags.iter().copied())).serve
    }

    #[test]
    fn limits_and_level_reload_everything_else_waits_for_a_restart() {
        let running = args(&["--rate-limit=100", "--listen=127.0.0.1:1"]);
        let wanted = args(&[
            "--rate-limit=5",
            "--log-level=debug",
            "--auth-failures-per-minute=3",
            "--listen=127.0.0.1:2",
            "--log-origin=example.org/fairseed",
        ]);
        let (reload, restart) = changed(&running, &wanted);
        assert_eq!(
            reload,
            ["auth_failures_per_minute", "log_level", "rate_limit"]
        );
        assert_eq!(restart, ["listen", "log_origin"]);
        assert_eq!(changed(&wanted, &wanted), (vec![], vec![]));
    }
}

//! The configuration file of `fairseed serve` (TOML), and `--check-config`.
//!
//! Every option of [`ServeArgs`] may be set in the file under its field name
//! (`data_dir = "/var/lib/fairseed"`, `trusted_proxies = ["127.0.0.1"]`).
//! The file is turned into flags placed before the ones typed, so one parser
//! checks everything and names the option at fault; an option given as a
//! flag, or through its environment variable, is left out of the file's
//! flags: flags, then the environment, then the file, then the defaults.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;
use clap::CommandFactory as _;

use crate::args::ServeArgs;

/// Options that make no sense in the file.
const NOT_IN_FILE: [&str; 2] = ["config", "check_config"];

/// The options of [`ServeArgs`] alone, as a parser.
#[derive(clap::Parser)]
struct Only {
    #[command(flatten)]
    serve: ServeArgs,
}

/// The clap command of [`ServeArgs`] alone, to look options up.
fn command() -> clap::Command {
    Only::command()
}

/// `argv` with the options of the file at `config` inserted after position
/// `at` (the program name, or the `serve` subcommand), unless the typed
/// arguments or the environment set them.
///
/// # Errors
/// The file cannot be read or is not TOML, a key is no option, or a value
/// is neither a string, a number, a boolean nor an array of those.
pub fn with_file(argv: &[OsString], at: usize, config: &Path) -> anyhow::Result<Vec<OsString>> {
    let text = std::fs::read_to_string(config)
        .with_context(|| format!("reading the configuration file {}", config.display()))?;
    let table: toml::Table = text
        .parse()
        .with_context(|| format!("{}: not valid TOML", config.display()))?;
    let typed = argv.get(at + 1..).unwrap_or_default();
    let command = command();
    let mut flags = Vec::new();
    for (key, value) in &table {
        let arg = command
            .get_arguments()
            .find(|a| a.get_id().as_str() == key && !NOT_IN_FILE.contains(&key.as_str()))
            .with_context(|| {
                format!(
                    "{}: `{key}` is not an option of fairseed serve",
                    config.display()
                )
            })?;
        let long = arg.get_long().unwrap_or(key);
        let given = typed.iter().any(|a| {
            a.to_str()
                .is_some_and(|a| a == format!("--{long}") || a.starts_with(&format!("--{long}=")))
        });
        let in_env = arg
            .get_env()
            .is_some_and(|name| std::env::var_os(name).is_some());
        if given || in_env {
            continue;
        }
        let values = match value {
            toml::Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        for item in values {
            let text = scalar(item).with_context(|| {
                format!(
                    "{}: `{key}`: expected a string, a number or a boolean",
                    config.display()
                )
            })?;
            flags.push(OsString::from(format!("--{long}={text}")));
        }
    }
    let mut out: Vec<OsString> = argv.get(..=at).unwrap_or(argv).to_vec();
    out.extend(flags);
    out.extend(typed.iter().cloned());
    Ok(out)
}

/// This process's command line parsed again as `P`, with the options of
/// the configuration file inserted after position `at` (see [`with_file`]).
///
/// # Errors
/// As [`with_file`], or a value from the file or the command line that the
/// option does not take (the message names the option and the file).
pub fn reparse<P: clap::Parser>(config: &Path, at: usize) -> anyhow::Result<P> {
    let argv: Vec<OsString> = std::env::args_os().collect();
    reparse_from(&argv, at, config)
}

/// The options of `fairseed serve` as this process's command line and the
/// configuration file at `config` give them now, for a reload (SIGHUP).
/// The command line's options follow the program's name, or its `serve`
/// subcommand (`fairseed serve`; `fairseed-server` has no subcommand).
///
/// # Errors
/// As [`reparse`].
pub fn reread(config: &Path) -> anyhow::Result<ServeArgs> {
    let mut argv: Vec<OsString> = std::env::args_os().collect();
    if argv.get(1).is_some_and(|a| a == "serve") {
        argv.remove(1);
    }
    reparse_from::<Only>(&argv, 0, config).map(|only| only.serve)
}

fn reparse_from<P: clap::Parser>(argv: &[OsString], at: usize, config: &Path) -> anyhow::Result<P> {
    let argv = with_file(argv, at, config)?;
    P::try_parse_from(argv).map_err(|e| {
        anyhow::anyhow!(
            "with the configuration file {}: {}",
            config.display(),
            e.to_string().trim_start_matches("error: ").trim_end()
        )
    })
}

fn scalar(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The effective configuration as a TOML file would set it, the operator
/// key and the database password redacted.
pub fn effective(args: &ServeArgs) -> String {
    let mut out = String::new();
    let mut line = |key: &str, value: String| {
        let _ = writeln!(out, "{key} = {value}");
    };
    let s = |v: &dyn std::fmt::Display| quoted(&v.to_string());
    let opt = |v: Option<String>| v.map_or_else(|| "# (not set)".to_owned(), |v| quoted(&v));
    line("listen", s(&args.listen));
    line(
        "metrics_listen",
        opt(args.metrics_listen.map(|a| a.to_string())),
    );
    line(
        "tls_cert",
        opt(args.tls_cert.as_ref().map(|p| p.display().to_string())),
    );
    line(
        "tls_key",
        opt(args.tls_key.as_ref().map(|p| p.display().to_string())),
    );
    line(
        "trusted_proxies",
        list(args.trusted_proxies.iter().map(ToString::to_string)),
    );
    line("data_dir", s(&args.data_dir.display()));
    line("database", opt(args.database.as_deref().map(redact_url)));
    line(
        "operator_key",
        if args.operator_key.is_some() {
            quoted("<redacted>")
        } else {
            "# (not set: DATA_DIR/operator.key)".to_owned()
        },
    );
    line("opening_balance", args.opening_balance.to_string());
    line("rate_limit", args.rate_limit.to_string());
    line("header_timeout", args.header_timeout.to_string());
    line("max_connections", args.max_connections.to_string());
    line("signup", s(&value_name(args.signup)));
    line("signups_per_minute", args.signups_per_minute.to_string());
    line(
        "auth_failures_per_minute",
        args.auth_failures_per_minute.to_string(),
    );
    line("log_format", s(&value_name(args.log_format)));
    line("log_level", opt(args.log_level.clone()));
    line(
        "web_dir",
        opt(args.web_dir.as_ref().map(|p| p.display().to_string())),
    );
    line("lease_ttl_ms", args.lease_ttl_ms.to_string());
    line("holdem_ai_delay_ms", args.holdem_ai_delay_ms.to_string());
    line("holdem_next_hand_ms", args.holdem_next_hand_ms.to_string());
    line(
        "holdem_idle_close_ms",
        args.holdem_idle_close_ms.to_string(),
    );
    line(
        "holdem_max_tables_per_player",
        args.holdem_max_tables_per_player.to_string(),
    );
    line("holdem_max_tables", args.holdem_max_tables.to_string());
    line("log", s(&value_name(args.log)));
    line("log_origin", s(&args.log_origin));
    line(
        "witnesses",
        list(
            args.witnesses
                .iter()
                .map(|w| format!("{}={}", w.url, w.key.vkey())),
        ),
    );
    out
}

/// The name clap gives a value of an enum option.
fn value_name(value: impl clap::ValueEnum) -> String {
    value
        .to_possible_value()
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default()
}

/// A TOML basic string (JSON's escapes are TOML's).
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

fn list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.map(|i| quoted(&i)).collect();
    format!("[{}]", items.join(", "))
}

/// A connection URL with its password, if any, replaced.
fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "<redacted: not a URL>".to_owned();
    };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    let Some((userinfo, host)) = authority.rsplit_once('@') else {
        return redact_query(url);
    };
    let user = userinfo.split(':').next().unwrap_or_default();
    let pass = if userinfo.contains(':') {
        ":<redacted>"
    } else {
        ""
    };
    redact_query(&format!("{scheme}://{user}{pass}@{host}{tail}"))
}

/// A `password=` query parameter replaced.
fn redact_query(url: &str) -> String {
    let Some((base, query)) = url.split_once('?') else {
        return url.to_owned();
    };
    let params: Vec<String> = query
        .split('&')
        .map(|p| match p.split_once('=') {
            Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=<redacted>"),
            _ => p.to_owned(),
        })
        .collect();
    format!("{base}?{}", params.join("&"))
}

/// The names of every option the file may set, for tests and docs.
pub fn file_keys() -> Vec<String> {
    command()
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .filter(|k| !NOT_IN_FILE.contains(&k.as_str()) && k != "help")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_their_password() {
        assert_eq!(
            redact_url("postgres://app:s3cret@db.example:5432/fair?sslmode=verify-full"),
            "postgres://app:<redacted>@db.example:5432/fair?sslmode=verify-full"
        );
        assert_eq!(
            redact_url("postgres://app@db/fair?password=s3cret&sslmode=require"),
            "postgres://app@db/fair?password=<redacted>&sslmode=require"
        );
        assert_eq!(redact_url("postgres://db/fair"), "postgres://db/fair");
        assert!(!redact_url("s3cret").contains("s3cret"));
    }

    #[test]
    fn every_option_is_printed() {
        use clap::Parser as _;
        let args = Only::parse_from(["x"]).serve;
        let text = effective(&args);
        for key in file_keys() {
            assert!(
                text.lines().any(|l| l.starts_with(&format!("{key} = "))),
                "{key} missing from:\n{text}"
            );
        }
    }
}

//! `fairseed`: verify fairness records from the command line (docs/spec.md §12).
//!
//! Like ripgrep, `main` is the one exit path: `run` returns a result, the error
//! chain is printed once, a closed stdout (broken pipe) counts as success, and the
//! exit status is 0 (every record valid), 1 (a record did not verify) or 2 (error).

use std::io;
use std::process::ExitCode;

#[cfg(feature = "serve")]
use anyhow::Context;
use clap::Parser;

mod args;
#[cfg(feature = "audit")]
mod audit;
#[cfg(feature = "audit")]
mod audit_html;
#[cfg(feature = "audit")]
mod audit_source;
#[cfg(feature = "serve")]
mod backup;
mod commit;
#[cfg(feature = "evidence")]
mod evidence;
mod holdem_verify;
mod input;
mod pipeline;
#[cfg_attr(not(feature = "progress"), path = "no_progress.rs")]
mod progress;
mod roll;
mod table;
mod tally;
mod verify;
#[cfg(feature = "witness")]
mod witness;

use args::{Cli, Command};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("fairseed: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify(args) => {
            let options = args.into_options()?;
            match &options.evidence {
                #[cfg(feature = "evidence")]
                Some(file) => evidence::run(&options, file),
                #[cfg(not(feature = "evidence"))]
                Some(_) => Err(anyhow::anyhow!(
                    "--evidence: this build checks no evidence (the `evidence` feature of fairseed-cli, on by default, is off)"
                )),
                None => verify::run(&options),
            }
        }
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve(with_config_file(*args)?),
        #[cfg(feature = "serve")]
        Command::Backup(args) => backup::backup(&args),
        #[cfg(feature = "serve")]
        Command::Restore(args) => backup::restore(&args),
        #[cfg(feature = "serve")]
        Command::NewLog(args) => backup::new_log(&args),
        Command::Roll(args) => roll::run(&args),
        Command::Commit(args) => commit::run(&args),
        Command::Table(args) => table::run(args),
        #[cfg(feature = "audit")]
        Command::Audit(args) => audit::run(&args),
        #[cfg(feature = "witness")]
        Command::Witness(args) => witness::run(args),
    }
}

/// `fairseed serve`: the server crate's own entry point on a multi-threaded runtime.
#[cfg(feature = "serve")]
fn serve(args: fairseed_server::ServeArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let served = runtime.block_on(fairseed_server::serve(args));
    // A read of SQLite stuck on its disk holds a blocking thread: the stop
    // does not wait for it (the service bounded its own last steps).
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    served?;
    Ok(ExitCode::SUCCESS)
}

/// The options again with those of `--config`'s file under the typed ones.
#[cfg(feature = "serve")]
fn with_config_file(
    args: fairseed_server::ServeArgs,
) -> anyhow::Result<fairseed_server::ServeArgs> {
    let Some(config) = args.config.clone() else {
        return Ok(args);
    };
    // `serve` is the first argument: the command line has no global option.
    match fairseed_server::config::reparse::<Cli>(&config, 1)?.command {
        Command::Serve(args) => Ok(*args),
        _ => anyhow::bail!("the command changed while reading {}", config.display()),
    }
}

/// A reader that stopped listening (`fairseed verify big.jsonl | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

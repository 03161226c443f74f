//! The command line as typed (clap), and its conversion into checked options.
//!
//! The clap structs mirror the flags; `into_options` turns them into the values the
//! commands run on, so every check happens before any work starts.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Provably-fair randomness: verify records, roll dice, make commitments.
#[derive(Debug, Parser)]
#[command(name = "fairseed", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Verify fairness records: one record, a JSON array, or JSON Lines.
    ///
    /// Exit status: 0 every record valid, 1 at least one record did not verify,
    /// 2 input that cannot be read as records.
    Verify(VerifyArgs),

    /// Run the fairseed HTTP service (commitments, rolls, deals, reveals).
    Serve(fairseed_server::ServeArgs),
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Print one JSON object per record and line instead of a readable report.
    #[arg(long)]
    json: bool,

    /// Worker threads (default: the number of cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<NonZeroUsize>,

    /// The record file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// Where the records come from.
#[derive(Debug, Clone)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

/// How each verdict is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `report::render`: cards as `As`, the first mismatch named.
    Human,
    /// SPEC §8: one JSON object per record per line.
    Json,
}

/// `fairseed verify`, checked.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    pub source: Source,
    pub format: Format,
    pub threads: usize,
}

impl VerifyArgs {
    /// Resolves defaults: `-` is standard input, threads default to the core count.
    pub fn into_options(self) -> anyhow::Result<VerifyOptions> {
        let source = if self.file.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(self.file)
        };
        let threads = match self.threads {
            Some(n) => n.get(),
            None => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        };
        Ok(VerifyOptions {
            source,
            format: if self.json {
                Format::Json
            } else {
                Format::Human
            },
            threads,
        })
    }
}

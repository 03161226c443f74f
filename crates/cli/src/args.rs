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
    #[cfg(feature = "serve")]
    Serve(Box<fairseed_server::ServeArgs>),

    /// Copy the service's database (SQLite, consistently while it runs) and
    /// key files into a new directory.
    #[cfg(feature = "serve")]
    Backup(crate::backup::BackupArgs),

    /// Put a backup into a data directory; the next start signs nothing
    /// before it found the log not behind what was published.
    #[cfg(feature = "serve")]
    Restore(crate::backup::RestoreArgs),

    /// Freeze the log after a loss that cannot be bridged (served read-only
    /// at its origin) and start a new one from size 0 under a new origin
    /// and key. The service must be stopped.
    #[cfg(feature = "serve")]
    NewLog(crate::backup::NewLogArgs),

    /// Recompute one dice_v1 roll (and settle a bet) from its seeds and nonce.
    Roll(RollArgs),

    /// Print a seed's commitment, or make a new server seed and its commitment.
    Commit(CommitArgs),

    /// Hold'em tables: simulate AI-only hands, export hand records.
    Table(crate::table::TableArgs),

    /// Audit a transparency log: checkpoint, tiles, consistency, every reveal.
    ///
    /// Exit status: 0 the log passed, 1 at least one finding, 2 the log could not be read.
    #[cfg(feature = "audit")]
    Audit(crate::audit::AuditArgs),

    /// Cosign a transparency log's checkpoints (C2SP tlog-witness `add-checkpoint`).
    #[cfg(feature = "witness")]
    Witness(crate::witness::WitnessArgs),
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("direction").args(["under", "over"]))]
pub struct RollArgs {
    /// The revealed server seed (64 lowercase hex digits).
    #[arg(long, value_name = "HEX")]
    pub server_seed: String,

    /// The player's client seed.
    #[arg(long, value_name = "TEXT")]
    pub client_seed: String,

    /// The bet's number within the seed pair, from 0.
    #[arg(long)]
    pub nonce: u64,

    /// Bet amount in whole chips (with --under or --over).
    #[arg(long, requires = "direction")]
    pub amount: Option<u64>,

    /// The bet wins when the roll is below TARGET.
    #[arg(long, value_name = "TARGET", requires = "amount")]
    pub under: Option<u16>,

    /// The bet wins when the roll is above TARGET.
    #[arg(long, value_name = "TARGET", requires = "amount")]
    pub over: Option<u16>,

    /// Print a dice_v1 record with its outcome (pipe it to `fairseed verify -`).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CommitArgs {
    /// The server seed (64 lowercase hex digits), or `-` to read it from standard
    /// input. Without SEED (and without --new or --selfpoker) the seed is read from
    /// standard input when that is a pipe or a file, never from a terminal.
    #[arg(value_name = "SEED", conflicts_with_all = ["new", "selfpoker"])]
    pub seed: Option<String>,

    /// Make a new server seed from the OS CSPRNG and print it with its commitment.
    #[arg(long, conflicts_with = "selfpoker")]
    pub new: bool,

    /// Print the commit of a selfpoker seed: sha256("selfpoker:" + SEED).
    #[arg(long, value_name = "SEED")]
    pub selfpoker: Option<u64>,
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

    /// A seat's evidence file (docs/spec.md §20.7), held to the one hand
    /// record FILE holds and the record's `evidence_key`: exit 1 on an alarm.
    #[arg(long, value_name = "EVIDENCE")]
    evidence: Option<PathBuf>,
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
    /// docs/spec.md §12.4: one JSON object per record per line.
    Json,
}

/// `fairseed verify`, checked.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    pub source: Source,
    pub format: Format,
    pub threads: usize,
    /// `--evidence`: the evidence file to hold to the record.
    pub evidence: Option<PathBuf>,
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
            evidence: self.evidence,
        })
    }
}

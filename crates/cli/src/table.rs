//! `fairseed table`: AI-only hold'em tables played from one seed, and their
//! hand records exported for other tools.
//!
//! Simulated tables are for benchmarks and tests: every hand's seed derives
//! from `--seed`, so a run repeats exactly. Live tables draw each hand's seed
//! from the OS CSPRNG instead.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use fairseed_holdem::ai::Level;

#[derive(Debug, Args)]
pub struct TableArgs {
    #[command(subcommand)]
    pub command: TableCommand,
}

#[derive(Debug, Subcommand)]
pub enum TableCommand {
    /// Play AI-only hands deterministically from a seed and print their
    /// records as JSON Lines (`fairseed verify -` reads them).
    Simulate(SimulateArgs),
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Seats at the table, all AIs.
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u8).range(2..=6))]
    seats: u8,

    /// Hands to play.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    hands: u64,

    /// The run's seed: every hand's deal and every AI decision derive from it.
    #[arg(long, value_name = "X")]
    seed: u64,

    /// Each seat's AI level (1 to 3), one per seat, comma-separated
    /// (default: 1, 2, 3, 1, 2, 3 from seat 0).
    #[arg(long, value_name = "L,L,…", value_delimiter = ',',
          value_parser = clap::value_parser!(u8).range(1..=3))]
    levels: Vec<u8>,
}

/// Runs `fairseed table …`.
pub fn run(args: TableArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        TableCommand::Simulate(args) => simulate(&args),
    }
}

/// The levels of `seats` seats: as given, or 1, 2, 3 in turn.
fn seat_levels(seats: usize, given: &[u8]) -> anyhow::Result<Vec<Level>> {
    if given.is_empty() {
        return Ok((0..seats)
            .map(|s| Level::ALL[s % Level::ALL.len()])
            .collect());
    }
    if given.len() != seats {
        bail!(
            "--levels: {} levels for {seats} seats, expected one per seat",
            given.len()
        );
    }
    given
        .iter()
        .map(|&n| Level::from_number(n).with_context(|| format!("--levels: no level {n}")))
        .collect()
}

fn simulate(args: &SimulateArgs) -> anyhow::Result<ExitCode> {
    let levels = seat_levels(usize::from(args.seats), &args.levels)?;
    let records = fairseed_holdem::simulate(&levels, args.hands, args.seed)
        .context("cannot simulate the table")?;
    let mut out = BufWriter::new(io::stdout().lock());
    for record in &records {
        serde_json::to_writer(&mut out, record).context("cannot write a hand record")?;
        out.write_all(b"\n").context("cannot write a hand record")?;
    }
    out.flush().context("cannot write the hand records")?;
    Ok(ExitCode::SUCCESS)
}

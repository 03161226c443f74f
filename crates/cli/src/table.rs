//! `fairseed table`: AI-only hold'em tables played from one seed, and their
//! hand records exported for other tools.
//!
//! Simulated tables are for benchmarks and tests: every hand's seed derives
//! from `--seed`, so a run repeats exactly. Live tables draw each hand's seed
//! from the OS CSPRNG instead.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use fairseed_core::selfpoker_v2::ClientSeedEntry;
use fairseed_core::ClientSeed;
use fairseed_holdem::ai::Level;
use fairseed_holdem::live::Scheme;
use fairseed_holdem::{HandRecord, SessionV2};

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

    /// Read hand records (JSON Lines) on standard input and write them in
    /// another format on standard output.
    Export(ExportArgs),

    /// Print the first decisions of six engine-v1 AIs seeded from `--seed`,
    /// one action per line (docs/spec.md §18.2): the page's wasm build
    /// prints the same, so the two builds are compared.
    Decisions(DecisionsArgs),
}

#[derive(Debug, Args)]
pub struct DecisionsArgs {
    /// The session's seed (the wasm build takes 32 bits).
    #[arg(long, value_name = "X")]
    seed: u32,

    /// How many decisions, at most 1,000,000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    count: u32,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Seats at the table, all AIs.
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u8).range(2..=6))]
    seats: u8,

    /// Hands to play, at most 100,000 (the records are held until printed).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    hands: u64,

    /// The run's seed: every hand's deal and every AI decision derive from it.
    #[arg(long, value_name = "X")]
    seed: u64,

    /// Each seat's AI level (1 to 3), one per seat, comma-separated
    /// (default: 1, 2, 3, 1, 2, 3 from seat 0).
    #[arg(long, value_name = "L,L,…", value_delimiter = ',',
          value_parser = clap::value_parser!(u8).range(1..=3))]
    levels: Vec<u8>,

    /// A human seat and its client seed, `SEAT=TEXT` (repeatable): the seat
    /// is a human played by its level's AI, and every hand is dealt under
    /// `--scheme` from a session secret derived from `--seed`, revealed in
    /// each record (docs/spec.md §15.2).
    #[arg(long = "client-seed", value_name = "SEAT=TEXT")]
    client_seeds: Vec<String>,

    /// How hands are dealt with `--client-seed`: `selfpoker_v3` (each human
    /// commits to a per-hand value, docs/spec.md §20) or `selfpoker_v2` (§17).
    #[arg(
        long,
        value_enum,
        default_value = "selfpoker_v3",
        requires = "client_seeds"
    )]
    scheme: SimulatedScheme,
}

/// The schemes a simulated table with humans deals under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimulatedScheme {
    /// Per-hand values from every human (docs/spec.md §20).
    #[value(name = "selfpoker_v3")]
    SelfpokerV3,
    /// Client seeds alone (docs/spec.md §17).
    #[value(name = "selfpoker_v2")]
    SelfpokerV2,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The Poker Hand History format (TOML), read by PokerKit.
    Phh,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The format to write.
    #[arg(long, value_enum)]
    format: ExportFormat,
}

/// Runs `fairseed table …`.
pub fn run(args: TableArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        TableCommand::Simulate(args) => simulate(&args),
        TableCommand::Export(args) => export(&args),
        TableCommand::Decisions(args) => decisions(&args),
    }
}

fn decisions(args: &DecisionsArgs) -> anyhow::Result<ExitCode> {
    let count = usize::try_from(args.count).context("--count does not fit this machine")?;
    let text = fairseed_holdem::simulate::ai_decisions_text(u64::from(args.seed), count)
        .context("cannot play the AIs' hands")?;
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write the decisions")?;
    Ok(ExitCode::SUCCESS)
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

/// The session of `--client-seed`s under `scheme`, `None` without any.
fn session(given: &[String], scheme: SimulatedScheme) -> anyhow::Result<Option<SessionV2>> {
    if given.is_empty() {
        return Ok(None);
    }
    let client_seeds = given
        .iter()
        .map(|arg| {
            let (seat, text) = arg
                .split_once('=')
                .with_context(|| format!("--client-seed: expected SEAT=TEXT, got {arg:?}"))?;
            let seat: usize = seat
                .parse()
                .with_context(|| format!("--client-seed: seat {seat:?} is not a number"))?;
            ClientSeed::parse_chosen(text, &format!("--client-seed {seat}"))?;
            Ok(ClientSeedEntry::new(seat, text)?)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Some(SessionV2 {
        table_id: SIMULATED_TABLE.to_owned(),
        client_seeds,
        scheme: match scheme {
            SimulatedScheme::SelfpokerV3 => Scheme::SelfpokerV3,
            SimulatedScheme::SelfpokerV2 => Scheme::SelfpokerV2,
        },
    }))
}

/// The table id of simulated sessions.
const SIMULATED_TABLE: &str = "simulated";

fn simulate(args: &SimulateArgs) -> anyhow::Result<ExitCode> {
    let levels = seat_levels(usize::from(args.seats), &args.levels)?;
    let session = session(&args.client_seeds, args.scheme)?;
    let records =
        fairseed_holdem::simulate_session(&levels, args.hands, args.seed, session.as_ref())
            .context("cannot simulate the table")?;
    let mut out = BufWriter::new(io::stdout().lock());
    for record in &records {
        serde_json::to_writer(&mut out, record).context("cannot write a hand record")?;
        out.write_all(b"\n").context("cannot write a hand record")?;
    }
    out.flush().context("cannot write the hand records")?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the records on standard input as one PHH file of several hands
/// (`.phhs`: a `[n]` table per hand, numbered from 1 in input order).
fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let ExportFormat::Phh = args.format;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut written = 0u64;
    for (n, line) in io::stdin().lock().lines().enumerate() {
        let line = line.context("cannot read standard input")?;
        if line.trim().is_empty() {
            continue;
        }
        let record: HandRecord = serde_json::from_str(&line)
            .with_context(|| format!("line {}: not a hold'em hand record", n + 1))?;
        let gap = if written == 0 { "" } else { "\n" };
        written += 1;
        let hand = fairseed_holdem::phh::to_phh(&record);
        write!(out, "{gap}[{written}]\n{hand}").context("cannot write the export")?;
    }
    out.flush().context("cannot write the export")?;
    if written == 0 {
        bail!("no hand records on standard input");
    }
    Ok(ExitCode::SUCCESS)
}

//! `fairseed commit`: the commitment of a server seed (docs/spec.md §2.2) or of a
//! selfpoker seed (docs/spec.md §9.1), or a fresh server seed from the OS CSPRNG.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use anyhow::Context;
use fairseed_core::{selfpoker, ServerSeed};

use crate::args::CommitArgs;

/// Runs `fairseed commit`.
pub fn run(args: &CommitArgs) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    if let Some(seed) = args.selfpoker {
        if seed > selfpoker::MAX_SEED {
            anyhow::bail!("invalid --selfpoker seed {seed}: expected 0 to 2^63-1");
        }
        writeln!(out, "commit {}", selfpoker::commit(seed))?;
        return Ok(ExitCode::SUCCESS);
    }
    let seed = if args.new {
        let mut bytes = [0u8; 32];
        getrandom::getrandom(&mut bytes).context("the OS random number generator failed")?;
        ServerSeed::from_bytes(bytes)
    } else {
        let text = match args.seed.as_deref() {
            Some("-") | None => read_stdin_line()?,
            Some(text) => text.to_owned(),
        };
        ServerSeed::parse_field(text.trim(), "server seed").context("invalid server seed")?
    };
    if args.new {
        // Printed only because the caller asked for a new secret; keep it until the reveal.
        writeln!(out, "server_seed {}", seed.reveal())?;
    }
    writeln!(out, "commitment {}", seed.commitment())?;
    Ok(ExitCode::SUCCESS)
}

/// A seed piped in keeps it out of the process list and shell history.
fn read_stdin_line() -> anyhow::Result<String> {
    let mut line = String::new();
    io::stdin()
        .lock()
        .read_line(&mut line)
        .context("cannot read the seed from standard input")?;
    Ok(line)
}

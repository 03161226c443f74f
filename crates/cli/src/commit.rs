//! `fairseed commit`: the commitment of a server seed (docs/spec.md §2.2) or of a
//! selfpoker seed (docs/spec.md §9.1), or a fresh server seed from the OS CSPRNG.

use std::io::{self, BufRead, IsTerminal, Write};
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
        let text = match seed_source(args.seed.as_deref(), io::stdin().is_terminal()) {
            SeedSource::Argument(text) => text.to_owned(),
            SeedSource::Stdin => read_stdin_line()?,
            SeedSource::Missing => anyhow::bail!(
                "no server seed given: pass SEED, `-` to read it from standard input, \
                 or --new for a fresh one"
            ),
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

/// Where `fairseed commit` takes its server seed from.
#[derive(Debug, PartialEq, Eq)]
enum SeedSource<'a> {
    Argument(&'a str),
    Stdin,
    /// No argument and standard input is a terminal: waiting there for a seed
    /// nobody was asked for would look like a hang.
    Missing,
}

fn seed_source(arg: Option<&str>, stdin_is_terminal: bool) -> SeedSource<'_> {
    match arg {
        Some("-") => SeedSource::Stdin,
        Some(text) => SeedSource::Argument(text),
        None if stdin_is_terminal => SeedSource::Missing,
        None => SeedSource::Stdin,
    }
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

#[cfg(test)]
mod tests {
    use super::{seed_source, SeedSource};

    #[test]
    fn the_seed_comes_from_the_argument_or_a_non_terminal_stdin() {
        assert_eq!(seed_source(Some("ab"), true), SeedSource::Argument("ab"));
        assert_eq!(seed_source(Some("ab"), false), SeedSource::Argument("ab"));
        assert_eq!(seed_source(Some("-"), true), SeedSource::Stdin);
        assert_eq!(seed_source(Some("-"), false), SeedSource::Stdin);
        assert_eq!(seed_source(None, false), SeedSource::Stdin);
        assert_eq!(seed_source(None, true), SeedSource::Missing);
    }
}

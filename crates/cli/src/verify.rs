//! `fairseed verify`: frame the input, check every record with core on all
//! cores, print verdicts in input order, and add up the exit status.
//!
//! The checking itself is core's `Verifier` (hold'em hand records go to
//! `fairseed_holdem::verdict`, see `holdem_verify`); this file only moves
//! records and verdicts around and counts them.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use fairseed_core::{report, Verdict, Verifier};
use serde_json::value::RawValue;

use crate::args::{Format, VerifyOptions};
use crate::holdem_verify;
use crate::input::{self, is_blank, Input, LineChunk};
use crate::pipeline::ordered_map;
use crate::progress::Progress;

/// Records handed to core's `verify_batch` at once: enough for the dice
/// kernel's lanes to stay full, few enough to stay in cache.
const BATCH: usize = 64;
use crate::tally::Tally;

/// Input errors printed on stderr before the rest are only counted.
const MAX_ERROR_LINES: usize = 20;

/// A piece of the input to check on one worker.
enum Job {
    Lines(LineChunk),
    Records {
        first_index: usize,
        records: Vec<Box<RawValue>>,
    },
    /// Where a whole input breaks off: the record at `index` and why.
    Broken {
        index: usize,
        why: String,
    },
}

/// What a worker hands back: printed verdicts, counts, and input-error messages.
#[derive(Default)]
struct Checked {
    out: String,
    tally: Tally,
    errors: Vec<String>,
    bytes: u64,
}

/// Runs `fairseed verify` and returns the exit status of docs/spec.md §12.5.
pub fn run(opts: &VerifyOptions) -> anyhow::Result<ExitCode> {
    let opened = input::open(&opts.source)?;
    let progress = Progress::new(opened.size);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut tally = Tally::default();
    let mut errors_shown = 0usize;
    let format = opts.format;

    let consume = |checked: Checked| -> anyhow::Result<()> {
        out.write_all(checked.out.as_bytes())
            .context("cannot write the report")?;
        tally.add(checked.tally);
        for line in checked.errors {
            if errors_shown < MAX_ERROR_LINES {
                progress.eprintln(&format!("fairseed: {line}"));
            }
            errors_shown += 1;
        }
        progress.advance(checked.bytes, tally.records());
        Ok(())
    };
    let work = move |job: Job| check_job(job, format);
    match opened.input {
        Input::Lines(chunks) => {
            ordered_map(
                opts.threads,
                chunks.map(|c| c.map(Job::Lines)),
                work,
                consume,
            )?;
        }
        Input::Records(split) => {
            let index = split.records.len();
            let broken = split.broken.map(|why| Job::Broken { index, why });
            let jobs = input::record_chunks(split.records)
                .into_iter()
                .map(|(first_index, records)| Job::Records {
                    first_index,
                    records,
                })
                .chain(broken)
                .map(Ok);
            ordered_map(opts.threads, jobs, work, consume)?;
        }
    }
    progress.finish();

    let unlisted = tally.unreadable.saturating_sub(MAX_ERROR_LINES as u64);
    if unlisted > 0 {
        eprintln!("fairseed: {unlisted} more unreadable records not listed");
    }
    if tally.records() == 0 {
        out.flush().context("cannot write the report")?;
        anyhow::bail!("no records in the input: expected one record, a JSON array or JSON Lines");
    }
    if format == Format::Human && tally.records() > 1 {
        writeln!(out, "{}", tally.summary()).context("cannot write the report")?;
    }
    if format == Format::Human {
        for line in tally.warning_lines() {
            writeln!(out, "{line}").context("cannot write the report")?;
        }
    }
    out.flush().context("cannot write the report")?;
    Ok(tally.exit_code())
}

fn check_job(job: Job, format: Format) -> Checked {
    let mut checked = Checked::default();
    // One per job: consecutive bets of a dice seed pair share its key state.
    let mut verifier = Verifier::new();
    match job {
        Job::Lines(chunk) => {
            checked.bytes = chunk.text.len() as u64;
            // Reports run about twice the size of the records; growing the buffer
            // by doubling would copy it several times over.
            checked.out.reserve(chunk.text.len() * 2);
            let mut index = chunk.first_index;
            let lines: Vec<(u64, &[u8])> = chunk.lines().filter(|(_, l)| !is_blank(l)).collect();
            for batch in lines.chunks(BATCH) {
                // Lines that are not UTF-8 get their verdict in place; the rest
                // are verified together (dice bets share hashing passes).
                let decoded: Vec<Result<&str, std::str::Utf8Error>> =
                    batch.iter().map(|(_, l)| std::str::from_utf8(l)).collect();
                let texts: Vec<&str> = decoded.iter().filter_map(|t| t.ok()).collect();
                let mut verdicts = holdem_verify::verify_batch(&mut verifier, &texts).into_iter();
                for ((line_no, _), text) in batch.iter().zip(&decoded) {
                    let verdict = match text {
                        Ok(_) => verdicts
                            .next()
                            .expect("verify_batch gives one verdict per text"),
                        Err(e) => unreadable(format!(
                            "invalid JSON: not UTF-8, invalid byte at column {}",
                            e.valid_up_to() + 1
                        )),
                    };
                    record(&mut checked, index, Some(*line_no), &verdict, format);
                    index += 1;
                }
            }
        }
        Job::Records {
            first_index,
            records,
        } => {
            let texts: Vec<&str> = records.iter().map(|r| r.get()).collect();
            checked.bytes = texts.iter().map(|t| t.len() as u64).sum();
            for (batch_no, batch) in texts.chunks(BATCH).enumerate() {
                let first = first_index + batch_no * BATCH;
                for (index, verdict) in
                    (first..).zip(holdem_verify::verify_batch(&mut verifier, batch))
                {
                    record(&mut checked, index, None, &verdict, format);
                }
            }
        }
        Job::Broken { index, why } => record(&mut checked, index, None, &unreadable(why), format),
    }
    checked
}

/// The verdict on input the framing could not turn into a record's text (bad
/// UTF-8, a broken array), printed like core's own unreadable verdicts.
fn unreadable(why: String) -> Verdict {
    Verdict::unreadable(None, why)
}

/// Prints one verdict and counts it.
fn record(
    checked: &mut Checked,
    index: usize,
    line: Option<u64>,
    verdict: &Verdict,
    format: Format,
) {
    match format {
        Format::Human => report::render_into(index, verdict, &mut checked.out),
        Format::Json => verdict.write_json(index, &mut checked.out),
    }
    if !checked.out.ends_with('\n') {
        checked.out.push('\n');
    }
    checked.tally.warnings_of(verdict);
    if verdict.is_input_error() {
        checked.tally.unreadable += 1;
        if checked.errors.len() < MAX_ERROR_LINES {
            let mut msg = format!("record {index}");
            if let Some(line) = line {
                let _ = write!(msg, " (line {line})");
            }
            let reason = verdict.error.as_deref().unwrap_or("cannot be read");
            let _ = write!(msg, ": {reason}");
            checked.errors.push(msg);
        }
    } else if verdict.valid {
        checked.tally.valid += 1;
    } else {
        checked.tally.invalid += 1;
    }
}

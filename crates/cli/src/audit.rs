//! `fairseed audit`: the transparency log monitor (docs/spec.md §16.8).
//!
//! The checks are `fairseed-audit`'s; this shell fetches the checkpoint, the key
//! and the tiles, keeps the checkpoints seen in a state file, draws the progress
//! bar and writes the reports. Exit status: 0 the log passed, 1 a finding,
//! 2 the log could not be read at all.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use fairseed_audit::words::{self, Lang};
use fairseed_audit::{audit_following, carried, Checker, Report, State};

use crate::audit_source::Source;
use crate::progress::Progress;

/// `fairseed audit` flags.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The log: its URL prefix (`https://host/log`, or `http://`) or a
    /// directory holding `checkpoint`, `tile/...` and optionally `key`.
    pub source: String,

    /// Trust only the certificate authorities in this PEM file for an
    /// `https://` log, instead of the built-in Mozilla roots.
    #[arg(long, value_name = "PEM")]
    pub ca_file: Option<PathBuf>,

    /// The log's verifier key (note `vkey` form). Default: the key pinned in
    /// the state file, else the log's own `key` file, trusted on first use.
    #[arg(long, value_name = "VKEY")]
    pub key: Option<String>,

    /// Keeps the checkpoints seen (and the key) here, so the next audit checks
    /// the log is consistent with them. Created if missing.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,

    /// The frozen log this one follows (a new log after an unbridgeable
    /// loss, `/log/previous`): its URL prefix or directory. Its entries are
    /// read first, so the secrets it left open are open here too; audit it
    /// on its own for its findings.
    #[arg(long, value_name = "SOURCE")]
    pub previous: Option<String>,

    /// The previous log's verifier key. Default: its own `key` file.
    #[arg(long, value_name = "VKEY", requires = "previous")]
    pub previous_key: Option<String>,

    /// Print the report as JSON on stdout instead of text.
    #[arg(long)]
    pub json: bool,

    /// Also write an HTML report with plots to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// The language of the statistics' sentences: en, pt or es.
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = Lang::parse)]
    pub lang: Lang,
}

/// What the frozen log at `previous` left open.
fn previous_log(args: &AuditArgs, previous: &str) -> anyhow::Result<Checker> {
    let source = Source::parse(previous, args.ca_file.as_deref())?;
    let note = source
        .get("checkpoint")?
        .with_context(|| format!("--previous {previous}: no checkpoint"))?;
    let key = match &args.previous_key {
        Some(key) => key.clone(),
        None => {
            let bytes = source
                .get("key")?
                .with_context(|| format!("--previous {previous}: no key; give --previous-key"))?;
            String::from_utf8_lossy(&bytes).trim().to_owned()
        }
    };
    let error = RefCell::new(None);
    let checker = carried(&note, &key, |tile| source.tile(&tile.path(), &error))
        .map_err(|e| anyhow::anyhow!("--previous {previous}: {e}"))?;
    if let Some(e) = error.into_inner() {
        bail!("--previous {previous}: {e}");
    }
    Ok(checker)
}

/// Runs the audit and reports it.
pub fn run(args: &AuditArgs) -> anyhow::Result<ExitCode> {
    let source = Source::parse(&args.source, args.ca_file.as_deref())?;
    let state = match &args.state {
        Some(path) => read_state(path)?,
        None => State::default(),
    };
    let note = source
        .get("checkpoint")?
        .with_context(|| format!("{}: no checkpoint", args.source))?;
    let key = resolve_key(args, &state, &source)?;
    let before = match &args.previous {
        Some(previous) => previous_log(args, previous)?,
        None => Checker::new(),
    };
    let error = RefCell::new(None);
    let progress = Progress::new_count("leaves");
    let report = audit_following(
        before,
        &note,
        &key,
        &state,
        |tile| source.tile(&tile.path(), &error),
        |done, total| progress.set(done, total),
    );
    progress.finish();
    if let Some(e) = error.into_inner() {
        eprintln!("fairseed: some tiles could not be read (named missing below): {e}");
    }
    if let Some(path) = &args.state {
        write_state(path, &report.state)?;
    }
    if let Some(path) = &args.html {
        std::fs::write(
            path,
            crate::audit_html::page(&args.source, &report, args.lang),
        )
        .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json(&report))?);
    } else {
        print!("{}", text(&report, args.lang));
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `--key`, else the pinned key, else the log's own (printed, so it can be pinned).
fn resolve_key(args: &AuditArgs, state: &State, source: &Source) -> anyhow::Result<String> {
    if let Some(key) = args.key.clone().or_else(|| state.key.clone()) {
        return Ok(key);
    }
    let Some(bytes) = source.get("key")? else {
        bail!(
            "{}: no key file; give the log's verifier key with --key",
            args.source
        );
    };
    let key = String::from_utf8(bytes).context("the log's key file is not UTF-8")?;
    let key = key.trim().to_owned();
    eprintln!("fairseed: trusting the log's own key {key} (pin it with --key or --state)");
    Ok(key)
}

fn read_state(path: &Path) -> anyhow::Result<State> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .with_context(|| format!("{}: not a fairseed audit state file", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// `state` as JSON, written whole to a temporary file, then renamed over the old one,
/// so a crash leaves the old state or the new, never half of one.
pub fn write_state(path: &Path, state: &impl serde::Serialize) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(state)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

fn json(report: &Report) -> serde_json::Value {
    serde_json::json!({
        "passed": report.passed(),
        "checkpoint": report.checkpoint.as_ref().map(|c| serde_json::json!({"origin": c.origin, "size": c.size, "root": c.root})),
        "tiles": report.tiles,
        "findings": report.findings,
        "summary": report.summary,
    })
}

/// The readable report.
fn text(report: &Report, lang: Lang) -> String {
    let mut out = String::new();
    if let Some(c) = &report.checkpoint {
        out += &format!(
            "log {}: checkpoint of {} entries, root {}, {} hash tiles authenticated\n",
            c.origin, c.size, c.root, report.tiles
        );
    }
    if let Some(s) = &report.summary {
        let schemes: Vec<String> = s
            .counts
            .by_scheme
            .iter()
            .map(|(scheme, [c, r, o])| {
                format!("{scheme} {c} commitments, {o} outcomes, {r} reveals")
            })
            .collect();
        out += &format!("entries: {} ({})\n", s.counts.entries, schemes.join("; "));
        out += &format!("open, not yet due: {}\n", s.open);
        let [rolls, cards, rtp] = words::headings(lang);
        out += &format!("{rolls}: {}\n", words::rolls(lang, &s.rolls));
        out += &format!("{cards}: {}\n", words::cards(lang, &s.cards));
        out += &format!("{rtp}: {}\n", words::rtp(lang, &s.rtp));
    }
    if report.passed() {
        out += "audit passed: no findings\n";
    } else {
        out += &format!("audit FAILED: {} findings\n", report.findings.total);
        for finding in &report.findings.first {
            out += &format!("  {finding}\n");
        }
        let hidden = report.findings.total - report.findings.first.len() as u64;
        if hidden > 0 {
            out += &format!("  … and {hidden} more\n");
        }
    }
    out
}

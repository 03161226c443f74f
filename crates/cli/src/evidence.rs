//! `fairseed verify --evidence FILE` (docs/spec.md §20.7): a seat's signed
//! evidence held to one hand record and the record's `evidence_key`, by
//! the same pure check the page runs (`fairseed_holdem::evidence`). Exit
//! 0 when the evidence shows nothing wrong, 1 on an alarm, 2 on input that
//! cannot be checked (the field named).

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use fairseed_holdem::evidence::{self, Findings};
use serde_json::{json, Value};

use crate::args::{Format, Source, VerifyOptions};

/// Reads `source` whole.
fn read(source: &Source) -> anyhow::Result<String> {
    match source {
        Source::Stdin => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read standard input")?;
            Ok(text)
        }
        Source::File(path) => read_file(path),
    }
}

fn read_file(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// The record's evidence key: what the table's session logged and the
/// record names.
fn record_key(record: &str) -> anyhow::Result<String> {
    let value: Value = serde_json::from_str(record.trim_start_matches('\u{feff}'))
        .map_err(|e| anyhow!("record: not JSON: {e}"))?;
    if !value.is_object() {
        return Err(anyhow!(
            "record: expected one hand record (a JSON object); evidence is held to one hand"
        ));
    }
    value["evidence_key"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| {
            anyhow!("record.evidence_key: missing; the record names no evidence key (a hand of a table that signed its evidence does)")
        })
}

/// Runs the check; the exit status.
pub fn run(options: &VerifyOptions, evidence_path: &Path) -> anyhow::Result<ExitCode> {
    let record = read(&options.source)?;
    let key = record_key(&record)?;
    let file = read_file(evidence_path)?;
    let findings = evidence::check_texts(record.trim_start_matches('\u{feff}'), &file, &key)
        .map_err(|e| anyhow!("{}: {e}", evidence_path.display()))?;
    match options.format {
        Format::Json => println!("{}", as_json(&findings)),
        Format::Human => print!("{}", in_words(&findings)),
    }
    Ok(if findings.alarms.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn as_json(findings: &Findings) -> Value {
    json!({
        "table": findings.table,
        "hand": findings.hand,
        "checked": findings.checked,
        "other_hands": findings.other_hands,
        "alarms": findings.words(),
        "notes": findings.notes,
    })
}

fn in_words(findings: &Findings) -> String {
    let mut out = format!(
        "evidence of table {} hand {}: {} signed item(s) of the hand checked, {} of other hands (signatures checked)\n",
        findings.table, findings.hand, findings.checked, findings.other_hands
    );
    for note in &findings.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    for alarm in findings.words() {
        out.push_str(&format!("  ALARM: {alarm}\n"));
    }
    out.push_str(if findings.alarms.is_empty() {
        "  ok: the record agrees with what the table signed\n"
    } else {
        "  the record contradicts what the table signed\n"
    });
    out
}

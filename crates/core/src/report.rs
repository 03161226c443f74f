//! The readable report of `fairseed verify` (and of the browser's Verify tab).

use core::fmt::{self, Write as _};

use serde_json::Value;

use crate::describe::{value_text, words, Seg};
use crate::verdict::Verdict;

/// The report on record `index`: its status, every check, the first mismatch,
/// and the recomputed outcome with cards, tiles and dice by name.
pub fn render(index: usize, verdict: &Verdict) -> String {
    let mut out = String::new();
    render_into(index, verdict, &mut out);
    out
}

/// [`render`], appended to `out`: `fairseed verify` writes a million reports
/// into one buffer per chunk, with no string of its own per line.
pub fn render_into(index: usize, verdict: &Verdict, out: &mut String) {
    let scheme = verdict.scheme.as_deref().unwrap_or("?");
    if let Some(error) = &verdict.error {
        line(
            out,
            format_args!("record {index} ({scheme}): ERROR {error}"),
        );
        return;
    }
    let status = if verdict.valid { "VALID" } else { "INVALID" };
    line(out, format_args!("record {index} ({scheme}): {status}"));
    for check in &verdict.checks {
        let mark = if check.ok { "ok  " } else { "FAIL" };
        line(
            out,
            format_args!("  {mark} {}: {}", check.name, check.detail),
        );
    }
    for warning in &verdict.warnings {
        line(
            out,
            format_args!("  warn {}: {}", warning.name, warning.detail),
        );
    }
    if let Some(first) = verdict.first_failure() {
        line(
            out,
            format_args!("  first mismatch: {}: {}", first.name, first.detail),
        );
    }
    if let Some(Value::Object(outcome)) = &verdict.outcome {
        out.push_str("  outcome:\n");
        for (key, v) in outcome {
            let mut path = vec![Seg::Key(key.clone())];
            lines(verdict, &mut path, v, out);
        }
    }
}

/// Appends one line of the report.
fn line(out: &mut String, text: fmt::Arguments<'_>) {
    // Writing into a String cannot fail.
    let _ = out.write_fmt(text);
    out.push('\n');
}

/// One line per leaf list: nested lists are labelled with their place in words.
fn lines(verdict: &Verdict, path: &mut Vec<Seg>, v: &Value, out: &mut String) {
    let ctx = verdict.context;
    if let Value::Object(map) = v {
        if map.values().all(is_scalar) {
            let label = words(ctx, path).unwrap_or_else(|| label_of(path));
            let _ = write!(out, "    {label}: ");
            for (i, (k, item)) in map.iter().enumerate() {
                path.push(Seg::Key(k.clone()));
                let text = value_text(ctx, path, item);
                path.pop();
                let comma = if i > 0 { ", " } else { "" };
                let _ = write!(out, "{comma}{k} {text}");
            }
            out.push('\n');
            return;
        }
    }
    let nested = match v {
        Value::Array(items) => !items.iter().all(is_scalar),
        Value::Object(_) => true,
        _ => false,
    };
    if !nested {
        let text = value_text(ctx, path, v);
        match path.as_slice() {
            // A top-level value is labelled by its key.
            [Seg::Key(key)] => line(out, format_args!("    {key}: {text}")),
            _ => {
                let label = words(ctx, path).unwrap_or_else(|| label_of(path));
                line(out, format_args!("    {label}: {text}"));
            }
        }
        return;
    }
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                lines(verdict, path, item, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(Seg::Key(k.clone()));
                lines(verdict, path, item, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// `deals[1][2]`-style label when no words fit.
fn label_of(path: &[Seg]) -> String {
    let full = crate::describe::json_path(path);
    full.strip_prefix("outcome.").unwrap_or(&full).to_owned()
}

fn is_scalar(v: &Value) -> bool {
    !v.is_array() && !v.is_object()
}

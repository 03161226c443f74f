//! The readable report of `fairseed verify` (and of the browser's Verify tab).

use serde_json::Value;

use crate::describe::{value_text, words, Seg};
use crate::verdict::Verdict;

/// The report on record `index`: its status, every check, the first mismatch,
/// and the recomputed outcome with cards, tiles and dice by name.
pub fn render(index: usize, verdict: &Verdict) -> String {
    let scheme = verdict.scheme.as_deref().unwrap_or("?");
    let mut out = String::new();
    if let Some(error) = &verdict.error {
        out.push_str(&format!("record {index} ({scheme}): ERROR {error}\n"));
        return out;
    }
    let status = if verdict.valid { "VALID" } else { "INVALID" };
    out.push_str(&format!("record {index} ({scheme}): {status}\n"));
    for check in &verdict.checks {
        let mark = if check.ok { "ok  " } else { "FAIL" };
        out.push_str(&format!("  {mark} {}: {}\n", check.name, check.detail));
    }
    if let Some(first) = verdict.first_failure() {
        out.push_str(&format!(
            "  first mismatch: {}: {}\n",
            first.name, first.detail
        ));
    }
    if let Some(Value::Object(outcome)) = &verdict.outcome {
        out.push_str("  outcome:\n");
        for (key, v) in outcome {
            let mut path = vec![Seg::Key(key.clone())];
            lines(verdict, &mut path, v, &mut out);
        }
    }
    out
}

/// One line per leaf list: nested lists are labelled with their place in words.
fn lines(verdict: &Verdict, path: &mut Vec<Seg>, v: &Value, out: &mut String) {
    let ctx = verdict.context;
    if let Value::Object(map) = v {
        if map.values().all(is_scalar) {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, item)| {
                    path.push(Seg::Key(k.clone()));
                    let text = value_text(ctx, path, item);
                    path.pop();
                    format!("{k} {text}")
                })
                .collect();
            let label = words(ctx, path).unwrap_or_else(|| label_of(path));
            out.push_str(&format!("    {label}: {}\n", fields.join(", ")));
            return;
        }
    }
    let nested = match v {
        Value::Array(items) => !items.iter().all(is_scalar),
        Value::Object(_) => true,
        _ => false,
    };
    if !nested {
        let label = words(ctx, path)
            .filter(|_| path.len() > 1)
            .unwrap_or_else(|| label_of(path));
        out.push_str(&format!("    {label}: {}\n", value_text(ctx, path, v)));
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

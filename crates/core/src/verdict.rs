//! Verdicts: what a verifier says of one record (docs/spec.md §11.4).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::describe::{describe_path, Context, Seg};

/// One thing checked: a commitment, a hash, an outcome key, a proof.
///
/// Names and details are often fixed words (`commitment`, `matches`), so they
/// are borrowed when they can be: a bulk run makes millions of checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked (`commitment`, `hands[0].deck_root`, `outcome.roll`).
    pub name: Cow<'static, str>,
    /// Whether it holds.
    pub ok: bool,
    /// The value found, or exactly where and how it differs.
    pub detail: Cow<'static, str>,
}

impl Check {
    /// A check with its result.
    pub fn new(
        name: impl Into<Cow<'static, str>>,
        ok: bool,
        detail: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            name: name.into(),
            ok,
            detail: detail.into(),
        }
    }
}

/// What holds, yet a player should be shown: a verdict with warnings is
/// still valid (a hold'em seat that withheld its per-hand value, which the
/// table's policy allows, docs/spec.md §20.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// What it is about (`withheld`).
    pub name: Cow<'static, str>,
    /// What happened, in words.
    pub detail: String,
    /// What a run of many records counts it under (a table's session and
    /// a seat), so a verifier says how often across them; `None`: not counted.
    #[serde(skip)]
    pub count_as: Option<String>,
}

/// The verdict on one record.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The record's `scheme`, when it has a string one.
    pub scheme: Option<String>,
    /// Every check passed and the record was readable.
    pub valid: bool,
    /// The checks, in the order made.
    pub checks: Vec<Check>,
    /// What holds but is shown as a warning, not as an `ok`.
    pub warnings: Vec<Warning>,
    /// The recomputed outcome, when the seed was there to recompute it.
    pub outcome: Option<Value>,
    /// Why the record could not be read (an input error, exit status 2).
    pub error: Option<String>,
    /// How to name the outcome's numbers (cards, tiles, dice) in reports.
    pub(crate) context: Context,
}

impl Verdict {
    /// A verdict from checks and a recomputed outcome.
    pub(crate) fn checked(
        scheme: &str,
        checks: Vec<Check>,
        outcome: Option<Value>,
        context: Context,
    ) -> Self {
        Self {
            scheme: Some(scheme.to_owned()),
            valid: checks.iter().all(|c| c.ok),
            checks,
            warnings: Vec::new(),
            outcome,
            error: None,
            context,
        }
    }

    /// The verdict on a record that could not be read (bad JSON, a bad field):
    /// `valid` is false, `error` says why, and [`Verdict::is_input_error`] holds.
    pub fn unreadable(scheme: Option<String>, error: String) -> Self {
        Self {
            scheme,
            valid: false,
            checks: Vec::new(),
            warnings: Vec::new(),
            outcome: None,
            error: Some(error),
            context: Context::Plain,
        }
    }

    /// Whether the record could not be read at all (exit status 2, not 1).
    pub fn is_input_error(&self) -> bool {
        self.error.is_some()
    }

    /// The first check that failed.
    pub fn first_failure(&self) -> Option<&Check> {
        self.checks.iter().find(|c| !c.ok)
    }

    /// The verdict object of docs/spec.md §11.4 for record `index`.
    pub fn to_value(&self, index: usize) -> Value {
        serde_json::to_value(self.json(index)).unwrap_or(Value::Null)
    }

    /// The verdict object (docs/spec.md §11.4) for record `index` as one line of JSON, keys in the spec's order.
    pub fn to_json(&self, index: usize) -> String {
        let mut out = String::new();
        self.write_json(index, &mut out);
        out
    }

    /// Appends [`Verdict::to_json`] to `out` (no newline): the bulk verifier
    /// writes a chunk's verdicts into one buffer.
    pub fn write_json(&self, index: usize, out: &mut String) {
        use crate::json_out::{push_opt_str, push_str, push_uint, push_value};
        out.push_str("{\"index\":");
        push_uint(out, index as u64);
        out.push_str(",\"scheme\":");
        push_opt_str(out, self.scheme.as_deref());
        out.push_str(if self.valid {
            ",\"valid\":true,\"checks\":["
        } else {
            ",\"valid\":false,\"checks\":["
        });
        for (i, check) in self.checks.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            push_str(out, &check.name);
            out.push_str(if check.ok {
                ",\"ok\":true,\"detail\":"
            } else {
                ",\"ok\":false,\"detail\":"
            });
            push_str(out, &check.detail);
            out.push('}');
        }
        out.push(']');
        if !self.warnings.is_empty() {
            out.push_str(",\"warnings\":[");
            for (i, warning) in self.warnings.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"name\":");
                push_str(out, &warning.name);
                out.push_str(",\"detail\":");
                push_str(out, &warning.detail);
                out.push('}');
            }
            out.push(']');
        }
        out.push_str(",\"outcome\":");
        match &self.outcome {
            Some(v) => push_value(out, v),
            None => out.push_str("null"),
        }
        out.push_str(",\"error\":");
        push_opt_str(out, self.error.as_deref());
        out.push('}');
    }

    pub(crate) fn json(&self, index: usize) -> VerdictJson<'_> {
        VerdictJson {
            index,
            scheme: self.scheme.as_deref(),
            valid: self.valid,
            checks: &self.checks,
            warnings: &self.warnings,
            outcome: self.outcome.as_ref(),
            error: self.error.as_deref(),
        }
    }
}

/// The `--json` object: fields in the order of docs/spec.md §11.4.
#[derive(Serialize)]
pub(crate) struct VerdictJson<'a> {
    index: usize,
    scheme: Option<&'a str>,
    valid: bool,
    checks: &'a [Check],
    #[serde(skip_serializing_if = "<[Warning]>::is_empty")]
    warnings: &'a [Warning],
    outcome: Option<&'a Value>,
    error: Option<&'a str>,
}

/// Compares every key of a record's claimed `outcome` with the recomputed one.
///
/// A key the scheme does not produce is a mismatch; the first differing element
/// is named in words (`deal 2, seat 3, card 6`) and cards by name.
pub(crate) fn compare_outcome(
    claimed: &Map<String, Value>,
    recomputed: &Value,
    context: Context,
) -> Vec<Check> {
    claimed
        .iter()
        .map(|(key, found)| {
            // Built by hand: this runs for every key of every record of a bulk run.
            let mut name = String::with_capacity("outcome.".len() + key.len());
            name.push_str("outcome.");
            name.push_str(key);
            match recomputed.get(key) {
                None => Check::new(
                    name,
                    false,
                    format!("{key} is not part of this scheme's outcome"),
                ),
                Some(expected) if expected == found => Check::new(name, true, "matches"),
                Some(expected) => {
                    let mut path = vec![Seg::Key(key.clone())];
                    let detail = first_diff(expected, found, &mut path, context)
                        .unwrap_or_else(|| "differs".to_owned());
                    Check::new(name, false, detail)
                }
            }
        })
        .collect()
}

/// Words for the first place where `found` (the record) differs from `expected`.
fn first_diff(
    expected: &Value,
    found: &Value,
    path: &mut Vec<Seg>,
    ctx: Context,
) -> Option<String> {
    match (expected, found) {
        (Value::Array(e), Value::Array(f)) => {
            if e.len() != f.len() {
                return Some(format!(
                    "{}: record has {} entries, recomputed {}",
                    describe_path(ctx, path),
                    f.len(),
                    e.len()
                ));
            }
            e.iter().zip(f).enumerate().find_map(|(i, (e, f))| {
                path.push(Seg::Index(i));
                let d = first_diff(e, f, path, ctx);
                path.pop();
                d
            })
        }
        (Value::Object(e), Value::Object(f)) => {
            let keys = e.keys().chain(f.keys().filter(|k| !e.contains_key(*k)));
            keys.into_iter().find_map(|k| {
                path.push(Seg::Key(k.clone()));
                let d = match (e.get(k), f.get(k)) {
                    (Some(ev), Some(fv)) => first_diff(ev, fv, path, ctx),
                    (Some(_), None) => Some(format!(
                        "{}: missing from the record",
                        describe_path(ctx, path)
                    )),
                    (None, _) => Some(format!(
                        "{}: not part of the outcome",
                        describe_path(ctx, path)
                    )),
                };
                path.pop();
                d
            })
        }
        (e, f) if e == f => None,
        (e, f) => Some(format!(
            "{}: record says {}, recomputed {}",
            describe_path(ctx, path),
            crate::describe::value_text(ctx, path, f),
            crate::describe::value_text(ctx, path, e)
        )),
    }
}

//! What every record shares: the keys besides its scheme's own, its
//! `outcome` object, and the scheme it starts with.

use serde_json::{Map, Value};

use super::fields::{kind, Fields};
use crate::error::Error;

/// Keys every record may carry besides its scheme's own fields.
pub(crate) const COMMON_KEYS: [&str; 3] = ["scheme", "outcome", "id"];

/// The record's `outcome` object, if it has one.
pub(crate) fn read_outcome(f: &Fields<'_>) -> Result<Option<Map<String, Value>>, Error> {
    match f.opt("outcome") {
        None => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m.clone())),
        Some(other) => Err(Error::invalid(
            "outcome",
            format!("expected an object, got {}", kind(other)),
        )),
    }
}

/// Checks the top-level keys: the scheme's `own` plus the common ones.
pub(crate) fn only_keys(f: &Fields<'_>, own: &[&str]) -> Result<(), Error> {
    let known: Vec<&str> = own.iter().chain(COMMON_KEYS.iter()).copied().collect();
    f.only(&known)
}

/// Starts a record object with its scheme.
pub(crate) fn object(scheme: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("scheme".into(), Value::from(scheme));
    m
}

/// Adds `outcome` when there is one.
pub(crate) fn finish(mut m: Map<String, Value>, outcome: &Option<Map<String, Value>>) -> Value {
    if let Some(o) = outcome {
        m.insert("outcome".into(), Value::Object(o.clone()));
    }
    Value::Object(m)
}

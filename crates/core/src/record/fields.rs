//! Reading a record's JSON object field by field, with errors that name the field.
//!
//! The record is read from a `serde_json::Value` rather than derived, so every
//! error can name the exact path (`hands[2].seats.11`) and say what was expected.

use serde_json::{Map, Value};

use crate::error::Error;

/// A JSON object being read, with the path that leads to it (`""` at the top).
#[derive(Clone, Copy)]
pub(crate) struct Fields<'a> {
    obj: &'a Map<String, Value>,
    path: &'a str,
}

/// The JSON type of a value, as errors say it.
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `parent.name`, or `name` at the top.
pub(crate) fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

/// A non-negative integer no larger than `max`; `field` names it.
pub(crate) fn uint(v: &Value, field: &str, max: u64) -> Result<u64, Error> {
    let n = match v {
        Value::Number(n) => n,
        other => {
            return Err(Error::invalid(
                field,
                format!("expected an integer, got {}", kind(other)),
            ))
        }
    };
    match n.as_u64() {
        Some(x) if x <= max => Ok(x),
        Some(x) => Err(Error::invalid(
            field,
            format!("{x} is out of range, expected 0 to {max}"),
        )),
        None if n.as_i64().is_some() || n.as_i128().is_some() => Err(Error::invalid(
            field,
            format!("{n} is negative, expected 0 to {max}"),
        )),
        None if n.as_u128().is_some() => Err(Error::invalid(
            field,
            format!("{n} is out of range, expected 0 to {max}"),
        )),
        None => Err(Error::invalid(
            field,
            format!("{n} is not a whole number, expected 0 to {max}"),
        )),
    }
}

impl<'a> Fields<'a> {
    /// The object `v` found at `path`.
    pub(crate) fn of(v: &'a Value, path: &'a str) -> Result<Self, Error> {
        match v {
            Value::Object(obj) => Ok(Self { obj, path }),
            other => Err(Error::invalid(
                if path.is_empty() { "record" } else { path },
                format!("expected an object, got {}", kind(other)),
            )),
        }
    }

    /// The underlying map.
    pub(crate) fn map(&self) -> &'a Map<String, Value> {
        self.obj
    }

    /// The full path of a field of this object.
    pub(crate) fn name(&self, name: &str) -> String {
        join(self.path, name)
    }

    /// A field that may be absent (`null` counts as absent).
    pub(crate) fn opt(&self, name: &str) -> Option<&'a Value> {
        self.obj.get(name).filter(|v| !v.is_null())
    }

    /// A field that must be present.
    pub(crate) fn get(&self, name: &str) -> Result<&'a Value, Error> {
        self.opt(name)
            .ok_or_else(|| Error::missing(self.name(name)))
    }

    /// A string field.
    pub(crate) fn str(&self, name: &str) -> Result<&'a str, Error> {
        self.get(name).and_then(|v| self.as_str(v, name))
    }

    /// A string field that may be absent.
    pub(crate) fn opt_str(&self, name: &str) -> Result<Option<&'a str>, Error> {
        self.opt(name).map(|v| self.as_str(v, name)).transpose()
    }

    fn as_str(&self, v: &'a Value, name: &str) -> Result<&'a str, Error> {
        v.as_str().ok_or_else(|| {
            Error::invalid(
                self.name(name),
                format!("expected a string, got {}", kind(v)),
            )
        })
    }

    /// A non-negative integer field no larger than `max`.
    pub(crate) fn uint(&self, name: &str, max: u64) -> Result<u64, Error> {
        let v = self.get(name)?;
        // The common case needs no field name: build it only for the error.
        match v.as_u64() {
            Some(x) if x <= max => Ok(x),
            _ => uint(v, &self.name(name), max),
        }
    }

    /// An array field.
    pub(crate) fn array(&self, name: &str) -> Result<&'a Vec<Value>, Error> {
        let v = self.get(name)?;
        v.as_array().ok_or_else(|| {
            Error::invalid(
                self.name(name),
                format!("expected an array, got {}", kind(v)),
            )
        })
    }

    /// Refuses any key not in `known`: a field the verifier would ignore must
    /// not look verified.
    pub(crate) fn only(&self, known: &[&str]) -> Result<(), Error> {
        match self.obj.keys().find(|k| !known.contains(&k.as_str())) {
            Some(k) => Err(Error::invalid(
                self.name(k),
                format!("unknown field, expected one of {}", known.join(", ")),
            )),
            None => Ok(()),
        }
    }
}

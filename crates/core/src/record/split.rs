//! Splitting an input text into records: one object, a JSON array, or JSON Lines.

use serde_json::Value;

use crate::error::Error;

/// The records of `text`, each parsed or with the error that stops it.
///
/// A text whose first non-blank character is `[` is one JSON array; a text that
/// parses whole as one value is one record; anything else is JSON Lines (blank
/// lines skipped), where each line's error names its line number.
pub fn split(text: &str) -> Vec<Result<Value, Error>> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(items)) => items.into_iter().map(Ok).collect(),
            Ok(_) => vec![Err(Error::Syntax("expected a JSON array".into()))],
            Err(e) => vec![Err(Error::Syntax(format!("invalid JSON array: {e}")))],
        };
    }
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        return vec![Ok(v)];
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| parse_line(line, i + 1))
        .collect()
}

/// One line of JSON Lines; `line_no` is 1-based for the message.
pub fn parse_line(line: &str, line_no: usize) -> Result<Value, Error> {
    serde_json::from_str(line)
        .map_err(|e| Error::Syntax(format!("line {line_no}: invalid JSON: {e}")))
}

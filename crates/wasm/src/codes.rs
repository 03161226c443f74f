//! Errors as a code and parameters, for the page to show in the player's
//! language: core's `Error::from_message` reads a message (a verdict's
//! `error`, or the text of a thrown `JsError`) back into its kind and fields.

use fairseed_core::Error;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// `{code, field, line, scheme, draw, tiles}` of one of core's messages;
/// parameters a kind does not have are null.
pub fn code_of(message: &str) -> Value {
    let e = Error::from_message(message);
    let (scheme, draw, tiles) = match &e {
        Error::UnknownScheme(name) => (Some(name.as_str()), None, None),
        Error::WallExhausted { draw, tiles } => (None, Some(*draw), Some(*tiles)),
        _ => (None, None, None),
    };
    json!({
        "code": e.code(),
        "field": e.field(),
        "line": e.line(),
        "scheme": scheme,
        "draw": draw,
        "tiles": tiles,
    })
}

/// [`code_of`] as JSON text.
#[wasm_bindgen]
pub fn error_code(message: &str) -> String {
    code_of(message).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdicts_error_becomes_its_code() {
        let verdict = fairseed_core::verify_str(r#"{"scheme":"dice_v1","commitment":"00"}"#);
        let code = code_of(verdict.error.as_deref().unwrap_or_default());
        assert_eq!(code["code"], "invalid");
        assert_eq!(code["field"], "commitment");
        let line = code_of("line 4: invalid JSON: expected value at line 1 column 1");
        assert_eq!(
            (line["code"].as_str(), line["line"].as_u64()),
            (Some("syntax"), Some(4))
        );
        let scheme = code_of(&Error::UnknownScheme("x".into()).to_string());
        assert_eq!(scheme["scheme"], "x");
    }
}

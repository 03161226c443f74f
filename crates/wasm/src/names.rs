//! Hashes and card names the page shows beside a verdict, straight from core.

use fairseed_core::cards;
use wasm_bindgen::prelude::*;

/// Lowercase hex SHA-256 of `text`'s UTF-8 bytes: the check the Revealed tab
/// shows beside each revealed seed.
#[wasm_bindgen]
pub fn sha256_hex(text: &str) -> String {
    fairseed_core::sha256_hex(text.as_bytes())
}

/// The name of card or tile `id` in `deck`: `"52"` (docs/spec.md §4.1 layout, poker and
/// the 52-card table games), `"baloot"`, `"mahjong"` or `"selfpoker"`.
///
/// # Errors
/// An unknown deck name.
pub fn name(deck: &str, id: u32) -> Result<String, String> {
    let id = u64::from(id);
    match deck {
        "52" => Ok(cards::card52(id)),
        "baloot" => Ok(cards::baloot(id)),
        "mahjong" => Ok(cards::mahjong(id)),
        "selfpoker" => Ok(cards::selfpoker(id)),
        other => Err(format!(
            "deck: unknown deck {other:?}, expected 52, baloot, mahjong or selfpoker"
        )),
    }
}

/// [`name`] for JavaScript.
///
/// # Errors
/// An unknown deck name.
#[wasm_bindgen]
pub fn card_name(deck: &str, id: u32) -> Result<String, JsError> {
    name(deck, id).map_err(|e| JsError::new(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_follow_their_layouts() {
        assert_eq!(name("52", 51), Ok("As".to_owned()));
        assert_eq!(name("selfpoker", 1), Ok("2d".to_owned()));
        assert_eq!(name("baloot", 0), Ok("7c".to_owned()));
        assert!(name("tarot", 0).is_err());
    }
}

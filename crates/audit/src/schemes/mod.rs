//! One checker per scheme: how its entries pair up, its reveal rule, its policy.

pub mod dice;
pub mod generic;
pub mod poker;
pub mod selfpoker;
pub mod table_clock;
pub mod withheld;

use crate::entry::Entry;

/// `scheme id/id/...`, as findings name what an entry is about.
pub fn name(entry: &Entry) -> String {
    format!("{} {}", entry.scheme, entry.ids.join("/"))
}

/// Checks an entry has `ids` ids and `values` values (`None`: any number),
/// naming the entry in the error.
pub fn shape(entry: &Entry, ids: usize, values: Option<usize>) -> Result<(), String> {
    if entry.ids.len() != ids {
        return Err(format!(
            "{}: {} ids, expected {ids}",
            name(entry),
            entry.ids.len()
        ));
    }
    match values {
        Some(n) if entry.values.len() != n => Err(format!(
            "{}: {} values, expected {n}",
            name(entry),
            entry.values.len()
        )),
        _ => Ok(()),
    }
}

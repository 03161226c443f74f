//! Request handlers, one module per resource, functions named by verb.

pub mod chess;
pub mod dice;
pub mod events;
pub mod health;
pub mod holdem;
pub mod keyed;
pub mod log;
pub mod matches;
pub mod metrics;
pub mod operator;
pub mod operator_players;
pub mod players;
pub mod poker;
pub mod records;
pub mod seeds;
pub mod selfpoker;

use serde::Deserialize;

use fairseed_store::Page;

use crate::error::ApiError;

/// `?before=&limit=` of every list.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// Only items with an id below this.
    pub before: Option<i64>,
    /// 1..500, default 50.
    pub limit: Option<u32>,
}

impl PageQuery {
    /// Checks the limit.
    pub fn page(&self) -> Result<Page, ApiError> {
        let limit = self.limit.unwrap_or(50);
        if !(1..=500).contains(&limit) {
            return Err(ApiError::invalid(
                "limit",
                format!("{limit} is out of range, expected 1 to 500"),
            ));
        }
        Ok(Page {
            before: self.before,
            limit,
        })
    }
}

/// The `next_before` of a page: the last id when the page is full.
pub fn next_before<T>(items: &[T], page: Page, id: impl Fn(&T) -> i64) -> Option<i64> {
    if items.len() >= page.limit as usize {
        items.last().map(id)
    } else {
        None
    }
}

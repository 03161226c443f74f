//! Hold'em hand records in `fairseed verify`.
//!
//! Core cannot know the hold'em rules (`fairseed-holdem` depends on core), so
//! the command line sends each `holdem_hand_v1` record (plain `selfpoker` or
//! `selfpoker_v2` deal) to [`fairseed_holdem::verdict`] and every other record
//! to core, and hands the verdicts back in input order.

use std::borrow::Cow;

use fairseed_core::{Verdict, Verifier};
use fairseed_holdem::record::SCHEME;
use fairseed_holdem::verdict;
use serde::Deserialize;

/// Verdicts on `texts`, in order: hold'em records replayed, the rest by core.
pub fn verify_batch(verifier: &mut Verifier, texts: &[&str]) -> Vec<Verdict> {
    let own: Vec<Option<Verdict>> = texts.iter().map(|t| holdem_verdict(t)).collect();
    if own.iter().all(Option::is_none) {
        return verifier.verify_batch(texts);
    }
    let rest: Vec<&str> = texts
        .iter()
        .zip(&own)
        .filter(|(_, v)| v.is_none())
        .map(|(t, _)| *t)
        .collect();
    let mut by_core = verifier.verify_batch(&rest).into_iter();
    own.into_iter()
        .map(|v| {
            v.or_else(|| by_core.next()).unwrap_or_else(|| {
                Verdict::unreadable(None, "internal error: a record got no verdict".to_owned())
            })
        })
        .collect()
}

/// Just the `scheme` of a record, read without building the rest.
#[derive(Deserialize)]
struct SchemeOnly<'a> {
    #[serde(borrow)]
    scheme: Option<Cow<'a, str>>,
}

/// The verdict on `text` if it is a hold'em hand record, `None` for core.
fn holdem_verdict(text: &str) -> Option<Verdict> {
    // Most records are not hold'em: a substring search is far cheaper than a parse.
    memchr::memmem::find(text.as_bytes(), SCHEME.as_bytes())?;
    let scheme = serde_json::from_str::<SchemeOnly<'_>>(text).ok()?.scheme?;
    (scheme == SCHEME).then(|| verdict::verify_text(text))
}

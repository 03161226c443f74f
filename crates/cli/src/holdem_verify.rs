//! Hold'em hand records in `fairseed verify`.
//!
//! Core cannot know the hold'em rules (`fairseed-holdem` depends on core), so
//! the command line sends each `holdem_hand_v1` record to
//! [`fairseed_holdem::replay`] and every other record to core, and hands the
//! verdicts back in input order.

use std::borrow::Cow;

use fairseed_core::{Check, Verdict, Verifier};
use fairseed_holdem::record::{HandRecord, ReplayError, SCHEME};
use fairseed_holdem::Outcome;
use serde::Deserialize;
use serde_json::{json, Map, Value};

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
    if scheme != SCHEME {
        return None;
    }
    Some(match serde_json::from_str::<HandRecord>(text) {
        Err(e) => Verdict::unreadable(Some(SCHEME.to_owned()), format!("invalid JSON: {e}")),
        Ok(record) => replayed(&record),
    })
}

/// The three checks of a hold'em record, and the outcome when they pass.
fn replayed(record: &HandRecord) -> Verdict {
    let commitment = Check::new("commitment", true, "sha256(\"selfpoker:\" + seed) matches");
    let actions = Check::new(
        "actions",
        true,
        match record.actions.len() {
            1 => "1 action replays under the rules".to_owned(),
            n => format!("{n} actions replay under the rules"),
        },
    );
    let results = Check::new(
        "results",
        true,
        "board, returned chips, hands shown, pots, winners and final stacks match",
    );
    let (checks, outcome) = match fairseed_holdem::replay(record) {
        Ok(outcome) => (
            vec![commitment, actions, results],
            Some(outcome_value(&outcome)),
        ),
        Err(e @ ReplayError::Commit(_)) => (vec![failed("commitment", &e)], None),
        Err(
            e @ (ReplayError::Setup { .. }
            | ReplayError::Rule { .. }
            | ReplayError::Unfinished { .. }
            | ReplayError::AfterEnd { .. }),
        ) => (vec![commitment, failed("actions", &e)], None),
        Err(e) => (vec![commitment, actions, failed("results", &e)], None),
    };
    let mut verdict = Verdict::unreadable(Some(SCHEME.to_owned()), String::new());
    verdict.error = None;
    verdict.valid = checks.iter().all(|c| c.ok);
    verdict.checks = checks;
    verdict.outcome = outcome;
    verdict
}

fn failed(name: &'static str, error: &ReplayError) -> Check {
    Check::new(name, false, error.to_string())
}

/// The replayed board (card names), pots and final stacks, for the report.
fn outcome_value(outcome: &Outcome) -> Value {
    let board: Vec<String> = outcome.board.iter().map(ToString::to_string).collect();
    let pots: Vec<u64> = outcome.pots.iter().map(|p| p.amount).collect();
    let stacks: Map<String, Value> = outcome
        .stacks
        .iter()
        .map(|(seat, chips)| (format!("seat {seat}"), json!(chips)))
        .collect();
    json!({ "board": board, "pots": pots, "stacks": stacks })
}

//! Verdicts on hand records, in core's `fairseed verify` form, shared by the
//! command line and the browser's verifier so both say the same words.
//!
//! Core cannot know the hold'em rules (this crate depends on core), so each
//! verifier routes records whose `scheme` is `holdem_hand_v1` here and every
//! other record to core ([`verify_batch`] does both for a batch of texts).

use std::borrow::Cow;
use std::collections::BTreeMap;

use fairseed_core::{Check, Verdict, Verifier, Warning};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::ai::DecisionKey;
use crate::deal::DealStatus;
use crate::live::policy::PUBLIC_WORDS;
use crate::live::Arrival;
use crate::policy_check;
use crate::record::{
    check_deal, replay_checking_ais, revealed_secret, HandRecord, Outcome, ReplayError, SCHEME,
};
use crate::rules::Player;

/// Verdicts on `texts`, in order: hand records here, the rest by core's
/// `verifier` in one batch (so a dice pair's bets still share its key state).
pub fn verify_batch(verifier: &mut Verifier, texts: &[&str]) -> Vec<Verdict> {
    let mut own: Vec<Option<Verdict>> = texts.iter().map(|t| verify_if_hand(t)).collect();
    if own.iter().all(Option::is_none) {
        return verifier.verify_batch(texts);
    }
    chain_checks(texts, &mut own);
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

/// The `carried` check of every hand record of `texts` whose previous
/// hand at the same table (its `deal` names the table and the session) is
/// in the batch too: its stacks are the ones that hand ended with, plus the
/// top-ups it names ([`policy_check::carried`]). A failure makes the later
/// hand's verdict invalid. A text that is no hand record, or whose verdict
/// is `None` or an error, takes no part. [`verify_batch`] calls it; the
/// browser's verifier, which verifies each record of a text on its own,
/// calls it too, so both say the same.
pub fn chain_checks(texts: &[&str], verdicts: &mut [Option<Verdict>]) {
    let mut hands: BTreeMap<(String, String, u64), (usize, HandRecord)> = BTreeMap::new();
    for (i, text) in texts.iter().enumerate() {
        if verdicts[i].as_ref().is_none_or(|v| v.error.is_some()) {
            continue;
        }
        let Ok(record) = serde_json::from_str::<HandRecord>(text) else {
            continue;
        };
        let Some(deal) = &record.deal else { continue };
        if record.seats.iter().all(|s| s.topped_up.is_none()) {
            // Written before records named top-ups.
            continue;
        }
        let key = (
            deal.table_id.clone(),
            deal.session_commit.clone(),
            record.hand,
        );
        hands.insert(key, (i, record));
    }
    for ((table, session, hand), (i, record)) in &hands {
        let Some(prev) = hand
            .checked_sub(1)
            .and_then(|h| hands.get(&(table.clone(), session.clone(), h)))
        else {
            continue;
        };
        let Some(verdict) = verdicts[*i].as_mut() else {
            continue;
        };
        let check = match policy_check::carried(&prev.1, record) {
            Ok(()) => Check::new(
                "carried",
                true,
                format!(
                    "every seat dealt into hand {} too starts with the chips it ended that hand with, plus the top-ups the record names",
                    prev.1.hand
                ),
            ),
            Err(e) => failed("carried", &e),
        };
        verdict.valid &= check.ok;
        verdict.checks.push(check);
    }
}

/// Just the `scheme` of a record, read without building the rest.
#[derive(Deserialize)]
struct SchemeOnly<'a> {
    #[serde(borrow)]
    scheme: Option<Cow<'a, str>>,
}

/// The verdict on `text` if it is a hand record, `None` for core.
pub fn verify_if_hand(text: &str) -> Option<Verdict> {
    // Most records are not hold'em: a substring search is far cheaper than a parse.
    if !text.contains(SCHEME) {
        return None;
    }
    let scheme = serde_json::from_str::<SchemeOnly<'_>>(text).ok()?.scheme?;
    (scheme == SCHEME).then(|| verify_text(text))
}

/// Whether `value` is a record this crate verifies.
pub fn is_hand_record(value: &Value) -> bool {
    value.get("scheme").and_then(Value::as_str) == Some(SCHEME)
}

/// The verdict on a record read as JSON text.
pub fn verify_text(text: &str) -> Verdict {
    match serde_json::from_str::<HandRecord>(text) {
        Err(e) => unreadable(format!("invalid JSON: {e}")),
        Ok(record) => verdict(&record),
    }
}

/// The verdict on a record already parsed as a JSON value.
pub fn verify_value(value: &Value) -> Verdict {
    match HandRecord::deserialize(value) {
        Err(e) => unreadable(format!("invalid record: {e}")),
        Ok(record) => verdict(&record),
    }
}

fn unreadable(error: String) -> Verdict {
    Verdict::unreadable(Some(SCHEME.to_owned()), error)
}

/// The checks of a record, in order, and the outcome when the hand replays:
/// under `selfpoker_v2` `session_secret` and `derivation` (docs/spec.md
/// §17.5), `policy` when the record carries one (§19.3), then
/// `commitment`, `actions` and `results` (§15.1). The first
/// failure ends the list, except an unrevealed secret: the hand itself is
/// still replayed.
pub fn verdict(record: &HandRecord) -> Verdict {
    let mut checks = Vec::new();
    match check_deal(record) {
        Ok(None) => {}
        Ok(Some(status)) => checks.extend(deal_checks(record, status)),
        Err(e @ ReplayError::SessionCommit { .. }) => {
            return finish(vec![failed("session_secret", &e)], None);
        }
        Err(e @ ReplayError::Reveal { .. }) => {
            return finish(vec![secret_check(record), failed("reveals", &e)], None);
        }
        Err(e @ ReplayError::Withheld { .. }) => {
            let mut checks = vec![secret_check(record), reveals_check(record)];
            checks.push(failed("withheld", &e));
            return finish(checks, None);
        }
        Err(e @ (ReplayError::ClientSeeds { .. } | ReplayError::Derivation { .. })) => {
            let mut checks = vec![secret_check(record)];
            checks.extend(round_checks(record));
            checks.push(failed("derivation", &e));
            return finish(checks, None);
        }
        // A malformed field or a scheme this module does not read.
        Err(e) => return unreadable(e.to_string()),
    }
    match policy_check::check(record) {
        Ok(Some(commit)) => checks.push(policy_held(record, &commit)),
        Ok(None) => {}
        Err(e @ ReplayError::Policy { .. }) => {
            checks.push(failed("policy", &e));
            return finish(checks, None);
        }
        Err(e) => return unreadable(e.to_string()),
    }
    let secret = match revealed_secret(record) {
        Ok(secret) => secret,
        Err(e) => return unreadable(e.to_string()),
    };
    let key = secret
        .as_ref()
        .map(|(secret, table_id)| DecisionKey { secret, table_id });
    let (more, outcome) = hand_checks(record, key);
    checks.extend(more);
    let mut verdict = finish(checks, outcome);
    verdict.warnings = withheld_warnings(record);
    verdict.warnings.extend(house_warnings(record));
    verdict
}

/// The passing `policy` check (docs/spec.md §19.3), saying whether the
/// table is public (§19.4).
fn policy_held(record: &HandRecord, commit: &str) -> Check {
    let seating = match &record.policy {
        Some(p) if p.public => format!("; {PUBLIC_WORDS}"),
        _ => String::new(),
    };
    Check::new(
        "policy",
        true,
        format!(
            "every seat, AI level and engine, the blinds, the clock, the starting stack and every top-up are the table's policy (sha256 {commit}), committed at open{seating}"
        ),
    )
}

/// A warning per seat of the hand that the house's player held (docs/spec.md
/// §19.4): not a failure (the house may sit where it was invited, and at a
/// public table), but a player should know the house played the hand.
fn house_warnings(record: &HandRecord) -> Vec<Warning> {
    let public = record.policy.as_ref().is_some_and(|p| p.public);
    let how = if public {
        "at a public table, where anyone may sit"
    } else {
        "with the invitation of the table's opener"
    };
    record
        .seats
        .iter()
        .filter(|s| s.came == Some(Arrival::House))
        .map(|s| Warning {
            name: "house".into(),
            detail: format!(
                "hand {}: seat {} is the house's: a player the operator created sat down {how}; the house knows every card dealt, so this seat may play knowing them",
                record.hand, s.seat
            ),
            count_as: record
                .deal
                .as_ref()
                .map(|d| format!("table {}: seat {} is the house's", d.table_id, s.seat)),
        })
        .collect()
}

fn deal_checks(record: &HandRecord, status: DealStatus) -> Vec<Check> {
    let mut checks = vec![secret_check(record)];
    checks.extend(round_checks(record));
    if status == DealStatus::Derived {
        checks.push(derivation_check(record));
    }
    checks
}

/// The passing `reveals` and `withheld` checks of a `selfpoker_v3` deal
/// (docs/spec.md §20.5), none for `selfpoker_v2`. A seat that withheld is
/// no `ok` but a warning ([`withheld_warnings`]): `withheld` is listed only
/// when none did.
fn round_checks(record: &HandRecord) -> Vec<Check> {
    let Some(deal) = record.deal.as_ref().filter(|d| d.is_v3()) else {
        return Vec::new();
    };
    let mut checks = vec![reveals_check(record)];
    if deal.withheld.is_empty() {
        checks.push(Check::new("withheld", true, "no seat withheld its value"));
    }
    checks
}

/// A warning per seat of a `selfpoker_v3` hand that committed and withheld
/// its value, counted per table session and seat across records.
fn withheld_warnings(record: &HandRecord) -> Vec<Warning> {
    let Some(deal) = record.deal.as_ref().filter(|d| d.is_v3()) else {
        return Vec::new();
    };
    let session: String = deal.session_commit.chars().take(16).collect();
    deal.withheld
        .iter()
        .map(|seat| Warning {
            name: "withheld".into(),
            detail: format!(
                "hand {}: seat {seat} committed to a per-hand value and withheld it, so it was dealt out of this hand; the policy allows it, but each is a choice between two decks the house could have made",
                record.hand
            ),
            count_as: Some(format!(
                "table {} (session {session}…): seat {seat} withheld its per-hand value",
                deal.table_id
            )),
        })
        .collect()
}

/// The passing `reveals` check: how many values matched their commits.
fn reveals_check(record: &HandRecord) -> Check {
    let n = record.deal.as_ref().map_or(0, |d| d.hand_values.len());
    Check::new(
        "reveals",
        true,
        format!(
            "{n} revealed per-hand value{} match{} {} commit{}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "es" } else { "" },
            if n == 1 { "its" } else { "their" },
            if n == 1 { "" } else { "s" },
        ),
    )
}

/// The passing `derivation` check.
fn derivation_check(record: &HandRecord) -> Check {
    let (table, seeds, values) = record.deal.as_ref().map_or(("", 0, 0), |d| {
        (
            d.table_id.as_str(),
            d.client_seeds.len(),
            d.hand_values.len(),
        )
    });
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let inputs = if values == 0 {
        format!(
            "hand {} and {seeds} client seed{}",
            record.hand,
            plural(seeds)
        )
    } else {
        format!(
            "hand {}, {seeds} client seed{} and {values} per-hand value{}",
            record.hand,
            plural(seeds),
            plural(values)
        )
    };
    Check::new(
        "derivation",
        true,
        format!(
            "seed {} is HMAC-SHA256 of the session secret over table {table}, {inputs}",
            record.seed
        ),
    )
}

/// The `session_secret` check of a record whose secret, if revealed, matched.
fn secret_check(record: &HandRecord) -> Check {
    match &record.deal {
        Some(d) if d.session_secret.is_some() => Check::new(
            "session_secret",
            true,
            format!(
                "sha256 of the revealed session secret is session_commit {}",
                d.session_commit.to_ascii_lowercase()
            ),
        ),
        _ => failed("session_secret", &ReplayError::Unrevealed(record.hand)),
    }
}

/// §15.1's three checks of the hand itself, and with the session's `key`
/// §18.2's `ai` check of every AI decision when the hand has AI seats.
fn hand_checks(record: &HandRecord, key: Option<DecisionKey<'_>>) -> (Vec<Check>, Option<Value>) {
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
    let has_ai = record
        .seats
        .iter()
        .any(|s| matches!(s.player, Player::Ai { .. }));
    let key = key.filter(|_| has_ai);
    match replay_checking_ais(record, key) {
        Ok((outcome, replayed)) => {
            let mut checks = vec![commitment, actions, results];
            if key.is_some() {
                checks.push(ai_check(record, replayed));
            }
            (checks, Some(outcome_value(&outcome)))
        }
        Err(e @ ReplayError::Commit(_)) => (vec![failed("commitment", &e)], None),
        Err(e @ (ReplayError::Ai { .. } | ReplayError::AiSeat { .. })) => {
            (vec![commitment, failed("ai", &e)], None)
        }
        Err(
            e @ (ReplayError::Setup { .. }
            | ReplayError::Rule { .. }
            | ReplayError::Unfinished { .. }
            | ReplayError::AfterEnd { .. }),
        ) => (vec![commitment, failed("actions", &e)], None),
        Err(e) => (vec![commitment, actions, failed("results", &e)], None),
    }
}

/// The passing `ai` check: how many decisions replayed, under which engines.
fn ai_check(record: &HandRecord, replayed: usize) -> Check {
    let mut engines: Vec<&str> = record
        .seats
        .iter()
        .filter_map(|s| s.engine.map(|e| e.as_str()))
        .collect();
    engines.sort_unstable();
    engines.dedup();
    Check::new(
        "ai",
        true,
        format!(
            "{replayed} AI decision{} replay from the deciding seat's view alone, with the session's seeds (engine {})",
            if replayed == 1 { "" } else { "s" },
            engines.join(", ")
        ),
    )
}

fn finish(checks: Vec<Check>, outcome: Option<Value>) -> Verdict {
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

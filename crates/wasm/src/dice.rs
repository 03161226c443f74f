//! Dice (`dice_v1`): single rolls for the Verify tab and batch re-rolls of a
//! revealed seed pair for the Revealed tab's worker.
//!
//! The batch path exists because a pair may hold a million bets: the worker
//! hands over the server's JSON text page by page and gets back only the
//! mismatches, so no per-bet call crosses the JS boundary. Rolls and payouts
//! come from core's [`DiceKey`] and [`Bet::settle`].

use std::borrow::Cow;

use fairseed_core::dice::{Bet, Condition, DiceKey, MAX_NONCE};
use fairseed_core::{ClientSeed, Error, ServerSeed};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// How many mismatches a batch reports in full; the rest are only counted.
const MISMATCH_DETAIL_LIMIT: usize = 100;

/// A JavaScript number as a nonce: a whole number from 0 to 2^53 − 1.
pub(crate) fn nonce_from_js(value: f64, field: &str) -> Result<u64, Error> {
    whole_from_js(value, field, MAX_NONCE)
}

/// A JavaScript number that must be a whole number in `0..=max`.
pub(crate) fn whole_from_js(value: f64, field: &str, max: u64) -> Result<u64, Error> {
    // Every whole number up to 2^53 − 1 is exact in an f64, so the round trip
    // below is lossless once the value is known to be whole and in range.
    #[allow(clippy::cast_precision_loss)]
    let max_f = max as f64;
    if !value.is_finite() || value.fract() != 0.0 || value < 0.0 || value > max_f {
        return Err(Error::invalid(
            field,
            format!("{value} is not a whole number from 0 to {max}"),
        ));
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(value as u64)
}

/// The roll for one bet, checked as the server would check it.
///
/// # Errors
/// The seed is not 64 lowercase hex, the client seed is empty or too long, or
/// the nonce is not a whole number from 0 to 2^53 − 1.
pub fn roll(server_seed: &str, client_seed: &str, nonce: f64) -> Result<u16, Error> {
    let seed = ServerSeed::parse(server_seed)?;
    let client = ClientSeed::parse(client_seed)?;
    let nonce = nonce_from_js(nonce, "nonce")?;
    Ok(fairseed_core::dice::roll(&seed, &client, nonce))
}

/// `dice_v1` roll (0..=9999) of `server_seed`, `client_seed` and `nonce`.
///
/// # Errors
/// Core's message naming the bad field.
#[wasm_bindgen]
pub fn dice_roll(server_seed: &str, client_seed: &str, nonce: f64) -> Result<u16, JsError> {
    roll(server_seed, client_seed, nonce).map_err(|e| JsError::new(&e.to_string()))
}

/// What a bet would pay: `{chance, win, payout}` for a roll, payout as an exact
/// decimal string (it can exceed 2^53).
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Quote {
    /// Winning rolls out of 10000.
    pub chance: u16,
    /// Whether the roll wins.
    pub win: bool,
    /// The payout in chips, stake included, as decimal text.
    pub payout: String,
}

/// Settles a bet against `roll`; with `roll = None` it quotes the payout of a
/// winning roll, which the Dice tab shows before the bet.
///
/// # Errors
/// Core's bet validation (amount, target, chance) or a bad condition.
pub fn settle(
    amount: f64,
    condition: &str,
    target: f64,
    roll: Option<u16>,
) -> Result<Quote, Error> {
    let amount = whole_from_js(amount, "amount", fairseed_core::dice::MAX_AMOUNT)?;
    let condition = Condition::parse_field(condition, "condition")?;
    let target = whole_from_js(target, "target", 9999)?;
    let target = u16::try_from(target).map_err(|_| Error::invalid("target", "out of range"))?;
    let bet = Bet::new(amount, condition, target)?;
    // A bet with chance >= 1 always wins on roll 0 (under) or 9999 (over).
    let roll = roll.unwrap_or(match condition {
        Condition::Under => 0,
        Condition::Over => 9999,
    });
    let s = bet.settle(roll);
    Ok(Quote {
        chance: bet.chance(),
        win: s.win,
        payout: s.payout.to_string(),
    })
}

/// JSON `{chance, win, payout}` for a bet and a roll (negative roll: a winning one).
///
/// # Errors
/// Core's message naming the bad field.
#[wasm_bindgen]
pub fn dice_settle(
    amount: f64,
    condition: &str,
    target: f64,
    roll: i32,
) -> Result<String, JsError> {
    let roll = u16::try_from(roll).ok().filter(|r| *r <= 9999);
    settle(amount, condition, target, roll)
        .map(|q| serde_json::json!(q).to_string())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The bet part of a row: flat fields, or nested as in a `dice_v1` record.
#[derive(Deserialize)]
struct BetIn<'a> {
    amount: u64,
    #[serde(borrow)]
    condition: Cow<'a, str>,
    target: u16,
}

/// The result part of a row.
#[derive(Deserialize, Default)]
struct OutcomeIn {
    roll: Option<u16>,
    win: Option<bool>,
    payout: Option<serde_json::Number>,
}

/// One bet of a pair as the service lists it, or a `dice_v1` record.
///
/// Strings are borrowed from the input and the payout is kept as the exact
/// number text (`arbitrary_precision`): a million rows parse without a
/// per-row allocation beyond the row itself.
#[derive(Deserialize)]
struct RowIn<'a> {
    #[serde(borrow)]
    scheme: Option<Cow<'a, str>>,
    #[serde(borrow)]
    commitment: Option<Cow<'a, str>>,
    #[serde(borrow)]
    client_seed: Option<Cow<'a, str>>,
    #[serde(default)]
    nonce: Option<u64>,
    amount: Option<u64>,
    #[serde(borrow)]
    condition: Option<Cow<'a, str>>,
    target: Option<u16>,
    roll: Option<u16>,
    win: Option<bool>,
    payout: Option<serde_json::Number>,
    #[serde(borrow)]
    bet: Option<BetIn<'a>>,
    outcome: Option<OutcomeIn>,
}

/// A page of `GET /v1/dice/bets`: the rows are under `bets`.
#[derive(Deserialize)]
struct PageIn<'a> {
    #[serde(borrow)]
    bets: Vec<RowIn<'a>>,
}

/// The rows of a JSON array, a `{"bets": [...]}` page, or JSON Lines.
fn rows(text: &str) -> Result<Vec<RowIn<'_>>, Error> {
    let syntax = |e: serde_json::Error| Error::Syntax(format!("bets: {e}"));
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(text).map_err(syntax);
    }
    if let Ok(page) = serde_json::from_str::<PageIn>(text) {
        return Ok(page.bets);
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| Error::Syntax(format!("bets: line {}: {e}", i + 1)))
        })
        .collect()
}

/// Whether a payout written by the service is exactly `payout`.
fn payout_equals(written: &serde_json::Number, payout: u128) -> bool {
    match written.as_u64() {
        Some(v) => u128::from(v) == payout,
        // Above 2^64 (or not a whole number): compare the exact texts.
        None => written.to_string() == payout.to_string(),
    }
}

/// One difference between a claimed bet and its re-roll.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Mismatch {
    /// The bet's nonce.
    pub nonce: u64,
    /// `roll`, `win`, `payout`, or `bet` (the bet itself is invalid).
    pub field: String,
    /// What the seeds give.
    pub expected: String,
    /// What the list says.
    pub found: String,
}

/// The result of checking one page of bets.
#[derive(Debug, Serialize, Default, PartialEq, Eq)]
pub struct BatchReport {
    /// Bets re-rolled.
    pub checked: u64,
    /// Bets with at least one difference.
    pub mismatched: u64,
    /// Rows of another scheme or another seed pair, left out.
    pub skipped: u64,
    /// The first differences in full.
    pub mismatches: Vec<Mismatch>,
}

/// Re-rolls the bets of one revealed seed pair.
#[wasm_bindgen]
pub struct DiceBatch {
    key: DiceKey,
    client: ClientSeed,
    /// The pair's commitment: rows of other pairs (in an export) are skipped.
    commitment: String,
}

#[wasm_bindgen]
impl DiceBatch {
    /// Prepares the pair's key state once for every bet.
    ///
    /// # Errors
    /// Core's message for a bad server or client seed.
    #[wasm_bindgen(constructor)]
    pub fn new(server_seed: &str, client_seed: &str) -> Result<DiceBatch, JsError> {
        Self::create(server_seed, client_seed).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The roll for `nonce`.
    ///
    /// # Errors
    /// The nonce is not a whole number from 0 to 2^53 − 1.
    pub fn roll(&self, nonce: f64) -> Result<u16, JsError> {
        let nonce = nonce_from_js(nonce, "nonce").map_err(|e| JsError::new(&e.to_string()))?;
        Ok(self.key.roll(self.client.as_str(), nonce))
    }

    /// Checks a JSON array, a `{"bets": [...]}` page or JSON Lines of bets (flat `{nonce, amount, condition, target,
    /// roll, win, payout}` rows or `dice_v1` records) and returns a
    /// `{checked, mismatched, mismatches}` JSON report.
    ///
    /// # Errors
    /// The text is not such an array; the message names the row and field.
    pub fn check_json(&self, text: &str) -> Result<String, JsError> {
        self.check(text)
            .map(|r| serde_json::json!(r).to_string())
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// [`DiceBatch::check_json`] over UTF-8 bytes, so a worker can hand over a
    /// transferred `ArrayBuffer` without decoding it to a JS string first.
    ///
    /// # Errors
    /// The bytes are not UTF-8, or not bets as for `check_json`.
    pub fn check_bytes(&self, bytes: &[u8]) -> Result<String, JsError> {
        std::str::from_utf8(bytes)
            .map_err(|e| Error::Syntax(format!("bets: not UTF-8: {e}")))
            .and_then(|text| self.check(text))
            .map(|r| serde_json::json!(r).to_string())
            .map_err(|e| JsError::new(&e.to_string()))
    }
}

impl DiceBatch {
    /// The batch for a pair.
    ///
    /// # Errors
    /// Core's seed validation.
    pub fn create(server_seed: &str, client_seed: &str) -> Result<Self, Error> {
        let seed = ServerSeed::parse(server_seed)?;
        Ok(Self {
            key: DiceKey::new(&seed),
            client: ClientSeed::parse(client_seed)?,
            commitment: seed.commitment().to_hex(),
        })
    }

    /// Checks a JSON array of bets, a `{"bets": [...]}` page of the service, or
    /// JSON Lines; see [`DiceBatch::check_json`].
    ///
    /// # Errors
    /// Bad JSON or a row without a usable `nonce`.
    pub fn check(&self, text: &str) -> Result<BatchReport, Error> {
        let rows = rows(text)?;
        let mut report = BatchReport::default();
        for row in &rows {
            // An export holds every record of the player: keep this pair's bets.
            let other_scheme = row.scheme.as_deref().is_some_and(|s| s != "dice_v1");
            let other_pair = row
                .commitment
                .as_deref()
                .is_some_and(|c| c != self.commitment)
                || row
                    .client_seed
                    .as_deref()
                    .is_some_and(|c| c != self.client.as_str());
            if other_scheme || other_pair {
                report.skipped += 1;
                continue;
            }
            report.checked += 1;
            let found = self.check_row(row);
            if !found.is_empty() {
                report.mismatched += 1;
                let room = MISMATCH_DETAIL_LIMIT.saturating_sub(report.mismatches.len());
                report.mismatches.extend(found.into_iter().take(room));
            }
        }
        Ok(report)
    }

    /// The differences of one row (empty when it verifies).
    ///
    /// Values are compared as numbers and only formatted for a mismatch, so a
    /// matching row allocates nothing.
    fn check_row(&self, row: &RowIn<'_>) -> Vec<Mismatch> {
        let Some(nonce) = row.nonce else {
            return vec![Mismatch {
                nonce: 0,
                field: "nonce".to_owned(),
                expected: "a nonce".to_owned(),
                found: "none".to_owned(),
            }];
        };
        let roll = self.key.roll(self.client.as_str(), nonce);
        let outcome = row.outcome.as_ref();
        let claimed_roll = row.roll.or_else(|| outcome.and_then(|o| o.roll));
        let claimed_win = row.win.or_else(|| outcome.and_then(|o| o.win));
        let claimed_payout = row
            .payout
            .as_ref()
            .or_else(|| outcome.and_then(|o| o.payout.as_ref()));
        let mut out = Vec::new();
        let mut differ = |field: &str, expected: String, found: String| {
            out.push(Mismatch {
                nonce,
                field: field.to_owned(),
                expected,
                found,
            });
        };
        if let Some(claimed) = claimed_roll.filter(|c| *c != roll) {
            differ("roll", roll.to_string(), claimed.to_string());
        }
        let bet = match (&row.bet, row.amount, &row.condition, row.target) {
            (Some(b), ..) => Some((b.amount, b.condition.as_ref(), b.target)),
            (None, Some(a), Some(c), Some(t)) => Some((a, c.as_ref(), t)),
            _ => None,
        };
        if let Some((amount, condition, target)) = bet {
            let checked = Condition::parse_field(condition, "condition")
                .and_then(|c| Bet::new(amount, c, target));
            match checked {
                Ok(bet) => {
                    let s = bet.settle(roll);
                    if let Some(w) = claimed_win.filter(|w| *w != s.win) {
                        differ("win", s.win.to_string(), w.to_string());
                    }
                    if let Some(p) = claimed_payout.filter(|p| !payout_equals(p, s.payout)) {
                        differ("payout", s.payout.to_string(), p.to_string());
                    }
                }
                Err(e) => differ("bet", "a valid bet".to_owned(), e.to_string()),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = "0000000000000000000000000000000000000000000000000000000000000001";

    #[test]
    fn nonce_must_be_whole_and_in_range() {
        assert!(nonce_from_js(-1.0, "nonce").is_err());
        assert!(nonce_from_js(1.5, "nonce").is_err());
        assert!(nonce_from_js(f64::NAN, "nonce").is_err());
        assert!(nonce_from_js(9_007_199_254_740_992.0, "nonce").is_err());
        assert_eq!(
            nonce_from_js(9_007_199_254_740_991.0, "nonce"),
            Ok(MAX_NONCE)
        );
    }

    #[test]
    fn roll_errors_name_the_field() {
        let err = roll("abc", "c", 0.0).unwrap_err().to_string();
        assert!(err.starts_with("server_seed:"), "{err}");
        let err = roll(SEED, "", 0.0).unwrap_err().to_string();
        assert!(err.starts_with("client_seed:"), "{err}");
    }

    #[test]
    fn batch_agrees_with_core_and_flags_each_field() {
        let seed = ServerSeed::parse(SEED).unwrap_or_else(|e| panic!("{e}"));
        let client = ClientSeed::parse("player").unwrap_or_else(|e| panic!("{e}"));
        let batch = DiceBatch::create(SEED, "player").unwrap_or_else(|e| panic!("{e}"));
        let mut rows = Vec::new();
        for nonce in 0..50u64 {
            let r = fairseed_core::dice::roll(&seed, &client, nonce);
            let bet = Bet::new(7, Condition::Under, 5000).unwrap_or_else(|e| panic!("{e}"));
            let s = bet.settle(r);
            rows.push(
                serde_json::json!({"nonce": nonce, "amount": 7, "condition": "under",
                "target": 5000, "roll": r, "win": s.win, "payout": s.payout.to_string().parse::<serde_json::Number>().unwrap_or_else(|e| panic!("{e}"))}),
            );
        }
        let good = batch
            .check(&serde_json::Value::Array(rows.clone()).to_string())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((good.checked, good.mismatched), (50, 0));

        rows[3]["roll"] = serde_json::json!((rows[3]["roll"].as_u64().unwrap_or(0) + 1) % 10000);
        rows[9]["payout"] = serde_json::json!(123_456);
        let bad = batch
            .check(&serde_json::Value::Array(rows).to_string())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(bad.mismatched, 2);
        assert_eq!(bad.mismatches[0].nonce, 3);
        assert_eq!(bad.mismatches[0].field, "roll");
        assert!(bad
            .mismatches
            .iter()
            .any(|m| m.nonce == 9 && m.field == "payout"));
    }

    #[test]
    fn payouts_above_2_64_compare_exactly() {
        // The largest payout, amount 2^53 - 1 at chance 1: (2**53-1)*9900 in Python.
        let big = u128::from(MAX_NONCE) * 9900;
        let written = |t: &str| {
            t.parse::<serde_json::Number>()
                .unwrap_or_else(|e| panic!("{e}"))
        };
        assert!(payout_equals(&written("89171272621935810900"), big));
        assert!(!payout_equals(&written("89171272621935810899"), big));
        assert!(payout_equals(&written("200"), 200));
        assert!(!payout_equals(&written("200.0"), 200));
    }

    #[test]
    fn quote_uses_core_limits() {
        let q = settle(100.0, "under", 4950.0, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(q.chance, 4950);
        assert_eq!(q.payout, (100u128 * 9900 / 4950).to_string());
        let err = settle(100.0, "under", 9801.0, None)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("target:"), "{err}");
    }
}

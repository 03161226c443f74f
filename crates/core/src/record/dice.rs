//! The `dice_v1` record.

use serde_json::{Map, Value};

use super::common::{finish, object, only_keys, read_outcome};
use super::fields::Fields;
use super::scan::{Scanner, Seen};
use crate::dice::{Bet, Condition, MAX_AMOUNT, MAX_NONCE};
use crate::error::Error;
use crate::seed::{ClientSeed, Commitment, ServerSeed};

/// A bet as recorded: the checked [`Bet`].
pub type DiceBet = Bet;

/// One dice bet (or a bare roll) of a seed pair.
#[derive(Debug, Clone, PartialEq)]
pub struct DiceRecord {
    /// `sha256(server_seed)`, shown before the bet.
    pub commitment: Commitment,
    /// The seed, once the pair is rotated.
    pub server_seed: Option<ServerSeed>,
    /// The player's client seed.
    pub client_seed: ClientSeed,
    /// The bet's number within the pair.
    pub nonce: u64,
    /// The bet, if the record is of a bet rather than a bare roll.
    pub bet: Option<Bet>,
    /// What the server says happened.
    pub outcome: Option<Map<String, Value>>,
}

impl DiceRecord {
    pub(super) fn read(f: &Fields<'_>) -> Result<Self, Error> {
        only_keys(
            f,
            &["commitment", "server_seed", "client_seed", "nonce", "bet"],
        )?;
        let bet = match f.opt("bet") {
            None => None,
            Some(v) => Some(read_bet(&Fields::of(v, "bet")?)?),
        };
        Ok(Self {
            commitment: Commitment::parse_field(f.str("commitment")?, "commitment")?,
            server_seed: f
                .opt_str("server_seed")?
                .map(|s| ServerSeed::parse_field(s, "server_seed"))
                .transpose()?,
            client_seed: ClientSeed::parse_field(f.str("client_seed")?, "client_seed")?,
            nonce: f.uint("nonce", MAX_NONCE)?,
            bet,
            outcome: read_outcome(f)?,
        })
    }

    /// Reads a `dice_v1` record straight from its JSON text, or `None` when the
    /// text is anything but a clean, valid dice record.
    ///
    /// The fast path of a hot loop (a pair's million bets): it borrows from the
    /// text instead of building a JSON tree. On `None` the caller reads the
    /// record through [`super::Record::from_value`], whose errors name the field,
    /// so both paths accept the same records and agree on every verdict (a
    /// property test holds them to it).
    pub fn from_json_fast(text: &str) -> Option<Self> {
        let view = DiceView::parse(text)?;
        Some(Self {
            commitment: Commitment::parse(view.commitment).ok()?,
            server_seed: match view.server_seed {
                Some(s) => Some(ServerSeed::parse(s).ok()?),
                None => None,
            },
            client_seed: view.client_seed()?,
            nonce: view.nonce,
            bet: view.bet,
            outcome: view.claimed_outcome(),
        })
    }

    /// The record as docs/spec.md §10.5 JSON.
    pub fn to_value(&self) -> Value {
        let mut m = object("dice_v1");
        m.insert("commitment".into(), self.commitment.to_hex().into());
        if let Some(seed) = &self.server_seed {
            m.insert("server_seed".into(), seed.reveal().into());
        }
        m.insert("client_seed".into(), self.client_seed.as_str().into());
        m.insert("nonce".into(), self.nonce.into());
        if let Some(bet) = &self.bet {
            let mut b = Map::new();
            b.insert("amount".into(), bet.amount().into());
            b.insert("condition".into(), bet.condition().as_str().into());
            b.insert("target".into(), bet.target().into());
            m.insert("bet".into(), Value::Object(b));
        }
        finish(m, &self.outcome)
    }
}

/// A dice record read straight from its JSON text, borrowing its strings: the
/// first step of [`DiceRecord::from_json_fast`].
///
/// The bulk verifier stops here for a pair's bets: the seed and commitment stay
/// text (compared with the pair already prepared instead of decoded again) and
/// the claimed outcome stays typed (compared without building a JSON map).
#[derive(Debug)]
pub(crate) struct DiceView<'a> {
    /// The commitment's text, not yet checked to be 64 hex.
    pub(crate) commitment: &'a str,
    /// The seed's text, not yet checked to be 64 hex.
    pub(crate) server_seed: Option<&'a str>,
    client_seed: &'a str,
    /// The nonce, within its range.
    pub(crate) nonce: u64,
    /// The bet, checked.
    pub(crate) bet: Option<Bet>,
    /// The claimed outcome.
    pub(crate) outcome: Option<ClaimedOutcome>,
}

/// A dice record's claimed outcome, as typed as its JSON allows.
#[derive(Debug)]
pub(crate) struct ClaimedOutcome {
    pub(crate) roll: Option<u64>,
    pub(crate) win: Option<bool>,
    pub(crate) payout: Option<u128>,
}

impl<'a> DiceView<'a> {
    /// Reads `text`, or `None` when it is anything but a clean dice record
    /// (apart from its seed and commitment, which the caller checks) spelt
    /// plainly enough for [`Scanner`].
    pub(crate) fn parse(text: &'a str) -> Option<Self> {
        let mut s = Scanner::new(text);
        let view = Self::scan(&mut s)?;
        s.at_end().then_some(view)
    }

    /// The record's object: its known keys once each, in any order.
    fn scan(s: &mut Scanner<'a>) -> Option<Self> {
        const KEYS: [&str; 8] = [
            "scheme",
            "commitment",
            "client_seed",
            "nonce",
            "server_seed",
            "bet",
            "outcome",
            "id",
        ];
        let mut seen = Seen::default();
        let (mut commitment, mut server_seed, mut client_seed) = ("", None, "");
        let (mut nonce, mut bet, mut outcome) = (0, None, None);
        s.object(|key, s| {
            match seen.mark(&KEYS, key)? {
                0 => (s.string()? == "dice_v1").then_some(())?,
                1 => commitment = s.string()?,
                2 => client_seed = s.string()?,
                3 => nonce = s.uint().filter(|&n| n <= MAX_NONCE)?,
                4 => server_seed = Some(s.string()?),
                5 => bet = Some(scan_bet(s)?),
                6 => outcome = Some(ClaimedOutcome::scan(s)?),
                // An `id` is the operator's own: a plain string or number.
                _ => match s.peek()? {
                    b'"' => drop(s.string()?),
                    _ => drop(s.uint128()?),
                },
            }
            Some(())
        })?;
        // scheme, commitment, client_seed and nonce are required.
        (0..4).all(|i| seen.has(i)).then_some(())?;
        Some(Self {
            commitment,
            server_seed,
            client_seed,
            nonce,
            bet,
            outcome,
        })
    }

    /// The client seed, when it is a valid one.
    pub(crate) fn client_seed(&self) -> Option<ClientSeed> {
        ClientSeed::parse(self.client_seed).ok()
    }

    /// The client seed's text, when it is a valid one (no copy made).
    pub(crate) fn client_seed_text(&self) -> Option<&str> {
        ClientSeed::is_valid(self.client_seed).then_some(self.client_seed)
    }

    /// The claimed outcome as the JSON map the field reader would give.
    pub(crate) fn claimed_outcome(&self) -> Option<Map<String, Value>> {
        self.outcome.as_ref().map(ClaimedOutcome::to_map)
    }
}

impl ClaimedOutcome {
    /// An `outcome` object of `roll`, `win` and `payout`, each optional.
    fn scan(s: &mut Scanner<'_>) -> Option<Self> {
        let mut seen = Seen::default();
        let mut out = Self {
            roll: None,
            win: None,
            payout: None,
        };
        s.object(|key, s| {
            match seen.mark(&["roll", "win", "payout"], key)? {
                0 => out.roll = Some(s.uint()?),
                1 => out.win = Some(s.bool()?),
                _ => out.payout = Some(s.uint128()?),
            }
            Some(())
        })?;
        Some(out)
    }

    /// The JSON map the field reader would give.
    pub(crate) fn to_map(&self) -> Map<String, Value> {
        let mut m = Map::new();
        if let Some(roll) = self.roll {
            m.insert("roll".into(), roll.into());
        }
        if let Some(win) = self.win {
            m.insert("win".into(), win.into());
        }
        if let Some(payout) = self.payout.and_then(serde_json::Number::from_u128) {
            m.insert("payout".into(), Value::Number(payout));
        }
        m
    }
}

fn read_bet(b: &Fields<'_>) -> Result<Bet, Error> {
    b.only(&["amount", "condition", "target"])?;
    let amount = b.uint("amount", MAX_AMOUNT)?;
    if amount == 0 {
        return Err(Error::invalid(
            "bet.amount",
            format!("0 is out of range, expected 1 to {MAX_AMOUNT}"),
        ));
    }
    let condition = Condition::parse_field(b.str("condition")?, "bet.condition")?;
    // target <= 9999 after this check, so it fits in u16.
    let target = b.uint("target", 9999)? as u16;
    Bet::new(amount, condition, target).map_err(|e| e.within("bet"))
}

/// A `bet` object: `amount`, `condition` and `target`, all required, checked.
fn scan_bet(s: &mut Scanner<'_>) -> Option<Bet> {
    let mut seen = Seen::default();
    let (mut amount, mut condition, mut target) = (0, "", 0);
    s.object(|key, s| {
        match seen.mark(&["amount", "condition", "target"], key)? {
            0 => amount = s.uint()?,
            1 => condition = s.string()?,
            _ => target = u16::try_from(s.uint()?).ok()?,
        }
        Some(())
    })?;
    (0..3).all(|i| seen.has(i)).then_some(())?;
    let condition = Condition::parse_field(condition, "").ok()?;
    Bet::new(amount, condition, target).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every vector dice record without escapes in its strings takes the fast
    /// path (a fast path that silently gave up would still pass the agreement
    /// tests, only slowly).
    #[test]
    fn plain_vector_records_take_the_fast_path() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/vectors/records/dice_v1.jsonl"
        );
        let text = std::fs::read_to_string(path).expect("the dice vectors are committed");
        let mut plain = 0;
        for line in text.lines().filter(|l| !l.contains('\\')) {
            let view = DiceView::parse(line);
            assert!(view.is_some(), "fell back on {line}");
            plain += 1;
        }
        assert!(plain > 1000, "only {plain} plain records");
    }

    /// Whitespace, any key order and an operator's `id` stay on the fast path,
    /// and read as serde_json reads them.
    #[test]
    fn spacing_order_and_id() {
        let seed = "7ce471e90f58e1559f913ab03ae5dd514d9f43def0d3a53cc7e321dc96d9e14a";
        let text = format!(
            "\n {{ \"id\" : \"bet-7\",\r\n\t\"nonce\": 18446744073709551615 ,\"client_seed\":\"é:=,\",\
             \"outcome\":{{\"payout\":340282366920938463463374607431768211455,\"win\":false}},\
             \"server_seed\":\"{seed}\",\"scheme\":\"dice_v1\",\"commitment\":\"c\",\
             \"bet\":{{\"target\":5000,\"condition\":\"over\",\"amount\":1}} }} \n"
        );
        assert_eq!(
            DiceView::parse(&text).map(|v| v.nonce),
            None,
            "nonce above MAX_NONCE"
        );
        let text = text.replace("18446744073709551615", "7");
        let view = DiceView::parse(&text).expect("a plain dice record");
        assert_eq!(
            (
                view.nonce,
                view.client_seed,
                view.server_seed,
                view.commitment
            ),
            (7, "é:=,", Some(seed), "c")
        );
        let outcome = view.outcome.expect("an outcome");
        assert_eq!(
            (outcome.roll, outcome.win, outcome.payout),
            (None, Some(false), Some(u128::MAX))
        );
        let bet = view.bet.expect("a bet");
        assert_eq!((bet.amount(), bet.target()), (1, 5000));
        for id in ["12", "\"\""] {
            assert!(
                DiceView::parse(&text.replace("\"bet-7\"", id)).is_some(),
                "{id}"
            );
        }
        // Left to the field reader: other ids, null, escapes, a missing key.
        for (from, to) in [
            ("\"bet-7\"", "[1]"),
            ("\"bet-7\"", "null"),
            ("é:=,", "\\u00e9"),
            ("\"scheme\":\"dice_v1\",", ""),
        ] {
            assert!(DiceView::parse(&text.replace(from, to)).is_none(), "{to}");
        }
    }
}

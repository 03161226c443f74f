//! The `dice_v1` record.

use std::borrow::Cow;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{finish, object, only_keys, read_outcome, Fields};
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

    /// The record as SPEC §7 JSON.
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
    client_seed: Cow<'a, str>,
    /// The nonce, within its range.
    pub(crate) nonce: u64,
    /// The bet, checked.
    pub(crate) bet: Option<Bet>,
    /// The claimed outcome.
    pub(crate) outcome: Option<ClaimedOutcome>,
}

/// A dice record's claimed outcome, as typed as its JSON allows.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimedOutcome {
    pub(crate) roll: Option<u64>,
    pub(crate) win: Option<bool>,
    pub(crate) payout: Option<u128>,
}

impl<'a> DiceView<'a> {
    /// Reads `text`, or `None` when it is anything but a clean dice record
    /// (apart from its seed and commitment, which the caller checks).
    pub(crate) fn parse(text: &'a str) -> Option<Self> {
        let raw: FastDice<'a> = serde_json::from_str(text).ok()?;
        if raw.scheme != "dice_v1" || raw.nonce > MAX_NONCE {
            return None;
        }
        let bet = match raw.bet {
            None => None,
            Some(b) => {
                let target = u16::try_from(b.target).ok()?;
                let condition = Condition::parse_field(b.condition, "").ok()?;
                Some(Bet::new(b.amount, condition, target).ok()?)
            }
        };
        Some(Self {
            commitment: raw.commitment,
            server_seed: raw.server_seed,
            client_seed: raw.client_seed,
            nonce: raw.nonce,
            bet,
            outcome: raw.outcome,
        })
    }

    /// The client seed, when it is a valid one.
    pub(crate) fn client_seed(&self) -> Option<ClientSeed> {
        ClientSeed::parse(&self.client_seed).ok()
    }

    /// The client seed's text, when it is a valid one (no copy made).
    pub(crate) fn client_seed_text(&self) -> Option<&str> {
        ClientSeed::is_valid(&self.client_seed).then_some(&*self.client_seed)
    }

    /// The claimed outcome as the JSON map the field reader would give.
    pub(crate) fn claimed_outcome(&self) -> Option<Map<String, Value>> {
        self.outcome.as_ref().map(ClaimedOutcome::to_map)
    }
}

impl ClaimedOutcome {
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

/// A dice record as its JSON text spells it, borrowed where it can be.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastDice<'a> {
    scheme: &'a str,
    commitment: &'a str,
    #[serde(default)]
    server_seed: Option<&'a str>,
    #[serde(borrow)]
    client_seed: Cow<'a, str>,
    nonce: u64,
    #[serde(default, borrow)]
    bet: Option<FastBet<'a>>,
    #[serde(default)]
    outcome: Option<ClaimedOutcome>,
    #[serde(default)]
    #[allow(dead_code)]
    id: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastBet<'a> {
    amount: u64,
    condition: &'a str,
    target: u64,
}

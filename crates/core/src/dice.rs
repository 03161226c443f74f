//! `dice_v1`: the HMAC-SHA512 roll with window rejection and the 1 % edge (SPEC §5).

use core::fmt;

use hmac::Mac;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::hash::{decimal, hmac512_keyed, HmacSha512};
use crate::seed::{ClientSeed, ServerSeed};

/// The largest nonce and the largest amount: 2^53 − 1, exact in JavaScript.
pub const MAX_NONCE: u64 = (1 << 53) - 1;
/// The largest bet amount, in whole chips.
pub const MAX_AMOUNT: u64 = MAX_NONCE;
/// The highest roll.
pub const MAX_ROLL: u16 = 9999;
/// Chance bounds in hundredths of a percent.
pub const CHANCE_RANGE: core::ops::RangeInclusive<u16> = 1..=9800;

/// Windows of five hex characters: 20 bits, 0..=1048575.
const WINDOW_NIBBLES: usize = 5;
/// A window at or above this is rejected: the largest multiple of 10000 in a window.
const REJECT: u32 = 1_000_000;
/// 128 hex characters hold 25 whole windows.
const WINDOWS: usize = 25;

/// A seed pair's server seed with its HMAC-SHA512 key pads precomputed.
///
/// Rolling a pair's bets reuses this, so each roll costs two SHA-512 blocks.
#[derive(Clone)]
pub struct DiceKey {
    mac: HmacSha512,
}

impl DiceKey {
    /// Prepares the key state for `seed`.
    pub fn new(seed: &ServerSeed) -> Self {
        Self {
            mac: hmac512_keyed(seed.key()),
        }
    }

    /// The roll for `client_seed` and `nonce`: 0..=9999.
    pub fn roll(&self, client_seed: &str, nonce: u64) -> u16 {
        let digest = self.digest(client_seed, nonce);
        roll_from_digest(&digest).0
    }

    /// HMAC-SHA512(seed, client_seed + "-" + nonce).
    pub fn digest(&self, client_seed: &str, nonce: u64) -> [u8; 64] {
        let mut mac = self.mac.clone();
        mac.update(client_seed.as_bytes());
        let mut buf = [0u8; 20];
        mac.update(b"-");
        mac.update(decimal(nonce, &mut buf));
        mac.finalize().into_bytes().into()
    }
}

/// One bet to roll: its seed pair's key, its client seed and its nonce.
#[derive(Debug, Clone, Copy)]
pub struct RollJob<'a> {
    /// The pair's prepared key.
    pub key: &'a DiceKey,
    /// The pair's client seed.
    pub client_seed: &'a str,
    /// The bet's nonce.
    pub nonce: u64,
}

/// Rolls many bets at once: `out[i]` is `jobs[i].key.roll(jobs[i].client_seed,
/// jobs[i].nonce)`. Bulk verification calls this so that independent bets can
/// share one pass of the hash.
///
/// # Panics
/// When `jobs` and `out` differ in length (a caller bug).
pub fn roll_many(jobs: &[RollJob<'_>], out: &mut [u16]) {
    assert_eq!(jobs.len(), out.len(), "roll_many needs one output per job");
    for (job, roll) in jobs.iter().zip(out.iter_mut()) {
        *roll = job.key.roll(job.client_seed, job.nonce);
    }
}

impl fmt::Debug for DiceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DiceKey(<redacted>)")
    }
}

/// The roll for one bet: `DiceKey::new(seed).roll(client, nonce)`.
pub fn roll(seed: &ServerSeed, client_seed: &ClientSeed, nonce: u64) -> u16 {
    DiceKey::new(seed).roll(client_seed.as_str(), nonce)
}

/// The roll of a 64-byte digest and the index of the window that gave it
/// (`None` when all 25 were rejected and the roll is 9999).
pub fn roll_from_digest(digest: &[u8; 64]) -> (u16, Option<usize>) {
    for i in 0..WINDOWS {
        let v = window(digest, i);
        if v < REJECT {
            // v < 1_000_000, so v % 10_000 < 10_000 fits in u16.
            return ((v % 10_000) as u16, Some(i));
        }
    }
    (MAX_ROLL, None)
}

/// Window `i`: hex characters `5i .. 5i+4` of the digest, as an integer.
fn window(digest: &[u8; 64], i: usize) -> u32 {
    (i * WINDOW_NIBBLES..(i + 1) * WINDOW_NIBBLES).fold(0, |acc, k| {
        let byte = digest[k / 2];
        let nibble = if k % 2 == 0 { byte >> 4 } else { byte & 0x0f };
        (acc << 4) | u32::from(nibble)
    })
}

/// Which side of the target wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Condition {
    /// Wins when `roll < target`.
    Under,
    /// Wins when `roll > target`.
    Over,
}

impl Condition {
    /// Parses `under` or `over`.
    ///
    /// # Errors
    /// Anything else; `field` names it.
    pub fn parse_field(text: &str, field: &str) -> Result<Self, Error> {
        match text {
            "under" => Ok(Self::Under),
            "over" => Ok(Self::Over),
            other => Err(Error::invalid(
                field,
                format!("unknown condition {other:?}, expected \"under\" or \"over\""),
            )),
        }
    }

    /// `"under"` or `"over"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Under => "under",
            Self::Over => "over",
        }
    }
}

/// A checked bet: amount, condition and a target whose chance is 1..=9800.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bet {
    amount: u64,
    condition: Condition,
    target: u16,
}

/// What a bet pays for a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settlement {
    /// Whether the roll is on the winning side of the target.
    pub win: bool,
    /// Chips paid back, stake included: `floor(amount × 9900 / chance)` or 0.
    pub payout: u128,
}

impl Bet {
    /// Checks a bet; errors name `amount` or `target`.
    ///
    /// # Errors
    /// Amount outside 1..=2^53−1, target above 9999, or chance outside 1..=9800.
    pub fn new(amount: u64, condition: Condition, target: u16) -> Result<Self, Error> {
        if !(1..=MAX_AMOUNT).contains(&amount) {
            return Err(Error::invalid(
                "amount",
                format!("{amount} is out of range, expected 1 to {MAX_AMOUNT}"),
            ));
        }
        if target > MAX_ROLL {
            return Err(Error::invalid(
                "target",
                format!("{target} is out of range, expected 0 to {MAX_ROLL}"),
            ));
        }
        let bet = Self {
            amount,
            condition,
            target,
        };
        let chance = bet.chance();
        if !CHANCE_RANGE.contains(&chance) {
            return Err(Error::invalid(
                "target",
                format!(
                    "{} {target} gives chance {chance}, expected 1 to 9800 (0.01% to 98.00%)",
                    condition.as_str()
                ),
            ));
        }
        Ok(bet)
    }

    /// The stake in chips.
    pub fn amount(&self) -> u64 {
        self.amount
    }

    /// `under` or `over`.
    pub fn condition(&self) -> Condition {
        self.condition
    }

    /// The target, 0..=9999.
    pub fn target(&self) -> u16 {
        self.target
    }

    /// Winning rolls out of 10000: `target` under, `9999 − target` over.
    pub fn chance(&self) -> u16 {
        match self.condition {
            Condition::Under => self.target,
            Condition::Over => MAX_ROLL - self.target,
        }
    }

    /// Whether `roll` wins, and the payout in 128-bit arithmetic.
    pub fn settle(&self, roll: u16) -> Settlement {
        let win = match self.condition {
            Condition::Under => roll < self.target,
            Condition::Over => roll > self.target,
        };
        let payout = if win {
            u128::from(self.amount) * 9900 / u128::from(self.chance())
        } else {
            0
        };
        Settlement { win, payout }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_read_hex_characters() {
        let mut digest = [0u8; 64];
        digest[0] = 0x12;
        digest[1] = 0x34;
        digest[2] = 0x56;
        assert_eq!(window(&digest, 0), 0x12345);
        assert_eq!(window(&digest, 1), 0x60000);
    }

    #[test]
    fn all_rejected_is_9999() {
        assert_eq!(roll_from_digest(&[0xff; 64]), (9999, None));
    }

    #[test]
    fn chance_limits() {
        assert!(Bet::new(1, Condition::Under, 0).is_err());
        assert!(Bet::new(1, Condition::Under, 1).is_ok());
        assert!(Bet::new(1, Condition::Under, 9800).is_ok());
        assert!(Bet::new(1, Condition::Under, 9801).is_err());
        assert!(Bet::new(1, Condition::Over, 9999).is_err());
        assert!(Bet::new(1, Condition::Over, 199).is_ok());
        assert!(Bet::new(1, Condition::Over, 198).is_err());
        assert!(Bet::new(0, Condition::Under, 50).is_err());
        assert!(Bet::new(MAX_AMOUNT + 1, Condition::Under, 50).is_err());
    }

    #[test]
    fn payout_exceeds_u64() {
        let bet = Bet::new(MAX_AMOUNT, Condition::Under, 1).unwrap_or_else(|e| panic!("{e}"));
        let s = bet.settle(0);
        assert!(s.win);
        assert_eq!(s.payout, u128::from(MAX_AMOUNT) * 9900);
        assert!(s.payout > u128::from(u64::MAX));
    }
}

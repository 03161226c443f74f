//! A dice bet against the player's balance and the pair's nonces: the
//! service's rules around the core's roll (docs/spec.md §8.1), with no I/O.
//!
//! The store runs [`settle`] inside the bet's transaction, on the balance
//! and nonce it has locked, so a refusal writes nothing and a settlement is
//! stored exactly as computed here.

use fairseed_core::dice::{Bet, Condition, DiceKey, MAX_NONCE};
use fairseed_core::ServerSeed;

/// What a bet draws on: the pair's seeds, the nonce the bet takes and the
/// player's balance before it.
#[derive(Debug, Clone, Copy)]
pub struct Draw<'a> {
    /// The pair's server seed.
    pub server_seed: &'a ServerSeed,
    /// The pair's client seed.
    pub client_seed: &'a str,
    /// The nonce this bet takes.
    pub nonce: u64,
    /// The player's balance before the bet.
    pub balance: u128,
}

/// What one bet came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settled {
    /// The roll, 0..=9999.
    pub roll: u16,
    /// Whether the bet won.
    pub win: bool,
    /// Chips paid back (stake included), 0 on a loss.
    pub payout: u128,
    /// The player's balance after the bet.
    pub balance_after: u128,
}

/// Why a bet is refused; nothing is drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The stake is more than the balance.
    #[error("amount: {amount} is more than the balance {balance}")]
    InsufficientBalance {
        /// The stake.
        amount: u128,
        /// The balance before the bet.
        balance: u128,
    },
    /// The pair has used every nonce (§8.1 stops at 2^53 − 1).
    #[error("the seed pair has used every nonce; rotate it")]
    NonceExhausted,
    /// The balance after the bet does not fit 128 bits: a stored balance
    /// no bet could have made.
    #[error("the balance after the bet overflows")]
    BalanceOverflow,
}

/// Settles `bet` on `draw`: the balance must cover the stake and the pair
/// must have a nonce left; then the core rolls and pays.
///
/// # Errors
/// [`Error`] says which rule refused the bet.
pub fn settle(bet: &Bet, draw: Draw<'_>) -> Result<Settled, Error> {
    let amount = u128::from(bet.amount());
    if amount > draw.balance {
        return Err(Error::InsufficientBalance {
            amount,
            balance: draw.balance,
        });
    }
    if draw.nonce > MAX_NONCE {
        return Err(Error::NonceExhausted);
    }
    let roll = DiceKey::new(draw.server_seed).roll(draw.client_seed, draw.nonce);
    let settlement = bet.settle(roll);
    let balance_after = (draw.balance - amount)
        .checked_add(settlement.payout)
        .ok_or(Error::BalanceOverflow)?;
    Ok(Settled {
        roll,
        win: settlement.win,
        payout: settlement.payout,
        balance_after,
    })
}

/// Whether a bet stored under an idempotency key is the bet now asked for
/// with that key: a retry must repeat the stake, condition and target.
pub fn is_same_bet(bet: &Bet, amount: u64, condition: Condition, target: u16) -> bool {
    bet.amount() == amount && bet.condition() == condition && bet.target() == target
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn seed() -> ServerSeed {
        ServerSeed::parse(&"ab".repeat(32)).expect("seed")
    }

    fn draw(seed: &ServerSeed, nonce: u64, balance: u128) -> Draw<'_> {
        Draw {
            server_seed: seed,
            client_seed: "client",
            nonce,
            balance,
        }
    }

    #[test]
    fn a_stake_above_the_balance_is_refused() {
        let seed = seed();
        let bet = Bet::new(101, Condition::Under, 5000).expect("bet");
        assert_eq!(
            settle(&bet, draw(&seed, 0, 100)),
            Err(Error::InsufficientBalance {
                amount: 101,
                balance: 100
            })
        );
        assert!(
            settle(&bet, draw(&seed, 0, 101)).is_ok(),
            "the whole balance"
        );
    }

    #[test]
    fn the_last_nonce_settles_and_the_next_is_refused() {
        let seed = seed();
        let bet = Bet::new(1, Condition::Over, 5000).expect("bet");
        assert!(settle(&bet, draw(&seed, MAX_NONCE, 10)).is_ok());
        assert_eq!(
            settle(&bet, draw(&seed, MAX_NONCE + 1, 10)),
            Err(Error::NonceExhausted)
        );
    }

    #[test]
    fn a_balance_that_would_overflow_is_refused() {
        let seed = seed();
        // A win pays more than the stake, so a full balance cannot hold it.
        let bet = Bet::new(100, Condition::Over, 200).expect("bet");
        let nonce = (0..)
            .find(|&n| bet.settle(DiceKey::new(&seed).roll("client", n)).win)
            .expect("a win");
        assert_eq!(
            settle(&bet, draw(&seed, nonce, u128::MAX)),
            Err(Error::BalanceOverflow)
        );
    }

    #[test]
    fn a_retry_must_repeat_the_bet() {
        let bet = Bet::new(5, Condition::Under, 5000).expect("bet");
        assert!(is_same_bet(&bet, 5, Condition::Under, 5000));
        assert!(!is_same_bet(&bet, 6, Condition::Under, 5000));
        assert!(!is_same_bet(&bet, 5, Condition::Over, 5000));
        assert!(!is_same_bet(&bet, 5, Condition::Under, 5001));
    }

    proptest! {
        /// Whatever the roll: the win follows the condition, a loss pays
        /// nothing, a win pays floor(9900/chance) times the stake, and the
        /// balance moves by exactly payout − stake.
        #[test]
        fn settlement_keeps_the_books(
            seed in "[0-9a-f]{64}",
            nonce in 0u64..1_000_000,
            amount in 1u64..1_000_000,
            extra in 0u128..1_000_000,
            under in any::<bool>(),
            target in 200u16..9800,
        ) {
            let condition = if under { Condition::Under } else { Condition::Over };
            let bet = Bet::new(amount, condition, target).expect("bet");
            let seed = ServerSeed::parse(&seed).expect("seed");
            let balance = u128::from(amount) + extra;
            let s = settle(&bet, draw(&seed, nonce, balance)).expect("settles");
            let wins = if under { s.roll < target } else { s.roll > target };
            prop_assert_eq!(s.win, wins);
            prop_assert!(s.roll <= 9999);
            let chance = if under { u128::from(target) } else { 9999 - u128::from(target) };
            if s.win {
                prop_assert!(s.payout * chance <= u128::from(amount) * 9900);
                prop_assert!((s.payout + 1) * chance > u128::from(amount) * 9900);
            } else {
                prop_assert_eq!(s.payout, 0);
            }
            prop_assert_eq!(s.balance_after + u128::from(amount), balance + s.payout);
        }
    }
}

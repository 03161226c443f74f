//! `dice_v1` (docs/spec.md §8, §16.7): a seed pair is committed, each bet's
//! outcome is logged with its nonce as it settles, and the pair's server seed
//! is revealed when the player rotates it. A pair is named by its commitment
//! (`[pair]`), or with its player's opaque id before it (`[owner, pair]`): then
//! the player's next pair rotates this one, which must then be revealed.
//!
//! - commitment `[owner?, pair]`: `[commitment]`
//! - outcome `[pair, nonce]`: `[client_seed, amount, condition, target, roll, payout]`
//! - reveal `[owner?, pair]`: `[server_seed]`

use std::collections::HashMap;

use crate::entry::{Entry, Kind};
use fairseed_core::dice::{Bet, Condition, DiceKey, MAX_NONCE};
use fairseed_core::{Commitment, ServerSeed};

use super::shape;
use crate::context::{Context, GRACE_MS};
use crate::finding::FindingKind;
use crate::time::rfc3339;

/// One bet awaiting its pair's reveal.
#[derive(Debug, Clone)]
struct PendingBet {
    leaf: u64,
    nonce: u64,
    /// Index into the pair's client seeds.
    client: usize,
    bet: Bet,
    roll: u16,
    payout: u128,
}

/// An open (unrevealed) seed pair.
#[derive(Debug, Clone)]
struct Pair {
    owner: Option<String>,
    leaf: u64,
    time_ms: u64,
    commitment: Commitment,
    client_seeds: Vec<String>,
    next_nonce: u64,
    bets: Vec<PendingBet>,
    /// The entry and time of the owner's next pair, which rotated this one.
    rotated: Option<(u64, u64, String)>,
}

/// The `dice_v1` checker.
#[derive(Debug, Default)]
pub struct Dice {
    pairs: HashMap<String, Pair>,
    /// Each owner's newest pair.
    current: HashMap<String, String>,
}

impl Dice {
    /// Pairs still open.
    pub fn open(&self) -> u64 {
        self.pairs.len() as u64
    }

    /// Checks one `dice_v1` entry.
    pub fn entry(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) {
        let result = match (entry.kind, entry.ids.len()) {
            (Kind::Commitment, 1 | 2) => self.commit(ctx, leaf, entry),
            (Kind::Outcome, 2) => self.bet(ctx, leaf, entry),
            (Kind::Reveal, 1 | 2) => self.reveal(ctx, leaf, entry),
            _ => Err(format!(
                "dice_v1 {}: {} ids, expected [owner?, pair] for a commitment or reveal, [pair, nonce] for an outcome",
                entry.ids.join("/"),
                entry.ids.len()
            )),
        };
        if let Err(message) = result {
            ctx.find(FindingKind::BadEntry, leaf, message);
        }
    }

    fn commit(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        shape(entry, entry.ids.len(), Some(1))?;
        let (owner, pair) = owner_and_pair(entry)?;
        let commitment = Commitment::parse_field(&entry.values[0], "values[0]")
            .map_err(|e| format!("dice seed pair {pair}: {e}"))?;
        if self.pairs.contains_key(pair) {
            ctx.find(
                FindingKind::DuplicateCommitment,
                leaf,
                format!("dice seed pair {pair} committed twice"),
            );
            return Ok(());
        }
        if let Some(owner) = owner {
            if let Some(previous) = self.current.insert(owner.clone(), pair.clone()) {
                if let Some(old) = self.pairs.get_mut(&previous) {
                    old.rotated = Some((leaf, entry.time_ms, pair.clone()));
                }
            }
        }
        self.pairs.insert(
            pair.clone(),
            Pair {
                owner: owner.cloned(),
                leaf,
                time_ms: entry.time_ms,
                commitment,
                client_seeds: Vec::new(),
                next_nonce: 0,
                bets: Vec::new(),
                rotated: None,
            },
        );
        Ok(())
    }

    fn bet(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        shape(entry, 2, Some(6))?;
        let pair_id = &entry.ids[0];
        let nonce = parse_u64(&entry.ids[1], "nonce")
            .and_then(|n| {
                (n <= MAX_NONCE)
                    .then_some(n)
                    .ok_or_else(|| format!("nonce: {n} is above 2^53 - 1"))
            })
            .map_err(|e| format!("dice seed pair {pair_id}: {e}"))?;
        let bet = parse_bet(&entry.values)
            .map_err(|e| format!("dice seed pair {pair_id} nonce {nonce}: {e}"))?;
        let roll = parse_u64(&entry.values[4], "roll")
            .ok()
            .and_then(|r| u16::try_from(r).ok())
            .filter(|r| *r <= 9999)
            .ok_or_else(|| {
                format!("dice seed pair {pair_id} nonce {nonce}: roll is not 0..9999")
            })?;
        let payout: u128 = parse_digits(&entry.values[5]).ok_or_else(|| {
            format!("dice seed pair {pair_id} nonce {nonce}: payout is not a decimal integer")
        })?;
        let Some(pair) = self.pairs.get_mut(pair_id) else {
            ctx.find(
                FindingKind::UnexpectedReveal,
                leaf,
                format!("bet nonce {nonce} of dice seed pair {pair_id}: the pair is not open (never committed, or already revealed)"),
            );
            return Ok(());
        };
        if nonce < pair.next_nonce {
            let first = pair
                .bets
                .binary_search_by_key(&nonce, |b| b.nonce)
                .ok()
                .map(|i| format!(" (first at entry {})", pair.bets[i].leaf))
                .unwrap_or_default();
            ctx.find(
                FindingKind::Nonce,
                leaf,
                format!("nonce {nonce} of dice seed pair {pair_id} used twice{first}"),
            );
            return Ok(());
        }
        if nonce > pair.next_nonce {
            ctx.find(
                FindingKind::Nonce,
                leaf,
                format!(
                    "nonce {nonce} of dice seed pair {pair_id}: nonces {}..={} before it were never logged",
                    pair.next_nonce,
                    nonce - 1
                ),
            );
        }
        pair.next_nonce = nonce + 1;
        let client_seed = &entry.values[0];
        let client = match pair.client_seeds.iter().position(|c| c == client_seed) {
            Some(i) => i,
            None => {
                pair.client_seeds.push(client_seed.clone());
                pair.client_seeds.len() - 1
            }
        };
        pair.bets.push(PendingBet {
            leaf,
            nonce,
            client,
            bet,
            roll,
            payout,
        });
        Ok(())
    }

    fn reveal(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        shape(entry, entry.ids.len(), Some(1))?;
        let pair_id = owner_and_pair(entry)?.1;
        let Some(pair) = self.pairs.remove(pair_id) else {
            ctx.find(
                FindingKind::UnexpectedReveal,
                leaf,
                format!("dice seed pair {pair_id} revealed but not open (never committed, or revealed before)"),
            );
            return Ok(());
        };
        if let Some(owner) = &pair.owner {
            if self.current.get(owner) == Some(pair_id) {
                self.current.remove(owner);
            }
        }
        let seed = ServerSeed::parse_field(&entry.values[0], "values[0]")
            .map_err(|e| format!("dice seed pair {pair_id}: {e}"))?;
        if !pair.commitment.matches(&seed) {
            ctx.find(
                FindingKind::RevealMismatch,
                leaf,
                format!(
                    "dice seed pair {pair_id}: the revealed seed does not hash to the commitment of entry {}",
                    pair.leaf
                ),
            );
            return Ok(());
        }
        settle(ctx, pair_id, &pair, &DiceKey::new(&seed));
        Ok(())
    }

    /// Open pairs that a newer pair of the same owner rotated must have been revealed.
    pub fn finish(&mut self, ctx: &mut Context) {
        let mut overdue: Vec<(&String, &Pair)> = self
            .pairs
            .iter()
            .filter(|(_, p)| {
                p.rotated
                    .as_ref()
                    .is_some_and(|r| ctx.now_ms > r.1 + GRACE_MS)
            })
            .collect();
        overdue.sort_by_key(|(_, p)| p.leaf);
        for (id, pair) in overdue {
            let Some((next_leaf, _, next)) = &pair.rotated else {
                continue;
            };
            ctx.find(
                FindingKind::Overdue,
                pair.leaf,
                format!(
                    "dice seed pair {id} committed at {} never revealed, though its owner opened pair {next} at entry {next_leaf}",
                    rfc3339(pair.time_ms)
                ),
            );
        }
    }
}

/// Recomputes every bet of a revealed pair: roll, payout against the logged one, statistics.
fn settle(ctx: &mut Context, pair_id: &str, pair: &Pair, key: &DiceKey) {
    for pending in &pair.bets {
        let roll = key.roll(&pair.client_seeds[pending.client], pending.nonce);
        let settlement = pending.bet.settle(roll);
        if roll != pending.roll {
            ctx.find(
                FindingKind::WrongPayout,
                pending.leaf,
                format!(
                    "bet nonce {} of dice seed pair {pair_id} rolled {roll}, the log says {}",
                    pending.nonce, pending.roll
                ),
            );
        } else if settlement.payout != pending.payout {
            ctx.find(
                FindingKind::WrongPayout,
                pending.leaf,
                format!(
                    "bet nonce {} of dice seed pair {pair_id} rolled {roll}: pays {}, the log says {}",
                    pending.nonce, settlement.payout, pending.payout
                ),
            );
        }
        let stats = &mut ctx.stats;
        stats.rolls[usize::from(roll)] += 1;
        let (amount, chance) = (pending.bet.amount(), pending.bet.chance());
        let win_payout = u128::from(amount) * 9900 / u128::from(chance);
        stats.rtp.add(amount, pending.payout, win_payout, chance);
        let bets = stats.rtp.bets();
        if let Some(rtp) = stats.rtp.by_chips() {
            stats.rtp_series.offer(bets, rtp);
        }
    }
}

/// The owner (when the pair is named with one) and the pair.
fn owner_and_pair(entry: &Entry) -> Result<(Option<&String>, &String), String> {
    match entry.ids.as_slice() {
        [owner, pair] => Ok((Some(owner), pair)),
        [pair] => Ok((None, pair)),
        _ => Err(format!(
            "dice_v1 {}: expected ids [owner?, pair]",
            entry.ids.join("/")
        )),
    }
}

fn parse_bet(values: &[String]) -> Result<Bet, String> {
    let amount = parse_u64(&values[1], "amount")?;
    let condition = Condition::parse_field(&values[2], "condition").map_err(|e| e.to_string())?;
    let target = parse_u64(&values[3], "target")?;
    let target = u16::try_from(target).map_err(|_| format!("target: {target} is out of range"))?;
    Bet::new(amount, condition, target).map_err(|e| e.to_string())
}

fn parse_u64(text: &str, field: &str) -> Result<u64, String> {
    parse_digits(text).ok_or_else(|| format!("{field}: {text:?} is not a decimal integer"))
}

/// Plain decimal digits, no sign, no leading zero (but `0`).
pub fn parse_digits<T: std::str::FromStr>(text: &str) -> Option<T> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

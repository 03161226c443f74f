//! Verifying a record of any scheme: commitments, hashes, the recomputed outcome.

use serde_json::{Map, Value};

use crate::chess::{self, ChessSide};
use crate::describe::Context;
use crate::dice::{roll_many, Bet, DiceKey, RollJob, Settlement};
use crate::error::Error;
use crate::games;
use crate::poker;
use crate::record::{
    ChessRecord, ClaimedOutcome, DiceRecord, DiceView, MatchRecord, PokerProofRecord, PokerRecord,
    Record, SelfpokerRecord,
};
use crate::seed::{Commitment, ServerSeed};
use crate::selfpoker;
use crate::verdict::{compare_outcome, Check, Verdict};

/// Verifies one record. Never panics; an unreadable record is a verdict with `error`.
pub fn verify_value(v: &Value) -> Verdict {
    Verifier::default().verify_value(v)
}

/// Parses and verifies one record's JSON text.
pub fn verify_str(text: &str) -> Verdict {
    Verifier::default().verify_str(text)
}

/// A verifier that remembers the last dice seed pair's key state, so a file of
/// a pair's many bets prepares the HMAC key and checks the commitment once.
#[derive(Debug, Default)]
pub struct Verifier {
    last_dice: Option<DicePair>,
}

/// A seed pair's prepared key and its commitment check, reused across its bets.
#[derive(Debug, Clone)]
struct DicePair {
    seed: ServerSeed,
    commitment: Commitment,
    /// The commitment's lowercase hex, to recognise the pair's next record by
    /// its text alone.
    commitment_text: String,
    key: DiceKey,
    check: Check,
}

impl Verifier {
    /// A fresh verifier.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses and verifies one record's JSON text.
    pub fn verify_str(&mut self, text: &str) -> Verdict {
        if let Some(record) = DiceRecord::from_json_fast(text) {
            return self.dice(&record);
        }
        match serde_json::from_str::<Value>(text) {
            Ok(v) => self.verify_value(&v),
            Err(e) => Verdict::unreadable(None, format!("invalid JSON: {e}")),
        }
    }

    /// Verifies one record.
    pub fn verify_value(&mut self, v: &Value) -> Verdict {
        match Record::from_value(v) {
            Ok(record) => self.verify_record(&record),
            Err(e) => {
                let scheme = v.get("scheme").and_then(Value::as_str).map(str::to_owned);
                Verdict::unreadable(scheme, e.to_string())
            }
        }
    }

    /// Verifies a checked record.
    pub fn verify_record(&mut self, record: &Record) -> Verdict {
        let result = match record {
            Record::Dice(r) => Ok(self.dice(r)),
            Record::Match(r) => verify_match(r),
            Record::Chess(r) => Ok(verify_chess(r)),
            Record::Poker(r) => Ok(verify_poker(r)),
            Record::PokerProof(r) => Ok(verify_proof(r)),
            Record::Selfpoker(r) => Ok(verify_selfpoker(r)),
        };
        result.unwrap_or_else(|e: Error| {
            let scheme = record
                .to_value()
                .get("scheme")
                .and_then(Value::as_str)
                .map(str::to_owned);
            Verdict::unreadable(scheme, e.to_string())
        })
    }

    /// Verifies a run of records' texts, in order: the verdicts are exactly
    /// those of [`Verifier::verify_str`] on each text in turn.
    ///
    /// Dice bets among them are rolled together through [`roll_many`], which
    /// hashes independent bets side by side where the CPU allows; this is the
    /// entry point for bulk verification (`fairseed verify` on a large file).
    pub fn verify_batch(&mut self, texts: &[&str]) -> Vec<Verdict> {
        let mut verdicts: Vec<Option<Verdict>> = Vec::with_capacity(texts.len());
        // Bets waiting for their roll: where their verdict goes, the record,
        // and which of `pairs` holds its key.
        let mut bets: Vec<(usize, DiceView<'_>, usize)> = Vec::new();
        let mut pairs: Vec<DicePair> = self.last_dice.take().into_iter().collect();
        for (at, text) in texts.iter().enumerate() {
            let view = DiceView::parse(text);
            match view.as_ref().map(|v| pair_of(&mut pairs, v)) {
                Some(Some(Ok(pair))) => {
                    verdicts.push(None);
                    // `view` is Some here.
                    bets.extend(view.map(|v| (at, v, pair)));
                }
                Some(Some(Err(commitment))) => {
                    verdicts.push(Some(pending("dice_v1", "commitment", &commitment)));
                }
                // Not a clean dice record: the field reader names what is wrong.
                _ => {
                    // Bets already queued point into `pairs` by index: lend the
                    // field reader a copy of the last pair, keep what it ends with.
                    self.last_dice = pairs.last().cloned();
                    verdicts.push(Some(self.verify_str(text)));
                    if let Some(p) = self.last_dice.take() {
                        if !pairs.last().is_some_and(|l| l.is(&p.seed, &p.commitment)) {
                            pairs.push(p);
                        }
                    }
                }
            }
        }
        let jobs: Vec<RollJob<'_>> = bets
            .iter()
            .map(|(_, v, pair)| RollJob {
                key: &pairs[*pair].key,
                // `pair_of` accepted the client seed, so the text is there.
                client_seed: v.client_seed_text().unwrap_or_default(),
                nonce: v.nonce,
            })
            .collect();
        let mut rolls = vec![0u16; jobs.len()];
        roll_many(&jobs, &mut rolls);
        for ((at, view, pair), roll) in bets.iter().zip(rolls) {
            let claimed = view
                .outcome
                .as_ref()
                .map_or(Claimed::Nothing, Claimed::Typed);
            verdicts[*at] = Some(dice_verdict(
                &pairs[*pair],
                view.bet.as_ref(),
                roll,
                claimed,
            ));
        }
        self.last_dice = pairs.pop();
        // Every slot was filled: directly, or by its bet's roll just above.
        verdicts.into_iter().flatten().collect()
    }

    fn dice(&mut self, r: &DiceRecord) -> Verdict {
        let Some(seed) = &r.server_seed else {
            return pending("dice_v1", "commitment", &r.commitment);
        };
        let pair = match self.last_dice.take() {
            Some(p) if p.is(seed, &r.commitment) => p,
            _ => DicePair::new(seed, r.commitment),
        };
        let roll = pair.key.roll(r.client_seed.as_str(), r.nonce);
        let claimed = r.outcome.as_ref().map_or(Claimed::Nothing, Claimed::Map);
        let verdict = dice_verdict(&pair, r.bet.as_ref(), roll, claimed);
        self.last_dice = Some(pair);
        verdict
    }
}

impl DicePair {
    fn new(seed: &ServerSeed, commitment: Commitment) -> Self {
        Self {
            seed: seed.clone(),
            commitment,
            commitment_text: commitment.to_hex(),
            key: DiceKey::new(seed),
            check: commitment_check("commitment", commitment.matches(seed), &commitment),
        }
    }

    fn is(&self, seed: &ServerSeed, commitment: &Commitment) -> bool {
        self.seed == *seed && self.commitment == *commitment
    }

    /// Whether a record's seed and commitment texts are this pair's own.
    fn is_text(&self, seed: &str, commitment: &str) -> bool {
        self.seed.reveal() == seed && self.commitment_text == commitment
    }
}

/// Which of `pairs` a readable dice record belongs to (adding its pair when it
/// is not the last one), or its commitment when its seed is not revealed yet;
/// `None` when its seed, commitment or client seed is not valid.
fn pair_of(pairs: &mut Vec<DicePair>, view: &DiceView<'_>) -> Option<Result<usize, Commitment>> {
    view.client_seed_text()?;
    if let (Some(last), Some(seed)) = (pairs.last(), view.server_seed) {
        if last.is_text(seed, view.commitment) {
            return Some(Ok(pairs.len() - 1));
        }
    }
    let commitment = Commitment::parse(view.commitment).ok()?;
    let Some(seed) = view.server_seed else {
        return Some(Err(commitment));
    };
    let seed = ServerSeed::parse(seed).ok()?;
    if !pairs.last().is_some_and(|p| p.is(&seed, &commitment)) {
        pairs.push(DicePair::new(&seed, commitment));
    }
    Some(Ok(pairs.len() - 1))
}

/// A dice record's claimed outcome, however it was read.
enum Claimed<'a> {
    Nothing,
    Map(&'a Map<String, Value>),
    Typed(&'a ClaimedOutcome),
}

/// The verdict on a revealed bet of `pair`, given its recomputed roll.
fn dice_verdict(pair: &DicePair, bet: Option<&Bet>, roll: u16, claimed: Claimed<'_>) -> Verdict {
    let settled = bet.map(|b| b.settle(roll));
    let mut outcome = Map::new();
    outcome.insert("roll".into(), roll.into());
    if let Some(s) = &settled {
        outcome.insert("win".into(), s.win.into());
        let payout = serde_json::Number::from_u128(s.payout).map_or(Value::Null, Value::Number);
        outcome.insert("payout".into(), payout);
    }
    let mut checks = vec![pair.check.clone()];
    // Only a typed outcome that disagrees needs its map built for the general comparison.
    let typed_map;
    let claimed = match claimed {
        Claimed::Typed(c) => match agreeing_checks(c, roll, settled.as_ref()) {
            Some(agree) => {
                checks.extend(agree);
                return finish("dice_v1", (checks, Value::Object(outcome)), Context::Plain);
            }
            None => {
                typed_map = c.to_map();
                Some(&typed_map)
            }
        },
        Claimed::Map(m) => Some(m),
        Claimed::Nothing => None,
    };
    finish(
        "dice_v1",
        checks_with(&mut checks, claimed, outcome, Context::Plain),
        Context::Plain,
    )
}

/// The outcome checks when every claimed value is the recomputed one, in the
/// order and words [`compare_outcome`] gives them; `None` when any differs
/// (the general comparison then says where).
fn agreeing_checks(
    claimed: &ClaimedOutcome,
    roll: u16,
    settled: Option<&Settlement>,
) -> Option<Vec<Check>> {
    let mut checks = Vec::with_capacity(3);
    // Keys in the map's (sorted) order: payout, roll, win.
    if let Some(payout) = claimed.payout {
        if settled?.payout != payout {
            return None;
        }
        checks.push(Check::new("outcome.payout", true, "matches"));
    }
    if let Some(r) = claimed.roll {
        if r != u64::from(roll) {
            return None;
        }
        checks.push(Check::new("outcome.roll", true, "matches"));
    }
    if let Some(win) = claimed.win {
        if settled?.win != win {
            return None;
        }
        checks.push(Check::new("outcome.win", true, "matches"));
    }
    Some(checks)
}

/// Adds the outcome comparison (when the record claims one) and returns checks and outcome.
fn checks_with(
    checks: &mut Vec<Check>,
    claimed: Option<&Map<String, Value>>,
    outcome: Map<String, Value>,
    ctx: Context,
) -> (Vec<Check>, Value) {
    let outcome = Value::Object(outcome);
    if let Some(claimed) = claimed {
        checks.extend(compare_outcome(claimed, &outcome, ctx));
    }
    (core::mem::take(checks), outcome)
}

fn finish(scheme: &str, (checks, outcome): (Vec<Check>, Value), ctx: Context) -> Verdict {
    Verdict::checked(scheme, checks, Some(outcome), ctx)
}

fn commitment_check(name: &'static str, ok: bool, commitment: &Commitment) -> Check {
    let detail = if ok {
        format!("sha256 of the revealed seed is {commitment}")
    } else {
        format!("sha256 of the revealed seed is not {commitment}: the seed does not match its commitment")
    };
    Check::new(name, ok, detail)
}

/// A record whose seed is not revealed yet: the one check it cannot pass.
fn pending(scheme: &str, what: &str, commitment: &Commitment) -> Verdict {
    let check = Check::new(
        "reveal",
        false,
        format!(
            "server seed not revealed yet: {what} {commitment} is recorded, but nothing can be \
             recomputed until the seed is published"
        ),
    );
    Verdict::checked(scheme, vec![check], None, Context::Plain)
}

fn verify_match(r: &MatchRecord) -> Result<Verdict, Error> {
    let scheme = r.scheme.as_str();
    let ctx = Context::Match(r.game);
    let Some(seed) = &r.server_seed else {
        return Ok(pending(scheme, "commitment", &r.commitment));
    };
    let mut checks = vec![commitment_check(
        "commitment",
        r.commitment.matches(seed),
        &r.commitment,
    )];
    let outcome = games::play(r.stream(seed)?, r.game, &r.play)?;
    let outcome = match serde_json::to_value(&outcome) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    Ok(finish(
        scheme,
        checks_with(&mut checks, r.outcome.as_ref(), outcome, ctx),
        ctx,
    ))
}

fn verify_chess(r: &ChessRecord) -> Verdict {
    let scheme = "chess_colour_v1";
    let Some(seed_a) = &r.seed_a else {
        return pending(scheme, "commit_a", &r.commit_a);
    };
    let mut checks = vec![commitment_check(
        "commit_a",
        r.commit_a.matches(seed_a),
        &r.commit_a,
    )];
    let a = ChessSide {
        seed: seed_a,
        commitment: &r.commit_a,
        client: r.client_a.as_str(),
    };
    let white = match (&r.commit_b, &r.seed_b) {
        (None, _) => chess::white(&a, None),
        (Some(commit_b), None) => return pending(scheme, "commit_b", commit_b),
        (Some(commit_b), Some(seed_b)) => {
            checks.push(commitment_check(
                "commit_b",
                commit_b.matches(seed_b),
                commit_b,
            ));
            let b = ChessSide {
                seed: seed_b,
                commitment: commit_b,
                client: &r.client_b,
            };
            chess::white(&a, Some(&b))
        }
    };
    let mut outcome = Map::new();
    outcome.insert("white".into(), white.as_str().into());
    finish(
        scheme,
        checks_with(&mut checks, r.outcome.as_ref(), outcome, Context::Plain),
        Context::Plain,
    )
}

fn verify_poker(r: &PokerRecord) -> Verdict {
    let scheme = "poker_hmac_v1";
    let Some(seed) = &r.server_seed else {
        return pending(scheme, "commitment", &r.commitment);
    };
    let mut checks = vec![commitment_check(
        "commitment",
        r.commitment.matches(seed),
        &r.commitment,
    )];
    let mut hands = Vec::with_capacity(r.hands.len());
    for (k, hand) in r.hands.iter().enumerate() {
        let value = poker::hand_value(seed, &r.table, &r.session, hand.n);
        let commit = value.commitment();
        checks.push(hash_check(
            format!("hands[{k}].hand_commitment"),
            &commit,
            &hand.hand_commitment,
            &format!("sha256 of hand {}'s value", hand.n),
        ));
        // Seats were checked when the record was read; a failure here is impossible
        // but is still reported rather than unwrapped.
        let deck = match poker::deal(&value, &r.table, &r.session, hand.n, &hand.seats) {
            Ok(d) => d,
            Err(e) => {
                return Verdict::unreadable(
                    Some(scheme.into()),
                    e.within(&format!("hands[{k}]")).to_string(),
                )
            }
        };
        let root = Commitment::parse(&deck.root()).unwrap_or(hand.deck_root);
        checks.push(hash_check(
            format!("hands[{k}].deck_root"),
            &root,
            &hand.deck_root,
            &format!("merkle root of hand {}'s deck", hand.n),
        ));
        let holes: Map<String, Value> = deck
            .holes()
            .into_iter()
            .map(|(seat, cards)| (seat.to_string(), Value::from(cards.to_vec())))
            .collect();
        let mut h = Map::new();
        h.insert("n".into(), hand.n.into());
        h.insert("hand_value".into(), value.reveal().into());
        h.insert("deck".into(), deck.deck().to_vec().into());
        h.insert("deck_root".into(), deck.root().into());
        h.insert("holes".into(), Value::Object(holes));
        h.insert("board".into(), deck.board().to_vec().into());
        hands.push(Value::Object(h));
    }
    let mut outcome = Map::new();
    outcome.insert("hands".into(), Value::Array(hands));
    finish(
        scheme,
        checks_with(&mut checks, r.outcome.as_ref(), outcome, Context::Poker),
        Context::Poker,
    )
}

fn hash_check(name: String, computed: &Commitment, published: &Commitment, what: &str) -> Check {
    if computed.ct_eq_commitment(published) {
        Check::new(name, true, format!("{what} is {published}"))
    } else {
        Check::new(
            name,
            false,
            format!("{what} is {computed}, the record says {published}"),
        )
    }
}

fn verify_proof(r: &PokerProofRecord) -> Verdict {
    let scheme = "poker_hmac_v1_proof";
    let mut checks = Vec::with_capacity(r.leaves.len());
    let mut cards = Vec::with_capacity(r.leaves.len());
    for (k, leaf) in r.leaves.iter().enumerate() {
        let name = format!("leaves[{k}]");
        let card = crate::cards::card52(u64::from(leaf.card));
        match poker::verify_proof(&r.deck_root, leaf) {
            Ok(()) => {
                checks.push(Check::new(
                    name,
                    true,
                    format!("position {}: {card} is in the deck", leaf.i),
                ));
                let mut c = Map::new();
                c.insert("i".into(), leaf.i.into());
                c.insert("card".into(), leaf.card.into());
                cards.push(Value::Object(c));
            }
            Err(e) => checks.push(Check::new(
                name,
                false,
                format!("position {}: {card} not proven: {e}", leaf.i),
            )),
        }
    }
    let mut outcome = Map::new();
    outcome.insert("cards".into(), Value::Array(cards));
    finish(
        scheme,
        checks_with(&mut checks, r.outcome.as_ref(), outcome, Context::Proof),
        Context::Proof,
    )
}

fn verify_selfpoker(r: &SelfpokerRecord) -> Verdict {
    let scheme = "selfpoker";
    let Some(seed) = r.seed else {
        let check = Check::new(
            "reveal",
            false,
            format!(
                "seed not revealed yet: commit {} is recorded, the deck can be rebuilt once hand_end reveals the seed",
                r.commit
            ),
        );
        return Verdict::checked(scheme, vec![check], None, Context::Selfpoker);
    };
    let commit = selfpoker::commit(seed);
    let ok = crate::seed::ct_eq(commit.as_bytes(), r.commit.as_bytes());
    let detail = if ok {
        format!("sha256(\"selfpoker:{seed}\") is {commit}")
    } else {
        format!(
            "sha256(\"selfpoker:{seed}\") is {commit}, the record says {}",
            r.commit
        )
    };
    let mut checks = vec![Check::new("commit", ok, detail)];
    let deal = match selfpoker::deal(seed, r.players) {
        Ok(d) => d,
        Err(e) => return Verdict::unreadable(Some(scheme.into()), e.to_string()),
    };
    let outcome = match serde_json::to_value(&deal) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    finish(
        scheme,
        checks_with(&mut checks, r.outcome.as_ref(), outcome, Context::Selfpoker),
        Context::Selfpoker,
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::Verifier;

    /// Every verdict over every vector file (valid, tampered and malformed
    /// records) writes the same bytes as serde_json over the spec-ordered struct.
    #[test]
    fn write_json_is_serde_json() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors");
        let mut seen = 0;
        let dir = root.join("records");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let mut verifier = Verifier::new();
            for (index, line) in text.lines().enumerate() {
                let verdict = verifier.verify_str(line);
                let expected = serde_json::to_string(&verdict.json(index)).unwrap();
                assert_eq!(
                    verdict.to_json(index),
                    expected,
                    "{}:{index}",
                    file.display()
                );
                seen += 1;
            }
        }
        assert!(seen > 2000, "only {seen} verdicts checked");
    }
}

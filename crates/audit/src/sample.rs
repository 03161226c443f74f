//! An honest log of any length, for tests and benchmarks: dice seed pairs with
//! their bets settled by the rules, poker sessions with their hands, selfpoker
//! hands, every commitment revealed as its policy demands. Deterministic: the
//! secrets are derived from `seed`, never drawn, so this is no source of
//! secrets for a service.

use std::collections::VecDeque;

use crate::entry::{Entry, Kind};
use fairseed_core::dice::{Bet, Condition, DiceKey};
use fairseed_core::poker::{deal, hand_value};
use fairseed_core::{sha256_hex, ClientSeed, Ident, ServerSeed};

/// The sample's shape.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Bets per dice seed pair.
    pub bets_per_pair: u64,
    /// A poker session (3 hands) after every this many pairs; 0 for none.
    pub poker_every: u64,
    /// A selfpoker hand after every this many pairs; 0 for none.
    pub selfpoker_every: u64,
    /// Milliseconds between entries.
    pub step_ms: u64,
}

impl Default for Shape {
    fn default() -> Self {
        Self {
            bets_per_pair: 20,
            poker_every: 3,
            selfpoker_every: 1,
            step_ms: 7,
        }
    }
}

/// An endless honest log; take as many entries as wanted.
#[derive(Debug)]
pub struct Sample {
    seed: String,
    shape: Shape,
    round: u64,
    time_ms: u64,
    queue: VecDeque<Entry>,
}

impl Sample {
    /// The sample of `shape` derived from `seed`.
    pub fn new(seed: &str, shape: Shape) -> Self {
        Self {
            seed: seed.to_owned(),
            shape,
            round: 0,
            time_ms: 1_700_000_000_000,
            queue: VecDeque::new(),
        }
    }

    fn secret(&self, what: &str) -> ServerSeed {
        let hex = sha256_hex(format!("{}:{what}:{}", self.seed, self.round).as_bytes());
        ServerSeed::parse(&hex).unwrap_or_else(|_| ServerSeed::from_bytes([0; 32]))
    }

    fn push(&mut self, kind: Kind, scheme: &str, ids: &[String], values: Vec<String>) {
        self.time_ms += self.shape.step_ms;
        self.queue.push_back(Entry {
            kind,
            time_ms: self.time_ms,
            scheme: scheme.to_owned(),
            ids: ids.to_vec(),
            values,
        });
    }

    fn round(&mut self) {
        self.dice_pair();
        let r = self.round;
        if self.shape.poker_every > 0 && r.is_multiple_of(self.shape.poker_every) {
            self.poker_session();
        }
        if self.shape.selfpoker_every > 0 && r.is_multiple_of(self.shape.selfpoker_every) {
            self.selfpoker_hand();
        }
        self.round += 1;
    }

    fn dice_pair(&mut self) {
        let seed = self.secret("dice");
        let ids = vec![format!("o{}", self.round % 7), format!("p{}", self.round)];
        let client = format!("client {}", self.round);
        self.push(
            Kind::Commitment,
            "dice_v1",
            &ids,
            vec![seed.commitment().to_hex()],
        );
        let key = DiceKey::new(&seed);
        for nonce in 0..self.shape.bets_per_pair {
            // 199..=9798: a valid target both under and over.
            let target = 199 + (nonce * 977 + self.round * 131) % 9600;
            let condition = if nonce % 2 == 0 {
                Condition::Under
            } else {
                Condition::Over
            };
            let target = u16::try_from(target).unwrap_or(5000);
            let Ok(bet) = Bet::new(10 + nonce % 90, condition, target) else {
                continue;
            };
            let roll = key.roll(&client, nonce);
            let payout = bet.settle(roll).payout;
            let bet_ids = [ids[1].clone(), nonce.to_string()];
            let values = vec![
                client.clone(),
                bet.amount().to_string(),
                condition.as_str().to_owned(),
                target.to_string(),
                roll.to_string(),
                payout.to_string(),
            ];
            self.push(Kind::Outcome, "dice_v1", &bet_ids, values);
        }
        self.push(
            Kind::Reveal,
            "dice_v1",
            &ids,
            vec![seed.reveal().to_owned()],
        );
    }

    fn poker_session(&mut self) {
        let seed = self.secret("poker");
        let (table, session) = (format!("t{}", self.round % 3), format!("s{}", self.round));
        let ids = vec![table.clone(), session.clone()];
        self.push(
            Kind::Commitment,
            "poker_hmac_v1",
            &ids,
            vec![seed.commitment().to_hex()],
        );
        let (Ok(t), Ok(s)) = (Ident::parse(&table), Ident::parse(&session)) else {
            return;
        };
        let seats: std::collections::BTreeMap<u8, ClientSeed> =
            [(0u8, "ann"), (4, "bo"), (7, "cy")]
                .into_iter()
                .filter_map(|(seat, name)| ClientSeed::parse(name).ok().map(|c| (seat, c)))
                .collect();
        for n in 1..=3u64 {
            let value = hand_value(&seed, &t, &s, n);
            let Ok(deck) = deal(&value, &t, &s, n, &seats) else {
                continue;
            };
            let mut values = vec![value.commitment().to_hex(), deck.root()];
            values.extend(
                seats
                    .iter()
                    .map(|(seat, c)| format!("{seat}={}", c.as_str())),
            );
            let hand_ids = vec![table.clone(), session.clone(), n.to_string()];
            self.push(Kind::Commitment, "poker_hmac_v1", &hand_ids, values);
        }
        self.push(
            Kind::Reveal,
            "poker_hmac_v1",
            &ids,
            vec![seed.reveal().to_owned()],
        );
    }

    fn selfpoker_hand(&mut self) {
        let digest = sha256_hex(format!("{}:selfpoker:{}", self.seed, self.round).as_bytes());
        let seed = u64::from_str_radix(&digest[..16], 16).unwrap_or(0) >> 1;
        let ids = vec![format!("h{}", self.round % 2), self.round.to_string()];
        self.push(
            Kind::Commitment,
            "selfpoker",
            &ids,
            vec![fairseed_core::selfpoker::commit(seed)],
        );
        self.push(Kind::Reveal, "selfpoker", &ids, vec![seed.to_string()]);
    }
}

impl Iterator for Sample {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        while self.queue.is_empty() {
            self.round();
        }
        self.queue.pop_front()
    }
}

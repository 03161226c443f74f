//! `dice_v1`: the HMAC-SHA512 roll with window rejection and the 1 % edge (docs/spec.md §8).

use core::fmt;

use hmac::Mac;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha512};

use crate::error::Error;
use crate::hash::{
    decimal, hmac512_keyed, hmac_pad_states, sha512_compress, sha512_compress_lanes, sha512_width,
    HmacSha512, SHA512_IV, SHA512_LANES,
};
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

/// The SHA-512 block size in bytes: HMAC's key pads are one block each.
const BLOCK: usize = 128;
/// The longest message that fits one padded block after the key pad: 0x80 and
/// the 16-byte length take the rest.
const ONE_BLOCK_MSG: usize = BLOCK - 1 - 16;

/// A seed pair's server seed with its HMAC-SHA512 key pads precomputed.
///
/// Rolling a pair's bets reuses this, so each roll costs two SHA-512 blocks:
/// the SHA-512 states after the `key ^ ipad` and `key ^ opad` blocks are kept,
/// and a roll compresses its one padded message block and then the one padded
/// block of the inner digest (RFC 2104).
#[derive(Clone)]
pub struct DiceKey {
    /// SHA-512 state after the `key ^ ipad` block.
    inner: [u64; 8],
    /// SHA-512 state after the `key ^ opad` block.
    outer: [u64; 8],
    /// The keyed `hmac` crate state, for messages longer than one block.
    mac: HmacSha512,
}

impl DiceKey {
    /// Prepares the key state for `seed`.
    pub fn new(seed: &ServerSeed) -> Self {
        Self::from_key(seed.key())
    }

    /// Prepares the key state for raw HMAC key bytes of any length.
    fn from_key(key: &[u8]) -> Self {
        let (inner, outer) =
            hmac_pad_states::<BLOCK, _, _>(key, |k| Sha512::digest(k), SHA512_IV, sha512_compress);
        Self {
            inner,
            outer,
            mac: hmac512_keyed(key),
        }
    }

    /// The roll for `client_seed` and `nonce`: 0..=9999.
    pub fn roll(&self, client_seed: &str, nonce: u64) -> u16 {
        let digest = self.digest(client_seed, nonce);
        roll_from_digest(&digest).0
    }

    /// The rolls for `client_seed` and the nonces `first_nonce`,
    /// `first_nonce + 1`, …: `out[i]` is `self.roll(client_seed, first_nonce + i)`
    /// (nonces wrap past `u64::MAX`). Hashes several bets per pass like [`roll_many`].
    pub fn rolls(&self, client_seed: &str, first_nonce: u64, out: &mut [u16]) {
        let mut batch = Batch::new();
        let mut nonce = first_nonce;
        for slot in 0..out.len() {
            if !batch.push(slot, self, client_seed, nonce, out) {
                out[slot] = self.roll(client_seed, nonce);
            }
            nonce = nonce.wrapping_add(1);
        }
        batch.finish(out);
    }

    /// HMAC-SHA512(seed, client_seed + "-" + nonce).
    pub fn digest(&self, client_seed: &str, nonce: u64) -> [u8; 64] {
        match inner_block(client_seed, nonce) {
            Some(block) => mac_one_block(self.inner, self.outer, &block),
            None => self.digest_long(client_seed, nonce),
        }
    }

    /// [`DiceKey::digest`] through the `hmac` crate: messages of any length.
    fn digest_long(&self, client_seed: &str, nonce: u64) -> [u8; 64] {
        let mut mac = self.mac.clone();
        mac.update(client_seed.as_bytes());
        let mut buf = [0u8; 20];
        mac.update(b"-");
        mac.update(decimal(nonce, &mut buf));
        mac.finalize().into_bytes().into()
    }
}

/// The padded SHA-512 block of the HMAC message `client_seed + "-" + nonce`, as
/// the block after the ipad block; `None` when the message needs more than one.
fn inner_block(client_seed: &str, nonce: u64) -> Option<[u8; BLOCK]> {
    let mut block = [0u8; BLOCK];
    write_inner_block(&mut block, client_seed, nonce).then_some(block)
}

/// Writes [`inner_block`] into `block` (any previous contents), or returns
/// `false` and leaves `block` unspecified when the message needs more than one.
fn write_inner_block(block: &mut [u8; BLOCK], client_seed: &str, nonce: u64) -> bool {
    let mut buf = [0u8; 20];
    let digits = decimal(nonce, &mut buf);
    let seed = client_seed.as_bytes();
    let len = seed.len() + 1 + digits.len();
    if len > ONE_BLOCK_MSG {
        return false;
    }
    block[..seed.len()].copy_from_slice(seed);
    block[seed.len()] = b'-';
    block[seed.len() + 1..len].copy_from_slice(digits);
    block[len] = 0x80;
    block[len + 1..].fill(0);
    set_bit_length(block, BLOCK + len);
    true
}

/// HMAC-SHA512 of a one-block message, one lane: the padded message `block`
/// into the key's `inner` state, its digest's block into the `outer` state.
fn mac_one_block(mut inner: [u64; 8], mut outer: [u64; 8], block: &[u8; BLOCK]) -> [u8; 64] {
    sha512_compress(&mut inner, block);
    sha512_compress(&mut outer, &outer_block(&inner));
    state_bytes(&outer)
}

/// The padded block of the 64-byte inner digest, as the block after the opad block.
fn outer_block(inner: &[u64; 8]) -> [u8; BLOCK] {
    let mut block = [0u8; BLOCK];
    write_outer_block(&mut block, inner);
    block
}

/// Writes [`outer_block`] into `block` (any previous contents).
fn write_outer_block(block: &mut [u8; BLOCK], inner: &[u64; 8]) {
    for (chunk, word) in block[..64].chunks_exact_mut(8).zip(inner) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    block[64] = 0x80;
    block[65..].fill(0);
    set_bit_length(block, BLOCK + 64);
}

/// Ends `block` with the big-endian 128-bit bit length of a `bytes`-long message.
fn set_bit_length(block: &mut [u8; BLOCK], bytes: usize) {
    // usize fits in u128 on every target.
    let bits = (bytes as u128) * 8;
    block[BLOCK - 16..].copy_from_slice(&bits.to_be_bytes());
}

/// A SHA-512 state as its 64-byte big-endian digest.
fn state_bytes(state: &[u64; 8]) -> [u8; 64] {
    let mut out = [0u8; 64];
    for (chunk, word) in out.chunks_exact_mut(8).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// One-block bets waiting for a pass of the widest SHA-512 kernel here.
struct Batch {
    /// Lanes per pass: [`sha512_width`], read once.
    width: usize,
    /// Per lane: the inner state, then the inner digest after the first pass.
    inner: [[u64; 8]; SHA512_LANES],
    /// Per lane: the key's outer state, then the HMAC after the second pass.
    outer: [[u64; 8]; SHA512_LANES],
    /// Per lane: the message block, then the inner digest's block.
    blocks: [[u8; BLOCK]; SHA512_LANES],
    /// Per lane: where its roll goes in `out`.
    slots: [usize; SHA512_LANES],
    /// Lanes in use.
    len: usize,
}

impl Batch {
    fn new() -> Self {
        Self {
            width: sha512_width(),
            inner: [[0; 8]; SHA512_LANES],
            outer: [[0; 8]; SHA512_LANES],
            blocks: [[0; BLOCK]; SHA512_LANES],
            slots: [0; SHA512_LANES],
            len: 0,
        }
    }

    /// Queues the bet `client_seed`, `nonce` under `key` for `out[slot]`, rolling
    /// the batch when it is full; `false` (nothing queued) when its message
    /// needs more than one block.
    fn push(
        &mut self,
        slot: usize,
        key: &DiceKey,
        client_seed: &str,
        nonce: u64,
        out: &mut [u16],
    ) -> bool {
        let lane = self.len;
        if !write_inner_block(&mut self.blocks[lane], client_seed, nonce) {
            return false;
        }
        self.inner[lane] = key.inner;
        self.outer[lane] = key.outer;
        self.slots[lane] = slot;
        self.len += 1;
        if self.len == self.width {
            self.run(out);
        }
        true
    }

    /// Rolls the queued bets in two passes (unused lanes hash garbage that is
    /// never read) and empties the batch.
    fn run(&mut self, out: &mut [u16]) {
        sha512_compress_lanes(&mut self.inner, &self.blocks, self.len);
        for (block, inner) in self.blocks.iter_mut().zip(&self.inner).take(self.len) {
            write_outer_block(block, inner);
        }
        sha512_compress_lanes(&mut self.outer, &self.blocks, self.len);
        for lane in 0..self.len {
            out[self.slots[lane]] = roll_from_digest(&state_bytes(&self.outer[lane])).0;
        }
        self.len = 0;
    }

    /// Rolls what is left: one padded pass when the lanes run in parallel and at
    /// least two are queued, lane by lane otherwise.
    fn finish(mut self, out: &mut [u16]) {
        if self.len >= 2 && self.width > 1 {
            self.run(out);
            return;
        }
        for lane in 0..self.len {
            let digest = mac_one_block(self.inner[lane], self.outer[lane], &self.blocks[lane]);
            out[self.slots[lane]] = roll_from_digest(&digest).0;
        }
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
    let mut batch = Batch::new();
    for (slot, job) in jobs.iter().enumerate() {
        if !batch.push(slot, job.key, job.client_seed, job.nonce, out) {
            out[slot] = job.key.roll(job.client_seed, job.nonce);
        }
    }
    batch.finish(out);
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
    use hmac::Hmac;
    use proptest::prelude::*;

    use super::*;
    use crate::seed::CLIENT_SEED_MAX_BYTES;

    /// The reference: the `hmac` crate's HMAC-SHA512 of the message, then the windows.
    fn reference_roll(key: &[u8], client_seed: &str, nonce: u64) -> u16 {
        let mut mac = <Hmac<Sha512> as Mac>::new_from_slice(key).expect("any key length");
        mac.update(format!("{client_seed}-{nonce}").as_bytes());
        roll_from_digest(&mac.finalize().into_bytes().into()).0
    }

    /// A client seed of exactly `len` UTF-8 bytes built from `chars` (which may
    /// be multi-byte), topped up with ASCII.
    fn seed_of_len(chars: &[char], len: usize) -> String {
        let mut out = String::new();
        for &c in chars {
            if out.len() + c.len_utf8() > len {
                break;
            }
            out.push(c);
        }
        while out.len() < len {
            out.push('x');
        }
        out
    }

    fn server_seed() -> impl Strategy<Value = ServerSeed> {
        any::<[u8; 32]>().prop_map(ServerSeed::from_bytes)
    }

    fn client_seed(max: usize) -> impl Strategy<Value = String> {
        (0..=max, prop::collection::vec(any::<char>(), 0..=max))
            .prop_map(|(len, chars)| seed_of_len(&chars, len))
    }

    fn nonce() -> impl Strategy<Value = u64> {
        prop_oneof![0..=MAX_NONCE, 0..1000u64, Just(MAX_NONCE)]
    }

    /// Every message length around the one-block limit (111 bytes), the long
    /// `hmac` path beyond it, and keys around and beyond the block size.
    #[test]
    fn midstate_path_matches_hmac_at_every_length() {
        let chars: Vec<char> = "aé€😀".chars().cycle().take(200).collect();
        for key_len in [0, 1, 64, 127, 128, 129, 200] {
            let key: Vec<u8> = (0..key_len).map(|i| (i * 7 + 3) as u8).collect();
            let dice = DiceKey::from_key(&key);
            for seed_len in 0..=130 {
                let seed = seed_of_len(&chars, seed_len);
                for nonce in [0, 9, 10, 12345, MAX_NONCE, u64::MAX] {
                    let mut mac = <Hmac<Sha512> as Mac>::new_from_slice(&key).expect("any key");
                    mac.update(format!("{seed}-{nonce}").as_bytes());
                    let want: [u8; 64] = mac.finalize().into_bytes().into();
                    assert_eq!(
                        dice.digest(&seed, nonce),
                        want,
                        "key {key_len} seed {seed:?}"
                    );
                    assert_eq!(dice.roll(&seed, nonce), roll_from_digest(&want).0);
                }
            }
        }
    }

    proptest! {
        /// `roll` equals the `hmac` crate for random seed pairs and nonces.
        #[test]
        fn roll_matches_hmac(seed in server_seed(),
                             client in client_seed(CLIENT_SEED_MAX_BYTES),
                             nonce in nonce()) {
            let key = DiceKey::new(&seed);
            prop_assert_eq!(key.roll(&client, nonce), reference_roll(seed.key(), &client, nonce));
        }

        /// `roll_many` equals `roll` one by one and the `hmac` crate, for batches
        /// of 0..=13 bets across several keys, including over-long client seeds.
        #[test]
        fn roll_many_matches_roll(
            seeds in prop::collection::vec(server_seed(), 1..=3),
            bets in prop::collection::vec(
                (any::<prop::sample::Index>(),
                 prop_oneof![4 => client_seed(CLIENT_SEED_MAX_BYTES), 1 => client_seed(140)],
                 nonce()),
                0..=13),
        ) {
            let keys: Vec<DiceKey> = seeds.iter().map(DiceKey::new).collect();
            let jobs: Vec<RollJob<'_>> = bets
                .iter()
                .map(|(pick, client, nonce)| RollJob {
                    key: &keys[pick.index(keys.len())],
                    client_seed: client,
                    nonce: *nonce,
                })
                .collect();
            let mut out = vec![u16::MAX; jobs.len()];
            roll_many(&jobs, &mut out);
            for ((job, (pick, client, nonce)), got) in jobs.iter().zip(&bets).zip(&out) {
                let seed = &seeds[pick.index(seeds.len())];
                prop_assert_eq!(*got, job.key.roll(client, *nonce));
                prop_assert_eq!(*got, reference_roll(seed.key(), client, *nonce));
            }
        }

        /// `rolls` equals `roll` at consecutive nonces, for 0..=13 of them.
        #[test]
        fn rolls_match_roll(seed in server_seed(),
                            client in client_seed(120),
                            first in nonce(),
                            count in 0..=13usize) {
            let key = DiceKey::new(&seed);
            let mut out = vec![u16::MAX; count];
            key.rolls(&client, first, &mut out);
            for (i, got) in (0u64..).zip(&out) {
                prop_assert_eq!(*got, reference_roll(seed.key(), &client, first + i));
            }
        }
    }

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

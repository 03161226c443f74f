//! NumPy's `default_rng(seed).permutation(n)`, bit for bit (docs/spec.md Appendix A).
//!
//! Three pieces of NumPy (1.17 to 2.x) in order: `SeedSequence` turns the seed
//! into 128 bits of state and 128 bits of increment, `PCG64` (XSL-RR 128/64,
//! step before output) makes words, and `Generator.shuffle` draws each swap
//! index with the masked-rejection `random_interval` over a buffered 32-bit
//! stream. Nothing here reads a clock or the OS; the same seed gives the same
//! deck on every platform, the browser included.

/// SeedSequence's pool size, in 32-bit words.
const POOL_SIZE: usize = 4;
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;

/// PCG64's 128-bit LCG multiplier.
const PCG_MULT: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

/// NumPy's `SeedSequence(seed)` for an integer seed with no spawn key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedSequence {
    pool: [u32; POOL_SIZE],
}

impl SeedSequence {
    /// Mixes the seed's little-endian 32-bit words into the pool.
    pub fn new(seed: u64) -> Self {
        let (words, len) = seed_words(seed);
        let words = &words[..len];
        let mut hash_const = INIT_A;
        let mut hashmix = |value: u32| {
            let mut v = value ^ hash_const;
            hash_const = hash_const.wrapping_mul(MULT_A);
            v = v.wrapping_mul(hash_const);
            v ^ (v >> XSHIFT)
        };
        let mut pool = [0u32; POOL_SIZE];
        for (i, slot) in pool.iter_mut().enumerate() {
            *slot = hashmix(words.get(i).copied().unwrap_or(0));
        }
        for src in 0..POOL_SIZE {
            for dst in 0..POOL_SIZE {
                if src != dst {
                    pool[dst] = mix(pool[dst], hashmix(pool[src]));
                }
            }
        }
        // A u64 seed is at most two words: none are left beyond the pool.
        Self { pool }
    }

    /// The mixed entropy pool.
    pub fn pool(&self) -> [u32; POOL_SIZE] {
        self.pool
    }

    /// `generate_state(N, np.uint64)`: `2N` 32-bit words paired little-endian.
    pub fn generate_state_u64<const N: usize>(&self) -> [u64; N] {
        let mut hash_const = INIT_B;
        let mut word = |i: usize| {
            let mut v = self.pool[i % POOL_SIZE] ^ hash_const;
            hash_const = hash_const.wrapping_mul(MULT_B);
            v = v.wrapping_mul(hash_const);
            u64::from(v ^ (v >> XSHIFT))
        };
        core::array::from_fn(|k| {
            let lo = word(2 * k);
            let hi = word(2 * k + 1);
            lo | (hi << 32)
        })
    }
}

/// `_coerce_to_uint32_array(seed)`: little-endian 32-bit words, `0` → `[0]`;
/// a `u64` has one or two.
fn seed_words(seed: u64) -> ([u32; 2], usize) {
    // The low and high halves, kept on purpose.
    let words = [seed as u32, (seed >> 32) as u32];
    (words, if words[1] == 0 { 1 } else { 2 })
}

fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> XSHIFT)
}

/// NumPy's `PCG64` bit generator with its buffered 32-bit half.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    half: Option<u32>,
}

impl Pcg64 {
    /// `PCG64(seed)`: seeded through [`SeedSequence`].
    pub fn new(seed: u64) -> Self {
        let [s0, s1, s2, s3] = SeedSequence::new(seed).generate_state_u64::<4>();
        let initstate = (u128::from(s0) << 64) | u128::from(s1);
        let initseq = (u128::from(s2) << 64) | u128::from(s3);
        let mut rng = Self {
            state: 0,
            inc: (initseq << 1) | 1,
            half: None,
        };
        rng.step();
        rng.state = rng.state.wrapping_add(initstate);
        rng.step();
        rng
    }

    #[inline]
    fn step(&mut self) {
        self.state = self.state.wrapping_mul(PCG_MULT).wrapping_add(self.inc);
    }

    /// `random_raw()`: step, then XSL-RR output.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        // Truncations pick the two 64-bit halves of the state on purpose.
        let high = (self.state >> 64) as u64;
        let low = self.state as u64;
        (high ^ low).rotate_right((self.state >> 122) as u32)
    }

    /// `next_uint32`: the buffered high half if any, else the low half of a new word.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if let Some(half) = self.half.take() {
            return half;
        }
        let v = self.next_u64();
        // High and low 32-bit halves of v, kept on purpose.
        self.half = Some((v >> 32) as u32);
        v as u32
    }

    /// `random_interval(max)`: masked rejection into `0..=max`.
    #[inline]
    pub fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = u64::MAX >> max.leading_zeros();
        if max <= u64::from(u32::MAX) {
            loop {
                let v = u64::from(self.next_u32()) & mask;
                if v <= max {
                    return v;
                }
            }
        }
        loop {
            let v = self.next_u64() & mask;
            if v <= max {
                return v;
            }
        }
    }
}

/// `default_rng(seed).permutation(n)`.
pub fn permutation(seed: u64, n: usize) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    shuffle(&mut Pcg64::new(seed), &mut a);
    a
}

/// `Generator.shuffle`: for `i` from `n-1` down to 1, `j = random_interval(i)`, swap.
#[inline]
pub fn shuffle<T>(rng: &mut Pcg64, a: &mut [T]) {
    for i in (1..a.len()).rev() {
        // j <= i, an index.
        let j = rng.interval(i as u64) as usize;
        a.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Checks quoted in docs/spec.md Appendix A, read from NumPy 2.4.
    #[test]
    fn seed_sequence_42_pool() {
        assert_eq!(
            SeedSequence::new(42).pool(),
            [1_662_858_758, 128_880_814, 1_875_164_712, 753_753_205]
        );
    }

    #[test]
    fn small_permutations() {
        assert_eq!(permutation(42, 10), [5, 6, 0, 7, 3, 2, 4, 9, 1, 8]);
        assert_eq!(permutation(0, 10), [4, 6, 2, 7, 3, 5, 9, 0, 8, 1]);
        assert_eq!(
            permutation(1_234_567_890_123_456_789, 52)[..8],
            [20, 27, 29, 16, 43, 14, 44, 13]
        );
    }

    #[test]
    fn seed_words_are_little_endian() {
        assert_eq!(seed_words(0), ([0, 0], 1));
        assert_eq!(seed_words(1 << 32), ([0, 1], 2));
        assert_eq!(seed_words((1 << 63) - 1), ([u32::MAX, 0x7fff_ffff], 2));
    }
}

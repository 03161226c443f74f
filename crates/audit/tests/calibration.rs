//! The audit's tests calibrated on honest simulated logs, with fixed seeds
//! (docs/decisions/0021-exact-cell-tests.md): at each size, many logs of a
//! fair source, the share whose p-value falls below 1 % against the test's
//! own false-alarm rate at that level (`CellTest::size`, at most 1 %), and
//! the share of the return to player's 99 % intervals that miss the rules'
//! mean against 1 %. Each share's 99.9 % Clopper–Pearson interval must hold
//! the rate claimed. 1 % is where false alarms can be counted in seconds; the
//! p-values are exact binomial tails, the same function at 1 % and at 10^-6,
//! and tests/vectors.rs holds them to SciPy's at 10^-6.
//!
//! The source stands for revealed seeds: SplitMix64, seeded per size, so
//! every run draws the same logs. `cargo test -p fairseed-audit --test
//! calibration -- --nocapture` prints the table of docs/spec.md §16.8.

use fairseed_audit::binomial::{lower, upper};
use fairseed_audit::stats::{CellTest, Rtp};

/// The level the calibration counts alarms at.
const LEVEL: f64 = 0.01;
/// The confidence of the intervals the shares are judged by.
const CONFIDENCE: f64 = 0.999;

/// SplitMix64 (Steele, Lea and Flood 2014): a fixed seed, a fixed stream.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform on `0..bound`, by Lemire's multiply-and-reject.
    fn below(&mut self, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }
}

/// The Clopper–Pearson interval of a share `k` of `n` at [`CONFIDENCE`].
fn clopper_pearson(k: u64, n: u64) -> (f64, f64) {
    let tail = (1.0 - CONFIDENCE) / 2.0;
    // The rate at which seeing k or more (or k or fewer) has probability `tail`.
    let solve = |at_least: bool| {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            let reached = if at_least {
                upper(n, mid, k) >= tail
            } else {
                lower(n, mid, k) < tail
            };
            if reached {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        0.5 * (lo + hi)
    };
    let low = if k == 0 { 0.0 } else { solve(true) };
    let high = if k == n { 1.0 } else { solve(false) };
    (low, high)
}

/// Counts the logs of `logs` whose cell test at `n` falls below [`LEVEL`],
/// each log's cell counts drawn by `draw`, and checks the share.
fn calibrate(
    test: CellTest,
    what: &str,
    n: u64,
    logs: u64,
    mut draw: impl FnMut(&mut [u64]),
) -> String {
    let mut counts = vec![0u64; test.cells as usize];
    let mut alarms = 0;
    for _ in 0..logs {
        counts.iter_mut().for_each(|c| *c = 0);
        draw(&mut counts);
        let most = counts.iter().copied().max().unwrap_or(0);
        let least = counts.iter().copied().min().unwrap_or(0);
        if test.p_value(n, most, least) < LEVEL {
            alarms += 1;
        }
    }
    let size = test.size(n, LEVEL);
    let (lo, hi) = clopper_pearson(alarms, logs);
    assert!(size <= LEVEL, "{what} {n}: size {size}");
    assert!(
        lo <= size && size <= hi,
        "{what} {n}: {alarms} of {logs} alarms at {LEVEL}, interval {lo:.5}..{hi:.5}, the test's rate {size:.5}"
    );
    format!(
        "| {n} {what} | {logs} | {alarms} ({:.3} %) | {:.3} – {:.3} % | {:.3} % |",
        pc(alarms, logs),
        lo * 100.0,
        hi * 100.0,
        size * 100.0
    )
}

fn pc(k: u64, n: u64) -> f64 {
    k as f64 / n as f64 * 100.0
}

#[test]
fn dice_roll_alarms_come_at_the_rate_the_test_states() {
    let mut rows = Vec::new();
    for (n, logs) in [
        (10u64, 4000u64),
        (20, 4000),
        (50, 4000),
        (100, 4000),
        (1000, 4000),
        (100_000, 400),
    ] {
        let mut source = SplitMix(0x00d1_ce00 + n);
        rows.push(calibrate(CellTest::ROLLS, "rolls", n, logs, |counts| {
            for _ in 0..n {
                counts[(source.below(10_000) / 100) as usize] += 1;
            }
        }));
    }
    println!("{}", rows.join("\n"));
}

#[test]
fn card_position_alarms_come_at_the_rate_the_test_states() {
    let mut rows = Vec::new();
    for (deals, logs) in [(6u64, 2000u64), (20, 2000), (100, 1000), (1000, 300)] {
        let mut source = SplitMix(0x00ca_4d00 + deals);
        rows.push(calibrate(CellTest::CARDS, "deals", deals, logs, |counts| {
            let mut deck: Vec<usize> = (0..52).collect();
            for _ in 0..deals {
                for i in (1..52).rev() {
                    deck.swap(i, source.below(i as u64 + 1) as usize);
                }
                for (position, &card) in deck.iter().enumerate() {
                    counts[position * 52 + card] += 1;
                }
            }
        }));
    }
    println!("{}", rows.join("\n"));
}

/// Bets as a service takes them: chances from rare to near-certain, stakes of 1 to 1000.
const MIXES: [(&str, &[u16]); 2] = [
    ("even", &[2500, 4950, 7500]),
    ("wide", &[100, 300, 1000, 2500, 4950, 7500, 9000, 9800]),
];

#[test]
fn the_rtp_interval_covers_the_rules_mean_as_stated() {
    let mut rows = Vec::new();
    for (mix, chances) in MIXES {
        for (bets, logs) in [
            (10u64, 2000u64),
            (20, 2000),
            (50, 2000),
            (100, 2000),
            (1000, 1000),
            (100_000, 200),
        ] {
            let mut source = SplitMix(0x0047_9000 + bets + chances.len() as u64);
            let (mut judged, mut missed, mut alarms) = (0u64, 0u64, 0u64);
            for _ in 0..logs {
                let mut rtp = Rtp::default();
                for i in 0..bets {
                    let chance = chances[(i % chances.len() as u64) as usize];
                    let amount = 1 + source.below(1000);
                    let win = u128::from(amount) * 9900 / u128::from(chance);
                    let won = source.below(10_000) < u64::from(chance);
                    rtp.add(amount, if won { win } else { 0 }, win, chance);
                }
                let s = rtp.summary();
                if let Some(consistent) = s.consistent {
                    judged += 1;
                    missed += u64::from(!consistent);
                }
                alarms += u64::from(s.p.is_some_and(|p| p < LEVEL));
            }
            // Bennett's p-value never understates: its alarms at most at the level.
            let (alarm_lo, _) = clopper_pearson(alarms, logs);
            assert!(alarm_lo <= LEVEL, "{mix} {bets}: {alarms} alarms of {logs}");
            if judged == 0 {
                rows.push(format!(
                    "| {bets} bets, {mix} | {logs} | too few for an interval | {alarms} |"
                ));
                continue;
            }
            let (lo, hi) = clopper_pearson(missed, judged);
            assert!(
                lo <= LEVEL && LEVEL <= hi,
                "{mix} {bets}: {missed} of {judged} intervals missed, interval {lo:.5}..{hi:.5}"
            );
            rows.push(format!(
                "| {bets} bets, {mix} | {judged} of {logs} | {missed} missed ({:.2} %, {:.2} – {:.2} %) | {alarms} |",
                pc(missed, judged),
                lo * 100.0,
                hi * 100.0
            ));
        }
    }
    println!("{}", rows.join("\n"));
}

#[test]
fn the_interval_helper_holds_known_values() {
    // 0 of 10: the upper end solves 0.9995^(1/10) = 1 − p.
    let (lo, hi) = clopper_pearson(0, 10);
    assert_eq!(lo, 0.0);
    assert!((hi - (1.0 - 0.0005f64.powf(0.1))).abs() < 1e-9, "{hi}");
    // Symmetric: k of n and n − k of n mirror each other.
    let (a, b) = clopper_pearson(3, 40);
    let (c, d) = clopper_pearson(37, 40);
    assert!((a - (1.0 - d)).abs() < 1e-9 && (b - (1.0 - c)).abs() < 1e-9);
}

//! Properties of the exact binomial tails and the cell tests' p-values, on
//! fixed seeds: the two tails of any count add up to one, each tail is
//! monotone in the count, and a p-value lies in [0, 1] and only falls as the
//! fullest cell fills.

use fairseed_audit::binomial::{lower, upper};
use fairseed_audit::stats::CellTest;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        rng_seed: RngSeed::Fixed(0x7a11_5eed),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_two_tails_are_complements(n in 1u64..2_000_000, p in 1e-4f64..0.9999, share in 0.0f64..1.0) {
        let c = ((n as f64) * share) as u64;
        let total = upper(n, p, c + 1) + lower(n, p, c);
        prop_assert!((total - 1.0).abs() < 1e-8, "n {} p {} c {}: {}", n, p, c, total);
    }

    #[test]
    fn each_tail_is_monotone(n in 1u64..100_000, p in 1e-3f64..0.999, share in 0.0f64..1.0) {
        let c = ((n as f64) * share) as u64;
        prop_assert!(upper(n, p, c) >= upper(n, p, c + 1));
        prop_assert!(lower(n, p, c + 1) >= lower(n, p, c));
    }

    #[test]
    fn p_values_lie_in_0_1_and_fall_as_a_cell_fills(n in 1u64..1_000_000, share in 0.0f64..1.0, cards in any::<bool>()) {
        let test = if cards { CellTest::CARDS } else { CellTest::ROLLS };
        let most = ((n as f64) * share) as u64;
        let least = most.min((n as f64 * test.p) as u64);
        let here = test.p_value(n, most, least);
        prop_assert!((0.0..=1.0).contains(&here));
        prop_assert!(test.p_value(n, (most + 1).min(n), least) <= here);
    }
}

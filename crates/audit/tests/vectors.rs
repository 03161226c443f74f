//! The audit's statistics against SciPy's (tests/vectors/stats.json, written
//! and checked by scripts/audit/check_stats.py): binomial tails, the cell
//! tests' critical counts, smallest judged sizes, false-alarm rates and 90 %
//! power factors, and the exact coverage of the return to player's interval.

use fairseed_audit::binomial::{lower, pmf, upper};
use fairseed_audit::stats::{CellTest, Rtp, ALARM_P};
use serde_json::Value;

fn vectors() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/stats.json"
    ))
    .expect("tests/vectors/stats.json");
    serde_json::from_str(&text).expect("JSON")
}

fn u(v: &Value) -> u64 {
    v.as_u64().expect("an integer")
}

fn f(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

fn assert_close(got: f64, want: f64, rel: f64, what: &str) {
    let err = (got - want).abs() / want.abs().max(1e-300);
    assert!(err <= rel, "{what}: {got} against SciPy's {want}");
}

#[test]
fn binomial_tails_match_scipy() {
    let v = vectors();
    for case in v["tails"].as_array().expect("tails") {
        let (n, p, c) = (u(&case["n"]), f(&case["p"]), u(&case["c"]));
        let what = format!("n {n} p {p} c {c}");
        assert_close(upper(n, p, c), f(&case["upper"]), 1e-9, &what);
        assert_close(lower(n, p, c), f(&case["lower"]), 1e-9, &what);
    }
}

#[test]
fn critical_counts_sizes_and_power_match_scipy() {
    let v = vectors();
    assert_eq!(f(&v["alarm_p"]), ALARM_P);
    for (name, test) in [("rolls", CellTest::ROLLS), ("cards", CellTest::CARDS)] {
        let t = &v["tests"][name];
        assert_eq!(u(&t["cells"]), test.cells, "{name}");
        assert_eq!(f(&t["p"]), test.p, "{name}");
        assert_eq!(u(&t["min_n"]), test.min_n(ALARM_P), "{name}");
        for row in t["sizes"].as_array().expect("sizes") {
            let n = u(&row["n"]);
            let what = format!("{name} at {n}");
            assert_eq!(
                test.critical_most(n, ALARM_P),
                u(&row["critical_most"]),
                "{what}"
            );
            assert_eq!(
                test.critical_least(n, ALARM_P),
                row["critical_least"].as_u64(),
                "{what}"
            );
            assert_close(test.size(n, 1e-2), f(&row["size_1e-2"]), 1e-9, &what);
            assert_close(test.size(n, ALARM_P), f(&row["size_1e-6"]), 1e-9, &what);
            assert_close(
                test.power_factor(n, ALARM_P),
                f(&row["power_factor"]),
                1e-6,
                &what,
            );
        }
    }
}

/// The probability that the rules' mean lies in the interval of `bets` bets
/// of 100 chips at `chance`, summed over the number of wins.
fn coverage(chance: u16, bets: u64) -> f64 {
    let p = f64::from(chance) / 10_000.0;
    let win = 100u128 * 9900 / u128::from(chance);
    let sd = (bets as f64 * p * (1.0 - p)).sqrt();
    let (lo, hi) = (
        (bets as f64 * p - 12.0 * sd).max(0.0),
        bets as f64 * p + 12.0 * sd,
    );
    let mut total = 0.0;
    for wins in (lo as u64)..=(hi as u64).min(bets) {
        let mut rtp = Rtp::default();
        for i in 0..bets {
            rtp.add(100, if i < wins { win } else { 0 }, win, chance);
        }
        if rtp.summary().consistent == Some(true) {
            total += pmf(bets, p, wins);
        }
    }
    total
}

#[test]
fn the_rtp_interval_covers_as_scipy_computes() {
    let v = vectors();
    for case in v["rtp_coverage"].as_array().expect("coverage") {
        let chance = u16::try_from(u(&case["chance"])).expect("a chance");
        let bets = u(&case["bets"]);
        let mut rtp = Rtp::default();
        for _ in 0..bets {
            rtp.add(100, 0, 100u128 * 9900 / u128::from(chance), chance);
        }
        let what = format!("{bets} bets at {chance}");
        assert_close(
            rtp.summary().skew.expect("a skew"),
            f(&case["skew"]),
            1e-9,
            &what,
        );
        assert_close(coverage(chance, bets), f(&case["coverage"]), 1e-9, &what);
    }
}

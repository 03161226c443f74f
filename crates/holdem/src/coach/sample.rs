//! Monte Carlo equity: random deals of the unseen cards, with the estimate's
//! standard error.

use super::spot::{deal_share, Spot};
use crate::ai::Rng;
use crate::card::Card;

/// The mean share over `samples` deals drawn with the seed's stream, and its
/// standard error (sample standard deviation / √samples).
pub(super) fn monte_carlo(
    spot: &Spot,
    mut deck: Vec<Card>,
    samples: usize,
    seed: u64,
) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let need = spot.to_come + 2 * spot.opponents;
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    let samples = samples.max(1);
    for _ in 0..samples {
        // A partial Fisher-Yates: the first `need` cards are a uniform deal.
        for i in 0..need.min(deck.len()) {
            let j = i + rng.below(deck.len() - i);
            deck.swap(i, j);
        }
        let (runout, holes) = deck[..need.min(deck.len())].split_at(spot.to_come.min(need));
        let x = deal_share(spot, runout, holes);
        sum += x;
        sum_sq += x * x;
    }
    let n = samples as f64;
    let mean = sum / n;
    let variance = if samples > 1 {
        ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    (mean, (variance / n).sqrt())
}

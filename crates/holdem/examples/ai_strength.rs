//! Each AI level against the level below, heads-up, on duplicate deals:
//! every deal is played twice with the seats swapped, so both players get
//! the same cards and positions and the luck of the deal cancels out.
//! Stacks start at 100 big blinds every hand.
//!
//! `cargo run --release -p fairseed-holdem --example ai_strength -- [DEALS] [SEED]`
//! prints big blinds per 100 hands with a 95 % confidence interval.

use fairseed_holdem::ai::Level;
use fairseed_holdem::simulate::{play_hand, HandSeeds};
use fairseed_holdem::{apply, Command, Player, Table, TableConfig};
use fairseed_play::Millis;

/// The stronger level's result on one deal, in big blinds: the mean of its two seats.
fn duplicate_deal(strong: Level, weak: Level, seeds: HandSeeds, config: TableConfig) -> f64 {
    let mut net = 0.0;
    for strong_seat in 0..2 {
        let level_of = |s: usize| if s == strong_seat { strong } else { weak };
        let mut table = Table::new(config).unwrap_or_else(|e| panic!("{e}"));
        for seat in 0..2 {
            let player = Player::Ai {
                level: level_of(seat) as u8,
            };
            table = apply(&table, Command::Sit { seat, player }, Millis(0))
                .unwrap_or_else(|e| panic!("{e}"))
                .0;
        }
        let (after, _, _) =
            play_hand(&table, seeds, &level_of, Millis(0)).unwrap_or_else(|e| panic!("{e}"));
        let stack = after.seats[strong_seat].as_ref().map_or(0, |s| s.stack);
        net += (stack as f64 - config.starting_stack as f64) / config.big_blind as f64;
    }
    net / 2.0
}

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_026);
    let config = TableConfig {
        seats: 2,
        ..TableConfig::default()
    };
    println!("| match | hands | bb/100 | 95 % CI |");
    println!("|---|---:|---:|---|");
    for (strong, weak) in [
        (Level::Two, Level::One),
        (Level::Three, Level::Two),
        (Level::Three, Level::One),
    ] {
        let started = std::time::Instant::now();
        let results: Vec<f64> = (0..deals)
            .map(|i| duplicate_deal(strong, weak, HandSeeds::derive(seed, i), config))
            .collect();
        let n = results.len() as f64;
        let mean = results.iter().sum::<f64>() / n;
        let var = results.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        // A deal's result is already per hand (the mean of its two hands).
        let per100 = mean * 100.0;
        let half = 1.96 * (var / n).sqrt() * 100.0;
        println!(
            "| level {} vs level {} | {} | {:+.1} | {:+.1} to {:+.1} |",
            strong as u8,
            weak as u8,
            deals * 2,
            per100,
            per100 - half,
            per100 + half
        );
        eprintln!("({:.1} s)", started.elapsed().as_secs_f64());
    }
}

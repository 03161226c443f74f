//! Prints `simulate` hand records as JSON Lines:
//! `cargo run -p fairseed-holdem --example record_json -- [SEATS] [HANDS] [SEED]`
//! (SEATS is a list of AI levels such as `123`).

use fairseed_holdem::ai::Level;
use fairseed_holdem::simulate;

fn main() {
    let mut args = std::env::args().skip(1);
    let seats: Vec<Level> = args
        .next()
        .unwrap_or_else(|| "123".into())
        .bytes()
        .filter_map(|b| Level::from_number(b.wrapping_sub(b'0')))
        .collect();
    let hands = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    match simulate(&seats, hands, seed) {
        Ok(records) => {
            for r in records {
                match serde_json::to_string(&r) {
                    Ok(line) => println!("{line}"),
                    Err(e) => eprintln!("{e}"),
                }
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}

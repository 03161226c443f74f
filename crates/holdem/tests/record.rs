//! Simulated hands replay to their own results; any change is named.
#![allow(clippy::unwrap_used)] // tests: a panic is a failure

use fairseed_holdem::ai::Level;
use fairseed_holdem::rules::{Action, Street};
use fairseed_holdem::{replay, simulate, ReplayError};

#[test]
fn simulated_tables_replay_and_are_deterministic() {
    let seats = [
        Level::One,
        Level::Two,
        Level::Three,
        Level::Three,
        Level::Two,
        Level::One,
    ];
    let records = simulate(&seats, 60, 42).unwrap();
    assert_eq!(records, simulate(&seats, 60, 42).unwrap());
    assert_ne!(records, simulate(&seats, 60, 43).unwrap());
    for r in &records {
        let outcome = replay(r).unwrap();
        assert_eq!(outcome, r.results);
        // Chips are conserved across the hand.
        let before: u64 = r.seats.iter().map(|s| s.stack).sum();
        let after: u64 = r.results.stacks.iter().map(|s| s.1).sum();
        assert_eq!(before, after, "hand {}", r.hand);
    }
    // The records round-trip through JSON.
    let json = serde_json::to_string(&records[0]).unwrap();
    assert_eq!(
        serde_json::from_str::<fairseed_holdem::HandRecord>(&json).unwrap(),
        records[0]
    );
}

#[test]
fn a_changed_amount_card_or_winner_is_named() {
    let records = simulate(&[Level::Three, Level::Two, Level::One], 40, 7).unwrap();
    // A preflop raise made smaller than the minimum (the big blind is 100,
    // so a raise goes to 200 at least; stacks are far deeper).
    let (i, j) = records
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            r.actions
                .iter()
                .position(|a| a.street == Street::Preflop && matches!(a.action, Action::RaiseTo(_)))
                .map(|j| (i, j))
        })
        .unwrap();
    let mut bad = records[i].clone();
    let a = bad.actions[j];
    bad.actions[j].action = Action::RaiseTo(150);
    let msg = replay(&bad).unwrap_err().to_string();
    assert!(
        msg.starts_with(&format!(
            "hand {}, {}: seat {}'s ",
            bad.hand, a.street, a.seat
        )) && msg.contains("is below the minimum"),
        "{msg}"
    );
    // A winner's payment changed.
    let mut bad = records[0].clone();
    bad.results.pots[0].winners[0].1 += 1;
    assert!(matches!(replay(&bad), Err(ReplayError::Mismatch { .. })));
    assert!(replay(&bad).unwrap_err().to_string().contains("pot 0 pays"));
    // Another seed: the commitment no longer matches.
    let mut bad = records[0].clone();
    bad.seed ^= 1;
    assert_eq!(
        replay(&bad).unwrap_err().to_string(),
        format!(
            "hand {}: commit does not match sha256(\"selfpoker:\" + seed)",
            bad.hand
        )
    );
    // Another seed with its own commitment: the cards differ, the replay says where.
    let mut bad = records[0].clone();
    bad.seed ^= 1;
    bad.commit = fairseed_core::selfpoker::commit(bad.seed);
    assert!(replay(&bad).is_err());
    // A changed card of the board.
    let mut bad = records
        .iter()
        .find(|r| !r.results.board.is_empty())
        .unwrap()
        .clone();
    let first = bad.results.board[0];
    bad.results.board[0] = fairseed_holdem::Card::all()
        .find(|&c| c != first && !bad.results.board.contains(&c))
        .unwrap();
    let msg = replay(&bad).unwrap_err().to_string();
    assert!(
        msg.starts_with(&format!("hand {}: the board is {first} ", bad.hand)),
        "{msg}"
    );
    // A truncated log.
    let mut bad = records[0].clone();
    bad.actions.pop();
    assert!(replay(&bad)
        .unwrap_err()
        .to_string()
        .contains("the actions stop on the"));
}

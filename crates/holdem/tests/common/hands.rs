//! Hands part-way played by AI seats, and the same hands with every card a
//! seat cannot see replaced: the input of the view-only property tests.

use fairseed_holdem::ai::{decide, Level, SeatView};
use fairseed_holdem::rules::HandState;
use fairseed_holdem::{apply, Card, CardSet, Command, Player, Table, TableConfig};
use fairseed_play::Millis;
use proptest::prelude::*;

/// A table of `n` AI seats, a hand dealt from `seed`, played `steps` actions in.
pub fn hand_after(n: usize, seed: u64, steps: usize, decision_seed: u64) -> Option<HandState> {
    let mut t = Table::new(TableConfig {
        seats: n,
        ..TableConfig::default()
    })
    .unwrap();
    for seat in 0..n {
        t = apply(
            &t,
            Command::Sit {
                seat,
                player: Player::Ai { level: 2 },
            },
            Millis(0),
        )
        .unwrap()
        .0;
    }
    t = apply(&t, Command::StartHand { seed }, Millis(0)).unwrap().0;
    for i in 0..steps {
        let hand = t.hand.as_ref()?;
        let view = SeatView::of(hand);
        let action = decide(Level::ALL[i % 3], &view, decision_seed ^ i as u64);
        t = apply(
            &t,
            Command::Act {
                seat: view.seat,
                action,
            },
            Millis(1),
        )
        .unwrap()
        .0;
    }
    t.hand
}

/// `hand` with every card seat index `me` cannot see replaced by other
/// unseen cards (other seats' holes, the board still to come).
pub fn with_unseen_changed(hand: &HandState, me: usize, swaps: &[u64]) -> HandState {
    let mine = &hand.players[me];
    let visible = CardSet::of(hand.board_dealt())
        .with(mine.hole[0])
        .with(mine.hole[1]);
    let mut pool = visible.complement();
    let mut k = 0;
    let mut next_card = |pool: &mut Vec<Card>| {
        let i = (swaps[k % swaps.len()] as usize + k * 7) % pool.len();
        k += 1;
        pool.swap_remove(i)
    };
    let mut other = hand.clone();
    for (i, p) in other.players.iter_mut().enumerate() {
        if i != me {
            p.hole = [next_card(&mut pool), next_card(&mut pool)];
        }
    }
    let shown = hand.street.board_len();
    for c in other.board.iter_mut().skip(shown) {
        *c = next_card(&mut pool);
    }
    other
}

/// A hand 0 to 7 AI actions in at 2 to 6 seats, a decision seed, and the
/// numbers that pick replacement cards.
pub fn scenario() -> impl Strategy<Value = (Option<HandState>, u64, Vec<u64>)> {
    (
        2usize..=6,
        0u64..(1 << 63),
        0usize..8,
        any::<u64>(),
        prop::collection::vec(any::<u64>(), 1..6),
    )
        .prop_map(|(n, seed, steps, decision_seed, swaps)| {
            (
                hand_after(n, seed, steps, decision_seed),
                decision_seed,
                swaps,
            )
        })
}

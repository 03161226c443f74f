//! The coach's answer time on the spots a table meets: exact enumeration
//! (river and turn heads-up) and Monte Carlo (preflop six-handed, the flop
//! heads-up and three-way, the river three-way). The page must answer
//! within 50 ms.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fairseed_holdem::ai::{PublicSeat, SeatView};
use fairseed_holdem::coach::advise;
use fairseed_holdem::{Card, Street};

fn view(street: Street, board: &[u8], players: usize) -> SeatView {
    let card = |id: u8| Card::new(id).unwrap_or_else(|| unreachable!());
    SeatView {
        seat: 0,
        hole: [card(51), card(46)],
        board: board.iter().map(|&id| card(id)).collect(),
        street,
        button: 1,
        big_blind: 100,
        seats: (0..players)
            .map(|seat| PublicSeat {
                seat,
                stack: 9_000,
                street_bet: 100,
                total: 300,
                folded: false,
            })
            .collect(),
        actions: Vec::new(),
        to_call: 0,
        raise: Some((200, 9_100)),
    }
}

fn bench(c: &mut Criterion) {
    let flop = [0, 20, 40];
    let turn = [0, 20, 40, 33];
    let river = [0, 20, 40, 33, 9];
    let spots = [
        ("preflop_6_players_sampled", view(Street::Preflop, &[], 6)),
        ("flop_3_players_sampled", view(Street::Flop, &flop, 3)),
        ("flop_heads_up_sampled", view(Street::Flop, &flop, 2)),
        ("turn_heads_up_exact", view(Street::Turn, &turn, 2)),
        ("river_heads_up_exact", view(Street::River, &river, 2)),
        ("river_3_players_sampled", view(Street::River, &river, 3)),
    ];
    let mut group = c.benchmark_group("coach_advise");
    for (name, v) in &spots {
        group.bench_function(*name, |b| b.iter(|| advise(black_box(v), 7)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

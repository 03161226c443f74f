//! Seven-card evaluation, side by side with `aya_poker` (an OMPEval-style
//! perfect-hash evaluator on crates.io): the same 100,000 random hands,
//! each evaluator's hands built outside the timed loop.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use fairseed_holdem::ai::Rng;
use fairseed_holdem::{evaluator, Card, Hand};

const HANDS: usize = 100_000;

fn random_hands() -> Vec<[u8; 7]> {
    let mut rng = Rng::new(7);
    (0..HANDS)
        .map(|_| {
            let mut deck: Vec<u8> = (0..52).collect();
            for i in 0..7 {
                let j = i + rng.below(52 - i);
                deck.swap(i, j);
            }
            [
                deck[0], deck[1], deck[2], deck[3], deck[4], deck[5], deck[6],
            ]
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let ids = random_hands();
    let ours: Vec<Hand> = ids
        .iter()
        .map(|h| Hand::of(&h.iter().filter_map(|&id| Card::new(id)).collect::<Vec<_>>()))
        .collect();
    let theirs: Vec<aya_poker::base::Hand> = ids
        .iter()
        .map(|h| {
            h.iter()
                .map(|&id| aya_poker::base::CARDS[usize::from(id)])
                .collect()
        })
        .collect();
    let ev = evaluator();
    let mut group = c.benchmark_group("seven_card_eval");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.bench_function("fairseed_holdem", |b| {
        b.iter(|| {
            ours.iter()
                .map(|&h| u32::from(ev.rank(black_box(h)).value()))
                .sum::<u32>()
        })
    });
    group.bench_function("aya_poker", |b| {
        b.iter(|| {
            theirs
                .iter()
                .map(|h| u32::from(aya_poker::poker_rank(black_box(h)).0))
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

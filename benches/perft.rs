//! perft throughput from the AH start, with and without bulk counting of the
//! last ply. Criterion reports elements/s, which here are leaf nodes/s.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pawnrace::rules::{Position, RuleSet, perft};
use std::hint::black_box;

/// perft that makes every leaf move, for the figure without bulk counting.
fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|m| perft_full(&pos.play_unchecked(*m), depth - 1))
        .sum()
}

fn bench_perft(c: &mut Criterion) {
    let start = Position::start(
        RuleSet::PAWNRACE,
        Some("AH".parse().expect("AH is a gap pair")),
    )
    .expect("start");
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for depth in [5, 6] {
        let leaves = perft(&start, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("bulk/ah/{depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
        group.bench_function(format!("full/ah/{depth}"), |b| {
            b.iter(|| perft_full(black_box(&start), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);

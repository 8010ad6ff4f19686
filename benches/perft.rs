//! perft throughput from the AH start, with and without bulk counting of the
//! last ply. Criterion reports elements/s, which here are leaf nodes/s.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pawnrace::rules::{Position, RuleSet, perft, perft_every_leaf};
use std::hint::black_box;

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
            b.iter(|| perft_every_leaf(black_box(&start), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);

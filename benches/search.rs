//! The search on `pawnrace bench`'s positions at a fixed depth; criterion
//! reports the time, `pawnrace bench` the node signature and speed.

use criterion::{Criterion, criterion_group, criterion_main};
use pawnrace::lab::bench;

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for depth in [9, 11] {
        group.bench_function(format!("bench-positions/depth-{depth}"), |b| {
            b.iter(|| bench::run(depth, 16, &mut |_, _| {}).expect("the bench positions are valid"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);

//! The classic problems at full size: the whole S0 input space (4512
//! queries) and 300 UVa 10838 boards, each in one process's worth of work.

use criterion::{Criterion, criterion_group, criterion_main};
use pawnrace::problems::{duel, mini4};

fn s0_queries() -> String {
    let squares: Vec<String> = "abcdefgh"
        .chars()
        .flat_map(|f| (2..=7).map(move |r| format!("{f}{r}")))
        .collect();
    let mut input = String::new();
    for w in &squares {
        for b in squares.iter().filter(|b| *b != w) {
            for side in ["w", "b"] {
                input.push_str(&format!("{w} {b} {side}\n"));
            }
        }
    }
    input
}

fn bench_problems(c: &mut Criterion) {
    let queries = s0_queries();
    let boards = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/s4/random-300.txt"
    ))
    .expect("the board file is in the repository");
    let mut group = c.benchmark_group("problems");
    group.sample_size(10);
    group.bench_function("s0/all-4512", |b| {
        b.iter(|| {
            duel::run(queries.as_bytes(), std::io::sink(), std::io::sink()).expect("in memory")
        })
    });
    group.bench_function("s4/300-boards", |b| {
        b.iter(|| {
            mini4::run(boards.as_bytes(), std::io::sink(), std::io::sink()).expect("in memory")
        })
    });
    group.finish();
}

criterion_group!(benches, bench_problems);
criterion_main!(benches);

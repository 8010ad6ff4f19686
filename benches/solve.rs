//! Exact solves of mid-game Pawn Race positions (8 to 10 plies into random
//! games), each from an empty table. Criterion reports positions solved per
//! second; the node counts are printed once for nodes/s.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pawnrace::rules::{Position, RuleSet};
use pawnrace::solver::{SolveLimits, Solver};
use pawnrace::stop::Stop;
use std::hint::black_box;

const POSITIONS: [(&str, &str); 4] = [
    ("ah-win17", "8/p2p1p2/2p3p1/1p2p3/1P2PP2/2P5/3P2PP/8 w -"),
    ("af-loss24", "8/2ppp3/pp4p1/7p/3PPP1P/8/1PP3P1/8 w -"),
    ("ah-win19", "8/3pp1p1/1pp5/p7/3P1P1P/2P5/1P2PP2/8 w -"),
    ("ah-loss14", "8/3p1pp1/4p3/ppp2P2/6P1/1P6/2PPP2P/8 w -"),
];

/// Table size per solve: ample for these, small enough to set up quickly.
const HASH_MIB: usize = 64;

fn bench_solve(c: &mut Criterion) {
    let stop = Stop::new();
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen, RuleSet::PAWNRACE).expect("position");
        let mut nodes = 0;
        Solver::new(HASH_MIB).solve(&pos, &SolveLimits::default(), &stop, &mut |p| {
            nodes = p.nodes
        });
        println!("{name}: {nodes} nodes");
        group.bench_function(name, |b| {
            b.iter_batched(
                || Solver::new(HASH_MIB),
                |mut solver| {
                    solver.solve(black_box(&pos), &SolveLimits::default(), &stop, &mut |_| {})
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

/// A keep-set position (GA after 1. e4 h6 2. a3 g5, white wins in 25) as a
/// proof at move time starts it, from an empty 16 MiB table, on one thread
/// and on two: what the second thread's helper gains.
fn bench_threads(c: &mut Criterion) {
    let stop = Stop::new();
    let pos = Position::from_fen("8/1ppppp2/7p/6p1/4P3/P7/1PPP1P1P/8 w -", RuleSet::PAWNRACE)
        .expect("position");
    let mut group = c.benchmark_group("solve-threads");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("ga-win25/{threads}"), |b| {
            b.iter_batched(
                || {
                    let mut solver = Solver::new(16);
                    solver.set_threads(threads);
                    solver
                },
                |mut solver| {
                    solver.solve(black_box(&pos), &SolveLimits::default(), &stop, &mut |_| {})
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_solve, bench_threads);
criterion_main!(benches);

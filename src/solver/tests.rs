//! The solver's internals against a memoised full-width minimax.

use super::*;
use crate::rules::{Move, RuleSet};
use crate::testkit::{Rng, minimax, random_position, small_rule_sets};
use std::collections::HashMap;

/// The node-relative score of an exact value and distance.
fn score((value, plies): (Value, u32)) -> i32 {
    match value {
        Value::Win => SOLVER_WIN - plies as i32,
        Value::Draw => 0,
        Value::Loss => -(SOLVER_WIN - plies as i32),
    }
}

/// Calls `check` with `count` random positions of each small rule set that
/// pass `wanted`, their exact score by brute force, a solver (one per rule
/// set, so that its table carries over between positions) and the exact
/// values of every position brute force has seen under those rules.
fn for_random_positions(
    seed: u64,
    count: usize,
    wanted: impl Fn(&Position) -> bool,
    mut check: impl FnMut(&mut Solver, &Position, i32, &HashMap<Position, (Value, u32)>),
) {
    let mut rng = Rng::new(&[seed]);
    let mut memo = HashMap::new();
    for (rules, max) in small_rule_sets() {
        memo.clear();
        let mut solver = Solver::new(1);
        let mut tried = 0;
        while tried < count {
            let Some(pos) = random_position(&mut rng, rules, max) else {
                continue;
            };
            if !wanted(&pos) {
                continue;
            }
            tried += 1;
            let exact = score(minimax(&pos, &mut memo));
            check(&mut solver, &pos, exact, &memo);
        }
    }
}

#[test]
fn race_bounds_hold_against_brute_force() {
    let mut fired = [0, 0, 0];
    let playable = |pos: &Position| terminal_score(pos).is_none();
    // Many: a loser that could capture its way into a stalemate once slipped
    // past 600 positions a rule set, and 12,000 find it within seconds.
    for_random_positions(
        0x1234_5678_9ABC_DEF1,
        12000,
        playable,
        |_, pos, exact, _| {
            let (lo, hi) = race::bounds(pos);
            let horizon = race::horizon(pos);
            if let Some(lo) = lo {
                fired[0] += usize::from(Some(lo) != horizon.0);
                assert!(exact >= lo, "{} exact {exact} lo {lo}", pos.fen());
            }
            if let Some(hi) = hi {
                fired[1] += usize::from(Some(hi) != horizon.1);
                assert!(exact <= hi, "{} exact {exact} hi {hi}", pos.fen());
            }
            if let (Some(lo), Some(hi)) = horizon {
                fired[2] += usize::from(hi == exact || lo == exact);
            }
        },
    );
    // Each rule must actually be exercised for the test to mean anything:
    // the passers' both ways, and the horizon at its very edge.
    assert!(fired[0] > 50 && fired[1] > 50 && fired[2] > 50, "{fired:?}");
}

#[test]
fn every_visited_position_scores_as_brute_force() {
    let stop = Stop::new();
    for_random_positions(
        0xDEAD_BEEF_0BAD_F00D,
        150,
        |_| true,
        |solver, pos, exact, memo| {
            let mut quiet = |_: &SolveProgress| {};
            let mut ctx = Ctx::new(&solver.table, &SolveLimits::default(), &stop, &mut quiet);
            assert_eq!(exact_score(&mut ctx, pos), Some(exact), "{}", pos.fen());
            // Bounds left in the table are proofs too.
            for (p, &v) in memo.iter().take(300) {
                let v = score(v);
                if let Some(h) = solver.table.probe(p.hash()) {
                    assert!(h.lo <= v && v <= h.hi, "{} {v} {h:?}", p.fen());
                }
            }
        },
    );
}

#[test]
fn at_least_agrees_with_brute_force() {
    let stop = Stop::new();
    let mut seen = HashMap::new();
    for_random_positions(
        0x0DDB_A11C_AFE5_7001,
        150,
        |_| true,
        |solver, pos, exact, _| {
            *seen.entry(exact.signum()).or_insert(0) += 1;
            for (value, truth) in [
                (Value::Win, exact > 0),
                (Value::Draw, exact >= 0),
                (Value::Loss, true),
            ] {
                let got = solver.at_least(pos, value, &SolveLimits::default(), &stop);
                assert_eq!(got, Some(truth), "{} {value:?} exact {exact}", pos.fen());
            }
        },
    );
    assert!(
        seen.len() == 3,
        "wins, draws and losses all tried: {seen:?}"
    );
}

/// Two threads sharing the table give the same values and distances as
/// brute force, for the full solve, the one-window decision and `at_least`.
#[test]
fn parallel_solves_agree_with_brute_force() {
    let stop = Stop::new();
    let limits = SolveLimits::default();
    for_random_positions(
        0x5EED_2222_7777_0001,
        60,
        |_| true,
        |solver, pos, exact, _| {
            solver.set_threads(2);
            let (value, plies) = describe(exact);
            let s = solver.solve(pos, &limits, &stop, &mut |_| {}).unwrap();
            assert_eq!(s.value, value, "{}", pos.fen());
            if value != Value::Draw {
                assert_eq!(s.plies, Some(plies), "{}", pos.fen());
            }
            let d = solver.decide(pos, &limits, &stop).unwrap();
            assert_eq!(d.value, value, "{}", pos.fen());
            let got = solver.at_least(pos, Value::Win, &limits, &stop);
            assert_eq!(got, Some(exact > 0), "{}", pos.fen());
        },
    );
}

/// Positions that take the solver thousands of nodes, where the helpers
/// really race the solve's own thread: the same answers as one thread.
#[test]
fn parallel_and_single_threaded_solves_agree() {
    let stop = Stop::new();
    let limits = SolveLimits::default();
    for fen in [
        "8/2ppp3/pp4p1/7p/3PPP1P/8/1PP3P1/8 w -",
        "8/3pp1p1/1pp5/p7/3P1P1P/2P5/1P2PP2/8 w -",
        "8/p2p1p2/2p3p1/1p2p3/1P2PP2/2P5/1P2PP2/8 w -",
        "8/p2p1p2/2p3p1/1p2p3/1P2PP2/2P5/1P2PP2/8 b -",
    ] {
        let pos = Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
        let one = Solver::new(8)
            .solve(&pos, &limits, &stop, &mut |_| {})
            .unwrap();
        for threads in [2, 3] {
            let mut solver = Solver::new(8);
            solver.set_threads(threads);
            let many = solver.solve(&pos, &limits, &stop, &mut |_| {}).unwrap();
            assert_eq!((many.value, many.plies), (one.value, one.plies), "{fen}");
            // The line is legal and ends the game.
            let mut at = pos;
            for m in &many.line {
                assert!(at.is_legal(*m), "{fen} {m}");
                at = at.play_unchecked(*m);
            }
            assert!(at.outcome().is_some(), "{fen}");
            let d = solver.decide(&pos, &limits, &stop).unwrap();
            assert_eq!(d.value, one.value, "{fen}");
        }
    }
}

/// A Pawn Race position, its race bounds and its exact value and distance.
fn race_and_exact(fen: &str) -> ((Option<i32>, Option<i32>), Value, u32) {
    let pos = Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
    let exact = Solver::new(1)
        .solve(&pos, &SolveLimits::default(), &Stop::new(), &mut |_| {})
        .unwrap();
    (race::bounds(&pos), exact.value, exact.plies.unwrap())
}

/// That the race bounds prove `fen` a win within `plies` for the side to
/// move, and that this is its exact distance.
fn race_proves_exact_win(fen: &str, plies: u32) {
    let ((lo, _), value, exact) = race_and_exact(fen);
    assert_eq!(lo, Some(SOLVER_WIN - plies as i32), "{fen}");
    assert_eq!((value, exact), (Value::Win, plies), "{fen}");
}

#[test]
fn a_passer_outruns_pawns_that_are_blocked_for_good() {
    // White's a-pawn promotes in four moves. Black's e-pawn is two steps
    // from its goal but stands against a white pawn it can never pass or
    // take while white pushes only the a-pawn; the h-pawn needs five.
    let ((lo, _), _, _) = race_and_exact("8/7p/8/8/P7/4p3/4P3/8 w -");
    assert_eq!(lo, Some(SOLVER_WIN - 7));
    // Black to move: the same race, lost in eight plies.
    let ((_, hi), value, plies) = race_and_exact("8/7p/8/8/P7/4p3/4P3/8 b -");
    assert_eq!(hi, Some(-(SOLVER_WIN - 8)));
    assert_eq!((value, plies), (Value::Loss, 8));
}

#[test]
fn a_pawn_that_could_capture_may_walk_into_stalemate() {
    // Black's a-pawn promotes in three moves, and white's e-pawn has an
    // empty file ahead, but exf3 leaves it stuck behind f4: white is
    // stalemated on its next turn, a draw under these rules, not a loss.
    let fen = "8/8/8/8/p4p2/5p2/4P3/8 w -";
    let pos = Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
    let ((_, hi), value, _) = race_and_exact(fen);
    assert_eq!(hi, race::horizon(&pos).1);
    assert_eq!(value, Value::Draw);
}

#[test]
fn a_capture_onto_a_free_file_is_no_way_into_stalemate() {
    // As above without the pawn on f4: exf3 leaves white's pawn an empty
    // file, so white always has a move and the a-pawn wins in six plies.
    let ((_, hi), value, plies) = race_and_exact("8/8/8/8/p7/5p2/4P3/8 w -");
    assert_eq!(hi, Some(-(SOLVER_WIN - 6)));
    assert_eq!((value, plies), (Value::Loss, 6));
}

#[test]
fn a_passer_outruns_a_pawn_that_comes_too_late() {
    // Black's b-pawn stands beside a5's path, but white moves first: a6
    // leaves it behind for good. Black's h-pawn needs five moves.
    race_proves_exact_win("8/7p/1p6/P7/8/8/8/8 w -", 5);
    // Black to move takes it, white's last pawn: no bound but the horizon.
    let fen = "8/7p/1p6/P7/8/8/8/8 b -";
    let pos = Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
    let ((_, hi), value, plies) = race_and_exact(fen);
    assert_eq!(hi, race::horizon(&pos).1);
    assert_eq!((value, plies), (Value::Win, 1));
}

#[test]
fn a_side_with_too_few_turns_to_block_itself_in_is_never_stalemated() {
    // White's h-pawn promotes in four moves. Black's a-pawn is stuck, and
    // each of its other pawns could take into a file a white pawn blocks
    // (d5 and dxe4, f5 and fxg4), so neither keeps an empty file; but that
    // takes four moves, and black has three turns before h8.
    race_proves_exact_win("8/8/3p1p2/p7/P3P1PP/4P1P1/8/8 w -", 7);
}

#[test]
fn a_capture_onto_a_free_file_is_counted_on_to_the_next() {
    // Black's d-pawn can block itself in only by taking twice: d5, dxe4
    // (landing where nothing blocks it), exf3 (behind f2). Three moves, and
    // black has three turns before h8; the a-pawn is stuck.
    race_proves_exact_win("8/8/3p4/p7/P3P2P/5P2/5P2/8 w -", 7);
}

#[test]
fn a_pawn_with_room_ahead_of_it_must_use_it_up_before_stalemate() {
    // As above, black has three turns before h8. Its d-pawn can block
    // itself in within two moves (d5, dxe4); its c-pawn, against c3 with
    // two empty squares between, needs two more; the a-pawn is stuck.
    race_proves_exact_win("8/8/2pp4/p7/P3P2P/2P1P3/8/8 w -", 7);
}

#[test]
fn the_race_verdict_bounds_the_distance_either_way() {
    // White's c-pawn promotes on its fourth move, black's h-pawn on its
    // fifth: white to move wins within 7 plies, black to move loses within 8.
    let verdict = |text: &str| race_verdict(&Position::from_fen(text, RuleSet::PAWNRACE).unwrap());
    assert_eq!(verdict("8/8/7p/8/2P5/8/8/8 w -"), Some((Value::Win, 7)));
    assert_eq!(verdict("8/8/7p/8/2P5/8/8/8 b -"), Some((Value::Loss, 8)));
    // The exact value agrees: the bound is the distance here.
    let (_, value, plies) = race_and_exact("8/8/7p/8/2P5/8/8/8 b -");
    assert_eq!((value, plies), (Value::Loss, 8));
    // Pawns that can meet prove nothing.
    assert_eq!(verdict("8/3p4/8/8/8/8/4P3/8 w -"), None);
}

#[test]
fn a_profile_counts_every_node_of_the_solves_while_it_is_on() {
    let pos = Position::from_fen("8/2p3pp/8/1p6/8/P5P1/1P5P/8 w -", RuleSet::PAWNRACE).unwrap();
    let limits = SolveLimits::default();
    let stop = Stop::new();
    let mut solver = Solver::new(1);
    assert!(solver.profile().is_none());
    solver.set_profiling(true);
    solver.solve(&pos, &limits, &stop, &mut |_| {}).unwrap();
    let first = solver.last_nodes();
    solver.clear();
    solver.solve(&pos, &limits, &stop, &mut |_| {}).unwrap();
    let profile = solver.profile().unwrap();
    // Both solves, each node once; some expanded, some not.
    assert_eq!(profile.nodes(), first + solver.last_nodes());
    assert_eq!(profile.by_groups.iter().sum::<u64>(), profile.nodes());
    assert!(profile.expanded > 0 && profile.expanded < profile.nodes());
    solver.set_profiling(false);
    assert!(solver.profile().is_none());
}

/// Solves that read proven values where the table knows nothing give the
/// exact answer: a third of the positions brute force has seen held as a
/// value alone, a third with the distance too (mirrors and all), the rest
/// proved by the search around them.
#[test]
fn solves_reading_known_values_agree_with_brute_force() {
    let mut rng = Rng::new(&[43]);
    let mut memo = HashMap::new();
    for (rules, max) in small_rule_sets() {
        memo.clear();
        let mut positions = Vec::new();
        while positions.len() < 12 {
            let Some(pos) = random_position(&mut rng, rules, max) else {
                continue;
            };
            if terminal_score(&pos).is_none() {
                minimax(&pos, &mut memo);
                positions.push(pos);
            }
        }
        let held = memo
            .iter()
            .enumerate()
            .filter_map(|(i, (pos, &(value, plies)))| {
                (i % 3 != 2).then_some((*pos, value, (i % 3 == 1).then_some(plies)))
            });
        let known: &'static Known = Box::leak(Box::new(Known::new(rules, held)));
        assert!(!known.is_empty());
        let mut solver = Solver::new(1);
        solver.set_known(Some(known));
        let stop = Stop::new();
        for pos in &positions {
            let proven = solver
                .solve(pos, &SolveLimits::default(), &stop, &mut |_| {})
                .unwrap();
            let plies = proven.plies.unwrap();
            let exact = minimax(pos, &mut memo);
            let got = if proven.value == Value::Draw {
                (Value::Draw, exact.1)
            } else {
                (proven.value, plies)
            };
            assert_eq!(got, exact, "{}", pos.fen());
            assert_line_keeps(pos, &proven.line, &mut memo);
        }
    }
}

/// Every move of `line` from `pos` keeps the exact score (brute force's),
/// and the line ends the game.
fn assert_line_keeps(pos: &Position, line: &[Move], memo: &mut HashMap<Position, (Value, u32)>) {
    let mut at = *pos;
    for &m in line {
        assert!(at.legal_moves().contains(&m), "{} {m:?}", at.fen());
        let next = at.play_unchecked(m);
        let (parent, child) = (score(minimax(&at, memo)), score(minimax(&next, memo)));
        assert_eq!(relative::up(child), parent, "{} then {m:?}", at.fen());
        at = next;
    }
    assert!(
        terminal_score(&at).is_some(),
        "{} does not end the game",
        at.fen()
    );
}

//! Perfect play's unit tests: the solver's share, the proof tables' lines,
//! and what the engine plays from what the solver's table proves.

use super::{Course, SEARCH_MS, from_bounds, solver_share};
use crate::engine::time::Clock;
use crate::engine::{Engine, Limits, Progress, Score};
use crate::proofs::book::Book;
use crate::proofs::known_in;
use crate::proofs::openings::Openings;
use crate::rules::{Position, RuleSet, parse_move};
use crate::solver::{MoveBounds, SolveLimits, SolvePhase, Solver, Standing, Value};
use crate::stop::Stop;

#[test]
fn the_search_keeps_its_time_and_the_solver_gets_the_rest() {
    assert_eq!(solver_share(1000), 1000 - SEARCH_MS);
    assert_eq!(solver_share(5000), 5000 - SEARCH_MS);
    // Short moves: half, and never nothing.
    assert_eq!(solver_share(200), 200 - SEARCH_MS);
    assert_eq!(solver_share(100), 50);
    assert_eq!(solver_share(150), 75);
    assert_eq!(solver_share(1), 1);
}

#[test]
fn the_table_answers_along_its_lines_only() {
    let text = "AH white 3 pv b2b4 a7a5 b4b5\n";
    let table = Openings::parse(text).unwrap();
    let book = Book::default();
    let known = |pos: &Position| known_in(pos, &table, |p| book.get(p));
    let start = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
    let e = known(&start).unwrap();
    assert_eq!(
        (e.value, e.plies, e.line[0].to_string()),
        (Value::Win, Some(3), "b2b4".to_string())
    );
    let other = Position::start(RuleSet::PAWNRACE, Some("BH".parse().unwrap())).unwrap();
    assert!(known(&other).is_none());
    // One ply along the line, black to move, is a loss in two.
    let on_line = start.play_unchecked(parse_move(&start, "b2b4").unwrap());
    let e = known(&on_line).unwrap();
    assert_eq!(
        (e.value, e.plies, e.line[0].to_string()),
        (Value::Loss, Some(2), "a7a5".to_string())
    );
    let off_line = start.play_unchecked(parse_move(&start, "c2c4").unwrap());
    assert!(known(&off_line).is_none());
}

fn bounds(pos: &Position, list: &[(&str, Value, Value)]) -> Vec<MoveBounds> {
    list.iter()
        .map(|&(m, at_least, at_most)| MoveBounds {
            mv: parse_move(pos, m).unwrap(),
            at_least,
            at_most,
        })
        .collect()
}

/// Without a proof of the position, single moves' proofs still count:
/// a proven win is played, then a move proven to hold the draw, and
/// failing both, proven-worse moves are left to one side.
#[test]
fn proven_wins_then_held_draws_are_played_and_worse_moves_avoided() {
    use Value::{Draw, Loss, Win};
    let pos = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
    let clock = Clock::since(std::time::Instant::now());
    let outcome = |list: &[(&str, Value, Value)]| {
        let mut seen = Vec::new();
        let proof = from_bounds(&pos, &bounds(&pos, list), 7, &clock, &mut |i| {
            seen.push(i.proven.map(|p| p.to_string()))
        });
        match proof {
            Course::Search { avoid } => {
                assert!(seen.is_empty());
                let avoided: Vec<String> = avoid.iter().map(|m| m.to_string()).collect();
                format!("search avoiding [{}]", avoided.join(" "))
            }
            Course::Play(r) => {
                let best = r.best.map(|m| m.to_string()).unwrap_or_default();
                format!("play {best} {:?} {}", seen, r.score)
            }
        }
    };
    // A move that cannot beat a draw, beside moves that may still win.
    let capped = [
        ("b2b3", Loss, Win),
        ("c2c3", Loss, Draw),
        ("c2c4", Loss, Win),
    ];
    assert_eq!(outcome(&capped), "search avoiding []");
    // A proven loss beside a move that may yet hold.
    let hope = [("b2b3", Loss, Win), ("c2c3", Loss, Loss)];
    assert_eq!(outcome(&hope), "search avoiding [c2c3]");
    // Every move lost: none is worse than another.
    let lost = [("b2b3", Loss, Loss), ("c2c3", Loss, Loss)];
    assert_eq!(outcome(&lost), "search avoiding []");
    // A proven win is played at once, announced without a distance.
    let won = [("b2b3", Loss, Win), ("c2c3", Win, Win)];
    assert_eq!(outcome(&won), "play c2c3 [Some(\"win\")] cp 20000");
    // A move proven to hold the draw is played, unannounced, as level:
    // one the win proof has not refuted before one it has.
    let held = [
        ("b2b3", Draw, Draw),
        ("b2b4", Loss, Win),
        ("c2c3", Draw, Win),
        ("c2c4", Loss, Loss),
    ];
    assert_eq!(outcome(&held), "play c2c3 [None] cp 0");
    // Only exact draws are held: one of them, rather than a guess.
    let drawn = [
        ("b2b3", Loss, Win),
        ("c2c3", Draw, Draw),
        ("c2c4", Loss, Loss),
    ];
    assert_eq!(outcome(&drawn), "play c2c3 [None] cp 0");
}

/// A decided book entry (AE after 1. d3 a6 2. e3 h6: a win, distance
/// unproven) is played, announced as a win without a distance, and its
/// file mirror too. (The nodes are the proof of the position after it:
/// see the next test.)
#[test]
fn a_decided_book_entry_is_played_without_a_distance() {
    let pos =
        Position::from_fen("8/1ppp1pp1/p6p/8/8/3PP3/1PP2PPP/8 w -", RuleSet::PAWNRACE).unwrap();
    let stop = Stop::new();
    let mut engine = Engine::new(1);
    let limits = Limits {
        movetime_ms: Some(60_000),
        ..Limits::default()
    };
    for (pos, want) in [(pos, "h2h4"), (pos.mirror_files(), "a2a4")] {
        let mut proofs = Vec::new();
        let r = engine.search(&pos, &limits, &stop, &mut |i| proofs.push(i.proven));
        assert_eq!(
            proofs,
            [Some(Standing::new(Value::Win, None))],
            "{}",
            pos.fen()
        );
        assert_eq!(r.best.map(|m| m.to_string()), Some(want.into()));
    }
}

/// A move from the tables leaves its time to the next move: where some
/// reply leads out of the tables, the solver proves the position after
/// the move, and the next move finds that proof in its table. Where every
/// reply leads into the tables, the move comes at once, as before.
#[test]
fn a_tables_move_proves_the_position_after_it_where_a_reply_leaves_the_tables() {
    let limits = Limits {
        movetime_ms: Some(60_000),
        ..Limits::default()
    };
    let stop = Stop::new();
    let pos = Position::from_fen(
        "8/1p1p1p1p/2p1p1p1/2P5/P7/8/1P2PPPP/8 w -",
        RuleSet::PAWNRACE,
    )
    .unwrap();
    let book = crate::proofs::known(&pos).expect("a book position").line[0];
    let after = pos.play_unchecked(book);
    assert!(super::ahead::leaves_the_tables(&after, true));
    let quick = SolveLimits {
        nodes: Some(500),
        movetime_ms: None,
    };
    let fresh = Solver::new(1).decide(&after, &quick, &stop);
    assert!(fresh.is_none(), "a fresh solver needs more than 500 nodes");

    let mut engine = Engine::new(1);
    let r = engine.search(&pos, &limits, &stop, &mut |_| {});
    assert_eq!(r.best, Some(book));
    assert!(r.nodes > 0, "the position after the move proved");
    let next = engine.solver().decide(&after, &quick, &stop);
    assert_eq!(next.map(|d| d.value), Some(Value::Loss));

    // At the start every reply to the openings table's move leads into
    // the book: nothing to prove ahead.
    let start = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
    let line = crate::proofs::known(&start)
        .expect("the openings table")
        .line[0];
    assert!(!super::ahead::leaves_the_tables(
        &start.play_unchecked(line),
        true
    ));
    let r = engine.search(&start, &limits, &stop, &mut |_| {});
    assert_eq!((r.best, r.nodes), (Some(line), 0));
}

/// A won race with the clock running: the engine proves it, says so, and
/// plays the winning move; with only a depth it just searches.
#[test]
fn a_clock_buys_a_proof() {
    // White's h-pawn needs four moves, black's a-pawn five.
    let pos = Position::from_fen("8/p7/8/8/7P/8/8/8 w -", RuleSet::PAWNRACE).unwrap();
    let stop = Stop::new();
    let mut engine = Engine::new(1);
    let mut proofs = Vec::new();
    let limits = Limits {
        movetime_ms: Some(2000),
        ..Limits::default()
    };
    let mut told = Vec::new();
    let since = std::time::Instant::now();
    let r = engine.search_reporting(since, &pos, &limits, &stop, &mut |p| match p {
        Progress::Search(i) => proofs.push(i.proven),
        Progress::Solve(p) => told.push(p.phase),
    });
    assert_eq!(proofs, [Some(Standing::new(Value::Win, Some(7)))]);
    // The decision ends in the value proven, which the distance's proof,
    // starting from it, does not tell again.
    assert!(
        matches!(
            told[0],
            SolvePhase::Distance {
                value: Value::Win,
                ..
            }
        ),
        "{told:?}"
    );
    assert!(
        told.windows(2)
            .all(|w| w[0] != w[1] || matches!(w[0], SolvePhase::Line { .. })),
        "{told:?}"
    );
    assert_eq!(r.best.map(|m| m.to_string()), Some("h4h5".into()));
    assert_eq!(r.score, Score::Mate(4));
    let mut proofs = Vec::new();
    let depth = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    engine.search(&pos, &depth, &stop, &mut |i| proofs.push(i.proven));
    assert!(proofs.iter().all(Option::is_none));
}

/// The whole game with black to move first: no table knows it, and no
/// decision comes within a move's time.
const UNKNOWN: &str = "8/1ppppppp/8/8/8/8/PPPPPPP1/8 b -";

/// A go that proves before it searches tells the solver's progress first,
/// counted over the whole go, and the search's lines after count the
/// solver's nodes with the search's own.
#[test]
fn a_proof_is_told_as_it_goes_and_counted_in_the_search() {
    let pos = Position::from_fen(UNKNOWN, RuleSet::PAWNRACE).unwrap();
    let limits = Limits {
        movetime_ms: Some(1500),
        ..Limits::default()
    };
    let mut engine = Engine::new(16);
    let (mut solving, mut lines) = (Vec::new(), Vec::new());
    let since = std::time::Instant::now();
    let r = engine.search_reporting(since, &pos, &limits, &Stop::new(), &mut |p| match p {
        Progress::Solve(p) => {
            assert!(lines.is_empty(), "the proof comes before the search");
            solving.push(*p);
        }
        Progress::Search(i) => lines.push(i.clone()),
    });
    let told = solving.last().expect("the solver's progress is told");
    assert!(
        solving
            .windows(2)
            .all(|w| w[0].nodes <= w[1].nodes && w[0].time_ms <= w[1].time_ms),
        "{solving:?}"
    );
    let last = lines.last().expect("the search's lines");
    assert!(last.nodes >= told.nodes, "{last:?} after {told:?}");
    assert!(r.nodes >= last.nodes, "{r:?} after {last:?}");
    assert_eq!(last.nps(), last.nodes * 1000 / last.time_ms.max(1));
    // Without a clock nothing is proven, and nothing but the search told.
    let depth = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut solving = 0;
    engine.search_reporting(since, &pos, &depth, &Stop::new(), &mut |p| {
        solving += matches!(p, Progress::Solve(_)) as u32
    });
    assert_eq!(solving, 0);
}

/// Where black's choice of gaps proves (on a board no openings table
/// covers, every pair's start is searched with a clock), the proofs'
/// progress is told over the whole choice: nodes and time only grow.
#[test]
fn a_choice_of_gaps_tells_its_proofs() {
    let rules = RuleSet::new(4, 6, 1, true, true, true, crate::rules::NoMoves::Draw).unwrap();
    let limits = Limits {
        movetime_ms: Some(400),
        ..Limits::default()
    };
    let mut told = Vec::new();
    let since = std::time::Instant::now();
    Engine::new(4)
        .choose_gaps_reporting(since, &rules, &limits, &Stop::new(), &mut |p| told.push(*p));
    assert!(told.len() > 1, "{told:?}");
    assert!(
        told.windows(2)
            .all(|w| w[0].nodes <= w[1].nodes && w[0].time_ms <= w[1].time_ms),
        "{told:?}"
    );
}

fn mv(pos: &Position, text: &str) -> crate::rules::Move {
    parse_move(pos, text).unwrap()
}

#[test]
fn searchmoves_keep_a_proven_move_among_them_and_leave_out_the_rest() {
    use super::within_searchmoves;
    let pos = Position::from_fen("8/p7/8/3p4/8/3P4/7P/8 w -", RuleSet::PAWNRACE).unwrap();
    let (h4, h3, d4) = (mv(&pos, "h2h4"), mv(&pos, "h2h3"), mv(&pos, "d3d4"));
    let played = || {
        Course::Play(crate::engine::SearchResult {
            best: Some(h4),
            score: Score::Cp(0),
            depth: 1,
            nodes: 0,
            pv: vec![h4],
        })
    };
    // None named: as it was.
    assert!(matches!(
        within_searchmoves(played(), &pos, &[]),
        Course::Play(_)
    ));
    // The proven move among them: played.
    assert!(matches!(
        within_searchmoves(played(), &pos, &[h4, d4]),
        Course::Play(_)
    ));
    // Not among them: a search that leaves out every other move.
    let Course::Search { avoid } = within_searchmoves(played(), &pos, &[h3, d4]) else {
        panic!("a search")
    };
    assert_eq!(avoid, [h4]);
    // What the proofs showed worse is left out too, unless it is all of them.
    let worse = || Course::Search { avoid: vec![h3] };
    let Course::Search { avoid } = within_searchmoves(worse(), &pos, &[h3, d4]) else {
        panic!("a search")
    };
    assert_eq!(avoid.len(), 2);
    assert!(avoid.contains(&h3) && avoid.contains(&h4));
    let Course::Search { avoid } = within_searchmoves(worse(), &pos, &[h3]) else {
        panic!("a search")
    };
    assert!(avoid.contains(&h4) && avoid.contains(&d4) && !avoid.contains(&h3));
}

#[test]
fn go_mate_plays_the_proven_win_or_proves_there_is_none() {
    let mut engine = Engine::new(16);
    let pos = Position::from_fen("8/p7/8/3p4/8/3P4/7P/8 w -", RuleSet::PAWNRACE).unwrap();
    let mate = |n| Limits {
        mate: Some(n),
        ..Limits::default()
    };
    let found = engine.search(&pos, &mate(5), &Stop::new(), &mut |_| {});
    assert_eq!(found.best, Some(mv(&pos, "h2h4")));
    assert_eq!(found.score, Score::Mate(5));
    // No mate in 4 moves: the proven win in 5 is played all the same, and
    // its score says how far it is.
    let longer = engine.search(&pos, &mate(4), &Stop::new(), &mut |_| {});
    assert_eq!(longer.best, Some(mv(&pos, "h2h4")));
    assert_eq!(longer.score, Score::Mate(5));
}

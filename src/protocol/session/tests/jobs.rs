//! Jobs: `go` and `solve` on the board, and the lines that come while
//! one runs (`stop`, `quit`, queued commands, the end of input).

use super::*;

/// A session on the AH start, running the job that `go` (`go infinite`,
/// `go depth 2`, ...) started.
fn searching(go: &str) -> (Session, Box<Job>) {
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["position startpos gaps AH"]);
    let Action::Run(job) = s.handle_line(go) else {
        panic!("{go} must start a job")
    };
    (s, job)
}

#[test]
fn go_plays_the_engine_move_on_the_board() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &["position startpos gaps AH", "go depth 2", "board"],
    );
    let bestmove = out.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    assert!(out.iter().any(|l| l.starts_with("info depth 1 ")));
    assert!(out.iter().any(|l| l == "side black"), "{out:?}");
    assert!(
        out.iter().any(|l| l.starts_with("history 1. ")),
        "{bestmove}"
    );
}

#[test]
fn go_before_gaps_lets_the_engine_choose_them() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(&mut s, &["newgame", "go depth 1", "fen"]);
    assert!(out[1].starts_with("ok gaps "), "{out:?}");
    assert!(out[2].starts_with("ok fen ") && out[2].ends_with(" w -"));
}

#[test]
fn while_busy_stop_and_quit_answer_after_the_job() {
    let (mut s, job) = searching("go infinite");
    assert!(s.is_busy());
    assert!(matches!(s.handle_line("isready"), Action::Reply(l) if text(&l) == ["readyok"]));
    assert!(!s.stop_requested());
    assert!(matches!(s.handle_line("STOP"), Action::Reply(l) if l.is_empty()));
    assert!(s.stop_requested());
    assert!(matches!(s.handle_line("quit"), Action::Reply(l) if l.is_empty()));
    let done = job.run(&mut |_| {});
    let Action::Quit(lines) = s.finish(done) else {
        panic!("quit was pending")
    };
    let lines = text(&lines);
    assert_eq!(finals(&lines)[1..], ["ok stop", "ok bye"]);
    assert!(lines[0].starts_with("bestmove ") && lines[0] != "bestmove (none)");
}

#[test]
fn lines_sent_during_a_job_wait_their_turn() {
    let (mut s, job) = searching("go depth 2");
    // Queued: no answer yet, and no error.
    for line in ["fen", "bogus", "go depth 1", "board"] {
        assert!(matches!(s.handle_line(line), Action::Reply(l) if l.is_empty()));
    }
    assert!(matches!(s.handle_line("isready"), Action::Reply(l) if text(&l) == ["readyok"]));
    let mut out = Vec::new();
    settle(&mut s, Action::Run(job), &mut out);
    let finals = finals(&out);
    assert!(finals[0].starts_with("bestmove "));
    // The fen after white's move, then the error, black's move, the board.
    assert!(finals[1].starts_with("ok fen ") && finals[1].ends_with(" b -"));
    assert!(finals[2].starts_with("error unknown-command"));
    assert!(finals[3].starts_with("bestmove "));
    assert_eq!(finals.last(), Some(&"ok board"));
    assert!(s.next_queued().is_none());
}

#[test]
fn quit_with_lines_queued_runs_them_first() {
    let (mut s, job) = searching("go infinite");
    s.handle_line("fen");
    s.handle_line("go infinite");
    s.handle_line("quit");
    // quit stops the running search; the queued infinite one is stopped as
    // it starts, so the session ends.
    assert!(s.stop_requested());
    let mut out = Vec::new();
    settle(&mut s, Action::Run(job), &mut out);
    let finals = finals(&out);
    assert!(finals[0].starts_with("bestmove "));
    assert!(finals[1].starts_with("ok fen "));
    assert!(finals[2].starts_with("bestmove "));
    assert_eq!(finals[3], "ok bye");
}

#[test]
fn the_end_of_input_lets_bounded_work_finish() {
    let (mut s, job) = searching("go depth 3");
    s.handle_line("go infinite");
    s.end_input();
    assert!(!s.stop_requested(), "a bounded search finishes");
    let done = job.run(&mut |_| {});
    assert!(
        matches!(s.finish(done), Action::Reply(l) if l[0].to_string().starts_with("bestmove "))
    );
    let Some(Action::Run(infinite)) = s.next_queued() else {
        panic!("the queued go runs")
    };
    assert!(
        s.stop_requested(),
        "an unbounded one is stopped as it starts"
    );
    let done = infinite.run(&mut |_| {});
    assert!(
        matches!(s.finish(done), Action::Reply(l) if l[0].to_string().starts_with("bestmove "))
    );
    assert!(s.awaits_input());
}

#[test]
fn go_plays_at_once_from_what_solve_proved() {
    let mut s = Session::new(SessionOptions::default());
    // Off the proof tables' positions, so that the solver proves it.
    let fen = "8/1pp1p1p1/8/3p1p2/p2P3P/2P3P1/1P2PP2/8 w -";
    let nodes_of = |line: &str| -> u64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words.iter().position(|w| *w == "nodes").expect("nodes");
        words[i + 1].parse().expect("a count")
    };
    let out = drive(&mut s, &[&format!("position fen {fen}"), "solve"]);
    let solved = out.iter().rev().find(|l| l.starts_with("info nodes"));
    let solve_nodes = nodes_of(solved.expect("solve reports its nodes"));
    assert!(out.last().unwrap().starts_with("solution white plies 21 "));
    assert!(solve_nodes > 10_000, "{solve_nodes}");
    let out = drive(&mut s, &["go movetime 2000"]);
    let i = out
        .iter()
        .position(|l| l == "info string proven win in 21 plies")
        .expect("a proof");
    // The proof comes from the table `solve` left, not from a new search.
    assert!(nodes_of(&out[i + 1]) < solve_nodes / 10, "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}

#[test]
fn multipv_reports_the_best_lines_with_different_first_moves() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "setoption name MultiPV value 3",
            "position startpos gaps AH moves b2b3 g7g6 c2c3",
            "go depth 3",
        ],
    );
    let at_depth_3: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .collect();
    assert_eq!(at_depth_3.len(), 3, "{out:?}");
    let word_after = |line: &str, key: &str| -> String {
        let words: Vec<&str> = line.split(' ').collect();
        let at = words.iter().position(|w| *w == key).unwrap();
        words[at + 1].to_string()
    };
    let lines: Vec<String> = at_depth_3
        .iter()
        .map(|l| word_after(l, "multipv"))
        .collect();
    assert_eq!(lines, ["1", "2", "3"]);
    let firsts: std::collections::HashSet<String> =
        at_depth_3.iter().map(|l| word_after(l, "pv")).collect();
    assert_eq!(firsts.len(), 3, "{at_depth_3:?}");
    let scores: Vec<i32> = at_depth_3
        .iter()
        .map(|l| word_after(l, "cp").parse().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // The move played is the first line's.
    let best = word_after(at_depth_3[0], "pv");
    assert_eq!(out.last().unwrap(), &format!("bestmove {best}"));
}

#[test]
fn a_stopped_explore_lists_every_move_once_the_rest_unknown() {
    let mut s = Session::new(SessionOptions::default());
    drive(
        &mut s,
        &["position startpos gaps AE moves e2e4 a7a5 e4e5 a5a4 c2c4"],
    );
    let Action::Run(job) = s.handle_line("explore") else {
        panic!("explore must start a job")
    };
    assert!(matches!(s.handle_line("isready"), Action::Reply(l) if text(&l) == ["readyok"]));
    assert!(matches!(s.handle_line("stop"), Action::Reply(l) if l.is_empty()));
    let mut lines = Vec::new();
    let done = job.run(&mut |l| lines.push(l.to_string()));
    let Action::Reply(end) = s.finish(done) else {
        panic!("explore ends in a reply")
    };
    lines.extend(text(&end));
    let moves: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("explore move "))
        .collect();
    assert_eq!(moves.len(), 13, "{lines:?}");
    assert!(
        moves
            .iter()
            .all(|l| l.ends_with(" value unknown source none"))
    );
    assert_eq!(
        finals(&lines),
        ["ok explore moves 13 unknown 13 stopped", "ok stop"]
    );
}

/// A `go` whose proof takes its time tells the proof's progress as `solve`
/// does, before `bestmove`, and the search's lines count the solver's
/// nodes too.
#[test]
fn a_go_tells_its_proof_as_it_goes() {
    let mut s = Session::new(SessionOptions::default());
    // The whole game, black to move first: no table knows it.
    let out = drive(
        &mut s,
        &[
            "position fen 8/1ppppppp/8/8/8/8/PPPPPPP1/8 b -",
            "go movetime 2000",
        ],
    );
    let at = |pred: &dyn Fn(&str) -> bool| out.iter().position(|l| pred(l));
    let deciding = at(&|l| l.starts_with("info nodes ") && l.ends_with(" string deciding"))
        .unwrap_or_else(|| panic!("no progress: {out:?}"));
    let bestmove = at(&|l| l.starts_with("bestmove ")).unwrap();
    assert!(deciding < bestmove, "{out:?}");
    let nodes = |l: &str| -> u64 {
        let words: Vec<&str> = l.split(' ').collect();
        let i = words.iter().position(|w| *w == "nodes").unwrap();
        words[i + 1].parse().unwrap()
    };
    let last = out[..bestmove]
        .iter()
        .rfind(|l| l.starts_with("info depth "))
        .unwrap();
    assert!(nodes(last) >= nodes(&out[deciding]), "{out:?}");
}

#[test]
fn solve_answers_from_the_tables_where_they_hold_the_distance() {
    let mut s = Session::new(SessionOptions::default());
    // The openings table's line for gaps AB: at once, whatever the budget.
    let out = drive(&mut s, &["position startpos gaps AB", "solve nodes 1"]);
    assert!(
        out.contains(&"info string proven by the openings table".to_string()),
        "{out:?}"
    );
    assert!(!out.iter().any(|l| l.starts_with("info nodes")), "{out:?}");
    assert!(
        out.last()
            .unwrap()
            .starts_with("solution white plies 31 pv d2d4 "),
        "{out:?}"
    );
    // A book position with its distance.
    let out = drive(
        &mut s,
        &["position startpos gaps AB moves d2d4 a7a6", "solve nodes 1"],
    );
    assert!(
        out.contains(&"info string proven by the book".to_string()),
        "{out:?}"
    );
    assert!(
        out.last().unwrap().starts_with("solution white plies 27 "),
        "{out:?}"
    );
    // Known only by its value: the solver, which reads that value (the win
    // is proven within a few nodes) and proves the distance, for which its
    // budget here runs out.
    let out = drive(
        &mut s,
        &[
            "position startpos gaps AH moves g2g3 a7a6 e2e3 b7b6",
            "solve nodes 1000",
        ],
    );
    let first = out.iter().find(|l| l.starts_with("info nodes ")).unwrap();
    let nodes: u64 = first.split(' ').nth(2).unwrap().parse().unwrap();
    assert!(nodes < 10 && first.contains("string win proven"), "{out:?}");
    assert_eq!(out.last().unwrap(), "solution unknown", "{out:?}");
}

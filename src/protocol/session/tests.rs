//! The session driven line by line, jobs run inline.

use super::*;

/// Feeds lines to a session, running any job inline, and returns every
/// line written.
fn drive(session: &mut Session, lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let mut action = session.handle_line(line);
        loop {
            match action {
                Action::Reply(l) | Action::Quit(l) => {
                    out.extend(text(&l));
                    break;
                }
                Action::Run(job) => {
                    let done = job.run(&mut |l| out.push(l.to_string()));
                    action = session.finish(done);
                }
            }
        }
    }
    out
}

/// The lines as the peer reads them.
fn text(lines: &[Reply]) -> Vec<String> {
    lines.iter().map(Reply::to_string).collect()
}

fn finals(out: &[String]) -> Vec<&str> {
    out.iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("info "))
        .collect()
}

#[test]
fn a_game_from_gaps_to_undo() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "newgame",
            "gaps ah",
            "move e2e4",
            "move d5",
            "fen",
            "undo",
            "fen",
        ],
    );
    assert_eq!(
        out,
        [
            "ok newgame pawnrace awaiting gaps",
            "ok gaps AH",
            "ok move e2e4 san e4",
            "ok move d7d5 san d5",
            "ok fen 8/ppp1ppp1/8/3p4/4P3/8/1PPP1PPP/8 w -",
            "ok undo d7d5 san d5",
            "ok fen 8/ppppppp1/8/8/4P3/8/1PPP1PPP/8 b -",
        ]
    );
}

#[test]
fn errors_have_codes_and_change_nothing() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "move e2e4",
            "gaps AH",
            "move e2e5",
            "move zz",
            "move e2e4",
            "gaps BG",
            "undo",
            "undo",
        ],
    );
    let codes: Vec<&str> = out
        .iter()
        .map(|l| l.split(' ').take(2).last().unwrap_or(""))
        .collect();
    assert_eq!(
        codes,
        [
            "wrong-state",
            "gaps",
            "illegal-move",
            "bad-argument",
            "move",
            "wrong-state",
            "undo",
            "wrong-state"
        ]
    );
}

#[test]
fn a_winning_move_says_so_and_ends_the_game() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "position fen 8/4P3/8/8/8/8/p7/8 w -",
            "move e8",
            "move a1",
            "go depth 1",
        ],
    );
    assert_eq!(out[1], "ok move e7e8 san e8 result white-wins promotion e8");
    assert!(
        out[2].starts_with("error game-over the game is over: white wins"),
        "{}",
        out[2]
    );
    assert_eq!(out[3], "bestmove (none)");
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
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["position startpos gaps AH"]);
    let Action::Run(job) = s.handle_line("go infinite") else {
        panic!("go must start a job")
    };
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

/// Runs the session's actions as the server does: a job to its end, then
/// whatever waited behind it.
fn settle(s: &mut Session, mut action: Action, out: &mut Vec<String>) {
    loop {
        match action {
            Action::Reply(l) => out.extend(text(&l)),
            Action::Quit(l) => {
                out.extend(text(&l));
                return;
            }
            Action::Run(job) => {
                let done = job.run(&mut |_| {});
                action = s.finish(done);
                continue;
            }
        }
        match s.next_queued() {
            Some(next) => action = next,
            None => return,
        }
    }
}

#[test]
fn lines_sent_during_a_job_wait_their_turn() {
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["position startpos gaps AH"]);
    let Action::Run(job) = s.handle_line("go depth 2") else {
        panic!("go must start a job")
    };
    // Queued: no answer yet, and no error.
    for line in ["fen", "bogus", "go depth 1", "board"] {
        assert!(matches!(s.handle_line(line), Action::Reply(l) if l.is_empty()));
    }
    assert!(matches!(s.handle_line("isready"), Action::Reply(l) if text(&l) == ["readyok"]));
    let done = job.run(&mut |_| {});
    let first = s.finish(done);
    let mut out = Vec::new();
    settle(&mut s, first, &mut out);
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
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["position startpos gaps AH"]);
    let Action::Run(job) = s.handle_line("go infinite") else {
        panic!("go must start a job")
    };
    s.handle_line("fen");
    s.handle_line("go infinite");
    s.handle_line("quit");
    // quit stops the running search; the queued infinite one is stopped as
    // it starts, so the session ends.
    assert!(s.stop_requested());
    let done = job.run(&mut |_| {});
    let first = s.finish(done);
    let mut out = Vec::new();
    settle(&mut s, first, &mut out);
    let finals = finals(&out);
    assert!(finals[0].starts_with("bestmove "));
    assert!(finals[1].starts_with("ok fen "));
    assert!(finals[2].starts_with("bestmove "));
    assert_eq!(finals[3], "ok bye");
}

#[test]
fn the_end_of_input_lets_bounded_work_finish() {
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["position startpos gaps AH"]);
    let Action::Run(job) = s.handle_line("go depth 3") else {
        panic!("go must start a job")
    };
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
fn perft_lists_root_moves_then_the_total() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(&mut s, &["position startpos gaps AH", "perft 3"]);
    assert_eq!(out.len(), 1 + 14 + 1);
    assert_eq!(out.last().unwrap(), "ok nodes 2554");
    assert!(out[1..15].iter().all(|l| l.contains(": ")));
}

#[test]
fn mini4_plays_without_gaps() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "newgame mini4",
            "gaps AB",
            "moves",
            "position fen pppp/..../..../PPPP w -",
            "perft 2",
        ],
    );
    assert_eq!(out[0], "ok newgame mini4");
    assert!(out[1].starts_with("error wrong-state mini4 has no gaps"));
    assert_eq!(out[6], "ok moves 4");
    assert_eq!(out[7], "ok position pppp/4/4/PPPP w -");
    assert_eq!(out.last().unwrap(), "ok nodes 16");
}

#[test]
fn a_refused_position_leaves_no_position() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "position startpos gaps AH moves e2e4",
            "position startpos gaps AH moves e2e4 e7e4",
            "fen",
            "go movetime 50",
            "position startpos gaps AH moves e2e4",
            "position startpos gaps ZZ",
            "fen",
            "position startpos gaps AH",
            "fen",
        ],
    );
    assert_eq!(
        out[1],
        "error illegal-move move 2 (e7e4): e7e4 is not legal here (black to move)"
    );
    // The old game is gone: no move is played for it.
    let gone = "error wrong-state no position: the last position command was refused";
    assert!(out[2].starts_with(gone), "{}", out[2]);
    assert!(out[3].starts_with(gone), "{}", out[3]);
    // A position that does not even parse replaces the game too.
    assert!(out[5].starts_with("error bad-argument"), "{}", out[5]);
    assert!(out[6].starts_with(gone), "{}", out[6]);
    assert_eq!(out[8], "ok fen 8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -");
}

#[test]
fn uci_mode_answers_as_uci_does() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "uci",
            "setoption name Gaps value AH",
            "ucinewgame",
            "position startpos moves h2h4",
            "isready",
            "position fen 8/8/8 w -",
            "go depth 2",
            "setoption name Gaps value none",
            "position startpos",
            "go depth 2",
            "stop",
            "quit",
        ],
    );
    let from = out.iter().position(|l| l == "uciok").unwrap() + 1;
    let told = |l: &&String| {
        !l.starts_with("info ")
            || ["error", "gaps"]
                .iter()
                .any(|w| l.starts_with(&format!("info string {w}")))
    };
    let out: Vec<&str> = out[from..]
        .iter()
        .filter(told)
        .map(String::as_str)
        .collect();
    assert_eq!(
        out[0], "readyok",
        "position, setoption, ucinewgame say nothing"
    );
    assert!(
        out[1].starts_with("info string error bad-position "),
        "{}",
        out[1]
    );
    assert!(
        out[2].starts_with("info string error wrong-state "),
        "{}",
        out[2]
    );
    assert_eq!(out[3], "bestmove (none)");
    // Without gaps, the engine chooses them and plays white's first move.
    assert_eq!(out[4], "info string gaps AF");
    assert!(out[5].starts_with("bestmove ") && out[5] != "bestmove (none)");
    assert_eq!(out.len(), 6, "stop and quit say nothing: {out:?}");
}

#[test]
fn options() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "setoption name hash value 32",
            "setoption name Hash value 0",
            "setoption name Contempt value 20",
            "setoption name move overhead value 100",
            "setoption name Move Overhead value -1",
            "setoption name Move Overhead",
        ],
    );
    assert_eq!(out[0], "ok setoption Hash 32");
    assert_eq!(out[1], "error bad-argument Hash takes MiB from 1 to 1024");
    assert_eq!(
        out[2],
        "error bad-argument unknown option 'Contempt' (known: Hash, Move Overhead, Threads, Ponder, MultiPV, Gaps, UCI_Variant)"
    );
    assert_eq!(out[3], "ok setoption Move Overhead 100");
    assert_eq!(
        out[4],
        "error bad-argument Move Overhead takes milliseconds from 0 to 5000"
    );
    assert_eq!(out[5], out[4]);
}

#[test]
fn go_plays_at_once_from_what_solve_proved() {
    let mut s = Session::new(SessionOptions::default());
    let fen = "8/1pp1p1p1/8/3p1p1P/p2P4/2P3P1/1P2PP2/8 w -";
    let nodes_of = |line: &str| -> u64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words.iter().position(|w| *w == "nodes").expect("nodes");
        words[i + 1].parse().expect("a count")
    };
    let out = drive(&mut s, &[&format!("position fen {fen}"), "solve"]);
    let solved = out.iter().rev().find(|l| l.starts_with("info nodes"));
    let solve_nodes = nodes_of(solved.expect("solve reports its nodes"));
    assert!(out.last().unwrap().starts_with("solution white plies 19 "));
    assert!(solve_nodes > 10_000, "{solve_nodes}");
    let out = drive(&mut s, &["go movetime 2000"]);
    let i = out
        .iter()
        .position(|l| l == "info string proven win in 19 plies")
        .expect("a proof");
    // The proof comes from the table `solve` left, not from a new search.
    assert!(nodes_of(&out[i + 1]) < solve_nodes / 10, "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}

#[test]
fn tables_come_from_the_memory_budget_and_go_back() {
    let memory = crate::memory::MemoryBudget::new(64);
    let options = SessionOptions {
        memory: std::sync::Arc::clone(&memory),
        ..SessionOptions::default()
    };
    let mut s = Session::new(options.clone());
    // Two tables of 64 MiB do not fit in 64.
    let out = drive(&mut s, &["setoption name Hash value 64"]);
    assert_eq!(
        out,
        [
            "error bad-argument Hash 64 needs 128 MiB (the search's table and the solver's); the server's memory budget has 64 MiB left of 64"
        ]
    );
    // None until the first search, which takes what it can fill.
    assert_eq!(memory.used_mib(), 0);
    drive(
        &mut s,
        &["position startpos gaps AH moves b2b3", "go movetime 100"],
    );
    assert_eq!(
        memory.used_mib(),
        4,
        "two 2 MiB tables for 70 ms (100 less the overhead)"
    );
    drive(&mut s, &["go depth 1"]);
    assert_eq!(
        memory.used_mib(),
        32,
        "an untimed search grows them to Hash"
    );
    // A second session gets what is left; a third, tables of a few buckets,
    // and still a move.
    let mut other = Session::new(options.clone());
    drive(&mut other, &["position startpos gaps AH", "go depth 1"]);
    assert_eq!(memory.used_mib(), 64);
    let mut third = Session::new(options);
    let out = drive(&mut third, &["position startpos gaps AH", "go depth 4"]);
    assert!(out.last().unwrap().starts_with("bestmove "));
    assert_eq!(memory.used_mib(), 64);
    // A new game, the end of a game: back they go.
    drive(&mut s, &["newgame"]);
    assert_eq!(memory.used_mib(), 32);
    drive(
        &mut other,
        &["position fen 8/P7/8/8/8/8/7p/8 w -", "go depth 1"],
    );
    assert_eq!(memory.used_mib(), 0);
}

/// Words the fuzzer builds lines from: every command, their keywords, and
/// values good and bad. Nothing that waits for `stop` (`infinite`,
/// `ponder`) or runs unbounded (`solve`, `analyse`, big depths), since the
/// driver runs each job to its end.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "newgame",
    "ucinewgame",
    "pawnrace",
    "mini4",
    "chess",
    "gaps",
    "AH",
    "hh",
    "A",
    "position",
    "startpos",
    "fen",
    "moves",
    "move",
    "e2e4",
    "e4",
    "a7a8q",
    "e8=Q",
    "exd5",
    "undo",
    "board",
    "d",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "movestogo",
    "perft",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "Gaps",
    "Move",
    "Overhead",
    "quit",
    "help",
    "0",
    "1",
    "2",
    "-3",
    "99999999999999999999",
    "w",
    "b",
    "-",
    "8/ppppppp1/8/8/8/8/1PPPPPPP/8",
    "8/8/8",
    "p7/8",
    "\u{e9}",
    "\u{3000}",
    "",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Whatever a peer sends, the session answers in ASCII and never panics.
    #[test]
    fn any_line_gets_a_sane_answer(
        script in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(WORDS), 0..6),
            1..12,
        )
    ) {
        let mut s = Session::new(SessionOptions::default());
        for words in script {
            let line = words.join(" ");
            let mut out = Vec::new();
            let action = s.handle_line(&line);
            settle(&mut s, action, &mut out);
            for reply in &out {
                proptest::prop_assert!(reply.is_ascii(), "{line:?} got {reply:?}");
            }
        }
    }
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
fn uci_variant_names_the_game_newgame_starts() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "setoption name UCI_Variant value MINI4",
            "fen",
            "newgame pawnrace",
            "newgame",
            "setoption name UCI_Variant value shogi",
            "newgame",
            "setoption name UCI_Variant value mini4",
            "fen",
            "setoption name UCI_Variant value chess",
        ],
    );
    assert_eq!(
        out,
        [
            "ok setoption UCI_Variant mini4",
            "ok fen pppp/4/4/PPPP w -",
            "ok newgame pawnrace awaiting gaps",
            "ok newgame mini4",
            "error bad-argument unknown variant 'shogi' (known: pawnrace, mini4); or chess, for pawnrace",
            "ok newgame mini4",
            // The variant in force: the game goes on.
            "ok setoption UCI_Variant mini4",
            "ok fen pppp/4/4/PPPP w -",
            // python-chess's name for the 8x8 board: pawn race.
            "ok setoption UCI_Variant pawnrace",
        ]
    );
    assert_eq!(
        drive(&mut s, &["fen"]),
        [
            "error wrong-state no position yet: black chooses the gaps first (gaps AH), or go lets the engine choose"
        ]
    );
}

//! `pawnrace analyse` run as a user would: PGN and plain games, the table,
//! the summaries, the annotated PGN, budgets and malformed games.

mod common;

use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir(&format!("analyse-{name}"))
}

/// A CG game off the proven line near its end: white throws the win away
/// with 12. g6, black hands it back with 12... d5, white takes it.
const GAME: &str = r#"[Event "test"]
[White "alice"]
[Black "bob"]
[Result "1-0"]
[Variant "pawnrace"]
[Gaps "CG"]

1. a4 a6 2. g4 e5 3. g5 a5 4. h4 c6 5. h5 b5 6. b3 bxa4 7. bxa4 e4 8. f4 exf3
9. exf3 c5 10. f4 c4 11. f5 c3 12. g6 d5 13. gxh7 cxd2 14. h8 1-0
"#;

#[test]
fn a_pgn_game_gets_its_table_summaries_and_annotations() {
    let dir = temp_dir("pgn");
    let out = dir.join("out.pgn");
    let (ok, stdout, stderr) = common::run_binary(
        &[
            "analyse",
            "--hash",
            "16",
            "--pgn-out",
            out.to_str().unwrap(),
        ],
        GAME.as_bytes(),
    );
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "game 1: alice (white) vs bob (black), pawnrace, gaps CG, result 1-0"
    );
    assert_eq!(
        lines[1],
        "ply   move    side   san    before             after              verdict"
    );
    assert_eq!(
        lines[2],
        "1     1.      white  a4     white wins in 31   white wins in 30   kept"
    );
    for want in [
        "23    12.     white  g6     white wins in 9    black wins in 3    spoiled",
        "24    12...   black  d5     black wins in 3    white wins in 3    spoiled",
        "25    13.     white  gxh7   white wins in 3    white wins in 2    chance",
        "27    14.     white  h8     white wins in 1    white wins in 0    kept",
        "summary game 1: alice (white) vs bob (black)",
        "alice   white   14     12    0       1        1        0        ply 23 (12. g6)",
        "bob     black   13     12    0       1        0        0        ply 24 (12... d5)",
        "summary all games: 1 analysed, 0 failed",
        "alice   1      14     12    0       1        1        0        game 1 ply 23 (12. g6)",
    ] {
        assert!(lines.contains(&want), "{want:?} not in\n{stdout}");
    }
    let pgn = std::fs::read_to_string(&out).unwrap();
    assert!(
        pgn.starts_with("[Event \"test\"]\n[White \"alice\"]\n"),
        "{pgn}"
    );
    assert!(pgn.contains("[Annotator \"pawnrace analyse\"]\n"), "{pgn}");
    assert!(
        pgn.contains("1. a4 {white wins in 30} 1... a6 {white wins in 29}"),
        "{pgn}"
    );
    assert!(
        pgn.contains("12. g6?? {black wins in 3} 12... d5?? {white wins in 3} 13. gxh7!"),
        "{pgn}"
    );
    assert!(
        pgn.trim_end().ends_with("14. h8 {white wins in 0} 1-0"),
        "{pgn}"
    );
    // The annotated PGN reads back to the same analysis.
    let (ok, again, _) =
        common::run_binary(&["analyse", "--hash", "16", out.to_str().unwrap()], b"");
    assert!(ok);
    assert_eq!(again, stdout);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn summary_only_and_plain_games() {
    let plain = "\
gaps CG
a4 a6 g4 e5

fen 8/p7/8/3p4/8/3P4/7P/8 w -
h3 a6 h4
";
    let (ok, stdout, stderr) = common::run_binary(
        &["analyse", "--summary-only", "--hash", "16"],
        plain.as_bytes(),
    );
    assert!(ok, "{stderr}");
    assert!(
        stdout.starts_with("summary game 1: white (white) vs black (black)\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("verdict"), "{stdout}");
    assert!(
        stdout.contains(
            "\nsummary all games: 2 analysed, 0 failed\n\
         player  games  moves  kept  forced  spoiled  chances  unknown  first-spoil\n\
         white   2      4      2     0       1        1        0        game 2 ply 1 (1. h3)\n\
         black   2      3      2     0       1        0        0        game 2 ply 2 (1... a6)\n"
        ),
        "{stdout}"
    );
}

#[test]
fn a_budget_that_runs_out_says_unknown() {
    let plain = "fen 8/p7/8/3p4/8/3P4/7P/8 w -\nh4 a5\n";
    let (ok, stdout, _) = common::run_binary(
        &["analyse", "--nodes", "1", "--hash", "1"],
        plain.as_bytes(),
    );
    assert!(ok);
    assert!(
        stdout.contains(
            "1     1.      white  h4     unknown            unknown            unknown\n"
        ),
        "{stdout}"
    );
}

#[test]
fn malformed_games_are_reported_and_the_rest_analysed() {
    let dir = temp_dir("bad");
    let file = dir.join("games.txt");
    std::fs::write(
        &file,
        "gaps CG\na4 a6\n\ngaps CG\na4 a4\n\n[Gaps \"CG\"]\n1. a4 {open\n",
    )
    .unwrap();
    let missing = dir.join("missing.pgn");
    let (ok, stdout, stderr) = common::run_binary(
        &[
            "analyse",
            "--hash",
            "16",
            file.to_str().unwrap(),
            missing.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!ok);
    assert!(stderr.contains("game 2 ("), "{stderr}");
    assert!(stderr.contains("line 5: move 2 (a4)"), "{stderr}");
    assert!(stderr.contains("game 3 ("), "{stderr}");
    assert!(stderr.contains("missing.pgn"), "{stderr}");
    assert!(stdout.contains("game 1: white (white) vs black (black), pawnrace, gaps CG, result *"));
    assert!(
        stdout.contains("summary all games: 1 analysed, 2 failed"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `python3 -c <code>` from the repository root, `input` on stdin.
fn python(code: &str, args: &[&str], input: &str) -> String {
    let (ok, stdout, stderr) = common::run_command(
        std::process::Command::new("python3")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .arg("-c")
            .arg(code)
            .args(args),
        input.as_bytes(),
    );
    assert!(ok, "{stderr}");
    stdout
}

/// The scripts in clients/analysis read analyse's tables: in GAME alice
/// (white) is proven lost after 12. g6 and wins; bob (black) is lost from
/// the start, on his first move too, and does not win.
#[test]
fn the_analysis_scripts_read_the_tables() {
    let (ok, table, stderr) = common::run_binary(&["analyse", "--hash", "16"], GAME.as_bytes());
    assert!(ok, "{stderr}");
    let run = "import runpy, sys; sys.argv = ['turned.py', sys.argv[1]]; \
               runpy.run_path('clients/analysis/turned.py', run_name='__main__')";
    assert_eq!(
        python(run, &["alice"], &table).trim(),
        "alice: 1 games, proven lost in 1, turned into wins 1 (100%), draws 0, spoiled moves 1"
    );
    assert!(python(run, &["bob"], &table).contains("proven lost in 1, turned into wins 0 (0%)"));
    let probe = "import sys; sys.path.insert(0, 'clients/analysis'); import trap_probe as t; \
                 text = sys.stdin.read(); \
                 print(t.lost_positions(text, 'bob'), t.lost_positions(text, 'alice')); \
                 print(t.canonical('8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b'), \
                       t.canonical('8/ppppp1pp/8/8/5P2/8/PPPPP1P1/8 b'), t.mirror_move('c2c4'))";
    let lines: Vec<String> = python(probe, &[], &table)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines[0], "[('1', 'CG', 'black', ['a4'])] []");
    assert_eq!(
        lines[1],
        "('8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b', True) ('8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b', False) f2f4"
    );
    // A trap, written as its file mirror, at bob's first turn: he played it
    // (1... a6), and alice's answer kept her win.
    let dir = common::temp_dir("traps-met");
    let (analysis, traps) = (dir.join("a.txt"), dir.join("traps.txt"));
    std::fs::write(&analysis, &table).unwrap();
    std::fs::write(
        &traps,
        "# made by hand\n8/p1pppppp/8/8/7P/8/PPPPP1P1/8 b - loss trap h7h6 reply b2b4 fools 400000 by fairy-stockfish\n",
    )
    .unwrap();
    let met = "import runpy, sys; sys.path.insert(0, 'clients/analysis'); \
               sys.argv = ['traps_met.py'] + sys.argv[1:]; \
               runpy.run_path('clients/analysis/traps_met.py', run_name='__main__')";
    let mut args = vec![
        "--pawnrace",
        common::BIN,
        "--player",
        "bob",
        "--analysis",
        analysis.to_str().unwrap(),
        "--traps",
        traps.to_str().unwrap(),
    ];
    let reads = |args: &[&str], want: [&str; 2]| {
        let out = python(met, args, "");
        assert_eq!(out.lines().collect::<Vec<_>>(), want, "{out}");
    };
    reads(
        &args,
        [
            "game 1  gaps CG  ply 2  fairy-stockfish  trap a7a6  played a7a6  then kept",
            "fairy-stockfish: met 1, fell 0",
        ],
    );
    // The same move as a lead-in: alice's reply (2. g4, b2b4 in the
    // mirror) is the one it leads with.
    let leads = dir.join("leads.txt");
    std::fs::write(
        &leads,
        "8/p1pppppp/8/8/7P/8/PPPPP1P1/8 b - loss lead h7h6 reply b2b4 fools 1 2 by fairy-stockfish\n",
    )
    .unwrap();
    let mut with_lead = args.clone();
    with_lead[7] = leads.to_str().unwrap();
    reads(
        &with_lead,
        [
            "game 1  gaps CG  ply 2  fairy-stockfish lead  a7a6  played a7a6  then as led",
            "fairy-stockfish lead: met 1, replied as led 1",
        ],
    );
    // The trap put to a UCI engine (pawnrace itself) again, from a new game
    // and after its own first move's search: how often its reply throws the
    // win away (never: pawnrace plays the proven result).
    args.extend(["--engine", common::BIN, "--movetime", "20", "--repeat", "2"]);
    let out = python(met, &args, "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "game 1  gaps CG  ply 2  fairy-stockfish  trap a7a6  played a7a6  then kept  \
             wrong: new game 0/2, as played 0/2",
            "fairy-stockfish: met 1, fell 0; put to the engine again, \
             wrong from a new game 0 of 2, as played 0 of 2"
        ],
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A record of CG games after 1. a4, bob (lost there) answering, the
/// verdicts written by hand: per game bob's move, alice's reply, its
/// verdict and the result.
fn record(games: &[(&str, &str, &str, &str)]) -> String {
    let mut text = String::new();
    for (n, (black, reply, verdict, result)) in games.iter().enumerate() {
        let after = if *verdict == "spoiled" {
            "black wins in 20"
        } else {
            "white wins in 28"
        };
        text.push_str(&format!(
            "game {}: alice (white) vs bob (black), pawnrace, gaps CG, result {result}\n\
             ply   move    side   san    before             after              verdict\n\
             1     1.      white  a4     white wins in 31   white wins in 30   kept\n\
             2     1...    black  {black}     white wins in 30   white wins in 29   kept\n\
             3     2.      white  {reply}     white wins in 29   {after}   {verdict}\n",
            n + 1
        ));
    }
    text
}

/// clients/analysis/record.py learns, from an opponent's recorded games,
/// the move that turned clearly more of them than the one played last, as
/// a trap line the engine's table reads (merged by `traps --merge`); with
/// too few games, or once learned, the move stands.
#[test]
fn the_record_script_learns_the_move_that_turned_more_games() {
    let dir = common::temp_dir("record");
    let h6 = ("h6", "b4", "spoiled", "0-1");
    let a6 = ("a6", "g4", "kept", "1-0");
    let (analysis, few, traps, out) = (
        dir.join("a.txt"),
        dir.join("few.txt"),
        dir.join("traps.txt"),
        dir.join("out.txt"),
    );
    std::fs::write(&analysis, record(&[[h6; 6], [a6; 6]].concat())).unwrap();
    std::fs::write(&few, record(&[[h6; 4], [a6; 4]].concat())).unwrap();
    std::fs::write(&traps, "").unwrap();
    let script = "import runpy, sys; sys.path.insert(0, 'clients/analysis'); \
                  sys.argv = ['record.py'] + sys.argv[1:]; \
                  runpy.run_path('clients/analysis/record.py', run_name='__main__')";
    let learn = |games: &std::path::Path| {
        let args = [
            "--pawnrace",
            common::BIN,
            "--player",
            "bob",
            "--traps",
            traps.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            games.to_str().unwrap(),
        ];
        python(script, &args, "")
    };
    let line = "8/pppppp1p/8/8/P7/8/1P1PPPPP/8 b - loss trap h7h6 reply b2b4 \
                fools 1 2 3 4 5 6 by alice-record";
    let said = learn(&analysis);
    assert!(said.starts_with("CG a2a4: a7a6 (played last); h7h6 won 6 drawn 0 of 6, a7a6 won 0 drawn 0 of 6: h7h6 learned"), "{said}");
    assert!(said.ends_with(&format!("{line}\n")), "{said}");
    // The learned table merges into the engine's, its run in the header.
    let (ok, _, stderr) = common::run_binary(
        &[
            "traps",
            "--merge",
            out.to_str().unwrap(),
            "--out",
            traps.to_str().unwrap(),
        ],
        b"",
    );
    assert!(ok, "{stderr}");
    let table = std::fs::read_to_string(&traps).unwrap();
    assert!(
        table.contains("# run: python3 clients/analysis/record.py --player bob"),
        "{table}"
    );
    assert!(table.lines().any(|l| l == line), "{table}");
    // Now the table plays 1... h6 there, and it stands.
    let said = learn(&analysis);
    assert!(
        said.starts_with("CG a2a4: h7h6 (the table's, by alice-record);"),
        "{said}"
    );
    assert!(said.contains(": stands\nlearned 0 traps"), "{said}");
    // Four games each are too few to outweigh the table's move.
    std::fs::write(&traps, "").unwrap();
    let said = learn(&few);
    assert!(
        said.contains("a7a6 (played last)") && said.contains("stands (too few games"),
        "{said}"
    );
    assert!(said.contains("learned 0 traps"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `clients/analysis/replay.py`: a match's turns put again to the engine at
/// a move time, one session for the match, and each move that no proof
/// announced judged by the solver.
#[test]
fn the_replay_script_counts_proven_turns_and_judges_the_rest() {
    let dir = temp_dir("replay");
    let pgn = dir.join("m.pgn");
    // BA: white wins, and 1. c4 keeps the win where 1. d3 throws it away.
    std::fs::write(
        &pgn,
        "[Event \"t\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"*\"]\n[Gaps \"BA\"]\n\n\
         1. c4 h5 2. e4 *\n",
    )
    .unwrap();
    let script = "import runpy, sys; sys.path.insert(0, 'clients/analysis'); \
                  sys.argv = ['replay.py'] + sys.argv[1:]; \
                  runpy.run_path('clients/analysis/replay.py', run_name='__main__')";
    let replay = |player: &str| {
        let args = [
            "--pawnrace",
            common::BIN,
            "--player",
            player,
            "--movetime",
            "100,50",
            pgn.to_str().unwrap(),
        ];
        python(script, &args, "")
    };
    // Every turn here is answered by the proof tables at once.
    let said = replay("alice");
    let counts = "turns 2 proven 2 unproven 0 kept 0 spoiled 0 unknown 0";
    for ms in [100, 50] {
        let line = format!("{} movetime {ms} {counts} (", pgn.display());
        assert!(said.contains(&line), "{said}");
    }
    assert!(replay("bob").contains("movetime 50 turns 1 proven 1 "));
    // A move no proof announced is judged by the solver, before and after.
    let judge = "import sys; sys.path.insert(0, 'clients/analysis'); \
                 from replay import Session, label; \
                 j = Session(sys.argv[1]); \
                 print(label(j, 'BA', [], 'd2d3', True, 20000), label(j, 'BA', [], 'c2c4', True, 20000), \
                 label(j, 'BA', ['c4'], 'h7h5', False, 20000))";
    assert_eq!(
        python(judge, &[common::BIN], ""),
        "('spoiled', 'win') ('kept', 'win') ('kept', 'loss')\n"
    );
}

//! The command line's own subcommands, run as a user would.

mod common;

fn pawnrace(args: &[&str]) -> (bool, String, String) {
    common::run_binary(args, b"")
}

/// `pawnrace book-merge <options> --out <book> <file>`.
fn book_merge(
    options: &[&str],
    book: &std::path::Path,
    file: &std::path::Path,
) -> (bool, String, String) {
    let mut args = vec!["book-merge"];
    args.extend_from_slice(options);
    args.extend(["--out", book.to_str().unwrap(), file.to_str().unwrap()]);
    pawnrace(&args)
}

#[test]
fn bench_reports_every_position_and_a_stable_total() {
    let (ok, stdout, _) = pawnrace(&["bench", "--depth", "4"]);
    assert!(ok);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        pawnrace::lab::bench::POSITIONS.len() + 1,
        "{stdout}"
    );
    assert!(
        lines
            .iter()
            .take(lines.len() - 1)
            .all(|l| l.starts_with("position ") && l.contains(" bestmove "))
    );
    let total = lines.last().unwrap();
    assert!(total.starts_with("positions 10 depth 4 nodes "), "{total}");
    let (_, again, _) = pawnrace(&["bench", "--depth", "4"]);
    let nodes = |s: &str| {
        s.lines()
            .last()
            .unwrap()
            .split(' ')
            .nth(5)
            .unwrap()
            .to_string()
    };
    assert_eq!(nodes(&stdout), nodes(&again));
}

#[test]
fn the_solver_benchmark_times_each_position_and_sums_up() {
    let (ok, stdout, stderr) = pawnrace(&["bench", "solve", "--sample", "2", "--budget", "100"]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(
        lines[0].starts_with("case 1 ") && lines[0].contains(" fen "),
        "{stdout}"
    );
    assert!(lines[1].starts_with("case 2 "), "{stdout}");
    assert!(lines[2].starts_with("solve cases 2 proved "), "{stdout}");
    assert!(lines[2].contains(" budget 100 ms"), "{stdout}");
    // Of the two, the one two plies in (the other is four) summed up
    // again on its own: positions one to three plies from the start.
    assert!(lines[1].contains(" plies 2 "), "{stdout}");
    assert!(
        lines[3].starts_with("solve plies 1-3 cases 1 proved "),
        "{stdout}"
    );
    // With --profile, one more line: where the solves' nodes went, every
    // node of the summary's counted once (one thread, so all of them).
    let args = [
        "bench",
        "solve",
        "--sample",
        "2",
        "--budget",
        "100",
        "--threads",
        "1",
        "--profile",
    ];
    let (ok, stdout, stderr) = pawnrace(&args);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    let nodes = lines[2]
        .split("; nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert!(
        lines[4].starts_with(&format!("profile nodes {nodes} pawns ")),
        "{stdout}"
    );
    assert!(
        lines[4].contains("; groups ") && lines[4].contains("; expanded "),
        "{stdout}"
    );
    // Answering as a session's solve does: from the tables where they
    // prove the position in full (every position one ply in), else
    // reading the book; both said on the summary.
    let args = [
        "bench", "solve", "--plies", "1", "--sample", "2", "--budget", "100", "--tables",
    ];
    let (ok, stdout, stderr) = pawnrace(&args);
    assert!(ok, "{stderr}");
    let tabled = stdout
        .lines()
        .filter(|l| l.contains(" from the tables time ") && l.contains(" nodes 0 "));
    assert_eq!(tabled.count(), 2, "{stdout}");
    assert!(
        stdout
            .trim_end()
            .ends_with("; reading the book, 2 answered from the tables"),
        "{stdout}"
    );
    // Each benchmark takes only its own flags.
    let (ok, _, stderr) = pawnrace(&["bench", "keep", "--budget", "100"]);
    assert!(
        !ok && stderr.contains("unexpected argument '--budget'"),
        "{stderr}"
    );
}

/// The search alone within a node budget: nothing proved, and the same
/// picks on every run (a measure of the search and its evaluation).
#[test]
fn the_keep_benchmark_can_count_the_search_alone_in_nodes() {
    let args = ["bench", "keep", "--search-nodes", "3000", "--limit", "4"];
    let (ok, stdout, stderr) = pawnrace(&args);
    assert!(ok, "{stderr}");
    let cases: Vec<&str> = stdout.lines().filter(|l| l.starts_with("case ")).collect();
    assert_eq!(cases.len(), 4, "{stdout}");
    assert!(cases.iter().all(|l| l.ends_with(" proven no")), "{stdout}");
    let summary = stdout.lines().last().unwrap();
    assert!(
        summary.starts_with("keep nodes 3000 cases 4 kept "),
        "{summary}"
    );
    let (_, again, _) = pawnrace(&args);
    let picks = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("case "))
            .map(|l| l.split(" time ").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(picks(&stdout), picks(&again));
    let (ok, _, stderr) = pawnrace(&["bench", "keep", "--search-nodes", "9", "--movetime", "5"]);
    assert!(!ok && stderr.contains("cannot be used with"), "{stderr}");
}

/// `bench` alone is `bench search`: the same positions, depth and nodes.
#[test]
fn bench_alone_is_the_search_benchmark() {
    let nodes = |args: &[&str]| {
        let (ok, stdout, stderr) = pawnrace(args);
        assert!(ok, "{stderr}");
        let total = stdout.lines().last().unwrap_or_default().to_string();
        assert!(total.starts_with("positions 10 depth 3 nodes "), "{total}");
        total.split(' ').nth(5).unwrap_or_default().to_string()
    };
    assert_eq!(
        nodes(&["bench", "--depth", "3"]),
        nodes(&["bench", "search", "--depth", "3", "--hash", "16"])
    );
    // Flags before a benchmark's name would be its search flags, ignored.
    let (ok, _, stderr) = pawnrace(&["bench", "--depth", "3", "keep"]);
    assert!(!ok && stderr.contains("cannot be used with"), "{stderr}");
}

/// The server's flags belong to the commands that serve: elsewhere they
/// are refused with their name rather than accepted and ignored.
#[test]
fn server_flags_are_refused_where_nothing_serves() {
    for args in [
        &["perft", "3", "--max-memory", "5"][..],
        &["duel", "--max-searches", "3", "e2", "e7", "w"],
        &["solve", "--gaps", "AH", "--max-hash", "4"],
        &["bench", "--max-line-length", "80"],
    ] {
        let flag = args.iter().find(|a| a.starts_with("--max-")).unwrap();
        let (ok, _, stderr) = pawnrace(args);
        assert!(!ok, "{args:?} was accepted");
        assert!(
            stderr.contains(&format!("unexpected argument '{flag}'")),
            "{args:?}: {stderr}"
        );
    }
    // Given before a subcommand they are the stdio server's: refused too.
    let (ok, _, stderr) = pawnrace(&["--max-memory", "5", "perft", "3"]);
    assert!(
        !ok && stderr.contains("'perft' cannot be used with"),
        "{stderr}"
    );
    // Where they serve, they are taken.
    let (ok, stdout, stderr) = common::run_binary(
        &["--max-memory", "64", "--max-hash", "8", "--hash", "4"],
        b"isready\nquit\n",
    );
    assert!(ok && stdout.contains("readyok"), "{stdout}{stderr}");
    let (_, help, _) = pawnrace(&["serve", "--help"]);
    assert!(
        help.contains("--max-memory") && help.contains("--hash"),
        "{help}"
    );
}

/// A subcommand's help lists what it uses and nothing else.
#[test]
fn solve_help_lists_only_what_solve_uses() {
    let (ok, help, stderr) = pawnrace(&["solve", "--help"]);
    assert!(ok, "{stderr}");
    let flags: Vec<&str> = help
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("--"))
        .collect();
    assert_eq!(
        flags,
        [
            "--gaps",
            "--fen",
            "--variant",
            "--all-gaps",
            "--out",
            "--movetime",
            "--nodes",
            "--first-move-nodes",
            "--hash",
            "--threads",
            "--cache",
            "--tables",
        ],
        "{help}"
    );
    assert!(help.contains("[default: 1024]"), "{help}");
}

/// `--hash` is the one table flag; the old `--solve-hash` is gone.
#[test]
fn one_table_flag_with_a_default_per_purpose() {
    let default_of = |args: &[&str]| {
        let (_, help, _) = pawnrace(args);
        let at = help
            .find("--hash <MIB>")
            .unwrap_or_else(|| panic!("{help}"));
        let rest = &help[at..];
        let from = rest.find("[default: ").unwrap() + "[default: ".len();
        rest[from..].split(']').next().unwrap().to_string()
    };
    for (args, mib) in [
        (&["solve", "--help"][..], "1024"),
        (&["book", "--help"], "1024"),
        (&["traps", "--help"], "1024"),
        (&["keep-set", "--help"], "1024"),
        (&["analyse", "--help"], "1024"),
        (&["tune", "make", "--help"], "64"),
        (&["book-merge", "--help"], "16"),
        (&["bench", "--help"], "16"),
        (&["bench", "keep", "--help"], "16"),
        (&["bench", "solve", "--help"], "16"),
        (&["autorunner", "--help"], "16"),
        (&["serve", "--help"], "16"),
        (&["--help"], "16"),
    ] {
        assert_eq!(default_of(args), mib, "{args:?}");
    }
    let (ok, _, stderr) = pawnrace(&["solve", "--gaps", "AH", "--solve-hash", "4"]);
    assert!(!ok && stderr.contains("'--solve-hash'"), "{stderr}");
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let (ok, _, stderr) = pawnrace(&["bench", "--depth", "deep"]);
    assert!(!ok);
    assert!(stderr.contains("invalid value"), "{stderr}");
    let (ok, _, stderr) = pawnrace(&["frobnicate"]);
    assert!(!ok);
    assert!(stderr.contains("unrecognized subcommand"), "{stderr}");
}

#[test]
fn perft_counts_from_a_start_or_a_position() {
    let (ok, out, _) = pawnrace(&["perft", "5"]);
    assert!(ok && out.starts_with("perft 5 nodes 404949 "), "{out}");
    let (ok, out, _) = pawnrace(&["perft", "4", "--every-leaf", "--gaps", "ah"]);
    assert!(
        ok && out.starts_with("perft 4 nodes 33274 ") && out.contains("(every leaf)"),
        "{out}"
    );
    let (ok, out, _) = pawnrace(&[
        "perft",
        "2",
        "--fen",
        "pppp/..../..../PPPP",
        "--variant",
        "mini4",
    ]);
    assert!(ok && out.starts_with("perft 2 nodes 16 "), "{out}");
    let (ok, _, err) = pawnrace(&["perft", "2", "--fen", "8/8/8/8/8/8/8/8 w -"]);
    assert!(!ok && err.contains("no pawns"), "{err}");
    // Fairy-Stockfish's six fields, as its tools write them; castling
    // rights are refused with the reason.
    let fairy = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1";
    let (ok, out, _) = pawnrace(&["perft", "4", "--fen", fairy]);
    assert!(ok && out.starts_with("perft 4 nodes 33274 "), "{out}");
    let castling = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w KQkq - 0 1";
    let (ok, _, err) = pawnrace(&["perft", "2", "--fen", castling]);
    assert!(!ok && err.contains("castling rights 'KQkq'"), "{err}");
}

#[test]
fn book_grows_a_file_and_names_what_it_could_not_prove() {
    let dir = common::temp_dir("book");
    let out = dir.join("book.txt");
    let out_arg = out.to_str().unwrap();
    // Far too small a budget for positions one ply into an opening.
    let (ok, _, err) = pawnrace(&[
        "book", "--gaps", "AF", "--plies", "1", "--nodes", "1000", "--hash", "1", "--out", out_arg,
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("not proven within the budget"), "{err}");
    assert!(err.contains("0 positions proven"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("# run: pawnrace book --gaps AF --plies 1 --side black --nodes 1000"),
        "{text}"
    );
    // Reading the tables, a position they prove in full (black's answer
    // to h2h4, one ply in, is in the book) is taken from them, not proven
    // again within the tiny budget, nor written.
    let (ok, _, err) = pawnrace(&[
        "book", "--gaps", "AF", "--after", "h2h4", "--plies", "0", "--side", "black", "--nodes",
        "1000", "--hash", "1", "--tables", "--out", out_arg,
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("8/ppppp1pp/8/8/7P/8/1PPPPPP1/8 b -: proven in the tables already"),
        "{err}"
    );
    assert!(
        err.contains(
            "0 positions proven, 0 lost, 0 not within the budget, 1 in the tables already"
        ),
        "{err}"
    );
    // A draw has no winner to serve unless told.
    let (ok, _, err) = pawnrace(&["book", "--gaps", "AA", "--out", out_arg]);
    assert!(!ok && err.contains("--side"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A merged run's full proof gives its distance and line to a position
/// the book holds decided only, written the way the book wrote it (here
/// the run proved the file mirror); a position the book lacks is added.
#[test]
fn book_merge_completes_decided_entries_and_adds_new_ones() {
    let dir = common::temp_dir("book-merge");
    let book = dir.join("book.txt");
    let run = dir.join("run.txt");
    std::fs::write(&book, "# a book\n8/p7/8/8/8/8/4P3/8 w - win ? pv e2e4\n").unwrap();
    std::fs::write(
        &run,
        "# run: made by hand\n\
         8/7p/8/8/8/8/3P4/8 w - win 9 pv d2d4 h7h5 d4d5 h5h4 d5d6 h4h3 d6d7 h3h2 d7d8\n\
         8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4 a7a5 f4f5 a5a4 f5f6 a4a3 f6f7 a3a2 f7f8\n",
    )
    .unwrap();
    let (ok, _, err) = book_merge(&["--check", "1"], &book, &run);
    assert!(ok, "{err}");
    assert!(err.contains("1 positions added to the 1 of"), "{err}");
    assert!(
        err.contains("1 decided ones given their distance: 2 in all"),
        "{err}"
    );
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(
        text.contains(
            "8/p7/8/8/8/8/4P3/8 w - win 9 pv e2e4 a7a5 e4e5 a5a4 e5e6 a4a3 e6e7 a3a2 e7e8\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4"),
        "{text}"
    );
    assert!(text.contains("# run: made by hand"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A position the compiled-in book already holds (in some part) is left
/// out of the file merged into, so that each position is in one part; a
/// file that gives such a position another value is refused.
#[test]
fn book_merge_leaves_out_what_the_compiled_in_book_holds() {
    let dir = common::temp_dir("book-merge-held");
    let book = dir.join("book.txt");
    let run = dir.join("run.txt");
    let part = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book/part-1.txt"),
    )
    .unwrap();
    let held = part.lines().find(|l| !l.starts_with('#')).unwrap();
    let new = "8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4 a7a5 f4f5 a5a4 f5f6 a4a3 f6f7 a3a2 f7f8";
    std::fs::write(&run, format!("# run: made by hand\n{held}\n{new}\n")).unwrap();
    let merge = |file: &std::path::Path| book_merge(&[], &book, file);
    let (ok, _, err) = merge(&run);
    assert!(ok, "{err}");
    assert!(
        err.contains("1 positions left out: the compiled-in book holds them"),
        "{err}"
    );
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains(new) && !text.contains(held), "{text}");

    let words: Vec<&str> = held.split_whitespace().collect();
    let other = if words[3] == "draw" { "win" } else { "draw" };
    let wrong = dir.join("wrong.txt");
    let line = format!(
        "{} {} {} {other} ? pv {}",
        words[0], words[1], words[2], words[6]
    );
    std::fs::write(&wrong, format!("# run: wrong\n{line}\n")).unwrap();
    let (ok, _, err) = merge(&wrong);
    assert!(!ok && err.contains("the compiled-in book says"), "{err}");
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `book-merge --beyond N` adds only the decided entries a proof from an
/// empty table does not settle within N nodes (a full proof whatever it
/// cost), and refuses a file whose value such a proof contradicts,
/// leaving the book as it was.
#[test]
fn book_merge_beyond_keeps_only_what_a_move_could_not_decide() {
    let dir = common::temp_dir("book-merge-beyond");
    let book = dir.join("book.txt");
    let run = dir.join("run.txt");
    let write = |path: &std::path::Path, text: &str| std::fs::write(path, text).unwrap();
    let easy = "8/p7/8/8/8/8/4P3/8 w - win ? pv e2e4\n";
    // Some hundred thousand nodes from an empty table; a keep-deep-set
    // position, beyond the compiled-in book (whose positions are left out).
    let hard = "8/p1p2p1p/3pp1p1/8/1P3P2/3P4/2P1P1PP/8 w - win ? pv c2c3\n";
    let full = "8/p7/8/8/8/8/5P2/8 w - win 9 pv f2f4 a7a5 f4f5 a5a4 f5f6 a4a3 f6f7 a3a2 f7f8\n";
    write(&book, "# a book\n");
    write(&run, &format!("# run: made by hand\n{easy}{hard}{full}"));
    let merge = |file: &std::path::Path| book_merge(&["--beyond", "1000"], &book, file);
    let (ok, _, err) = merge(&run);
    assert!(ok, "{err}");
    assert!(
        err.contains("2 of 3 new positions kept, 1 decided within 1000 nodes"),
        "{err}"
    );
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains(hard) && text.contains(full), "{text}");
    assert!(!text.contains(easy), "{text}");

    let wrong = dir.join("wrong.txt");
    write(
        &wrong,
        "# run: wrong\n8/p7/8/8/8/8/3P4/8 w - draw ? pv d2d4\n",
    );
    let (ok, _, err) = merge(&wrong);
    assert!(
        !ok && err.contains("the file says draw, proven win"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pawnrace traps --merge`: two shards' tables, grown apart from the one
/// given as --out, come back into it with their runs; a shard that does
/// not read leaves --out as it was.
#[test]
fn traps_merge_takes_in_the_shards() {
    let dir = common::temp_dir("traps-merge");
    let head = |runs: &[&str]| {
        runs.iter()
            .map(|r| format!("# run: pawnrace traps {r}\n"))
            .collect::<String>()
    };
    let p = "8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss trap a7a5 reply b2b3 fools 9 10\n";
    let q = "8/1ppppppp/8/8/8/8/1PPPPPPP/8 w - loss none by m\n";
    let r = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - draw trap h2h4 reply g7g5 fools 3 by m\n";
    let path = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let out = path("traps.txt", format!("{}{p}", head(&["--gaps AA"])));
    let one = path(
        "s0.txt",
        format!("{}{p}{q}", head(&["--gaps AA", "--gaps AB"])),
    );
    let two = path(
        "s1.txt",
        format!("{}{p}{r}", head(&["--gaps AA", "--gaps AC"])),
    );
    let (ok, _, err) = pawnrace(&["traps", "--merge", &one, &two, "--out", &out]);
    assert!(ok && err.contains("merged 2 tables: 1 traps set"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let runs: Vec<&str> = text.lines().filter(|l| l.starts_with("# run: ")).collect();
    assert_eq!(
        runs,
        [
            "# run: pawnrace traps --gaps AA",
            "# run: pawnrace traps --gaps AB",
            "# run: pawnrace traps --gaps AC"
        ]
    );
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines, [q.trim(), p.trim(), r.trim()]);
    let bad = path("bad.txt", "8/8/8/8/8/8/8/8 w - loss\n".to_string());
    let (ok, _, err) = pawnrace(&["traps", "--merge", &one, &bad, "--out", &out]);
    assert!(!ok && err.contains("bad.txt: line 1"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pawnrace traps` from a lost position: the trap it writes is proven
/// again by `--check`, which refuses a reply that throws nothing away.
#[test]
fn traps_chooses_a_trap_and_check_proves_it_again() {
    let dir = common::temp_dir("traps");
    let out = dir.join("traps.txt");
    let out_arg = out.to_str().unwrap();
    let after = "e2e4,a7a5,e4e5,a5a4,c2c4,b7b6";
    let (ok, stdout, err) = pawnrace(&[
        "traps",
        "--gaps",
        "AE",
        "--after",
        after,
        "--plies",
        "1",
        "--model-nodes",
        "50000",
        "--model-depth",
        "14",
        "--trap-depth",
        "8",
        "--hash",
        "16",
        "--out",
        out_arg,
    ]);
    assert!(ok, "{err}");
    assert!(
        stdout.starts_with("trap 8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - "),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(&format!(
        "# run: pawnrace traps --gaps AE --after {after} --plies 1"
    )));
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries.len(), 1, "{text}");
    assert!(entries[0].contains(" w - loss trap "), "{text}");
    let (ok, _, err) = pawnrace(&["traps", "--check", "1", "--hash", "16", "--out", out_arg]);
    assert!(ok && err.contains("checked 1, 0 wrong"), "{err}");
    // A lead-in from that lost position: checked (every second line, the
    // lead alone) as lost and leading into a trap of the same model, and
    // wrong where the table holds none after its reply.
    let lead = "8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - loss lead h2h3 reply h7h6 fools 9\n";
    let then = "8/2pp1pp1/1p5p/4P3/p1P5/7P/1P1P1PP1/8 w - loss trap g2g3 reply g7g6 fools 9\n";
    for (table, checked) in [
        (format!("{lead}{then}"), "checked 1, 0 wrong"),
        (lead.into(), "checked 0, 1 wrong"),
    ] {
        std::fs::write(&out, table).unwrap();
        let (ok, _, err) = pawnrace(&["traps", "--check", "2", "--hash", "16", "--out", out_arg]);
        assert!(
            err.contains(checked) && ok == checked.ends_with(" 0 wrong"),
            "{err}"
        );
    }
    // After 1. g3 here black still wins with ...c6: no trap.
    let wrong = "8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - loss trap g2g3 reply c7c6 fools 9\n";
    std::fs::write(&out, wrong).unwrap();
    let (ok, _, err) = pawnrace(&["traps", "--check", "1", "--hash", "16", "--out", out_arg]);
    assert!(!ok && err.contains("checked 0, 1 wrong"), "{err}");
    std::fs::write(&out, "8/8/8/8/8/8/8/8 w - loss trap a2a3\n").unwrap();
    let (ok, _, err) = pawnrace(&["traps", "--check", "1", "--out", out_arg]);
    assert!(!ok && err.contains("line 1: want:"), "{err}");
    std::fs::remove_file(&out).unwrap();
    let (ok, _, err) = pawnrace(&[
        "traps", "--gaps", "AB,AC", "--after", "e2e4", "--out", out_arg,
    ]);
    assert!(
        !ok && err.contains("--after needs --gaps to name one opening"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pawnrace traps --engine`: another UCI engine (here pawnrace itself,
/// after `uci`, whose search at a node count is the same on any machine)
/// as the model opponent. Its trap replaces the own search's for the same
/// position, names the engine and its node counts, and is proven again by
/// `--check`; asked as in a game (`--engine-in-game`), or in tries at a
/// move time (`--engine-movetime`), it is a model of its own; an engine
/// that fails stops the run with its fault and leaves the table as it
/// was, and node counts out of order are refused.
#[test]
fn traps_with_another_engine_as_the_model() {
    let dir = common::temp_dir("traps-engine");
    let out = dir.join("traps.txt");
    let out_arg = out.to_str().unwrap();
    let after = "e2e4,a7a5,e4e5,a5a4,c2c4,b7b6";
    // The own search's trap in the position, written by hand.
    let own = "8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - loss trap d2d4 reply c7c6 fools 9\n";
    std::fs::write(&out, own).unwrap();
    // `levels`: --engine-nodes or --engine-movetime and what goes with it.
    let traps = |engine: &str, name: &str, levels: &[&str]| {
        let mut args = vec![
            "traps",
            "--gaps",
            "AE",
            "--after",
            after,
            "--plies",
            "1",
            "--engine",
            engine,
            "--engine-name",
            name,
            "--hash",
            "16",
            "--out",
            out_arg,
            "--explain",
        ];
        args.extend(levels);
        pawnrace(&args)
    };
    let nodes = ["--engine-nodes", "300,3000"];
    let (ok, stdout, err) = traps(common::BIN, "model", &nodes);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries.len(), 1, "{text}");
    // pawnrace's search at 300 and 3,000 nodes answers d2d3 with f7f5, which
    // throws black's win away.
    assert!(
        stdout.contains("\ntrap 8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - d2d3 reply f7f5"),
        "{stdout}"
    );
    assert!(entries[0].ends_with(" fools 300 3000 by model"), "{text}");
    let (ok, _, err) = pawnrace(&["traps", "--check", "1", "--hash", "16", "--out", out_arg]);
    assert!(ok && err.contains("checked 1, 0 wrong"), "{err}");
    assert!(
        text.contains("--engine-name model --engine-nodes 300,3000"),
        "{text}"
    );
    // Every candidate's replies, one per level.
    assert!(replies_per_candidate(&stdout, 2), "{stdout}");
    // Asked as in a game (black's earlier turns searched first), it is a
    // model of its own: the position is assessed again.
    let in_game = [nodes[0], nodes[1], "--engine-in-game"];
    let (ok, stdout, err) = traps(common::BIN, "model", &in_game);
    assert!(ok, "{err}");
    assert!(
        stdout.starts_with("position 8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - ply 0 value loss"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("--engine-nodes 300,3000 --engine-in-game"),
        "{text}"
    );
    let entry = text
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap_or_default();
    assert!(
        entry.ends_with(" trap d2d3 reply f7f5 fools 300 3000 by model-in-game"),
        "{text}"
    );
    // In tries at a move time, a model of its own again, named with its
    // time: the position is assessed again, each candidate asked twice,
    // and the position gets this model's trap or its `none` note.
    let tries = ["--engine-movetime", "20", "--engine-tries", "2"];
    let (ok, stdout, err) = traps(common::BIN, "model", &tries);
    assert!(ok, "{err}");
    assert!(
        stdout.starts_with("position 8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - ply 0 value loss"),
        "{stdout}"
    );
    assert!(replies_per_candidate(&stdout, 2), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("--engine-name model --engine-movetime 20 --engine-tries 2"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| !l.starts_with('#') && l.ends_with(" by model-20ms")),
        "{text}"
    );
    let before = std::fs::read_to_string(&out).unwrap();
    let (ok, _, err) = traps("/bin/false", "broken", &nodes);
    assert!(!ok && err.contains("the model engine failed"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
    let (ok, _, err) = traps(common::BIN, "model", &["--engine-nodes", "3000,300"]);
    assert!(!ok && err.contains("ascending"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pawnrace traps --games`: the positions of played games where the
/// player was to move, in the games it did not win, turn by turn; a later
/// turn is left once a trap set at an earlier one plays otherwise.
#[test]
fn traps_walks_from_the_games_a_player_did_not_win() {
    let dir = common::temp_dir("traps-games");
    let out = dir.join("traps.txt");
    let pgn = dir.join("games.pgn");
    // The lost position of the tests above, white to move; p lost from it
    // once and won once.
    let game = |result: &str| {
        format!(
            "[White \"p\"]\n[Black \"q\"]\n[Gaps \"AE\"]\n\
             [FEN \"8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w -\"]\n\n1. d4 c6 2. g3 c5 {result}\n\n"
        )
    };
    std::fs::write(&pgn, game("0-1") + &game("1-0")).unwrap();
    let walk = |more: &[&str]| {
        let mut args = vec![
            "traps",
            "--games",
            pgn.to_str().unwrap(),
            "--player",
            "p",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(more);
        pawnrace(&args)
    };
    let model = [
        "--turns",
        "2",
        "--plies",
        "1",
        "--engine",
        common::BIN,
        "--engine-name",
        "model",
        "--engine-nodes",
        "300,3000",
        "--hash",
        "16",
    ];
    let (ok, stdout, err) = walk(&model);
    assert!(ok, "{err}");
    assert!(err.contains("1 games of p not won, 1 passed over"), "{err}");
    // The first turn gets pawnrace's trap (d2d3, as above), not the game's
    // d2d4: its second turn is not reached any more, so not walked.
    assert_eq!(
        stdout,
        "trap 8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - d2d3 reply f7f5\n"
    );
    let table_holds = |words: &str| {
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains(words), "{text}");
    };
    table_holds(&format!(
        "--games {} --player p --turns 2 --plies 1",
        pgn.display()
    ));
    // Its trap fooled the model at two levels at most: followed, unless
    // asked again below three.
    let (ok, stdout, _) = walk(&model);
    assert!(ok && stdout.is_empty(), "{stdout}");
    let (ok, stdout, err) = walk(&[&model[..], &["--again-below", "3"]].concat());
    assert!(ok, "{err}");
    assert!(
        stdout.starts_with("trap 8/2pp1ppp/1p6/4P3/p1P5/8/1P1P1PPP/8 w - "),
        "{stdout}"
    );
    table_holds("--turns 2 --again-below 3 --plies 1");
    std::fs::write(&pgn, "[White \"p\"]\n[Gaps \"AE\"]\n\n1. e5 0-1\n").unwrap();
    let (ok, _, err) = walk(&[]);
    assert!(!ok && err.contains("games.pgn: game 1: "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `--explain`'s output lists more than one candidate, each with
/// `n` replies (one per level).
fn replies_per_candidate(stdout: &str, n: usize) -> bool {
    let candidates: Vec<&str> = stdout.lines().filter(|l| l.starts_with("  ")).collect();
    candidates.len() > 1
        && candidates.iter().all(|l| {
            l.split(" replies ")
                .nth(1)
                .map(|r| r.split_whitespace().count())
                == Some(n)
        })
}

/// `pawnrace loadtest` starts its own server, loads it and reports what the
/// issue's targets are stated in (no timing is asserted: CI is noisy).
#[test]
fn loadtest_starts_a_server_and_reports() {
    let (ok, out, err) = pawnrace(&[
        "loadtest",
        "--sessions",
        "12",
        "--searchers",
        "3",
        "--rounds",
        "2",
        "--movetime",
        "100",
        "--churn",
        "1",
        "--max-memory",
        "64",
    ]);
    assert!(ok, "{out}\n{err}");
    for expected in [
        "sessions 12 (searchers 3, churners 1, hogs 0, idle 7)",
        "isready: n ",
        "timed search lateness (answer less move time): n 6 ",
        "failures: 0",
        "server memory: ",
    ] {
        assert!(out.contains(expected), "no {expected:?} in\n{out}");
    }
}

#[test]
fn tune_labels_positions_resumably_and_fits_them() {
    let dir = common::temp_dir("tune");
    let out = dir.join("samples.txt");
    let out_arg = out.to_str().unwrap();
    let make = |walks: &str| {
        pawnrace(&[
            "tune", "make", "--walks", walks, "--nodes", "200000", "--hash", "1", "--out", out_arg,
        ])
    };
    let (ok, _, err) = make("40");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# Positions labelled"), "{text}");
    let lines = text.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(lines, 40, "{text}");
    // A second run makes only the walks the file lacks.
    let (ok, _, err) = make("50");
    assert!(ok && err.contains("10 walks to make"), "{err}");
    // Another seed would mix two sets of walks under one numbering.
    let (ok, _, err) = pawnrace(&["tune", "make", "--seed", "2", "--out", out_arg]);
    assert!(!ok && err.contains("--seed 1 --nodes 200000"), "{err}");
    let (ok, stdout, err) = pawnrace(&[
        "tune", "fit", "--data", out_arg, "--rounds", "50", "--freeze", "tempo",
    ]);
    assert!(ok, "{err}");
    assert!(stdout.contains("held out"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("tempo ")), "{stdout}");
    // A misspelt term is named, with the list of terms.
    let (ok, _, err) = pawnrace(&["tune", "fit", "--data", out_arg, "--freeze", "tempi"]);
    assert!(
        !ok && err.contains("no term 'tempi'") && err.contains("race-leads"),
        "{err}"
    );
    // A file that is not samples is refused with its line.
    std::fs::write(&out, "1 win not-a-position\n").unwrap();
    let (ok, _, err) = pawnrace(&["tune", "fit", "--data", out_arg]);
    assert!(!ok && err.contains("line 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `solve --cache`: the first run makes the file, the second solves from it
/// in far fewer nodes with the same answer, and a file that is not a cache
/// is reported, solved around and left as it was.
#[test]
fn a_solve_cache_is_made_reused_and_never_clobbered() {
    let dir = common::temp_dir("cache");
    let cache = dir.join("proofs.cache");
    let cache_arg = cache.to_str().unwrap();
    let solve = || {
        let (ok, out, err) = pawnrace(&[
            "solve",
            "--fen",
            "8/ppppp3/8/8/8/8/PPPPP3/8 w -",
            "--threads",
            "1",
            "--hash",
            "4",
            "--cache",
            cache_arg,
        ]);
        assert!(ok, "{err}");
        let nodes: u64 = err
            .lines()
            .find_map(|l| l.split_once(" nodes in "))
            .and_then(|(n, _)| n.parse().ok())
            .unwrap_or_else(|| panic!("no node count in {err}"));
        (out, nodes, err)
    };
    let (first, nodes, err) = solve();
    assert!(first.starts_with("solution draw plies "), "{first}");
    assert!(err.contains("does not exist yet"), "{err}");
    let (second, fewer, err) = solve();
    assert_eq!(second, first);
    assert!(err.contains("proofs read from"), "{err}");
    assert!(fewer * 10 < nodes, "{fewer} nodes against {nodes}");
    // Not a cache: said so, solved anyway, not written over.
    std::fs::write(&cache, "my notes\n").unwrap();
    let (third, _, err) = solve();
    assert_eq!(third, first);
    assert!(err.contains("not a pawnrace solver cache"), "{err}");
    assert_eq!(std::fs::read_to_string(&cache).unwrap(), "my notes\n");
    let (ok, _, err) = pawnrace(&["solve", "--all-gaps", "--cache", cache_arg]);
    assert!(!ok && err.contains("--cache"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `solve --tables` answers as a session's `solve` does: a position the
/// book proves in full comes from it at once, its line included; one it
/// does not is proven, reading the book's values.
#[test]
fn solve_with_the_tables_answers_from_them_where_they_prove_it() {
    // One ply into CB: the book holds its distance and line.
    let fen = "8/p2ppppp/2p5/8/1P6/8/P2PPPPP/8 w -";
    let (ok, out, err) = pawnrace(&["solve", "--fen", fen, "--tables", "--nodes", "1"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("solution white plies 25 pv d2d4 "), "{out}");
    assert_eq!(out.split_whitespace().count(), 5 + 25, "{out}");
    assert!(err.contains("proven by the book"), "{err}");
    // Without --tables the same budget proves nothing.
    let (ok, out, err) = pawnrace(&["solve", "--fen", fen, "--nodes", "1"]);
    assert!(ok, "{err}");
    assert!(!out.starts_with("solution white"), "{out}");
}

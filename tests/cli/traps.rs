//! `pawnrace traps`: choosing the traps table with a model opponent,
//! checking it and merging shards.

use crate::{common, pawnrace};

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

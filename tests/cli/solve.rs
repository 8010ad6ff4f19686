//! The rules' and the solver's answers: `perft`, `solve` with its cache
//! and the tables, and `tune`'s labelled positions.

use crate::{common, pawnrace};

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

//! The command line itself: which flags each command takes, its help,
//! and arguments it refuses.

use crate::{common, pawnrace};

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

//! The benchmarks (`bench search`, `bench keep`, `bench solve`) and the
//! load test, run as a user would.

use crate::pawnrace;

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
    // With --profile, a line after each case (the states of its groups of
    // files, and the bound they put on a solver that summed the groups)
    // and one after the summary: where the solves' nodes went, every node
    // of the summary's counted once (one thread, so all of them).
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
    assert_eq!(lines.len(), 7, "{stdout}");
    for (i, case) in [(1, 1), (3, 2)] {
        assert!(
            lines[i].starts_with(&format!("profile case {case} group states "))
                && lines[i].contains(" summed at best "),
            "{stdout}"
        );
    }
    let nodes = lines[4]
        .split("; nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert!(
        lines[6].starts_with(&format!("profile nodes {nodes} pawns ")),
        "{stdout}"
    );
    assert!(
        lines[6].contains("; groups ")
            && lines[6].contains("; expanded ")
            && lines[6].contains("; group states "),
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

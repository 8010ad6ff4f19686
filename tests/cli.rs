//! The command line's own subcommands, run as a user would.

mod common;

fn pawnrace(args: &[&str]) -> (bool, String, String) {
    common::run_binary(args, b"")
}

#[test]
fn bench_reports_every_position_and_a_stable_total() {
    let (ok, stdout, _) = pawnrace(&["bench", "--depth", "4"]);
    assert!(ok);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        pawnrace::engine::bench::POSITIONS.len() + 1,
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
fn bad_arguments_are_refused_with_a_message() {
    let (ok, _, stderr) = pawnrace(&["bench", "--depth", "deep"]);
    assert!(!ok);
    assert!(stderr.contains("invalid value"), "{stderr}");
    let (ok, _, stderr) = pawnrace(&["frobnicate"]);
    assert!(!ok);
    assert!(stderr.contains("unrecognized subcommand"), "{stderr}");
}

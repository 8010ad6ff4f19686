//! What a job tells the server: the session's options and the moment it
//! was handed out, apart from its command's own limits.

use super::super::{Action, Session, SessionOptions};
use super::*;

/// The terms of the job `line` starts after `setup`, and the instants
/// around its handing out.
fn terms_of(setup: &[&str], line: &str) -> (JobTerms, Instant, Instant) {
    let mut s = Session::new(SessionOptions::default());
    for l in setup {
        assert!(matches!(s.handle_line(l), Action::Reply(_)), "{l}");
    }
    let before = Instant::now();
    let Action::Run(job) = s.handle_line(line) else {
        panic!("{line} must start a job")
    };
    let after = Instant::now();
    (job.terms(), before, after)
}

const GAME: &str = "position startpos gaps AH";

#[test]
fn a_timed_search_keeps_the_sessions_overhead_and_counts_from_its_command() {
    let (t, before, after) = terms_of(
        &[
            GAME,
            "setoption name Move Overhead value 100",
            "setoption name Threads value 2",
        ],
        "go movetime 1000",
    );
    assert_eq!(t.allowance, Some(Duration::from_millis(900)));
    assert_eq!(t.threads, 2);
    assert!(t.bounded);
    assert!((before..=after).contains(&t.received));
    // On the clock: the mover's time, less the same overhead.
    let (t, ..) = terms_of(
        &[GAME, "setoption name Move Overhead value 0"],
        "go wtime 20000 btime 1000",
    );
    assert_eq!(t.allowance, Some(Duration::from_millis(1000)));
}

#[test]
fn only_searches_that_wait_for_stop_are_unbounded() {
    let bounded = |setup: &[&str], line| terms_of(setup, line).0.bounded;
    assert!(!bounded(&[GAME], "go infinite"));
    assert!(!bounded(&[GAME], "go ponder movetime 500"));
    assert!(bounded(&[GAME], "go infinite depth 3"));
    assert!(bounded(&[GAME], "go infinite nodes 1000"));
    assert!(bounded(&[GAME], "solve"));
    // Pondering has no clock of its own; the real search's comes on
    // `ponderhit`.
    assert_eq!(
        terms_of(&[GAME], "go ponder movetime 500").0.allowance,
        None
    );
    // Before the gaps, black's choice is timed on black's clock: 4 s for
    // the 20 moves a race is planned to last.
    let (t, ..) = terms_of(&["newgame"], "go wtime 100000 btime 4000");
    assert_eq!(t.allowance, Some(Duration::from_millis(200)));
}

//! `pawnrace bench solve`: how long the exact solver takes on positions a
//! few plies off the openings table's line (the keep set's, one to four
//! plies into every opening), each from an empty table of the session's
//! size, as a move-time proof would start. With `--decide`, only the value
//! and a move keeping it, which is what a move at move time needs first;
//! with `--nodes`, a budget that is the same on a busy machine, so that two
//! builds' node counts compare where their times would not. Every answer
//! is held to the set's labels (each child solved when the set was made):
//! one that disagrees is printed `WRONG` and fails the run.

use super::super::args::{SessionTable, SetArgs};
use clap::Args;
use pawnrace::lab::keep::Case;
use pawnrace::rules::Position;
use pawnrace::solver::{NodeProfile, SolveLimits, SolvePhase, SolveProgress, Solver, Value};
use pawnrace::stop::Stop;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SolveBenchArgs {
    /// Give up on a position after this many milliseconds
    /// (it then counts as slower than every proved one).
    #[arg(long, default_value_t = 30_000)]
    budget: u64,
    /// Solve only this many positions, spread evenly over
    /// the set (every opening's share of it, rather than the first few).
    #[arg(long)]
    sample: Option<usize>,
    /// Also give up after this many nodes, which unlike
    /// time is the same on a busy machine.
    #[arg(long)]
    nodes: Option<u64>,
    /// Only decide each position's value with a move that
    /// keeps it (what move-time play asks first), not the distance.
    #[arg(long)]
    decide: bool,
    /// Each position after its first keeping move instead,
    /// the side that does not win to move (a loss, or a draw): the proofs
    /// the engine asks for when it defends.
    #[arg(long)]
    after_keep: bool,
    #[command(flatten)]
    set: SetArgs,
    /// Threads to prove with (default: one per core, as `solve`'s).
    #[arg(long)]
    threads: Option<usize>,
    /// Answer as a session does: from the proof tables where they prove
    /// the position (for a full solve, with its distance and a line, as
    /// `solve` answers; for `--decide`, any proven value with a move, as
    /// `go` plays), and otherwise proving with what the book proves (each
    /// position's value, and its distance where proven) wherever the
    /// table knows nothing; without it, from the rules alone.
    #[arg(long)]
    tables: bool,
    /// Also count where the nodes of the solves' own threads go: by the
    /// pawns on the board, by their groups of files (between empty files),
    /// and how many were expanded; and the distinct states of single
    /// groups, which bound what a solver that summed the groups' games
    /// could save. A `profile` line after each case and one after the
    /// summary.
    #[arg(long)]
    profile: bool,
    #[command(flatten)]
    table: SessionTable,
}

/// One position's proof.
#[derive(Clone)]
struct Timed {
    ms: u64,
    nodes: u64,
    /// Within the budget.
    proved: bool,
    /// In a full solve, the nodes searched when the value was known: the
    /// rest went into the distance and the line.
    decided: Option<u64>,
    /// Answered from the proof tables, nothing searched (`--tables`).
    tabled: bool,
    /// Plies into its opening.
    plies: usize,
}

pub fn run(args: &SolveBenchArgs) -> ExitCode {
    let cases = match super::keep_set(&args.set) {
        Ok(cases) => spread(cases, args.sample),
        Err(e) => {
            eprintln!("pawnrace bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let hash_mib = args.table.mib;
    let threads = args.threads.unwrap_or_else(pawnrace::solver::cores).max(1);
    let stop = Stop::new();
    let limits = SolveLimits {
        nodes: args.nodes,
        movetime_ms: Some(args.budget),
    };
    let mut all = Vec::new();
    let mut wrongs = 0;
    let mut profile = NodeProfile::default();
    // Built before the clock starts, as a session builds it once.
    let known = args.tables.then(pawnrace::proofs::values);
    for (n, case) in cases.iter().enumerate() {
        let (pos, value) = question(case, args.after_keep);
        let mut solver = Solver::new(hash_mib);
        solver.set_threads(threads);
        solver.set_profiling(args.profile);
        solver.set_known(known);
        let start = Instant::now();
        let mut decided = None;
        let tabled = match (args.tables, args.decide) {
            (false, _) => None,
            (true, true) => pawnrace::proofs::known(&pos),
            (true, false) => pawnrace::proofs::known_in_full(&pos),
        };
        // What the set's labels (solved child by child when it was made)
        // say against the answer: a disagreement is a wrong proof.
        let from_tables = tabled.is_some();
        let result = if let Some(p) = tabled {
            decided = Some(0);
            let spoils = !args.after_keep && p.line.first().is_some_and(|m| case.spoil.contains(m));
            let plies = p.plies.map_or(String::new(), |d| format!(" in {d}"));
            Some((
                format!("{}{plies} from the tables", p.value),
                p.value != value || spoils,
            ))
        } else if args.decide {
            solver.decide(&pos, &limits, &stop).map(|d| {
                let spoils = |m| !args.after_keep && case.spoil.contains(&m);
                let wrong = d.value != value || d.line.first().is_some_and(|&m| spoils(m));
                (d.value.to_string(), wrong)
            })
        } else {
            // The first report past the decision carries its node count.
            let mut progress = |p: &SolveProgress| {
                if decided.is_none() && p.phase != SolvePhase::Deciding {
                    decided = Some(p.nodes);
                }
            };
            solver.solve(&pos, &limits, &stop, &mut progress).map(|s| {
                let plies = s.plies.unwrap_or(s.line.len() as u32);
                (format!("{} in {plies}", s.value), s.value != value)
            })
        };
        let t = Timed {
            ms: start.elapsed().as_millis() as u64,
            nodes: solver.last_nodes(),
            proved: result.is_some(),
            decided,
            tabled: from_tables,
            plies: case.plies(),
        };
        let (result, wrong) = result.unwrap_or_else(|| ("unknown".into(), false));
        let result = if wrong {
            wrongs += 1;
            format!("{result} WRONG (the set says {value})")
        } else {
            result
        };
        let decided = t
            .decided
            .map_or(String::new(), |d| format!(" decided at {d}"));
        println!(
            "case {} {} {} plies {} {result} time {} nodes {}{decided} fen {}",
            n + 1,
            case.gaps,
            case.slot,
            case.plies(),
            t.ms,
            t.nodes,
            pos.fen()
        );
        all.push(t);
        if let Some(p) = solver.profile() {
            println!(
                "profile case {} group states {}, summed at best {:.2}x fewer nodes",
                n + 1,
                p.group_states(),
                p.sum_bound()
            );
            profile.add(p);
        }
    }
    let line = |label: &str, timed: &[Timed]| {
        let mut s = summary(label, timed, args.budget, hash_mib, threads);
        if args.tables {
            let tabled = timed.iter().filter(|t| t.tabled).count();
            s += &format!("; reading the book, {tabled} answered from the tables");
        }
        s
    };
    println!("{}", line("solve", &all));
    // The positions one to three plies from the start among them, on a
    // line of their own, as the goal for full solves names both.
    let early: Vec<Timed> = all.iter().filter(|t| t.plies <= 3).cloned().collect();
    if !early.is_empty() && early.len() < all.len() {
        println!("{}", line("solve plies 1-3", &early));
    }
    if args.profile {
        println!("{}", profile.summary());
    }
    if wrongs > 0 {
        eprintln!("error: {wrongs} answers disagree with the set's labels");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The position a case asks about and its value for the side to move:
/// the case's own, or with `after_keep` the other side of the same proof,
/// the position after the first keeping move (where the side to move does
/// not win).
fn question(case: &Case, after_keep: bool) -> (Position, Value) {
    let before = case.position();
    match case.keep.first() {
        Some(&m) if after_keep => {
            let winner = case.value.winner(before.side_to_move());
            let after = before.play_unchecked(m);
            (after, Value::for_side(winner, after.side_to_move()))
        }
        _ => (before, case.value),
    }
}

/// `sample` cases spread evenly over `cases`, in order.
fn spread(cases: Vec<Case>, sample: Option<usize>) -> Vec<Case> {
    let n = cases.len();
    match sample {
        Some(k) if k > 0 && k < n => cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| (i * k) % n < k)
            .map(|(_, c)| c)
            .collect(),
        _ => cases,
    }
}

/// `LABEL cases N proved P median MS p90 MS nodes N nps N ...` (the label
/// `solve`, or `solve plies 1-3` for that part of the set): a position not
/// proved counts as slower than the budget, and a percentile that falls on
/// one is written `>BUDGET`.
fn summary(label: &str, all: &[Timed], budget: u64, hash_mib: usize, threads: usize) -> String {
    let mut times: Vec<Option<u64>> = all.iter().map(|t| t.proved.then_some(t.ms)).collect();
    times.sort_by_key(|t| t.unwrap_or(u64::MAX));
    let at = |q: f64| -> String {
        if times.is_empty() {
            return "-".into();
        }
        let i = ((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1;
        match times[i] {
            Some(ms) => ms.to_string(),
            None => format!(">{budget}"),
        }
    };
    let proved = all.iter().filter(|t| t.proved).count();
    let nodes: u64 = all.iter().map(|t| t.nodes).sum();
    let ms: u64 = all.iter().map(|t| t.ms).sum();
    let nps = (nodes as u128 * 1000 / u128::from(ms.max(1))) as u64;
    // Of the full solves that finished, the share of their nodes spent
    // before the value was known.
    // (A finished game is decided before any report: all its nodes count.)
    let solved = all.iter().filter(|t| t.proved);
    let split = if solved.clone().any(|t| t.decided.is_some()) {
        let decided: u64 = solved.clone().map(|t| t.decided.unwrap_or(t.nodes)).sum();
        let all_nodes: u64 = solved.map(|t| t.nodes).sum();
        format!("; proved ones decided in {decided} of their {all_nodes} nodes")
    } else {
        String::new()
    };
    format!(
        "{label} cases {} proved {proved} median {} p90 {} ms; nodes {nodes} time {ms} ms nps {nps}; hash {hash_mib} MiB threads {threads} budget {budget} ms{split}",
        all.len(),
        at(0.5),
        at(0.9),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(ms: u64, proved: bool) -> Timed {
        Timed {
            ms,
            nodes: ms * 1000,
            proved,
            decided: None,
            tabled: false,
            plies: 1,
        }
    }

    #[test]
    fn after_keep_asks_the_losing_side_of_the_same_proof() {
        let cases = crate::cli::bench::builtin_cases();
        let case = cases.iter().find(|c| c.value == Value::Win).unwrap();
        let (pos, value) = question(case, false);
        assert_eq!((pos, value), (case.position(), Value::Win));
        let (after, value) = question(case, true);
        assert_eq!(after, pos.play_unchecked(case.keep[0]));
        assert_eq!(value, Value::Loss);
        let draw = cases.iter().find(|c| c.value == Value::Draw).unwrap();
        assert_eq!(question(draw, true).1, Value::Draw);
    }

    #[test]
    fn percentiles_put_unproved_positions_last() {
        let all: Vec<Timed> = (1..=9)
            .map(|i| timed(i * 100, true))
            .chain([timed(5000, false)])
            .collect();
        let s = summary("solve", &all, 5000, 16, 1);
        assert!(
            s.starts_with("solve cases 10 proved 9 median 500 p90 900 ms;"),
            "{s}"
        );
        let all = [timed(10, true), timed(5000, false)];
        let s = summary("solve", &all, 5000, 16, 1);
        assert!(s.contains("median 10 p90 >5000 ms;"), "{s}");
        assert!(!s.contains("decided"), "decisions alone: no split {s}");
    }

    #[test]
    fn full_solves_report_the_nodes_spent_before_the_value_was_known() {
        let with = |ms, proved, decided| Timed {
            decided: Some(decided),
            ..timed(ms, proved)
        };
        // The unproved one is left out of both sums.
        let all = [
            with(10, true, 4000),
            with(20, true, 5000),
            with(99, false, 7),
        ];
        let s = summary("solve", &all, 5000, 16, 1);
        assert!(
            s.ends_with("; proved ones decided in 9000 of their 30000 nodes"),
            "{s}"
        );
    }
}

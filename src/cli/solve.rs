//! `pawnrace solve`: the exact value of one position, or of every opening.

use super::args::{BudgetArgs, PositionArgs, ProofTable};
use super::cache::CacheFile;
use super::progress::ProgressLine;
use clap::Args;
use pawnrace::proofs::ProofEvent;
use pawnrace::proofs::openings::{self, Opening, Openings, ProveLimits, Proved};
use pawnrace::protocol::Reply;
use pawnrace::rules::{Color, Gaps};
use pawnrace::solver::{SolveLimits, Solver};
use pawnrace::stop::Stop;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Prove every gap opening and write the table to --out, resuming from
    /// what the file already holds: its proven pairs are kept, and the first
    /// moves they left unsettled are tried again within --first-move-nodes.
    /// --movetime and --nodes are then each opening's.
    #[arg(long, conflicts_with_all = ["gaps", "fen"])]
    all_gaps: bool,
    /// The openings table to write with --all-gaps.
    #[arg(long, default_value = "data/openings.txt")]
    out: PathBuf,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Node budget for each first move when sorting out which keep an
    /// opening's result (--all-gaps).
    #[arg(long, default_value_t = 200_000_000)]
    first_move_nodes: u64,
    #[command(flatten)]
    table: ProofTable,
    /// Threads to prove with (default: one per core). With --all-gaps,
    /// that many openings at once, one thread and an equal share of
    /// --hash each.
    #[arg(long)]
    threads: Option<usize>,
    /// Read the solver's proofs from this file first and write them back
    /// after (made if missing; a file that is not this build's cache is
    /// reported and left alone), so that a later solve reuses them.
    #[arg(long, conflicts_with = "all_gaps")]
    cache: Option<PathBuf>,
    /// Answer as a session's `solve` does: from the proof tables where
    /// they prove the position in full (its value, distance and a line),
    /// and otherwise prove reading what the book proves (each position's
    /// value, and its distance where proven) wherever the proof's own
    /// table knows nothing (a tables answer proves nothing, and reads or
    /// writes no `--cache`); without it the proof rests on the rules alone.
    #[arg(long, conflicts_with = "all_gaps")]
    tables: bool,
}

pub fn run(args: SolveArgs) -> ExitCode {
    let limits = args.budget.limits();
    let threads = args.threads.unwrap_or_else(pawnrace::solver::cores).max(1);
    if args.all_gaps {
        return all_gaps(&args, limits, threads);
    }
    let mut solver = Solver::new(args.table.mib);
    solver.set_threads(threads);
    let pos = match args.position.position() {
        Some(Ok(p)) => p,
        None => {
            eprintln!("pawnrace solve: give --gaps XY, --fen TEXT or --all-gaps");
            return ExitCode::FAILURE;
        }
        Some(Err(e)) => {
            eprintln!("pawnrace solve: {e}");
            return ExitCode::FAILURE;
        }
    };
    let tabled = args
        .tables
        .then(|| pawnrace::proofs::known_in_full(&pos))
        .flatten();
    if let Some(proven) = tabled {
        eprintln!("proven by {}", pawnrace::proofs::table_name(proven.source));
        println!("{}", Reply::solution(&pos, Some(&proven)));
        return ExitCode::SUCCESS;
    }
    // Only a proof reads the index, and building it takes a third of a
    // second: not for an answer the tables give.
    if args.tables {
        solver.set_known(Some(pawnrace::proofs::values()));
    }
    let cache = CacheFile::open("pawnrace solve", args.cache.as_deref(), &mut solver);
    let stop = super::stop_on_ctrl_c("the solve");
    let mut bar = ProgressLine::new();
    let mut last = None;
    let solution = solver.solve(&pos, &limits, &stop, &mut |p| {
        bar.update("", p);
        last = Some(*p);
    });
    bar.finish();
    if let Some(p) = last {
        eprintln!(
            "{} nodes in {:.2} s ({:.2} Mnps)",
            p.nodes,
            p.time_ms as f64 / 1000.0,
            p.nps() as f64 / 1e6
        );
    }
    // The protocol's `solve` line, so that scripts read both alike.
    println!("{}", Reply::solution(&pos, solution.as_ref()));
    // A solve cut short still proved what it proved.
    if cache.is_some_and(|c| !c.save("pawnrace solve", &solver)) {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn all_gaps(args: &SolveArgs, limits: SolveLimits, threads: usize) -> ExitCode {
    let parsed = super::read_out(&args.out).and_then(|text| {
        Openings::parse(&text).map_err(|e| format!("{}: {e}", args.out.display()))
    });
    let mut table = match parsed {
        Ok(t) => t,
        Err(e) => {
            eprintln!("pawnrace solve: {e}");
            return ExitCode::FAILURE;
        }
    };
    let prove_limits = ProveLimits {
        opening: limits,
        first_move: SolveLimits {
            nodes: Some(args.first_move_nodes),
            movetime_ms: None,
        },
    };
    let header = header(args);
    let stop = Stop::new();
    let hash = (args.table.mib / threads).max(1);
    let workers = openings::Workers {
        count: threads,
        solver: &|| Solver::new(hash),
    };
    let mut bar = ProgressLine::new();
    let mut times = Times {
        solving: Duration::ZERO,
        keeping: Duration::ZERO,
        started: Instant::now(),
    };
    let mut failed = false;
    openings::prove_all(&mut table, &workers, &prove_limits, &stop, &mut |event| {
        let (table, gaps, proved) = match event {
            ProofEvent::Progress { gaps, progress } => {
                let label = gaps.map_or(String::new(), |g| format!("{g}: "));
                bar.update(&label, progress);
                return;
            }
            ProofEvent::Opening {
                table,
                gaps,
                proved,
            } => (table, gaps, proved),
            ProofEvent::Proven { .. }
            | ProofEvent::Unknown { .. }
            | ProofEvent::Lost { .. }
            | ProofEvent::Tabled { .. } => {
                return;
            }
        };
        bar.finish();
        let summary = match table.get(gaps) {
            Some(Opening::Proven(p)) => {
                format!(
                    "{} in {} plies",
                    p.winner().map_or("draw", Color::name),
                    p.plies()
                )
            }
            Some(Opening::Unknown(note)) => format!("unknown ({note})"),
            None => "missing".into(),
        };
        eprintln!("{gaps}: {summary} ({})", times.add(proved));
        failed |= !save(&args.out, table, &header);
    });
    // Lines for pairs not attempted yet keep the table's shape honest.
    for gaps in Gaps::all(8) {
        if table.get(gaps).is_none() {
            table.insert(gaps, Opening::Unknown("not attempted yet".into()));
        }
    }
    failed |= !save(&args.out, &table, &header);
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes the openings table to `out`; whether it was written (a failure
/// is told).
fn save(out: &std::path::Path, table: &Openings, header: &str) -> bool {
    match super::save(out, table.to_text(header)) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("pawnrace solve: cannot write {}: {e}", out.display());
            false
        }
    }
}

/// The openings' proofs so far. Solving (the result, distance and line)
/// and sorting out the first moves are timed apart: the first is the proof
/// itself. With several workers the sums are thread time; the clock's time
/// since the start is the run's.
struct Times {
    solving: Duration,
    keeping: Duration,
    started: Instant,
}

impl Times {
    /// Adds an opening's times; what its line says of them.
    fn add(&mut self, proved: &Proved) -> String {
        self.keeping += proved.keeping;
        let solving = match proved.solving {
            Some(t) => {
                self.solving += t;
                format!(
                    "solved in {:.1} s, {:.1} s in all",
                    t.as_secs_f64(),
                    self.solving.as_secs_f64()
                )
            }
            None => "from the table".into(),
        };
        format!(
            "{solving}; first moves {:.1} s, {:.1} s in all; {:.1} s since the start",
            proved.keeping.as_secs_f64(),
            self.keeping.as_secs_f64(),
            self.started.elapsed().as_secs_f64(),
        )
    }
}

fn header(args: &SolveArgs) -> String {
    let budget = match (args.budget.movetime, args.budget.nodes) {
        (None, None) => String::new(),
        (t, n) => format!(
            "{}{}",
            t.map_or(String::new(), |t| format!(" --movetime {t}")),
            n.map_or(String::new(), |n| format!(" --nodes {n}"))
        ),
    };
    format!(
        "Pawn Race openings: the proven result of every gap pair, white to move.\n\
         Made by: pawnrace solve --all-gaps --hash {} --first-move-nodes {}{budget}\n\
         (it resumes from this file; see src/proofs/openings/mod.rs for the format)\n\
         gaps result plies pv <line> keep <first moves keeping the result> keep? <unsettled>",
        args.table.mib, args.first_move_nodes
    )
}

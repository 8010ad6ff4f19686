//! `pawnrace analyse`: the exact value of every move of recorded games.

use super::args::{BudgetArgs, ProofTable};
use super::cache::CacheFile;
use clap::Args;
use pawnrace::analysis::batch::{Game, analyse_games};
use pawnrace::analysis::summary::{Totals, VerdictCounts};
use pawnrace::analysis::{DEFAULT_POSITION_MS, GameAnalysis, write};
use pawnrace::pgn::{ReadGame, read_games};
use pawnrace::rules::Color;
use pawnrace::solver::{CACHE_MIN_WORK, Solver, cores};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The long help: what the verdicts mean and what is written where.
pub fn help() -> String {
    format!(
        "\
Every position of a game gets its proven value: from the rules when the game
is over, the compiled-in openings table and book, or the exact solver within
the per-position budget (--movetime, --nodes; {DEFAULT_POSITION_MS} ms when neither is given).
A position whose budget runs out is `unknown`, never a guess; a position with
a single legal move takes its value from the position after it. The games go
to --threads workers (the machine's cores), the games of one opening to the
same worker and its share of --hash; the report keeps the games' order.

Each move gets one verdict for the side that played it (results only, not
distances): `forced` (its only legal move), `unknown` (the position before or
after it is unknown), `spoiled` (its result after the move is worse: win to
draw or loss, draw to loss), `chance` (it keeps a result better than the one
it had before the opponent's previous move: the opponent spoiled and it took
what it was handed), otherwise `kept`.

Input: PGN (as `pawnrace match --pgn` writes it; tags White, Black, Variant,
Gaps, FEN) or a plain form: a `gaps XY` line (or `fen TEXT`, and `variant
mini4` before it) then moves in SAN or coordinates; games end at a blank line
after their moves, a result token or the next gaps/fen line.

Output on stdout, per game: a `game N: ...` line, a table (ply, move, side,
san, before, after, verdict; values as `white wins in N` plies, `black wins
in N`, `draw`, `unknown`) and the game's summary per colour; then the summary
of all games per player name. Columns are separated by two or more spaces.
--pgn-out writes the games annotated: `??` on spoils, `!` on chances taken,
and `{{value after the move}}` after every move. A game that cannot be read is
reported on stderr with its number and the reason; the others are still
analysed and the exit status is 1."
    )
}

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// Files of games, PGN or the plain form (stdin when none).
    files: Vec<PathBuf>,
    // The solver's budget per position (`DEFAULT_POSITION_MS` when neither is given).
    #[command(flatten)]
    budget: BudgetArgs,
    // One table for all the games.
    #[command(flatten)]
    table: ProofTable,
    /// Write the games as annotated PGN to this file.
    #[arg(long)]
    pgn_out: Option<PathBuf>,
    /// Print only the summaries (per game and over all games).
    #[arg(long)]
    summary_only: bool,
    /// Read the solver's proofs from this file first and write them back at
    /// the end (made if missing; a file that is not this build's cache is
    /// reported and left alone): games from the same openings share much.
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Games analysed at once, each worker with its own solver and its
    /// share of --hash (the machine's cores when not given).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

pub fn run(args: AnalyseArgs) -> ExitCode {
    let limits = args.budget.limits_or_movetime(DEFAULT_POSITION_MS);
    let (inputs, failed_input) = read_inputs(&args.files);
    let mut totals = Totals::default();
    // Every game first, numbered in the order read: the workers take them
    // by opening, the report keeps this order.
    let mut read = Vec::new();
    let mut number = 0;
    for (name, text) in &inputs {
        for game in read_games(text) {
            number += 1;
            match game {
                Ok(g) => read.push((number, g)),
                Err(e) => {
                    eprintln!("pawnrace analyse: game {number} ({name}): {e}");
                    totals.failed += 1;
                }
            }
        }
    }
    let games: Vec<Game> = read
        .iter()
        .map(|(_, g)| Game {
            start: g.start,
            moves: g.moves.clone(),
        })
        .collect();
    let workers = args
        .threads
        .unwrap_or_else(cores)
        .clamp(1, games.len().max(1));
    // The table's size is shared among the workers, so that memory stays
    // what --hash says. Each reads the book's values (`proofs::values`),
    // as the analysis already takes the positions the tables hold from them.
    let mut solvers: Vec<Solver> = (0..workers)
        .map(|_| {
            let mut solver = Solver::new((args.table.mib / workers).max(1));
            solver.set_known(Some(pawnrace::proofs::values()));
            solver
        })
        .collect();
    let cache = {
        let (first, rest) = solvers.split_at_mut(1);
        let cache = CacheFile::open("pawnrace analyse", args.cache.as_deref(), &mut first[0]);
        if cache.is_some() {
            let bytes = first[0].cache_bytes(0);
            for s in rest {
                let _ = s.load_cache(&bytes);
            }
        }
        cache
    };
    // Ctrl-C ends the analysis: what is not proven by then stays unknown,
    // and the report still comes.
    let stop = super::stop_on_ctrl_c("the analysis");
    let analyses = analyse_games(&games, &mut solvers, &limits, &stop, &|i, a, took| {
        let unknown = a.positions.iter().filter(|k| k.is_none()).count();
        eprintln!(
            "game {}: {} positions valued in {:.1} s, {unknown} unknown",
            read[i].0,
            a.positions.len(),
            took.as_secs_f64()
        );
    });
    let mut pgn = String::new();
    let mut out = io::stdout().lock();
    for ((number, game), analysis) in read.iter().zip(&analyses) {
        let text = report(*number, game, analysis, &mut totals, args.summary_only);
        if out.write_all(text.as_bytes()).is_err() {
            return ExitCode::FAILURE;
        }
        if args.pgn_out.is_some() {
            pgn.push_str(&write::annotated_pgn(game, analysis));
        }
    }
    if out
        .write_all(write::total_summary(&totals).as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    let mut ok = !failed_input && totals.failed == 0;
    if let Some(path) = &args.pgn_out
        && let Err(e) = super::save(path, &pgn)
    {
        eprintln!("pawnrace analyse: {}: {e}", path.display());
        ok = false;
    }
    if let Some(cache) = cache {
        // One file from all the workers' tables.
        let (first, rest) = solvers.split_at_mut(1);
        for s in rest.iter() {
            let _ = first[0].load_cache(&s.cache_bytes(CACHE_MIN_WORK));
        }
        if !cache.save("pawnrace analyse", &first[0]) {
            ok = false;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Each input's name and text: the files, or stdin when there are none;
/// and whether any could not be read (each such is told on stderr).
fn read_inputs(files: &[PathBuf]) -> (Vec<(String, String)>, bool) {
    let mut failed = false;
    let mut inputs = Vec::new();
    if files.is_empty() {
        let mut text = String::new();
        match io::stdin().read_to_string(&mut text) {
            Ok(_) => inputs.push(("stdin".into(), text)),
            Err(e) => {
                eprintln!("pawnrace analyse: stdin: {e}");
                failed = true;
            }
        }
    }
    for path in files {
        match std::fs::read_to_string(path) {
            Ok(text) => inputs.push((path.display().to_string(), text)),
            Err(e) => {
                eprintln!("pawnrace analyse: {}: {e}", path.display());
                failed = true;
            }
        }
    }
    (inputs, failed)
}

/// A game's table (unless `summary_only`) and summary, each followed by a
/// blank line; the game's tallies go into `totals`.
fn report(
    number: usize,
    game: &ReadGame,
    analysis: &GameAnalysis,
    totals: &mut Totals,
    summary_only: bool,
) -> String {
    let white = VerdictCounts::of(analysis, Color::White, number);
    let black = VerdictCounts::of(analysis, Color::Black, number);
    totals.add_game(&game.white, &game.black, [&white, &black]);
    let mut text = String::new();
    if !summary_only {
        text.push_str(&write::table(number, game, analysis));
        text.push('\n');
    }
    text.push_str(&write::game_summary(number, game, [&white, &black]));
    text.push('\n');
    text
}

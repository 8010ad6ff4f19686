//! `pawnrace analyse`: the exact value of every move of recorded games.

use super::args::{BudgetArgs, ProofTable};
use super::cache::CacheFile;
use clap::Args;
use pawnrace::analysis::summary::{Totals, VerdictCounts};
use pawnrace::analysis::{DEFAULT_POSITION_MS, GameAnalysis, analyse, write};
use pawnrace::pgn::{ReadGame, read_games};
use pawnrace::rules::Color;
use pawnrace::solver::Solver;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The long help: what the verdicts mean and what is written where.
pub fn help() -> String {
    format!(
        "\
Every position of a game gets its proven value: from the rules when the game
is over, the compiled-in openings table and book, or the exact solver within
the per-position budget (--movetime, --nodes; {DEFAULT_POSITION_MS} ms when neither is given).
A position whose budget runs out is `unknown`, never a guess; a position with
a single legal move takes its value from the position after it.

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
}

pub fn run(args: AnalyseArgs) -> ExitCode {
    let limits = args.budget.limits_or_movetime(DEFAULT_POSITION_MS);
    let (inputs, failed_input) = read_inputs(&args.files);
    let mut solver = Solver::new(args.table.mib);
    let cache = CacheFile::open("pawnrace analyse", args.cache.as_deref(), &mut solver);
    // Ctrl-C ends the analysis: what is not proven by then stays unknown,
    // and the report still comes.
    let stop = super::stop_on_ctrl_c("the analysis");
    let mut totals = Totals::default();
    let mut pgn = String::new();
    let mut out = io::stdout().lock();
    let mut number = 0;
    for (name, text) in &inputs {
        for read in read_games(text) {
            number += 1;
            let game = match read {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("pawnrace analyse: game {number} ({name}): {e}");
                    totals.failed += 1;
                    continue;
                }
            };
            let started = Instant::now();
            let analysis = analyse(
                &game.start,
                &game.moves,
                &mut solver,
                &limits,
                &stop,
                &mut |_| {},
            );
            let unknown = analysis.positions.iter().filter(|k| k.is_none()).count();
            eprintln!(
                "game {number}: {} positions valued in {:.1} s, {unknown} unknown",
                analysis.positions.len(),
                started.elapsed().as_secs_f64()
            );
            let text = report(number, &game, &analysis, &mut totals, args.summary_only);
            if out.write_all(text.as_bytes()).is_err() {
                return ExitCode::FAILURE;
            }
            if args.pgn_out.is_some() {
                pgn.push_str(&write::annotated_pgn(&game, &analysis));
            }
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
    if cache.is_some_and(|c| !c.save("pawnrace analyse", &solver)) {
        ok = false;
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

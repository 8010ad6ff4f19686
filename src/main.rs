//! `pawnrace`: the protocol on stdin/stdout, or a subcommand. Each
//! subcommand's arguments and run live in its own file under src/cli/;
//! this file only names them and dispatches.

mod cli;

use clap::{Parser, Subcommand};
use pawnrace::problems;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "pawnrace",
    version,
    about = "A Pawn Race engine speaking a UCI-like line protocol",
    // The flags here are the stdio server's; a subcommand takes its own.
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    server: cli::serve::ServerArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the protocol over TCP, one session per connection.
    ///
    /// Sessions over TCP, WebSocket (--http) and stdin/stdout keep the same
    /// discipline: while a job runs (a search, solve, perft, analyse or
    /// explore), isready, stop, quit and ponderhit are answered at once and
    /// every other line waits its turn; at most 1000 lines wait, and a line
    /// past that is answered `error busy ...` and dropped (in UCI mode a
    /// dropped `go` still ends in `bestmove (none)`).
    Serve(cli::serve::ServeArgs),
    /// The benchmarks: `search` (the default: a fixed set of positions to
    /// a fixed depth, whose node total is a signature of the search),
    /// `keep` (the keep rate) and `solve` (the solver's times).
    Bench(cli::bench::BenchArgs),
    /// Full-chess move validator: `e2 e4` lines on stdin, boards on stdout.
    ChessValidator,
    /// Pawn move validator: games on stdin, first incorrect move per game.
    PawnValidator,
    /// The exact value of a position (or of every gap opening), with the
    /// winner's shortest win and the loser's longest loss.
    Solve(cli::solve::SolveArgs),
    /// Grow a book file of proven positions near an opening's start, where
    /// proofs take longer than a move's time (merged into data/book/ by
    /// book-merge).
    Book(cli::book::BookArgs),
    /// Choose the traps table's moves near the openings' start: in
    /// positions proven lost (or drawn), the move a model opponent is
    /// likeliest to answer wrongly (data/traps.txt).
    Traps(Box<cli::traps::TrapsArgs>),
    /// Merge book files (runs made in parallel) into the book, checking a
    /// sample of what they add.
    BookMerge(cli::book_merge::MergeArgs),
    /// Make the keep-rate benchmark's positions: random walks into every
    /// opening where the side to move holds a win or draw, each move
    /// labelled keep or spoil by the solver (data/keep-set.txt).
    KeepSet(cli::keep_set::KeepSetArgs),
    /// Tune the search's leaf evaluation: label positions with their
    /// proven values (`tune make`), fit the weights to them (`tune fit`).
    Tune(cli::tune::TuneArgs),
    /// Count move sequences from a position (the start of AH unless told),
    /// with the speed.
    Perft(cli::perft::PerftArgs),
    /// One pawn each: `duel e2 e7 w` prints white, black or draw; with no
    /// query, one query per stdin line.
    Duel(cli::duel::DuelArgs),
    /// UVa 10838, the 4x4 pawn game: boards on stdin, `white (N)` or
    /// `black (N)` per board.
    Mini4,
    /// Play one game in the Imperial College autorunner's protocol: gaps,
    /// then SAN moves, one a line (`autorunner W` or `autorunner B`).
    Autorunner(cli::autorunner::AutorunnerArgs),
    /// Play a match between two engines, refereed by pawnrace's rules:
    /// openings, clocks, faults, Elo with error bars, PGN, SPRT.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// The proven value before and after every move of recorded games (PGN
    /// or plain), with each move kept, spoiled or a chance taken.
    #[command(after_long_help = cli::analyse::help())]
    Analyse(cli::analyse::AnalyseArgs),
    /// Load a running server with many sessions (timed searches, infinite
    /// searches, table churn) and report answer and `isready` latencies.
    Loadtest(cli::loadtest::LoadtestArgs),
    /// The XBoard/WinBoard protocol (CECP v2) on stdin/stdout:
    /// `xboard -fcp "pawnrace xboard"` plays Pawn Race in the GUI.
    Xboard(cli::xboard::XboardArgs),
}

fn main() -> ExitCode {
    let parsed = Cli::parse();
    let Some(command) = parsed.command else {
        return cli::serve::stdio(&parsed.server);
    };
    match command {
        Command::Serve(args) => cli::serve::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::ChessValidator => cli::problems::run(problems::chess_validator::run),
        Command::PawnValidator => cli::problems::run(problems::pawn_validator::run),
        Command::Solve(args) => cli::solve::run(args),
        Command::Book(args) => cli::book::run(args),
        Command::Traps(args) => cli::traps::run(*args),
        Command::BookMerge(args) => cli::book_merge::run(args),
        Command::KeepSet(args) => cli::keep_set::run(args),
        Command::Tune(args) => cli::tune::run(args),
        Command::Perft(args) => cli::perft::run(args),
        Command::Duel(args) => cli::duel::run(args),
        Command::Mini4 => cli::problems::run(problems::mini4::run),
        Command::Autorunner(args) => cli::autorunner::run(args),
        Command::Match(args) => cli::match_cmd::run(*args),
        Command::Analyse(args) => cli::analyse::run(args),
        Command::Loadtest(args) => cli::loadtest::run(args),
        Command::Xboard(args) => cli::xboard::run(args),
    }
}

#[cfg(test)]
mod tests {
    /// Clap's own checks of the whole tree (ids, conflicts, defaults),
    /// which parsing alone runs only along the path taken.
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}

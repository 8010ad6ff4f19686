//! `pawnrace autorunner W|B`: one game in the Imperial College autorunner's
//! protocol on the standard streams.

use super::args::SessionTable;
use clap::Args;
use pawnrace::autorunner;
use pawnrace::engine::Limits;
use pawnrace::rules::Color;
use std::io;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct AutorunnerArgs {
    /// The colour to play: W or B (also white, black, any case).
    colour: Color,
    /// Thinking time per move (and for black's choice of gaps), ms; the
    /// tournament allows 5000. Default 1000, unless --depth is given.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search every move to this depth. Alone, it makes games reproducible
    /// (no clock, so no proof lookup either); with --movetime, whichever
    /// limit comes first ends the search.
    #[arg(long)]
    depth: Option<u32>,
    /// Do not think on the opponent's time (by default, with a clock, the
    /// engine proves what it can while the opponent's move is awaited).
    #[arg(long)]
    no_ponder: bool,
    #[command(flatten)]
    table: SessionTable,
}

/// The harness only reads stdout, so the lines we skip are shown on stderr
/// at `info` by default: they are what a person debugging a pairing needs
/// to see.
pub fn run(args: AutorunnerArgs) -> ExitCode {
    super::init_tracing("info");
    let movetime = match (args.movetime, args.depth) {
        (None, None) => Some(autorunner::DEFAULT_MOVETIME_MS),
        (movetime, _) => movetime,
    };
    let config = autorunner::Config {
        limits: Limits {
            movetime_ms: movetime,
            depth: args.depth,
            ..Limits::default()
        },
        hash_mib: args.table.mib,
        ponder: movetime.is_some() && !args.no_ponder,
    };
    match autorunner::run(
        args.colour,
        io::stdin().lock(),
        io::stdout().lock(),
        &config,
    ) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawnrace autorunner: {e}");
            ExitCode::FAILURE
        }
    }
}

//! `pawnrace perft`: move-generator counts and their speed from any position.

use super::args::PositionArgs;
use clap::Args;
use pawnrace::rules::{Gaps, perft, perft_every_leaf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count.
    depth: u32,
    // Where to count from (the start of AH unless told).
    #[command(flatten)]
    position: PositionArgs,
    /// Make every last-ply move instead of counting the last ply in bulk.
    #[arg(long)]
    every_leaf: bool,
}

pub fn run(args: PerftArgs) -> ExitCode {
    // AH unless told: the opening the documented perft figures count.
    let pos = match args.position.position_or(Gaps { white: 0, black: 7 }) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pawnrace perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let nodes = if args.every_leaf {
        perft_every_leaf(&pos, args.depth)
    } else {
        perft(&pos, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    let counting = if args.every_leaf {
        "every leaf"
    } else {
        "bulk"
    };
    println!(
        "perft {} nodes {nodes} time {:.3} s {:.0} M leaves/s ({counting})",
        args.depth,
        seconds,
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

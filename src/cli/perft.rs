//! `pawnrace perft`: move-generator counts and their speed from any position.

use clap::Args;
use pawnrace::rules::{Gaps, Position, Variant, perft, perft_every_leaf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count.
    depth: u32,
    /// Count from the start of a Pawn Race with these gaps.
    #[arg(long, default_value = "AH", conflicts_with = "fen")]
    gaps: Gaps,
    /// Count from this position instead.
    #[arg(long)]
    fen: Option<String>,
    /// The rules of --fen: pawnrace or mini4.
    #[arg(long, default_value = "pawnrace")]
    variant: Variant,
    /// Make every last-ply move instead of counting the last ply in bulk.
    #[arg(long)]
    every_leaf: bool,
}

pub fn run(args: PerftArgs) -> ExitCode {
    let rules = args.variant.rules();
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen, rules),
        None => Position::start(rules, Some(args.gaps)),
    };
    let pos = match pos {
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

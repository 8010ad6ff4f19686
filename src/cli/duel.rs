//! `pawnrace duel`: one pawn each, who wins. One query from the command
//! line, or one per stdin line.

use clap::Args;
use pawnrace::problems::duel;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct DuelArgs {
    /// White's square, black's square, side to move (w or b).
    query: Vec<String>,
}

pub fn run(args: DuelArgs) -> ExitCode {
    if args.query.is_empty() {
        return super::problems::run(duel::run);
    }
    let query = args.query.join(" ");
    match duel::parse_query(&query).and_then(|(w, b, side)| duel::duel(w, b, side)) {
        Ok(winner) => {
            println!("{}", duel::answer_word(winner));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawnrace duel: {e}");
            ExitCode::FAILURE
        }
    }
}

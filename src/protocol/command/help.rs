//! `help`'s text: one line per command.

use crate::analysis::DEFAULT_POSITION_MS;
use crate::analysis::explore::DEFAULT_MOVE_MS;

/// One line per command, for `help`, in the order people meet them: the
/// command's form and what it does.
pub fn help() -> Vec<(&'static str, String)> {
    let line = |form: &'static str, what: &str| (form, what.to_string());
    vec![
        line("uci", "identify the engine and list its options"),
        line("isready", "answer readyok (at once, even while searching)"),
        line(
            "setoption name <name> value <value>",
            "set an option (Hash in MiB)",
        ),
        line(
            "newgame [pawnrace|mini4|chess]",
            "start a new game (Pawn Race waits for gaps; chess has no engine)",
        ),
        line(
            "gaps <XY>",
            "choose the gap files, white's first (black's choice, before the first move)",
        ),
        line(
            "position startpos [gaps XY] [moves m1 m2 ...]",
            "set up the start position",
        ),
        line(
            "position fen <text> [moves m1 m2 ...]",
            "set up a position from its text",
        ),
        line("move <m>", "play a move, e2e4 or e4"),
        line("undo", "take back the last move"),
        line("moves", "list the legal moves"),
        line(
            "board",
            "show the board, position text, side to move and status",
        ),
        line("fen", "show the position text"),
        line(
            "go [depth N] [movetime MS] [nodes N] [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N] [infinite] [ponder] [mate N] [searchmoves m1 m2 ...]",
            "let the engine move (mate N: a proven win within N moves; searchmoves: only among these)",
        ),
        line("stop", "end a running search or perft now"),
        line(
            "ponderhit",
            "the opponent played the move go ponder thought about: search it for real, on the clock go ponder gave",
        ),
        line(
            "perft <N>",
            "count move sequences N plies deep, per first move",
        ),
        line(
            "solve [movetime MS] [nodes N]",
            "prove the exact result and its distance (until stop without limits)",
        ),
        (
            "analyse [movetime MS] [nodes N]",
            format!(
                "the proven value before and after every move of the game, and each move's verdict (budget per position, default movetime {DEFAULT_POSITION_MS})"
            ),
        ),
        (
            "explore [movetime MS] [nodes N]",
            format!(
                "every legal move with its proven value for the mover, as proofs arrive (budget per move, default movetime {DEFAULT_MOVE_MS})"
            ),
        ),
        line("help", "this list"),
        line("quit", "end the session"),
    ]
}

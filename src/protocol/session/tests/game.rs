//! Playing a pawn game: moves, undo, positions, refusals and perft.

use super::*;

#[test]
fn a_game_from_gaps_to_undo() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "newgame",
            "gaps ah",
            "move e2e4",
            "move d5",
            "fen",
            "undo",
            "fen",
        ],
    );
    assert_eq!(
        out,
        [
            "ok newgame pawnrace awaiting gaps",
            "ok gaps AH",
            "ok move e2e4 san e4",
            "ok move d7d5 san d5",
            "ok fen 8/ppp1ppp1/8/3p4/4P3/8/1PPP1PPP/8 w -",
            "ok undo d7d5 san d5",
            "ok fen 8/ppppppp1/8/8/4P3/8/1PPP1PPP/8 b -",
        ]
    );
}

#[test]
fn errors_have_codes_and_change_nothing() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "move e2e4",
            "gaps AH",
            "move e2e5",
            "move zz",
            "move e2e4",
            "gaps BG",
            "undo",
            "undo",
        ],
    );
    let codes: Vec<&str> = out
        .iter()
        .map(|l| l.split(' ').take(2).last().unwrap_or(""))
        .collect();
    assert_eq!(
        codes,
        [
            "wrong-state",
            "gaps",
            "illegal-move",
            "bad-argument",
            "move",
            "wrong-state",
            "undo",
            "wrong-state"
        ]
    );
}

#[test]
fn a_winning_move_says_so_and_ends_the_game() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "position fen 8/4P3/8/8/8/8/p7/8 w -",
            "move e8",
            "move a1",
            "go depth 1",
        ],
    );
    assert_eq!(out[1], "ok move e7e8 san e8 result white-wins promotion e8");
    assert!(
        out[2].starts_with("error game-over the game is over: white wins"),
        "{}",
        out[2]
    );
    assert_eq!(out[3], "bestmove (none)");
}

#[test]
fn mini4_plays_without_gaps() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "newgame mini4",
            "gaps AB",
            "moves",
            "position fen pppp/..../..../PPPP w -",
            "perft 2",
        ],
    );
    assert_eq!(out[0], "ok newgame mini4");
    assert!(out[1].starts_with("error wrong-state mini4 has no gaps"));
    assert_eq!(out[6], "ok moves 4");
    assert_eq!(out[7], "ok position pppp/4/4/PPPP w -");
    assert_eq!(out.last().unwrap(), "ok nodes 16");
}

#[test]
fn a_refused_position_leaves_no_position() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "position startpos gaps AH moves e2e4",
            "position startpos gaps AH moves e2e4 e7e4",
            "fen",
            "go movetime 50",
            "position startpos gaps AH moves e2e4",
            "position startpos gaps ZZ",
            "fen",
            "position startpos gaps AH",
            "fen",
        ],
    );
    assert_eq!(
        out[1],
        "error illegal-move move 2 (e7e4): e7e4 is not legal here (black to move)"
    );
    // The old game is gone: no move is played for it.
    let gone = "error wrong-state no position: the last position command was refused";
    assert!(out[2].starts_with(gone), "{}", out[2]);
    assert!(out[3].starts_with(gone), "{}", out[3]);
    // A position that does not even parse replaces the game too.
    assert!(out[5].starts_with("error bad-argument"), "{}", out[5]);
    assert!(out[6].starts_with(gone), "{}", out[6]);
    assert_eq!(out[8], "ok fen 8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -");
}

#[test]
fn perft_lists_root_moves_then_the_total() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(&mut s, &["position startpos gaps AH", "perft 3"]);
    assert_eq!(out.len(), 1 + 14 + 1);
    assert_eq!(out.last().unwrap(), "ok nodes 2554");
    assert!(out[1..15].iter().all(|l| l.contains(": ")));
}

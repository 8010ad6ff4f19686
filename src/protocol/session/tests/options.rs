//! `setoption`: the options, their errors, and the memory budget the
//! tables come from.

use super::*;

#[test]
fn options() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "setoption name hash value 32",
            "setoption name Hash value 0",
            "setoption name Contempt value 20",
            "setoption name move overhead value 100",
            "setoption name Move Overhead value -1",
            "setoption name Move Overhead",
        ],
    );
    assert_eq!(out[0], "ok setoption Hash 32");
    assert_eq!(out[1], "error bad-argument Hash takes MiB from 1 to 1024");
    assert_eq!(
        out[2],
        "error bad-argument unknown option 'Contempt' (known: Hash, Move Overhead, Threads, Ponder, MultiPV, Gaps, UCI_Variant)"
    );
    assert_eq!(out[3], "ok setoption Move Overhead 100");
    assert_eq!(
        out[4],
        "error bad-argument Move Overhead takes milliseconds from 0 to 5000"
    );
    assert_eq!(out[5], out[4]);
}

#[test]
fn tables_come_from_the_memory_budget_and_go_back() {
    let memory = crate::memory::MemoryBudget::new(64);
    let options = SessionOptions {
        memory: std::sync::Arc::clone(&memory),
        ..SessionOptions::default()
    };
    let mut s = Session::new(options.clone());
    // Two tables of 64 MiB do not fit in 64.
    let out = drive(&mut s, &["setoption name Hash value 64"]);
    assert_eq!(
        out,
        [
            "error bad-argument Hash 64 needs 128 MiB (the search's table and the solver's); the server's memory budget has 64 MiB left of 64"
        ]
    );
    // None until the first search, which takes what it can fill.
    assert_eq!(memory.used_mib(), 0);
    drive(
        &mut s,
        &["position startpos gaps AH moves b2b3", "go movetime 100"],
    );
    assert_eq!(
        memory.used_mib(),
        4,
        "two 2 MiB tables for 70 ms (100 less the overhead)"
    );
    drive(&mut s, &["go depth 1"]);
    assert_eq!(
        memory.used_mib(),
        32,
        "an untimed search grows them to Hash"
    );
    // A second session gets what is left; a third, tables of a few buckets,
    // and still a move.
    let mut other = Session::new(options.clone());
    drive(&mut other, &["position startpos gaps AH", "go depth 1"]);
    assert_eq!(memory.used_mib(), 64);
    let mut third = Session::new(options);
    let out = drive(&mut third, &["position startpos gaps AH", "go depth 4"]);
    assert!(out.last().unwrap().starts_with("bestmove "));
    assert_eq!(memory.used_mib(), 64);
    // A new game, the end of a game: back they go.
    drive(&mut s, &["newgame"]);
    assert_eq!(memory.used_mib(), 32);
    drive(
        &mut other,
        &["position fen 8/P7/8/8/8/8/7p/8 w -", "go depth 1"],
    );
    assert_eq!(memory.used_mib(), 0);
}

#[test]
fn uci_variant_names_the_game_newgame_starts() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "setoption name UCI_Variant value MINI4",
            "fen",
            "newgame pawnrace",
            "newgame",
            "setoption name UCI_Variant value shogi",
            "newgame",
            "setoption name UCI_Variant value mini4",
            "fen",
            "setoption name UCI_Variant value chess",
        ],
    );
    assert_eq!(
        out,
        [
            "ok setoption UCI_Variant mini4",
            "ok fen pppp/4/4/PPPP w -",
            "ok newgame pawnrace awaiting gaps",
            "ok newgame mini4",
            "error bad-argument unknown variant 'shogi' (known: pawnrace, mini4); or chess, for pawnrace",
            "ok newgame mini4",
            // The variant in force: the game goes on.
            "ok setoption UCI_Variant mini4",
            "ok fen pppp/4/4/PPPP w -",
            // python-chess's name for the 8x8 board: pawn race.
            "ok setoption UCI_Variant pawnrace",
        ]
    );
    assert_eq!(
        drive(&mut s, &["fen"]),
        [
            "error wrong-state no position yet: black chooses the gaps first (gaps AH), or go lets the engine choose"
        ]
    );
}

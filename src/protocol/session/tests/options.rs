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
        "error bad-argument unknown option 'Contempt' (known: Hash, Move Overhead, Threads, Ponder, MultiPV, Resistance, Gaps, UCI_Variant, VariantPath, FEN)"
    );
    assert_eq!(out[3], "ok setoption Move Overhead 100");
    assert_eq!(
        out[4],
        "error bad-argument Move Overhead takes milliseconds from 0 to 5000"
    );
    assert_eq!(out[5], out[4]);
}

#[test]
fn resistance_takes_its_two_words_and_reaches_the_engine() {
    let mut s = Session::new(SessionOptions::default());
    assert_eq!(s.engine_settings().resistance, Resistance::Practical);
    let out = drive(
        &mut s,
        &[
            "setoption name resistance value LONGEST",
            "setoption name Resistance value contempt",
            "setoption name Resistance",
        ],
    );
    assert_eq!(out[0], "ok setoption Resistance longest");
    assert_eq!(
        out[1],
        "error bad-argument Resistance takes practical or longest"
    );
    assert_eq!(out[2], out[1]);
    assert_eq!(s.engine_settings().resistance, Resistance::Longest);
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

/// A session that may read local files, as the engine on stdin does.
fn local() -> Session {
    Session::new(SessionOptions {
        local_files: true,
        ..SessionOptions::default()
    })
}

#[test]
fn variant_path_is_read_at_the_edge_and_checked() {
    let dir = std::env::temp_dir().join(format!("pawnrace-variantpath-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("variants.ini");
    std::fs::write(&good, crate::protocol::variant_ini::SHIPPED_INI).unwrap();
    let bad = dir.join("bad.ini");
    let changed = crate::protocol::variant_ini::SHIPPED_INI.replace("*8", "*7");
    std::fs::write(&bad, changed).unwrap();
    let missing = dir.join("missing.ini");

    // The session asks for the file; it does not read it itself.
    let mut s = local();
    let line = format!("setoption name VariantPath value {}", good.display());
    assert!(matches!(s.handle_line(&line), Action::ReadFile(p) if p == good.display().to_string()));

    let out = drive(
        &mut local(),
        &[
            &format!("setoption name VariantPath value {}", good.display()),
            &format!("setoption name variantpath value {}", bad.display()),
            &format!("setoption name VariantPath value {}", missing.display()),
            "setoption name VariantPath value <empty>",
        ],
    );
    assert_eq!(
        out[0],
        format!("ok setoption VariantPath {}", good.display())
    );
    assert!(
        out[1].starts_with("error bad-argument VariantPath ")
            && out[1]
                .ends_with("has flagRegionWhite = *7; Pawn Race's rules need flagRegionWhite = *8"),
        "{}",
        out[1]
    );
    assert!(
        out[2].starts_with("error bad-argument VariantPath "),
        "{}",
        out[2]
    );
    assert_eq!(out[3], "ok setoption VariantPath <empty>");

    // In UCI mode a good file is taken silently, a bad one explained.
    let out = drive(
        &mut local(),
        &[
            "uci",
            &format!("setoption name VariantPath value {}", good.display()),
            &format!("setoption name VariantPath value {}", bad.display()),
        ],
    );
    let after: Vec<&String> = out.iter().skip_while(|l| *l != "uciok").skip(1).collect();
    assert_eq!(after.len(), 1, "{after:?}");
    assert!(after[0].starts_with("info string error bad-argument VariantPath "));

    // A network session never has the server read a file.
    let out = drive(
        &mut Session::new(SessionOptions::default()),
        &[&format!(
            "setoption name VariantPath value {}",
            good.display()
        )],
    );
    assert!(
        out[0].contains("a network session cannot have the server read files"),
        "{}",
        out[0]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn fairy_stockfish_fen_and_start() {
    // A UCI client gets Fairy-Stockfish's FEN, with the move number.
    let out = drive(
        &mut local(),
        &[
            "uci",
            "setoption name UCI_Variant value pawnrace",
            "position startpos moves e2e4 a7a5",
            "fen",
            "position fen 8/ppppppp1/8/8/4P3/8/1PPP1PPP/8 b - - 0 12 moves a7a6",
            "setoption name FEN value house",
            "fen",
            "setoption name FEN value sideways",
        ],
    );
    let after: Vec<&str> = out
        .iter()
        .skip_while(|l| *l != "uciok")
        .skip(1)
        .map(String::as_str)
        .collect();
    assert_eq!(
        after,
        [
            // Without gaps, pawnrace's start as the shipped ini has it (AH).
            "ok fen 8/1pppppp1/8/p7/4P3/8/1PPP1PPP/8 w - - 0 2",
            "ok position 8/1pppppp1/p7/8/4P3/8/1PPP1PPP/8 w - - 0 13",
            "ok setoption FEN house",
            "ok fen 8/1pppppp1/p7/8/4P3/8/1PPP1PPP/8 w -",
            "error bad-argument FEN takes fairy or house",
        ]
    );
    // The house dialect asks for it by the option, and `position
    // startpos` without gaps still waits for them there.
    let out = drive(
        &mut local(),
        &[
            "setoption name FEN value fairy",
            "position startpos",
            "gaps BG",
            "fen",
            "position fen 8/ppppppp1/8/8/8/8/1PPPPPPP/8 w Kk - 0 1",
            "position fen 8/ppppppp1/8/8/8/8/1PPPPPPP/7K w - - 0 1",
        ],
    );
    assert_eq!(out[1], "ok position startpos pawnrace awaiting gaps");
    assert_eq!(out[3], "ok fen 8/pppppp1p/8/8/8/8/P1PPPPPP/8 w - - 0 1");
    assert!(
        out[4].starts_with("error bad-position castling rights 'Kk'"),
        "{}",
        out[4]
    );
    assert!(out[5].contains("only pawns play here"), "{}", out[5]);
}

//! The command parser's unit tests: every verb, its arguments and its errors.

use super::*;
use crate::engine::DEFAULT_MOVETIME_MS;

fn ok(line: &str) -> Command {
    parse(line).unwrap().unwrap()
}

fn err(line: &str) -> ParseError {
    parse(line).unwrap_err()
}

#[test]
fn verbs_are_case_insensitive_and_blank_lines_are_nothing() {
    assert_eq!(ok("ISREADY"), Command::IsReady);
    assert_eq!(ok("  Board "), Command::Board);
    assert_eq!(parse("   "), Ok(None));
    assert_eq!(err("frobnicate").code, ErrorCode::UnknownCommand);
    assert_eq!(err("isready now").code, ErrorCode::BadArgument);
}

#[test]
fn position_forms() {
    assert_eq!(
        ok("position startpos gaps ah moves e2e4 d7d5"),
        Command::Position {
            setup: Setup::StartPos(Some("AH".parse().unwrap())),
            moves: vec!["e2e4".into(), "d7d5".into()]
        }
    );
    assert_eq!(
        ok("position fen 8/8/8/3pP3/8/8/8/8 w d6 moves exd6"),
        Command::Position {
            setup: Setup::Fen("8/8/8/3pP3/8/8/8/8 w d6".into()),
            moves: vec!["exd6".into()]
        }
    );
    assert_eq!(
        ok("position startpos"),
        Command::Position {
            setup: Setup::StartPos(None),
            moves: vec![]
        }
    );
    for bad_line in [
        "position",
        "position fen",
        "position startpos gaps",
        "position startpos gaps AZ",
        "position somewhere",
    ] {
        assert_eq!(err(bad_line).code, ErrorCode::BadArgument, "{bad_line}");
    }
}

#[test]
fn go_mate_and_searchmoves() {
    let Command::Go(l, moves) = ok("go searchmoves e2e4 d2d4 depth 3 mate 2") else {
        panic!()
    };
    assert_eq!(moves, ["e2e4", "d2d4"]);
    assert_eq!((l.depth, l.mate, l.movetime_ms), (Some(3), Some(2), None));
    // A mate alone is a limit of its own: no default move time.
    let Command::Go(l, moves) = ok("go MATE 3 SearchMoves e4") else {
        panic!()
    };
    assert_eq!(
        (l.mate, l.movetime_ms, moves),
        (Some(3), None, vec!["e4".to_string()])
    );
    for bad_line in [
        "go searchmoves",
        "go searchmoves depth 2",
        "go mate",
        "go mate 0",
        "go mate x",
        "go mate 1 mate 2",
    ] {
        assert!(parse(bad_line).is_err(), "{bad_line}");
    }
}

#[test]
fn go_limits() {
    let Command::Go(l, _) =
        ok("go depth 5 nodes 1000 wtime -20 btime 300 winc 10 binc 10 movestogo 3")
    else {
        panic!()
    };
    assert_eq!(
        (l.depth, l.nodes, l.wtime_ms, l.btime_ms, l.movestogo),
        (Some(5), Some(1000), Some(-20), Some(300), Some(3))
    );
    assert_eq!(
        ok("go"),
        Command::Go(
            Limits {
                movetime_ms: Some(DEFAULT_MOVETIME_MS),
                ..Limits::default()
            },
            vec![]
        )
    );
    assert_eq!(
        ok("go infinite"),
        Command::Go(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            vec![]
        )
    );
    for bad_line in [
        "go depth",
        "go depth x",
        "go depth 0",
        "go movetime -5",
        "go sideways 3",
        "go nodes 0",
    ] {
        assert_eq!(err(bad_line).code, ErrorCode::BadArgument, "{bad_line}");
    }
}

#[test]
fn setoption_and_others() {
    assert_eq!(
        ok("setoption name Hash value 64"),
        Command::SetOption {
            name: "Hash".into(),
            value: Some("64".into())
        }
    );
    assert_eq!(
        ok("setoption name Move Overhead value 10"),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("10".into())
        }
    );
    assert_eq!(err("setoption Hash 64").code, ErrorCode::BadArgument);
    assert_eq!(
        ok("newgame MINI4"),
        Command::NewGame(Some(GameKind::Pawn(Variant::Mini4)))
    );
    assert_eq!(
        ok("newgame Chess"),
        Command::NewGame(Some(GameKind::FullChess))
    );
    assert_eq!(ok("ucinewgame"), Command::NewGame(None));
    assert_eq!(err("newgame chess960").code, ErrorCode::BadArgument);
    assert_eq!(ok("perft 3"), Command::Perft(3));
    assert_eq!(err("perft 99").code, ErrorCode::BadArgument);
    assert_eq!(err("move").code, ErrorCode::BadArgument);
    assert_eq!(err("gaps A").code, ErrorCode::BadArgument);
}

#[test]
fn echoed_words_are_cut_and_cleaned() {
    let e = err(&"z".repeat(500));
    assert!(e.detail.len() < 100, "{}", e.detail);
}

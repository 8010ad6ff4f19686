//! The autorunner's unit tests: colours, moves as bots write them, lines,
//! and whole games over pipes.

use super::*;
use crate::testkit::pawnrace as pos;
use std::io::Cursor;

fn mv(from: &str, to: &str) -> Move {
    Move::new(from.parse().unwrap(), to.parse().unwrap())
}

fn quick() -> Config {
    Config {
        hash_mib: 1,
        ..Config::with_movetime(20)
    }
}

/// While the opponent's move is awaited, the engine proves the
/// position: afterwards the solver's table knows about its moves.
#[test]
fn pondering_fills_the_solver_while_the_opponent_thinks() {
    use crate::solver::Value;
    let p = pos("8/p2p1p2/2p3p1/1p2p3/1P2PP2/2P5/1P2PP2/8 w -");
    let known = |engine: &mut Engine| {
        engine
            .solver()
            .move_bounds(&p)
            .iter()
            .filter(|b| (b.at_least, b.at_most) != (Value::Loss, Value::Win))
            .count()
    };
    let mut engine = Engine::new(1);
    assert_eq!(known(&mut engine), 0);
    let got = ponder_while(&mut engine, &p, || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        7
    });
    assert_eq!(got, 7);
    assert!(known(&mut engine) > 0);
}

#[test]
fn moves_as_bots_write_them() {
    let p = pos("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -");
    let e4 = mv("e2", "e4");
    for text in [
        "e4",
        "E4",
        "e2e4",
        "E2-E4",
        "e4+",
        "e4!?",
        " e4 ",
        "1. e4",
        "1.e4",
        "e2 e4",
        "12. E2-E4",
    ] {
        assert_eq!(read_move(&p, text), Reading::Move(e4), "{text}");
    }
}

#[test]
fn en_passant_as_a_plain_capture() {
    let p = pos("8/8/8/3pP3/8/8/8/8 w d6");
    let ep = mv("e5", "d6");
    for text in ["exd6", "EXD6", "e5xd6", "e5d6", "exd6 e.p.", "3. exd6"] {
        assert_eq!(read_move(&p, text), Reading::Move(ep), "{text}");
    }
}

#[test]
fn chatter_and_illegal_moves_are_told_apart() {
    let p = pos("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -");
    assert_eq!(read_move(&p, ""), Reading::Blank);
    assert_eq!(read_move(&p, "  \t"), Reading::Blank);
    for text in [
        "Your move:",
        "  a b c d e f g h",
        "8 | . . . . . . . . |",
        "AH",
        "12.",
        "e2e4e5",
        "\u{fffd}\u{fffd}",
        &"e4".repeat(500),
    ] {
        assert_eq!(read_move(&p, text), Reading::NotAMove, "{text}");
    }
    for text in ["e5", "a2a3", "e7e5", "exd3"] {
        assert!(matches!(read_move(&p, text), Reading::Illegal(_)), "{text}");
    }
    // Our own e4 echoed back to us, as black.
    let after = p.play_unchecked(mv("e2", "e4"));
    for text in ["e4", "e2e4", "E2-E4"] {
        assert!(
            matches!(read_move(&after, text), Reading::Illegal(_)),
            "{text}"
        );
    }
}

#[test]
fn lines_are_capped_and_lossy() {
    let mut bytes = vec![b'x'; 10_000];
    bytes.extend_from_slice(b"\n\xff\xfee4\r\nlast");
    let mut input = Cursor::new(bytes);
    let long = read_line(&mut input).unwrap().unwrap();
    assert_eq!(long.len(), MAX_LINE_BYTES);
    assert_eq!(
        read_line(&mut input).unwrap().unwrap(),
        "\u{fffd}\u{fffd}e4"
    );
    assert_eq!(read_line(&mut input).unwrap().unwrap(), "last");
    assert_eq!(read_line(&mut input).unwrap(), None);
}

#[test]
fn black_names_its_gaps_first_and_stops_when_input_ends() {
    let mut out = Vec::new();
    let ending = run(Color::Black, Cursor::new(""), &mut out, &quick()).unwrap();
    let text = String::from_utf8(out).unwrap();
    let gaps: Gaps = text.trim_end().parse().unwrap();
    assert_eq!(text, format!("{gaps}\n"));
    assert_eq!(ending.gaps, None);
    assert_eq!(ending.outcome, None);
}

#[test]
fn white_waits_for_the_gaps_then_moves() {
    let mut out = Vec::new();
    let input = "Welcome!\n\n  ah  \n";
    let ending = run(Color::White, Cursor::new(input), &mut out, &quick()).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(ending.gaps, Some("AH".parse().unwrap()));
    assert_eq!(ending.moves.len(), 1);
    assert_eq!(text, format!("{}\n", san(ending.moves[0])));
    assert_eq!(ending.outcome, None);
}

#[test]
fn junk_from_the_opponent_is_skipped_until_input_ends() {
    let input = "AH\nhello\nz9\ne2e4\n\u{7}\n";
    let mut out = Vec::new();
    let ending = run(Color::White, Cursor::new(input), &mut out, &quick()).unwrap();
    assert_eq!(ending.moves.len(), 1);
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), 1);
}

//! `pawnrace autorunner W|B` through the real binary, with this test in the
//! harness's seat: it relays the gaps, reads pawnrace's moves and answers
//! as an untidy bot would (long forms, any case, check marks, prompts and
//! board dumps, illegal lines), computing its moves with `pawnrace::rules`.

mod common;

use common::{StdioProcess, wait_exit};
use pawnrace::rules::{Color, Gaps, Move, Position, RuleSet, parse_move, san};
use pawnrace::testkit::Rng;
use std::time::Duration;

/// Small enough to keep a whole game around a second.
const MOVETIME: &str = "50";

/// Every game skips chatter on purpose; logging each skip would bury a
/// failure's own output.
const QUIET: &[(&str, &str)] = &[("RUST_LOG", "error")];

/// What a scripted game saw.
struct Played {
    gaps: Gaps,
    moves: Vec<Move>,
    /// En passant captures pawnrace read from the opponent, written as a
    /// plain capture (`exd6`).
    en_passant_read: usize,
    /// En passant captures pawnrace made.
    en_passant_written: usize,
    /// Lines the opponent wrote that were not its move.
    junk_sent: usize,
}

fn is_en_passant(pos: &Position, m: Move) -> bool {
    m.is_capture() && pos.pawn_at(m.to).is_none()
}

/// The opponent's choice: an en passant capture when there is one (the
/// case under test); often a step onto its fifth rank, where pawnrace's
/// double steps can be taken en passant, or a double step that pawnrace can
/// take en passant; otherwise any move.
fn choose(pos: &Position, rng: &mut Rng) -> Move {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    if let Some(m) = moves.iter().find(|m| is_en_passant(pos, **m)) {
        return *m;
    }
    let fifth = match pos.side_to_move() {
        Color::White => 4,
        Color::Black => 3,
    };
    let to_fifth: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.to.rank() == fifth)
        .collect();
    let inviting: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            let next = pos.play_unchecked(*m);
            next.legal_moves().iter().any(|r| is_en_passant(&next, *r))
        })
        .collect();
    for wanted in [to_fifth, inviting] {
        if !wanted.is_empty() && rng.below(2) == 0 {
            return wanted[rng.below(wanted.len())];
        }
    }
    moves[rng.below(moves.len())]
}

/// The ways real bots write a move; every one must be read.
fn written(m: Move, style: usize) -> String {
    let (from, to) = (m.from.to_string(), m.to.to_string());
    let sep = if m.is_capture() { "x" } else { "-" };
    match style % 6 {
        0 => san(m),
        1 => m.to_string(),
        2 => format!("{from}{sep}{to}").to_uppercase(),
        3 => format!("{}+", san(m).to_uppercase()),
        4 => format!("  {}  ", san(m)),
        _ => format!("{}. {}", 1 + style / 2, san(m)),
    }
}

/// Chatter sent before some moves: a prompt, a board dump, a well-formed
/// move that is not legal, a blank line.
fn junk(turn: usize) -> Vec<String> {
    match turn % 4 {
        0 => vec!["Your move:".into()],
        1 => vec![
            "   +-----------------+".into(),
            " 8 | . . . . . . . . |".into(),
            " 1 | . . . . . . . . |".into(),
            "     a b c d e f g h".into(),
        ],
        2 => vec!["a1a2".into(), "".into()],
        _ => vec![],
    }
}

/// Plays one game against `pawnrace autorunner <arg> <limits>`, to its end.
fn play(arg: &str, limits: &[&str], pawnrace: Color, our_gaps: &str, seed: u64) -> Played {
    let mut args = vec!["autorunner", arg, "--hash", "1"];
    args.extend_from_slice(limits);
    let mut process = StdioProcess::spawn_with_env(&args, QUIET);
    let peer = &process.peer;
    let mut rng = Rng::new(&[seed]);
    let mut junk_sent = 0;
    let gaps: Gaps = match pawnrace {
        Color::Black => {
            let line = peer.line();
            let gaps: Gaps = line
                .parse()
                .unwrap_or_else(|e| panic!("gaps line {line:?}: {e}"));
            assert_eq!(line, gaps.to_string(), "gaps in upper case, white's first");
            // The harness confirms them; untidily, to check that is fine.
            peer.send(&format!("  {}  ", line.to_lowercase()));
            gaps
        }
        Color::White => {
            peer.send("Welcome to Pawn Race!");
            junk_sent += 1;
            peer.send(our_gaps);
            our_gaps.trim().parse().expect("test gaps")
        }
    };
    let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).expect("start");
    let mut moves = Vec::new();
    let (mut en_passant_read, mut en_passant_written) = (0, 0);
    while pos.outcome().is_none() {
        let m = if pos.side_to_move() == pawnrace {
            let line = peer.line();
            let m = parse_move(&pos, &line)
                .unwrap_or_else(|e| panic!("pawnrace wrote {line:?} after {moves:?}: {e}"));
            assert_eq!(
                line,
                san(m),
                "pawnrace writes SAN, en passant as a plain capture"
            );
            en_passant_written += usize::from(is_en_passant(&pos, m));
            m
        } else {
            let m = choose(&pos, &mut rng);
            for line in junk(moves.len() + seed as usize) {
                peer.send(&line);
                junk_sent += 1;
            }
            if is_en_passant(&pos, m) {
                // As the harness relays it: no hint that it is en passant.
                peer.send(&san(m));
                en_passant_read += 1;
            } else {
                peer.send(&written(m, moves.len() + seed as usize));
            }
            m
        };
        moves.push(m);
        pos = pos.play_unchecked(m);
    }
    // The game is over: pawnrace leaves on its own, writing nothing more,
    // with its input still open.
    peer.expect_eof();
    let status = wait_exit(&mut process.child, Duration::from_secs(30)).expect("exit in time");
    assert!(status.success(), "exit status {status}");
    Played {
        gaps,
        moves,
        en_passant_read,
        en_passant_written,
        junk_sent,
    }
}

#[test]
fn plays_white_to_the_end() {
    let played = play("W", &["--movetime", MOVETIME], Color::White, "ah", 1);
    assert_eq!(played.gaps.to_string(), "AH");
    assert!(played.junk_sent > 0);
    assert!(!played.moves.is_empty());
}

#[test]
fn plays_black_to_the_end() {
    let played = play("b", &["--movetime", MOVETIME], Color::Black, "", 2);
    assert!(played.junk_sent > 0);
    assert!(played.moves.len() >= 2);
}

/// Whether pawnrace's moves allow an en passant capture is up to its
/// search, so games are played until both kinds have happened. A depth
/// limit without a clock makes every game reproducible: this passes or
/// fails the same way every time (if a change to the search makes it fail,
/// raise the cap).
#[test]
fn en_passant_both_ways() {
    let (mut read, mut written) = (0, 0);
    let mut games = 0;
    while (read == 0 || written == 0) && games < 100 {
        let seed = 100 + games;
        let (arg, colour) = match games % 2 {
            0 => ("white", Color::White),
            _ => ("BLACK", Color::Black),
        };
        let played = play(arg, &["--depth", "4"], colour, "DE", seed);
        read += played.en_passant_read;
        written += played.en_passant_written;
        games += 1;
    }
    assert!(read > 0, "no en passant by the opponent in {games} games");
    assert!(written > 0, "no en passant by pawnrace in {games} games");
}

#[test]
fn input_closing_mid_game_ends_it_cleanly() {
    let mut process =
        StdioProcess::spawn_with_env(&["autorunner", "W", "--movetime", MOVETIME], QUIET);
    process.peer.send("AH");
    let first = process.peer.line();
    assert!(
        first.len() == 2 || first.contains('x'),
        "a SAN move: {first:?}"
    );
    process.peer.close_input();
    process.peer.expect_eof();
    let status = wait_exit(&mut process.child, Duration::from_secs(30)).expect("exit in time");
    assert!(status.success(), "exit status {status}");
}

#[test]
fn black_with_no_harness_still_names_its_gaps() {
    let mut process =
        StdioProcess::spawn_with_env(&["autorunner", "B", "--movetime", MOVETIME], QUIET);
    let gaps = process.peer.line();
    assert!(gaps.parse::<Gaps>().is_ok(), "{gaps:?}");
    process.peer.close_input();
    process.peer.expect_eof();
    let status = wait_exit(&mut process.child, Duration::from_secs(30)).expect("exit in time");
    assert!(status.success(), "exit status {status}");
}

#[test]
fn a_colour_that_is_not_one_is_refused() {
    let output = std::process::Command::new(common::BIN)
        .args(["autorunner", "green"])
        .output()
        .expect("run pawnrace");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("not a colour"), "{stderr}");
}

use super::summary::{Totals, VerdictCounts};
use super::*;
use crate::pgn::{ReadGame, read_games};
use crate::proofs::openings::Opening;
use crate::rules::{Gaps, RuleSet, parse_move};

const SECONDS: SolveLimits = SolveLimits {
    nodes: None,
    movetime_ms: Some(5000),
};

fn moves_from(start: &Position, moves: &[&str]) -> Vec<Move> {
    let mut pos = *start;
    moves
        .iter()
        .map(|t| {
            let m = parse_move(&pos, t).unwrap();
            pos = pos.play_unchecked(m);
            m
        })
        .collect()
}

fn run_limits(start: &Position, moves: &[&str], limits: SolveLimits) -> GameAnalysis {
    let line = moves_from(start, moves);
    let mut solver = Solver::new(16);
    let stop = Stop::new();
    analyse(start, &line, &mut solver, &limits, &stop, &mut |_| {})
}

fn fen(text: &str) -> Position {
    Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
}

fn verdicts(a: &GameAnalysis) -> Vec<Verdict> {
    a.moves.iter().map(|r| r.verdict).collect()
}

/// Each position's value as the table writes it; the side to move in each
/// is the next mover's, and after the last move the other side.
fn values(a: &GameAnalysis) -> Vec<String> {
    let last = a.moves.last().expect("a game with moves").side;
    a.positions
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let side = a.moves.get(k).map_or(!last, |r| r.side);
            write::value_text(p.as_ref(), side)
        })
        .collect()
}

/// White's h-pawn wins the race from h2 with the double step; a single step
/// throws the win away, black's single step hands it back, and white's next
/// move takes it. The blocked d-pawns only give both sides a move to choose.
#[test]
fn spoils_and_a_chance_taken() {
    let start = fen("8/p7/8/3p4/8/3P4/7P/8 w -");
    let game = [
        "h3", "a6", "h4", "a5", "h5", "a4", "h6", "a3", "h7", "a2", "h8",
    ];
    let a = run_limits(&start, &game, SECONDS);
    use Verdict::*;
    assert_eq!(
        verdicts(&a),
        [
            Spoiled, Spoiled, Chance, Kept, Kept, Kept, Kept, Kept, Kept, Kept, Kept
        ]
    );
    let v = values(&a);
    assert_eq!(v[0], "white wins in 9");
    assert_eq!(v[1], "black wins in 9");
    assert_eq!(v[2], "white wins in 9");
    assert_eq!(v[11], "white wins in 0");
    assert_eq!(a.positions[11].as_ref().unwrap().source, Source::Rules);
    assert!(!a.stopped);
    let white = VerdictCounts::of(&a, Color::White, 1);
    assert_eq!(
        (white.moves, white.kept, white.spoiled, white.chances),
        (6, 4, 1, 1)
    );
    let spoil = white.first_spoil.unwrap();
    assert_eq!((spoil.ply, spoil.label.as_str()), (1, "1. h3"));
    let black = VerdictCounts::of(&a, Color::Black, 1);
    assert_eq!((black.moves, black.kept, black.spoiled), (5, 4, 1));
    assert_eq!(black.first_spoil.unwrap().label, "1... a6");
}

/// The race won straight: every choice keeps the win, the distance counts
/// down.
#[test]
fn a_won_race_kept() {
    let start = fen("8/p7/8/8/8/8/7P/8 w -");
    let a = run_limits(&start, &["h4", "a5", "h5"], SECONDS);
    assert_eq!(
        values(&a),
        [
            "white wins in 9",
            "white wins in 8",
            "white wins in 7",
            "white wins in 6"
        ]
    );
    assert_eq!(
        verdicts(&a),
        [Verdict::Kept, Verdict::Kept, Verdict::Forced]
    );
    assert_eq!(a.moves[1].label(), "1... a5");
    // White's only move takes its value from the position after it.
    assert_eq!(a.positions[2].as_ref().unwrap().source, Source::Forced);
    assert_eq!(a.moves[2].number, 2);
}

/// A budget of one node proves nothing off the rules and the only moves: the
/// moves next to an unproven position are unknown, never guessed.
#[test]
fn a_budget_that_runs_out_is_unknown() {
    let start = fen("8/p7/8/3p4/8/3P4/7P/8 w -");
    let one = SolveLimits {
        nodes: Some(1),
        movetime_ms: None,
    };
    let a = run_limits(&start, &["h4", "a5", "d4", "a4"], one);
    assert_eq!(a.positions[0], None);
    assert_eq!(a.moves[0].verdict, Verdict::Unknown);
    assert!(a.moves.iter().all(|r| r.verdict != Verdict::Kept));
    assert_eq!(write::value_text(None, Color::White), "unknown");
}

/// A raised stop flag leaves everything the solver would have had to prove
/// unknown and says it stopped.
#[test]
fn stopping_leaves_the_rest_unknown() {
    let start = fen("8/p7/8/3p4/8/3P4/7P/8 w -");
    let line = moves_from(&start, &["h4", "a5"]);
    let mut solver = Solver::new(1);
    let stop = Stop::raised();
    let mut seen = Vec::new();
    let a = analyse(&start, &line, &mut solver, &SECONDS, &stop, &mut |p| {
        seen.push(p.index)
    });
    assert!(a.stopped);
    assert_eq!(seen, [2, 1, 0]);
    assert!(a.positions.iter().all(Option::is_none));
    assert!(verdicts(&a).iter().all(|v| *v == Verdict::Unknown));
}

/// UVa 10838's start is a white win in 11; a game through it is judged like
/// a Pawn Race one, and a stalemated side loses there.
#[test]
fn mini4_games() {
    let start = Position::start(RuleSet::MINI4, None).unwrap();
    let game = ["a2", "b3", "axb3", "a3"];
    let a = run_limits(&start, &game, SECONDS);
    assert_eq!(values(&a)[0], "white wins in 11");
    assert!(a.moves.iter().all(|r| r.verdict != Verdict::Unknown));
    assert!(a.positions.iter().all(Option::is_some));
}

/// A proven opening's line is answered by the openings table alone: no
/// solver, every move keeps the result, the distance counts down to the end.
#[test]
fn an_openings_line_is_instant() {
    let gaps: Gaps = "AH".parse().unwrap();
    let Some(Opening::Proven(p)) = crate::proofs::openings::Openings::builtin().get(gaps) else {
        panic!("AH is proven");
    };
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
    let mut solver = Solver::new(1);
    let none = SolveLimits {
        nodes: Some(1),
        movetime_ms: None,
    };
    let a = analyse(
        &start,
        &p.proven.line,
        &mut solver,
        &none,
        &Stop::new(),
        &mut |_| {},
    );
    let first = a.positions[0].as_ref().unwrap();
    assert_eq!(
        (first.winner(Color::White), first.plies),
        (p.winner(), p.proven.plies)
    );
    assert_eq!(first.source, Source::Openings);
    assert!(
        a.moves
            .iter()
            .all(|r| matches!(r.verdict, Verdict::Kept | Verdict::Forced)),
        "{:?}",
        verdicts(&a)
    );
    assert_eq!(a.positions.last().unwrap().as_ref().unwrap().plies, Some(0));
}

#[test]
fn reading_plain_games() {
    let text = "\
# two games, the second after a gaps line, the third after a blank line
gaps AH
1. e4 d5 2. exd5
gaps bg
e2e4 e7e5

fen 8/p7/8/8/8/8/7P/8 w -
h4 a5
variant mini4
a2 b3 axb3
";
    let games = read_games(text);
    assert_eq!(games.len(), 4, "{games:?}");
    let g: Vec<_> = games.into_iter().map(Result::unwrap).collect();
    assert_eq!(g[0].gaps, Some("AH".parse().unwrap()));
    assert_eq!(g[0].moves.len(), 3);
    assert_eq!(
        (g[0].white.as_str(), g[0].black.as_str()),
        ("white", "black")
    );
    assert_eq!(g[0].result, "*");
    assert_eq!(g[1].gaps, Some("BG".parse().unwrap()));
    assert_eq!(g[1].moves.len(), 2);
    assert_eq!(g[2].fen.as_deref(), Some("8/p7/8/8/8/8/7P/8 w -"));
    assert_eq!(g[2].moves.len(), 2);
    assert_eq!(g[3].rules, RuleSet::MINI4);
    assert_eq!(g[3].moves.len(), 3);
}

#[test]
fn reading_pgn_as_match_writes_it() {
    use crate::rules::{Outcome, Reason};
    use crate::tournament::pgn::{Header, write_game};
    use crate::tournament::{GameRecord, Termination};
    let start = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
    let record = GameRecord {
        setup: None,
        gaps: Some("AH".parse().unwrap()),
        moves: moves_from(&start, &["e4", "d5", "exd5"]),
        winner: Some(Color::White),
        termination: Termination::Rules(Outcome {
            winner: Some(Color::White),
            reason: Reason::LastCapture,
        }),
        move_times: Default::default(),
    };
    let header = Header {
        event: "e",
        site: "s",
        date: "2026.01.02",
        round: 1,
        white: "alice  smith",
        black: "bob",
        time_control: ["1+0.1", "1+0.1"],
    };
    let text = format!(
        "{}{}",
        write_game(&header, &record),
        write_game(&header, &record)
    );
    let games = read_games(&text);
    assert_eq!(games.len(), 2);
    let g = games[1].as_ref().unwrap();
    assert_eq!(g.moves, record.moves);
    assert_eq!((g.white.as_str(), g.black.as_str()), ("alice smith", "bob"));
    assert_eq!(g.result, "1-0");
    assert_eq!(g.tags.len(), 12);
}

#[test]
fn pgn_comments_variations_and_setups() {
    let text = r#"[White "a"]
[Black "b"]
[SetUp "1"]
[FEN "8/p7/8/8/8/8/7P/8 w -"]

1.h4 {a comment
over two lines} 1... a5 $1 (1... a6 2. h5) ; the rest
2. h5! a4?? *
"#;
    let games = read_games(text);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.moves.len(), 4);
    assert_eq!(g.fen.as_deref(), Some("8/p7/8/8/8/8/7P/8 w -"));
}

#[test]
fn malformed_games_are_reported_and_the_others_read() {
    let text = "\
gaps AH
e4 e5 e6

1. e4 d5 *

gaps AH
e4 {never closed
";
    let games = read_games(text);
    assert_eq!(games.len(), 3, "{games:?}");
    let e = games[0].as_ref().unwrap_err();
    assert!(e.contains("line 2: move 3 (e6)"), "{e}");
    let e = games[1].as_ref().unwrap_err();
    assert!(e.contains("gaps"), "{e}");
    assert!(games[2].as_ref().unwrap_err().contains("not closed"));
    for bad in [
        "[Variant \"chess\"]\n[Gaps \"AH\"]\n1. e4 *\n",
        "[Gaps \"AZ\"]\n1. e4 *\n",
        "[FEN \"8/8 w -\"]\n1. e4 *\n",
        "[White alice]\n1. e4 *\n",
        "gaps AH\ne4 d5 exd5 e5 h4 e4 h5 e3 h6 e2 hxg7 e1 g8\n",
        "gaps AH\n1. \u{1}x\u{7f} *\n",
    ] {
        let games = read_games(bad);
        assert_eq!(games.len(), 1, "{bad}");
        assert!(games[0].is_err(), "{bad}: {games:?}");
    }
    assert!(read_games("").is_empty());
    assert!(read_games("\n# nothing\n\n").is_empty());
}

fn one_game(text: &str) -> (ReadGame, GameAnalysis) {
    let game = read_games(text).remove(0).unwrap();
    let mut solver = Solver::new(16);
    let a = analyse(
        &game.start,
        &game.moves,
        &mut solver,
        &SECONDS,
        &Stop::new(),
        &mut |_| {},
    );
    (game, a)
}

#[test]
fn the_table_and_summaries_are_exact() {
    let (game, a) = one_game("fen 8/p7/8/3p4/8/3P4/7P/8 w -\nh3 a6 h4 a5\n");
    assert_eq!(
        write::table(1, &game, &a),
        "\
game 1: white (white) vs black (black), pawnrace, fen 8/p7/8/3p4/8/3P4/7P/8 w -, result *
ply   move    side   san    before             after              verdict
1     1.      white  h3     white wins in 9    black wins in 9    spoiled
2     1...    black  a6     black wins in 9    white wins in 9    spoiled
3     2.      white  h4     white wins in 9    white wins in 8    chance
4     2...    black  a5     white wins in 8    white wins in 7    kept
"
    );
    let tallies = [
        VerdictCounts::of(&a, Color::White, 1),
        VerdictCounts::of(&a, Color::Black, 1),
    ];
    assert_eq!(
        write::game_summary(1, &game, [&tallies[0], &tallies[1]]),
        "\
summary game 1: white (white) vs black (black)
player  colour  moves  kept  forced  spoiled  chances  unknown  first-spoil
white   white   2      0     0       1        1        0        ply 1 (1. h3)
black   black   2      1     0       1        0        0        ply 2 (1... a6)
"
    );
    let mut totals = Totals::default();
    totals.add_game("white", "black", [&tallies[0], &tallies[1]]);
    totals.add_game("white", "black", [&tallies[0], &tallies[1]]);
    totals.failed = 1;
    assert_eq!(
        write::total_summary(&totals),
        "\
summary all games: 2 analysed, 1 failed
player  games  moves  kept  forced  spoiled  chances  unknown  first-spoil
white   2      4      0     0       2        2        0        game 1 ply 1 (1. h3)
black   2      4      2     0       2        0        0        game 1 ply 2 (1... a6)
"
    );
    assert_eq!(
        write::protocol_lines(&a)[0],
        "analysis ply 1 move h2h3 san h3 before white wins in 9 after black wins in 9 verdict spoiled"
    );
    assert_eq!(
        write::protocol_lines(&a)[4],
        "analysis summary white moves 2 kept 0 forced 0 spoiled 1 chances 1 unknown 0 first-spoil 1"
    );
    // Its final line, `ok analyse plies 4 unknown 0`, is the protocol's
    // (tests/transcripts/analyse.txt); what it counts is here.
    assert_eq!(a.moves.len(), 4);
    assert!(a.moves.iter().all(|r| r.verdict != Verdict::Unknown));
}

#[test]
fn the_annotated_pgn_marks_moves_and_reads_back() {
    let (game, a) = one_game("fen 8/p7/8/3p4/8/3P4/7P/8 w -\nh3 a6 h4 a5\n");
    let pgn = write::annotated_pgn(&game, &a);
    assert_eq!(
        pgn,
        "\
[White \"white\"]
[Black \"black\"]
[Result \"*\"]
[Variant \"pawnrace\"]
[SetUp \"1\"]
[FEN \"8/p7/8/3p4/8/3P4/7P/8 w -\"]
[Annotator \"pawnrace analyse\"]

1. h3?? {black wins in 9} 1... a6?? {white wins in 9} 2. h4! {white wins in 8}
2... a5 {white wins in 7} *

"
    );
    // It reads back: the moves with their marks and comments.
    let again = read_games(&pgn).remove(0).unwrap();
    assert_eq!((again.start, &again.moves), (game.start, &game.moves));
    // A game read from PGN keeps its tags, with one Annotator.
    let twice = write::annotated_pgn(&again, &a);
    assert_eq!(twice, pgn);
}

/// A black first move is numbered 1... and the analysis starts there.
#[test]
fn black_to_move_first() {
    let (game, a) = one_game("fen 8/p7/8/8/8/8/7P/8 b -\na5 h4\n");
    assert_eq!(a.moves[0].label(), "1... a5");
    assert_eq!(a.moves[1].label(), "2. h4");
    assert!(write::annotated_pgn(&game, &a).contains("\n1... a5 {"));
}

proptest::proptest! {
    /// Whatever the text, reading it answers games or reasons, never panics:
    /// PGN's own characters, so the reader gets past its first token, and
    /// characters of several bytes, so that no slice cuts one.
    #[test]
    fn reading_never_panics(text in "[\\[\\]{}()\";$%#.0-9a-hxA-Z/\\- \n*\u{e9}\u{2013}\u{3000}\u{1f600}]{0,300}") {
        for game in read_games(&text) {
            let _ = game.map(|g| g.moves.len());
        }
    }
}

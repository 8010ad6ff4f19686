//! The analysis as text: the per-move table, the summaries, the annotated
//! PGN and the protocol's lines. The formats are stable; tools may read them.
//!
//! A value is written `white wins in N`, `black wins in N` (N plies, the
//! winner's shortest win; 0 when the game is over), `white wins` or `black
//! wins` (the value proven, the distance not: the proof tables hold most
//! of their wins so, and a distance may take the solver far longer than
//! the value), `draw` or `unknown`.
//!
//! The table and the summaries are columns separated by two or more spaces;
//! no field holds two spaces in a row (names have their runs of spaces
//! collapsed), so splitting on two spaces reads them back. Every table starts
//! with a `game N: ...` line for people and a header line naming the
//! columns:
//!
//! ```text
//! game 1: alice (white) vs bob (black), pawnrace, gaps AH, result 1-0
//! ply   move    side   san    before             after              verdict
//! 1     1.      white  b4     white wins in 31   white wins in 30   kept
//! 2     1...    black  a5     white wins in 30   white wins in 29   kept
//! ```
//!
//! A game's summary, one line per colour, and the summary of all games, one
//! line per player name, in the order they first appear (`first-spoil` is
//! `-` when there is none):
//!
//! ```text
//! summary game 1: alice (white) vs bob (black)
//! player  colour  moves  kept  forced  spoiled  chances  unknown  first-spoil
//! alice   white   16     15    0       1        0        0        ply 17 (9. c5)
//! bob     black   15     14    0       0        1        0        -
//!
//! summary all games: 2 analysed, 0 failed
//! player  games  moves  kept  forced  spoiled  chances  unknown  first-spoil
//! alice   2      31     29    0       1        1        0        game 1 ply 17 (9. c5)
//! ```
//!
//! The annotated PGN keeps a game's tags (adding `Annotator`), marks a move
//! that spoiled `??` and a chance taken `!`, and follows every move with a
//! comment holding the value after it: `9. c5?? {draw} 9... d5! {black wins
//! in 21}`.

use super::summary::{Totals, VerdictCounts};
use super::{GameAnalysis, MoveReport, Verdict};
use crate::pgn::{ReadGame, tag_line, wrap};
use crate::rules::Color;
use crate::solver::Proven;
use std::fmt::Write as _;

/// The `Annotator` tag of the annotated PGN.
pub const ANNOTATOR: &str = "pawnrace analyse";

/// `white wins in 29`, `draw` or `unknown`, for a position with
/// `side_to_move` to move; `white wins` where the value is proven and the
/// distance is not.
pub fn value_text(known: Option<&Proven>, side_to_move: Color) -> String {
    let Some(known) = known else {
        return "unknown".into();
    };
    match known.winner(side_to_move) {
        Some(w) => match known.plies {
            Some(plies) => format!("{} wins in {plies}", w.name()),
            None => format!("{} wins", w.name()),
        },
        None => "draw".into(),
    }
}

/// `game 1: alice (white) vs bob (black), pawnrace, gaps AH, result 1-0`.
pub fn game_line(number: usize, game: &ReadGame) -> String {
    let mut line = format!(
        "game {number}: {} (white) vs {} (black), {}",
        game.white,
        game.black,
        game.rules.name()
    );
    if let Some(g) = game.gaps {
        let _ = write!(line, ", gaps {g}");
    }
    if let Some(fen) = &game.fen {
        let _ = write!(line, ", fen {}", collapse(fen));
    }
    let _ = write!(line, ", result {}", game.result);
    line
}

const TABLE_WIDTHS: [usize; 6] = [4, 6, 5, 5, 17, 17];

/// The per-move table: the `game N:` line, the header, a line per move.
pub fn table(number: usize, game: &ReadGame, analysis: &GameAnalysis) -> String {
    let mut out = game_line(number, game);
    out.push('\n');
    let header = ["ply", "move", "side", "san", "before", "after", "verdict"];
    out.push_str(&columns(&header, &TABLE_WIDTHS));
    for r in &analysis.moves {
        let dots = if r.side == Color::White { "." } else { "..." };
        let fields = [
            r.ply.to_string(),
            format!("{}{dots}", r.number),
            r.side.name().to_string(),
            r.san.clone(),
            value_text(r.before.as_ref(), r.side),
            value_text(r.after.as_ref(), !r.side),
            r.verdict.word().to_string(),
        ];
        out.push_str(&columns(&fields, &TABLE_WIDTHS));
    }
    if analysis.stopped {
        out.push_str("stopped: positions not reached are unknown\n");
    }
    out
}

const COUNT_HEADER: [&str; 7] = [
    "moves",
    "kept",
    "forced",
    "spoiled",
    "chances",
    "unknown",
    "first-spoil",
];

fn counts(t: &VerdictCounts, with_game: bool) -> Vec<String> {
    let spoil = match &t.first_spoil {
        None => "-".to_string(),
        Some(s) if with_game => format!("game {} ply {} ({})", s.game, s.ply, s.label),
        Some(s) => format!("ply {} ({})", s.ply, s.label),
    };
    vec![
        t.moves.to_string(),
        t.kept.to_string(),
        t.forced.to_string(),
        t.spoiled.to_string(),
        t.chances.to_string(),
        t.unknown.to_string(),
        spoil,
    ]
}

/// A game's summary: its heading, the header, white's line, black's line.
pub fn game_summary(number: usize, game: &ReadGame, tallies: [&VerdictCounts; 2]) -> String {
    let mut out = format!(
        "summary game {number}: {} (white) vs {} (black)\n",
        game.white, game.black
    );
    let name_width = game.white.len().max(game.black.len()).max(6);
    let mut header = vec!["player", "colour"];
    header.extend(COUNT_HEADER);
    let widths = widths(name_width, 6);
    out.push_str(&columns(&header, &widths));
    for (color, tally) in [(Color::White, tallies[0]), (Color::Black, tallies[1])] {
        let mut fields = vec![game.player(color).to_string(), color.name().to_string()];
        fields.extend(counts(tally, false));
        out.push_str(&columns(&fields, &widths));
    }
    out
}

/// The summary of every game, one line per player.
pub fn total_summary(totals: &Totals) -> String {
    let mut out = format!(
        "summary all games: {} analysed, {} failed\n",
        totals.games, totals.failed
    );
    let name_width = totals
        .players
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut header = vec!["player", "games"];
    header.extend(COUNT_HEADER);
    let widths = widths(name_width, 5);
    out.push_str(&columns(&header, &widths));
    for p in &totals.players {
        let mut fields = vec![p.name.clone(), p.games.to_string()];
        fields.extend(counts(&p.tally, true));
        out.push_str(&columns(&fields, &widths));
    }
    out
}

fn widths(name: usize, second: usize) -> Vec<usize> {
    let mut w = vec![name, second];
    w.extend(COUNT_HEADER[..6].iter().map(|h| h.len()));
    w
}

/// Fields padded to `widths` (the last one unpadded), two spaces apart.
fn columns<S: AsRef<str>>(fields: &[S], widths: &[usize]) -> String {
    let mut line = String::new();
    for (i, f) in fields.iter().enumerate() {
        let f = f.as_ref();
        match widths.get(i) {
            Some(w) if i + 1 < fields.len() => {
                let _ = write!(line, "{f:<w$}  ");
            }
            _ => line.push_str(f),
        }
    }
    line.truncate(line.trim_end().len());
    line.push('\n');
    line
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The game as annotated PGN, ending with a blank line.
pub fn annotated_pgn(game: &ReadGame, analysis: &GameAnalysis) -> String {
    let mut tags: Vec<(String, String)> = game
        .tags
        .iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case("Annotator"))
        .cloned()
        .collect();
    if game.tags.is_empty() {
        tags.push(("White".into(), game.white.clone()));
        tags.push(("Black".into(), game.black.clone()));
        tags.push(("Result".into(), game.result.clone()));
        tags.push(("Variant".into(), game.rules.name().into()));
        if let Some(g) = game.gaps {
            tags.push(("Gaps".into(), g.to_string()));
        }
        if let Some(fen) = &game.fen {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), collapse(fen)));
        }
    }
    tags.push(("Annotator".into(), ANNOTATOR.into()));
    let mut out = String::new();
    for (name, value) in &tags {
        out.push_str(&tag_line(name, value));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    for r in &analysis.moves {
        tokens.push(pgn_move(r));
        tokens.push(format!("{{{}}}", value_text(r.after.as_ref(), !r.side)));
    }
    tokens.push(game.result.clone());
    out.push_str(&wrap(&tokens, 79));
    out.push_str("\n\n");
    out
}

/// `9. c5??` or `9... d5!`: every move gets its number, since a comment
/// comes before each.
fn pgn_move(r: &MoveReport) -> String {
    let mark = match r.verdict {
        Verdict::Spoiled => "??",
        Verdict::Chance => "!",
        _ => "",
    };
    format!("{}{mark}", r.label())
}

/// The protocol's reply lines before the final one: a line per move, then
/// one per colour.
///
/// ```text
/// analysis ply 1 move b2b4 san b4 before white wins in 31 after white wins in 30 verdict kept
/// analysis summary white moves 16 kept 15 forced 0 spoiled 1 chances 0 unknown 0 first-spoil 17
/// ```
pub fn protocol_lines(analysis: &GameAnalysis) -> Vec<String> {
    let mut lines: Vec<String> = analysis
        .moves
        .iter()
        .map(|r| {
            format!(
                "analysis ply {} move {} san {} before {} after {} verdict {}",
                r.ply,
                r.mv,
                r.san,
                value_text(r.before.as_ref(), r.side),
                value_text(r.after.as_ref(), !r.side),
                r.verdict.word()
            )
        })
        .collect();
    for color in Color::BOTH {
        let t = VerdictCounts::of(analysis, color, 1);
        lines.push(format!(
            "analysis summary {} moves {} kept {} forced {} spoiled {} chances {} unknown {} first-spoil {}",
            color.name(),
            t.moves,
            t.kept,
            t.forced,
            t.spoiled,
            t.chances,
            t.unknown,
            t.first_spoil.map_or("-".to_string(), |s| s.ply.to_string())
        ));
    }
    lines
}

//! S0, one pawn each (CodeSignal "pawnRace"): who wins with a white and a
//! black pawn on the board and a side to move, under optimal play.
//!
//! The answer comes from the exact solver on the Pawn Race rules (en passant
//! included: it changes none of the 4512 possible inputs, per the seeds'
//! README), not from a formula of its own.
//!
//! `pawnrace duel e2 e7 w` answers one query; with no arguments each input
//! line is a query (`e2 e7 w`; quotes and commas are tolerated, so
//! `"e2", "e7", 'w'` works too) and gets one line: `white`, `black`, `draw`,
//! or `error` with the reason on the error stream.

use super::{note, numbered_lines};
use crate::rules::{Color, Position, PositionError, RuleSet, Square};
use crate::solver::{SolveLimits, Solver};
use crate::stop::Stop;
use std::fmt;
use std::io::{self, BufRead, Write};

/// Two pawns never need more than a small table.
const TABLE_MIB: usize = 1;

/// Why a query has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DuelError {
    Syntax(String),
    Position(PositionError),
}

impl fmt::Display for DuelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DuelError::Syntax(s) => f.write_str(s),
            DuelError::Position(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for DuelError {}

/// Answers queries one after another, keeping one solver table for all.
pub struct Duels {
    solver: Solver,
}

impl Default for Duels {
    fn default() -> Duels {
        Duels::new()
    }
}

impl Duels {
    pub fn new() -> Duels {
        Duels {
            solver: Solver::new(TABLE_MIB),
        }
    }

    /// The winner under optimal play, `None` for a draw.
    pub fn answer(
        &mut self,
        white: Square,
        black: Square,
        to_move: Color,
    ) -> Result<Option<Color>, DuelError> {
        let pos = Position::new(RuleSet::PAWNRACE, white.bb(), black.bb(), to_move, None)
            .map_err(DuelError::Position)?;
        let stop = Stop::new();
        let solution = self
            .solver
            .solve(&pos, &SolveLimits::default(), &stop, &mut |_| {})
            .ok_or_else(|| {
                DuelError::Syntax("the solver gave up, which an unlimited solve never does".into())
            })?;
        Ok(solution.value.winner(to_move))
    }
}

/// `pawnRace(white, black, toMove)`: the winner under optimal play, `None`
/// for a draw.
pub fn duel(white: Square, black: Square, to_move: Color) -> Result<Option<Color>, DuelError> {
    Duels::new().answer(white, black, to_move)
}

/// The problem's answer word.
pub fn answer_word(winner: Option<Color>) -> &'static str {
    winner.map_or("draw", Color::name)
}

/// Reads `e2 e7 w` (or `"e2", "e7", 'w'`).
pub fn parse_query(text: &str) -> Result<(Square, Square, Color), DuelError> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .map(|w| w.trim_matches(['"', '\'']))
        .filter(|w| !w.is_empty())
        .collect();
    let [white, black, side] = words.as_slice() else {
        return Err(DuelError::Syntax(format!(
            "'{}' is not a query: white square, black square, side to move (e2 e7 w)",
            text.trim()
        )));
    };
    let square = |s: &str| {
        s.parse::<Square>()
            .map_err(|e| DuelError::Syntax(e.to_string()))
    };
    let side: Color = side.parse().map_err(|_| {
        let side = side.to_ascii_lowercase();
        DuelError::Syntax(format!("'{side}' is not a side to move (w or b)"))
    })?;
    Ok((square(white)?, square(black)?, side))
}

/// Answers every query line of `input`, one output line each.
pub fn run(input: impl BufRead, mut output: impl Write, mut errors: impl Write) -> io::Result<()> {
    let mut duels = Duels::new();
    for line in numbered_lines(input) {
        let (number, text) = line?;
        if text.trim().is_empty() {
            continue;
        }
        match parse_query(&text).and_then(|(w, b, side)| duels.answer(w, b, side)) {
            Ok(winner) => writeln!(output, "{}", answer_word(winner))?,
            Err(e) => {
                note(&mut errors, format_args!("line {number}: {e}"));
                writeln!(output, "error")?;
            }
        }
    }
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn the_statement_examples() {
        assert_eq!(duel(sq("e2"), sq("e7"), Color::White), Ok(None));
        assert_eq!(
            duel(sq("e3"), sq("d7"), Color::Black),
            Ok(Some(Color::Black))
        );
        assert_eq!(
            duel(sq("a7"), sq("h2"), Color::White),
            Ok(Some(Color::White))
        );
    }

    #[test]
    fn queries_in_either_spelling() {
        let q = (sq("e2"), sq("e7"), Color::White);
        assert_eq!(parse_query("e2 e7 w"), Ok(q));
        assert_eq!(parse_query(r#""e2", "e7", 'w'"#), Ok(q));
        assert_eq!(parse_query("E2 E7 White"), Ok(q));
        for bad in ["", "e2 e7", "e2 e7 x", "e9 e7 w", "e2 e7 w extra"] {
            assert!(parse_query(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn impossible_positions_are_refused_with_a_reason() {
        let e = duel(sq("e2"), sq("e2"), Color::White).unwrap_err();
        assert!(e.to_string().contains("two pawns on e2"), "{e}");
        let e = duel(sq("e8"), sq("e2"), Color::Black).unwrap_err();
        assert!(e.to_string().contains("last rank"), "{e}");
    }
}

//! S4, UVa 10838 "The Pawn Chess": 4x4 boards, white (`P`) moving up, black
//! (`p`) moving down, white first; `white (N)` or `black (N)`: the winner
//! and the plies played, the winner taking the shortest win and the loser
//! the longest loss. Answered by the exact solver on the `mini4` rules.
//!
//! Input: the number of boards, then each board as four rows of `.pP`, top
//! row first. Any whitespace layout is accepted (rows on separate lines,
//! blank lines between boards or not): the cells are read in order, sixteen
//! to a board. A board with a character other than `.pP`, or an impossible
//! one (a pawn on its last row, too many pawns), gets `error` and a note
//! naming its line; the boards after it are still answered.

use super::note;
use crate::rules::{Position, RuleSet};
use crate::solver::{SolveLimits, Solver, Value};
use crate::stop::Stop;
use std::io::{self, BufRead, Write};

/// All 4x4 positions together fit easily.
const TABLE_MIB: usize = 16;

/// One board as read: its cells and the line it started on.
struct Board {
    cells: String,
    line: usize,
    bad: Option<String>,
}

/// The solver's answer for one board, white to move: `white (7)`.
pub fn answer(solver: &mut Solver, rows: &str) -> Result<String, String> {
    let pos = Position::from_fen(rows, RuleSet::MINI4).map_err(|e| e.to_string())?;
    let stop = Stop::new();
    let solution = solver
        .solve(&pos, &SolveLimits::default(), &stop, &mut |_| {})
        .ok_or("the solver gave up, which an unlimited solve never does")?;
    let plies = solution.plies.ok_or("a solve without a distance")?;
    match solution.value {
        Value::Win => Ok(format!("white ({plies})")),
        Value::Loss => Ok(format!("black ({plies})")),
        Value::Draw => Err("a draw, which mini4 rules cannot produce".into()),
    }
}

pub fn run(
    mut input: impl BufRead,
    mut output: impl Write,
    mut errors: impl Write,
) -> io::Result<()> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes);
    // Whitespace-separated words with their line numbers: the count is the
    // first, the cells are the characters of the rest.
    let mut words = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| l.split_whitespace().map(move |w| (i + 1, w)));
    let expected = match words.next() {
        None => {
            note(
                &mut errors,
                format_args!("no input: expected the number of boards"),
            );
            return output.flush();
        }
        Some((n, w)) => match w.parse::<usize>() {
            Ok(c) => Some(c),
            Err(_) => {
                note(
                    &mut errors,
                    format_args!(
                        "line {n}: '{w}' is not the number of boards; reading boards anyway"
                    ),
                );
                None
            }
        },
    };
    let boards = read_boards(words);
    if let Some(expected) = expected
        && boards.len() != expected
    {
        note(
            &mut errors,
            format_args!("{expected} boards announced, {} given", boards.len()),
        );
    }
    let mut solver = Solver::new(TABLE_MIB);
    for board in boards.iter().take(expected.unwrap_or(usize::MAX)) {
        let result = match &board.bad {
            Some(why) => Err(why.clone()),
            None => {
                let rows: Vec<&str> = (0..4).map(|r| &board.cells[4 * r..4 * r + 4]).collect();
                answer(&mut solver, &rows.join("/"))
            }
        };
        match result {
            Ok(line) => writeln!(output, "{line}")?,
            Err(why) => {
                note(
                    &mut errors,
                    format_args!("board from line {}: {why}", board.line),
                );
                writeln!(output, "error")?;
            }
        }
    }
    output.flush()
}

/// Groups the cells after the count into boards of sixteen, whatever the
/// whitespace; a board cut short at the end of input is reported.
fn read_boards<'a>(words: impl Iterator<Item = (usize, &'a str)>) -> Vec<Board> {
    let mut boards = Vec::new();
    let mut current: Option<Board> = None;
    for (n, word) in words {
        for c in word.chars() {
            let board = current.get_or_insert_with(|| Board {
                cells: String::new(),
                line: n,
                bad: None,
            });
            if !matches!(c, '.' | 'p' | 'P') && board.bad.is_none() {
                board.bad = Some(format!("line {n}: '{c}' is not a cell (. p P)"));
            }
            board.cells.push(if board.bad.is_some() { '.' } else { c });
            if board.cells.len() == 16 {
                boards.extend(current.take());
            }
        }
    }
    if let Some(mut partial) = current {
        partial.bad = Some(format!(
            "only {} of 16 cells before the input ended",
            partial.cells.len()
        ));
        boards.push(partial);
    }
    boards
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(input: &str) -> (String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(input.as_bytes(), &mut out, &mut err).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn the_uva_sample() {
        let (out, err) = run_text("2\n\n.ppp\n....\n.PPP\n....\n\n...p\n...p\npP.P\n...P\n");
        assert_eq!(out, "white (7)\nblack (2)\n");
        assert_eq!(err, "");
    }

    #[test]
    fn any_whitespace_layout_and_the_full_start() {
        let (out, _) = run_text("2 .ppp .... .PPP .... pppp\n....\n....  PPPP");
        assert_eq!(out, "white (7)\nwhite (11)\n");
    }

    #[test]
    fn bad_boards_are_named_and_the_rest_answered() {
        let (out, err) =
            run_text("3\n.ppx\n....\n.PPP\n....\nP...\n....\n....\n...p\npppp\n....\n....\nPPPP\n");
        assert_eq!(out, "error\nerror\nwhite (11)\n");
        assert!(
            err.contains("board from line 2: line 2: 'x' is not a cell"),
            "{err}"
        );
        assert!(err.contains("board from line 6: white pawn on a4"), "{err}");
        let (out, err) = run_text("2\npppp\n....\n....\nPPPP\n..p");
        assert_eq!(out, "white (11)\nerror\n");
        assert!(err.contains("only 3 of 16 cells"), "{err}");
        let (out, err) = run_text("lots\npppp\n....\n....\nPPPP\n");
        assert_eq!(out, "white (11)\n");
        assert!(err.contains("'lots' is not the number of boards"), "{err}");
    }
}

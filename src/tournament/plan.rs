//! Which games a match plays: the openings (gap pairs, or positions from a
//! file) and who has white. Each opening is played twice in a row with
//! colours swapped, as cutechess's `-repeat` does, so that neither engine
//! gets the easier side of an unbalanced opening more often.

use super::game::Opening;
use crate::pgn::read_games;
use crate::rules::{Gaps, Position, RuleSet};
use std::str::FromStr;

/// A match's openings: `--gaps` (`all`, a list like `AH,BG`, or
/// `black-chooses`) or `--openings FILE`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Openings {
    Gaps(Vec<Gaps>),
    BlackChooses,
    Positions(Vec<Position>),
}

impl Openings {
    pub fn all_gaps() -> Openings {
        Openings::Gaps(Gaps::all(8).collect())
    }

    /// The games of one full pass: both colours of every opening.
    pub fn cycle_len(&self) -> usize {
        match self {
            Openings::Gaps(list) => 2 * list.len(),
            Openings::BlackChooses => 2,
            Openings::Positions(list) => 2 * list.len(),
        }
    }

    /// The `i`th opening of the cycle (each comes twice in a row).
    fn nth(&self, i: usize) -> Opening {
        match self {
            Openings::Gaps(list) => Opening::Gaps(list[(i / 2) % list.len()]),
            Openings::BlackChooses => Opening::BlackChooses,
            Openings::Positions(list) => Opening::Position(list[(i / 2) % list.len()]),
        }
    }

    /// An openings file: PGN (each game's position after its moves; its
    /// start from `Gaps` or `FEN`), or one position a line, as EPD (four
    /// fields, then operations), Fairy-Stockfish's six-field FEN or the
    /// house position text. Blank lines and lines starting with `#` are
    /// skipped. Errors name the line or game.
    pub fn from_file_text(text: &str) -> Result<Openings, String> {
        let is_pgn = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with('['));
        let positions = if is_pgn {
            read_games(text)
                .into_iter()
                .enumerate()
                .map(|(i, game)| {
                    let game = game.map_err(|e| format!("game {}: {e}", i + 1))?;
                    let mut pos = game.start;
                    for m in &game.moves {
                        pos = pos.play_unchecked(*m);
                    }
                    opening_position(pos).map_err(|e| format!("game {}: {e}", i + 1))
                })
                .collect::<Result<Vec<_>, _>>()?
        } else {
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
                .map(|(n, line)| position_line(line).map_err(|e| format!("line {}: {e}", n + 1)))
                .collect::<Result<Vec<_>, _>>()?
        };
        if positions.is_empty() {
            return Err("no openings in the file".into());
        }
        Ok(Openings::Positions(positions))
    }
}

/// One line of an openings file: EPD's four fields and operations, six-field
/// FEN, or position text.
fn position_line(line: &str) -> Result<Position, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    // EPD: operations (`bm e4; id "x";`) after the four fields, where a
    // FEN has its two clocks.
    let is_epd = fields.len() > 4 && !fields[4..].iter().all(|f| f.parse::<u32>().is_ok());
    let text = if is_epd {
        fields[..4].join(" ")
    } else {
        fields.join(" ")
    };
    let pos = Position::from_fen(&text, RuleSet::PAWNRACE).map_err(|e| format!("'{text}': {e}"))?;
    opening_position(pos)
}

/// A position a game can be played from: not over already.
fn opening_position(pos: Position) -> Result<Position, String> {
    match pos.outcome() {
        Some(outcome) => Err(format!("the game is over there ({outcome})")),
        None => Ok(pos),
    }
}

impl FromStr for Openings {
    type Err = String;
    fn from_str(s: &str) -> Result<Openings, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" => return Ok(Openings::all_gaps()),
            "black-chooses" | "black" => return Ok(Openings::BlackChooses),
            _ => {}
        }
        let list = s
            .split(',')
            .map(|g| g.trim().parse::<Gaps>())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Openings::Gaps(list))
    }
}

/// One scheduled game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Pairing {
    /// From 1, in schedule order.
    pub round: usize,
    pub opening: Opening,
    /// Which engine (0 = A, 1 = B) has white.
    pub white: usize,
}

/// `games` games (one full pass if `None`), cycling through the openings;
/// engine A has white in odd rounds.
pub fn schedule(openings: &Openings, games: Option<usize>) -> Vec<Pairing> {
    let total = games.unwrap_or_else(|| openings.cycle_len());
    (0..total)
        .map(|i| Pairing {
            round: i + 1,
            opening: openings.nth(i),
            white: i % 2,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn all_gaps_is_128_games_each_pair_with_both_colours() {
        let plan = schedule(&"all".parse().unwrap(), None);
        assert_eq!(plan.len(), 128);
        let distinct: HashSet<(String, usize)> = plan
            .iter()
            .map(|p| match p.opening {
                Opening::Gaps(g) => (g.to_string(), p.white),
                other => panic!("fixed gaps expected, not {other:?}"),
            })
            .collect();
        assert_eq!(distinct.len(), 128);
        assert_eq!(plan.iter().filter(|p| p.white == 0).count(), 64);
        assert_eq!(plan[0].round, 1);
        assert_eq!(plan[127].round, 128);
    }

    #[test]
    fn a_list_cycles_with_colours_alternating() {
        let spec: Openings = "ah, bg".parse().unwrap();
        let plan = schedule(&spec, Some(6));
        let shown: Vec<String> = plan
            .iter()
            .map(|p| match p.opening {
                Opening::Gaps(g) => format!("{g}{}", p.white),
                other => panic!("fixed gaps expected, not {other:?}"),
            })
            .collect();
        assert_eq!(shown, ["AH0", "AH1", "BG0", "BG1", "AH0", "AH1"]);
        assert_eq!(schedule(&spec, None).len(), 4);
    }

    #[test]
    fn black_chooses_and_bad_lists() {
        let plan = schedule(&"black-chooses".parse().unwrap(), Some(3));
        assert!(plan.iter().all(|p| p.opening == Opening::BlackChooses));
        assert_eq!(plan.iter().map(|p| p.white).collect::<Vec<_>>(), [0, 1, 0]);
        for bad in ["", "AH,", "AI", "AHH", "some"] {
            assert!(bad.parse::<Openings>().is_err(), "{bad}");
        }
    }

    #[test]
    fn openings_files_in_every_form() {
        let text = "# a comment\n\
            8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1\n\
            \n\
            8/1pppppp1/8/p7/4P3/8/1PPP1PPP/8 w - - bm d4; id \"after e4 a5\";\n\
            8/1ppppppp/8/8/8/8/PPPPPPP1/8 b -\n";
        let Openings::Positions(list) = Openings::from_file_text(text).unwrap() else {
            panic!("positions expected");
        };
        assert_eq!(list.len(), 3);
        assert_eq!(list[1].fen(), "8/1pppppp1/8/p7/4P3/8/1PPP1PPP/8 w -");
        let plan = schedule(&Openings::Positions(list.clone()), None);
        assert_eq!(plan.len(), 6);
        assert_eq!(plan[3].opening, Opening::Position(list[1]));
        assert_eq!((plan[2].white, plan[3].white), (0, 1));

        let pgn = "[Variant \"pawnrace\"]\n[Gaps \"AH\"]\n\n1. e4 a5 *\n\n\
            [SetUp \"1\"]\n[FEN \"8/8/8/3pP3/8/8/7P/8 w - d6 0 1\"]\n\n1. e6 *\n";
        let Openings::Positions(from_pgn) = Openings::from_file_text(pgn).unwrap() else {
            panic!("positions expected");
        };
        assert_eq!(from_pgn[0], list[1]);
        assert_eq!(from_pgn[1].fen(), "8/8/4P3/3p4/8/8/7P/8 b -");
    }

    #[test]
    fn bad_openings_files_say_where() {
        let err = Openings::from_file_text("8/8/8/8/8/8/8/8 w -\n8/8/x/8/8/8/8/8 w -\n");
        assert!(err.unwrap_err().starts_with("line 1:"));
        let err = Openings::from_file_text("# only\n8/ppppppp1/8/8/8/8/1PPPPPPP/8 w KQ - 0 1\n");
        assert!(err.unwrap_err().starts_with("line 2:"));
        let pgn = "[FEN \"8/8/8/3pP3/8/8/8/8 w - d6 0 1\"]\n\n1. exd6 *\n";
        let err = Openings::from_file_text(pgn).unwrap_err();
        assert!(err.starts_with("game 1: the game is over"), "{err}");
        assert!(Openings::from_file_text("# nothing\n\n").is_err());
    }
}

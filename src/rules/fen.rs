//! Position text: a FEN-like string for pawn positions of any size up to 8x8.
//!
//! `8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -`: ranks from the top separated by `/`,
//! `P` white, `p` black, a digit for that many empty squares or `.` for one;
//! then the side to move (white if left out) and the en passant square or `-`.
//! Fairy-Stockfish's six-field FEN (`... w - - 0 1`, the form its tools and
//! bindings write) is read too: castling must be `-` (there are no kings or
//! rooks to castle with) and the clocks are read as numbers and set aside.

use super::position::{Position, PositionError};
use super::ruleset::RuleSet;
use super::square::{Bitboard, Color, Square};
use std::fmt::Write;

fn syntax(msg: String) -> PositionError {
    PositionError::Syntax(msg)
}

impl Position {
    /// Reads position text for a board of `rules`' size and checks the result.
    pub fn from_fen(text: &str, rules: RuleSet) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let Some(placement) = fields.first() else {
            return Err(syntax("empty position text".into()));
        };
        let (white, black) = parse_placement(placement, &rules)?;
        let side = match fields.get(1).map(|s| s.to_ascii_lowercase()).as_deref() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => {
                return Err(syntax(format!(
                    "side to move must be w or b, not '{other}'"
                )));
            }
        };
        let ep_field = match fields.len() {
            0..=2 => None,
            3 => Some(fields[2]),
            4..=6 => {
                check_castling(fields[2])?;
                for clock in &fields[4..] {
                    if clock.parse::<u32>().is_err() {
                        return Err(syntax(format!("move counter '{clock}' is not a number")));
                    }
                }
                Some(fields[3])
            }
            n => return Err(syntax(format!("position text has {n} fields, at most 6"))),
        };
        let ep = match ep_field {
            None | Some("-") => None,
            Some(s) => Some(
                s.parse::<Square>()
                    .map_err(|e| PositionError::EnPassant(e.to_string()))?,
            ),
        };
        Position::new(rules, white, black, side, ep)
    }

    /// The position text, in the short form (`... w -`).
    pub fn fen(&self) -> String {
        let en_passant = self
            .en_passant()
            .map_or("-".to_string(), |sq| sq.to_string());
        format!(
            "{} {} {en_passant}",
            self.placement(),
            self.side_to_move().letter()
        )
    }

    /// The position as Fairy-Stockfish writes it (`... w - - 0 1`), for the
    /// variant world's tools: no castling, a halfmove clock of 0 (every
    /// move is a pawn move, which resets it) and `fullmove` as the move
    /// number.
    pub fn fairy_fen(&self, fullmove: u32) -> String {
        let en_passant = self
            .en_passant()
            .map_or("-".to_string(), |sq| sq.to_string());
        format!(
            "{} {} - {en_passant} 0 {fullmove}",
            self.placement(),
            self.side_to_move().letter()
        )
    }

    /// The first field: ranks from the top, `/` between them.
    fn placement(&self) -> String {
        let rules = self.rules();
        let mut out = String::new();
        for rank in (0..rules.height()).rev() {
            let mut empty = 0;
            for file in 0..rules.width() {
                let sq = Square::new(file, rank);
                match self.pawn_at(sq) {
                    None => empty += 1,
                    Some(color) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(if color == Color::White { 'P' } else { 'p' });
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}

fn parse_placement(
    placement: &str,
    rules: &RuleSet,
) -> Result<(Bitboard, Bitboard), PositionError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != rules.height() as usize {
        return Err(syntax(format!(
            "{} ranks given, a {} board has {}",
            rows.len(),
            rules.name(),
            rules.height()
        )));
    }
    let (mut white, mut black) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (i, row) in rows.iter().enumerate() {
        let rank = rules.height() - 1 - i as u8;
        let mut file: u32 = 0;
        for c in row.chars() {
            let place = |file: u32| -> Result<Square, PositionError> {
                if file >= rules.width() as u32 {
                    Err(syntax(too_wide(rank, rules)))
                } else {
                    Ok(Square::new(file as u8, rank))
                }
            };
            match c {
                'P' => white |= place(file)?.bb(),
                'p' => black |= place(file)?.bb(),
                '.' => {}
                '1'..='8' => file += c as u32 - '1' as u32,
                'K' | 'Q' | 'R' | 'B' | 'N' | 'k' | 'q' | 'r' | 'b' | 'n' => {
                    return Err(syntax(format!(
                        "'{c}' on rank {}: only pawns play here",
                        rank + 1
                    )));
                }
                _ => {
                    return Err(syntax(format!(
                        "unexpected '{c}' on rank {} (P white, p black, a digit or . for empty squares)",
                        rank + 1
                    )));
                }
            }
            file += 1;
        }
        if file != rules.width() as u32 {
            return Err(syntax(if file > rules.width() as u32 {
                too_wide(rank, rules)
            } else {
                format!(
                    "rank {} has {file} squares, a {} board has {}",
                    rank + 1,
                    rules.name(),
                    rules.width()
                )
            }));
        }
    }
    Ok((white, black))
}

fn too_wide(rank: u8, rules: &RuleSet) -> String {
    format!("rank {} has more than {} squares", rank + 1, rules.width())
}

fn check_castling(field: &str) -> Result<(), PositionError> {
    if field == "-" {
        Ok(())
    } else if field.chars().all(|c| "KQkqABCDEFGHabcdefgh".contains(c)) {
        Err(syntax(format!(
            "castling rights '{field}': only pawns play here, the castling field must be -"
        )))
    } else {
        Err(syntax(format!("'{field}' is not a castling field")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Gaps, PositionError};

    #[test]
    fn the_start_round_trips() {
        let gaps: Gaps = "AH".parse().unwrap();
        let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
        assert_eq!(start.fen(), "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -");
        assert_eq!(
            Position::from_fen(&start.fen(), RuleSet::PAWNRACE),
            Ok(start)
        );
        let fairy = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1";
        assert_eq!(start.fairy_fen(1), fairy);
        assert_eq!(Position::from_fen(fairy, RuleSet::PAWNRACE), Ok(start));
    }

    #[test]
    fn fairy_fen_keeps_the_en_passant_square_and_move_number() {
        let p = Position::from_fen("8/8/8/3pP3/8/8/8/8 w d6", RuleSet::PAWNRACE).unwrap();
        assert_eq!(p.fairy_fen(12), "8/8/8/3pP3/8/8/8/8 w - d6 0 12");
        assert_eq!(
            Position::from_fen(&p.fairy_fen(12), RuleSet::PAWNRACE),
            Ok(p)
        );
    }

    #[test]
    fn castling_rights_are_refused() {
        let err = Position::from_fen(
            "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w KQkq - 0 1",
            RuleSet::PAWNRACE,
        )
        .unwrap_err();
        assert!(err.to_string().contains("castling rights 'KQkq'"), "{err}");
    }

    #[test]
    fn mini4_reads_dots_and_digits() {
        let a = Position::from_fen(".ppp/..../..../.PPP", RuleSet::MINI4).unwrap();
        let b = Position::from_fen("1ppp/4/4/1PPP w -", RuleSet::MINI4).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.fen(), "1ppp/4/4/1PPP w -");
    }

    #[test]
    fn en_passant_field_is_read_and_checked() {
        let p = Position::from_fen("8/8/8/3pP3/8/8/8/8 w d6", RuleSet::PAWNRACE).unwrap();
        assert_eq!(p.en_passant(), Some("d6".parse().unwrap()));
        assert_eq!(p.legal_moves().len(), 2);
        let useless = Position::from_fen("8/8/8/3p4/8/8/4P3/8 w d6", RuleSet::PAWNRACE).unwrap();
        assert_eq!(useless.legal_moves().len(), 2);
    }

    #[test]
    fn bad_text_says_what_is_wrong() {
        let cases = [
            ("", "empty"),
            ("8/8/8/8/8/8/8 w -", "7 ranks"),
            ("8/8/8/8/8/8/8/9 w -", "unexpected '9'"),
            ("8/8/8/8/8/8/8/7 w -", "rank 1 has 7 squares"),
            ("8/8/8/8/8/8/8/PPPPPPPPP w -", "more than 8"),
            ("8/8/8/8/8/8/8/k7 w -", "only pawns"),
            ("8/8/8/8/8/8/8/8 x -", "side to move"),
            ("8/pppp4/8/8/8/8/PPP5/8 w - - 0 x", "not a number"),
            ("8/8/8/8/8/8/8/8 w - - 0 1 9", "7 fields"),
            ("8/8/8/3pP3/8/8/8/8 w z9", "en passant"),
        ];
        for (text, expected) in cases {
            let err = Position::from_fen(text, RuleSet::PAWNRACE)
                .unwrap_err()
                .to_string();
            assert!(err.contains(expected), "{text}: {err}");
        }
        let on_last = Position::from_fen("4P3/p7/8/8/8/8/8/8 b -", RuleSet::PAWNRACE);
        assert!(matches!(
            on_last,
            Err(PositionError::OnLastRank(Color::White, _))
        ));
    }
}

//! The bitboard rules against a deliberately simple generator that walks a
//! square array, over random positions of several rule sets.

use pawnrace::rules::{Bitboard, Color, Gaps, Move, NoMoves, Position, RuleSet, Square};
use proptest::prelude::*;

/// The board as a plain array, indexed `[rank][file]`.
struct Plain {
    cells: [[Option<Color>; 8]; 8],
    width: i8,
    height: i8,
}

impl Plain {
    fn of(pos: &Position) -> Plain {
        let mut cells = [[None; 8]; 8];
        for color in Color::BOTH {
            for sq in pos.pawns(color) {
                cells[sq.rank() as usize][sq.file() as usize] = Some(color);
            }
        }
        Plain {
            cells,
            width: pos.rules().width() as i8,
            height: pos.rules().height() as i8,
        }
    }

    fn at(&self, file: i8, rank: i8) -> Option<Option<Color>> {
        let on = (0..self.width).contains(&file) && (0..self.height).contains(&rank);
        on.then(|| self.cells[rank as usize][file as usize])
    }
}

fn reference_moves(pos: &Position) -> Vec<Move> {
    let rules = pos.rules();
    let board = Plain::of(pos);
    let us = pos.side_to_move();
    let them = !us;
    let (dir, home, goal_them) = match us {
        Color::White => (1i8, rules.home_rank(Color::White) as i8, 0),
        Color::Black => (-1i8, rules.home_rank(Color::Black) as i8, board.height - 1),
    };
    // The game is over when the side that just moved reached its goal or
    // took our last pawn.
    let mut ours = 0;
    for rank in 0..board.height {
        for file in 0..board.width {
            match board.at(file, rank).flatten() {
                Some(c) if c == them && rank == goal_them => return Vec::new(),
                Some(c) if c == us => ours += 1,
                _ => {}
            }
        }
    }
    if ours == 0 {
        return Vec::new();
    }
    let sq = |f: i8, r: i8| Square::new(f as u8, r as u8);
    let mut moves = Vec::new();
    for rank in 0..board.height {
        for file in 0..board.width {
            if board.at(file, rank).flatten() != Some(us) {
                continue;
            }
            if board.at(file, rank + dir) == Some(None) {
                moves.push(Move::new(sq(file, rank), sq(file, rank + dir)));
                if rules.double_step()
                    && rank == home
                    && board.at(file, rank + 2 * dir) == Some(None)
                {
                    moves.push(Move::new(sq(file, rank), sq(file, rank + 2 * dir)));
                }
            }
            for df in [-1, 1] {
                let (tf, tr) = (file + df, rank + dir);
                let enemy = board.at(tf, tr) == Some(Some(them));
                let ep = board.at(tf, tr).is_some() && pos.en_passant() == Some(sq(tf, tr));
                if enemy || ep {
                    moves.push(Move::new(sq(file, rank), sq(tf, tr)));
                }
            }
        }
    }
    moves
}

fn sorted(mut v: Vec<Move>) -> Vec<(usize, usize)> {
    v.sort_by_key(|m| (m.from.index(), m.to.index()));
    v.into_iter()
        .map(|m| (m.from.index(), m.to.index()))
        .collect()
}

fn rule_sets() -> Vec<RuleSet> {
    vec![
        RuleSet::PAWNRACE,
        RuleSet::MINI4,
        RuleSet::new(6, 6, 1, true, true, true, NoMoves::Draw).unwrap(),
        RuleSet::new(5, 7, 0, true, false, false, NoMoves::Loss).unwrap(),
    ]
}

/// Checks one position and everything reachable from it along `path`.
fn check_line(mut pos: Position, path: &[usize]) -> Result<(), TestCaseError> {
    for pick in path {
        let ours = sorted(pos.legal_moves().to_vec());
        prop_assert_eq!(
            &ours,
            &sorted(reference_moves(&pos)),
            "moves of {}",
            pos.fen()
        );
        prop_assert_eq!(pos.outcome().is_some(), ours.is_empty() || pos.is_decided());
        if ours.is_empty() {
            break;
        }
        let m = pos.legal_moves()[pick % ours.len()];
        let next = pos.play_unchecked(m);
        // The mover's pawn moved; at most one enemy pawn went.
        let mover = pos.side_to_move();
        prop_assert!(next.pawns(mover).has(m.to) && !next.pawns(mover).has(m.from));
        let lost = pos.pawns(!mover).count() - next.pawns(!mover).count();
        prop_assert_eq!(lost, u32::from(m.is_capture()));
        prop_assert_eq!(next.mirror().mirror(), next);
        prop_assert_eq!(
            sorted(next.mirror().legal_moves().to_vec()).len(),
            sorted(next.legal_moves().to_vec()).len()
        );
        pos = next;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Games from random starts: every ply compared, en passant included.
    #[test]
    fn games_from_the_start(rules in 0usize..4, wg in 0u8..8, bg in 0u8..8, path in prop::collection::vec(0usize..64, 0..40)) {
        let rules = rule_sets()[rules];
        let gaps = rules.has_gaps().then_some(Gaps { white: wg % rules.width(), black: bg % rules.width() });
        let start = Position::start(rules, gaps).unwrap();
        check_line(start, &path)?;
    }

    /// Arbitrary placements: blocked files, stalemates, lone pawns.
    #[test]
    fn random_placements(rules in 0usize..4, white in any::<u64>(), black in any::<u64>(), black_to_move in any::<bool>(), path in prop::collection::vec(0usize..64, 0..12)) {
        let rules = rule_sets()[rules];
        let side = if black_to_move { Color::Black } else { Color::White };
        // Thin the sets out so that the counts stay legal.
        let w = Bitboard(white & white.rotate_left(17) & rules.pawn_area(Color::White).0);
        let b = Bitboard(black & black.rotate_left(29) & rules.pawn_area(Color::Black).0 & !w.0);
        if let Ok(pos) = Position::new(rules, w, b, side, None) {
            check_line(pos, &path)?;
        }
    }
}

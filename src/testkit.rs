//! What the unit tests and the integration tests (`tests/`) share: one
//! seeded generator ([`Rng`]), one random-position generator
//! ([`random_position`]) and one brute-force oracle ([`minimax`]). Test
//! support only: nothing in the library calls it.

pub use crate::rng::Rng;
use crate::rules::{Bitboard, Color, NoMoves, Position, RuleSet};
use crate::solver::Value;
use std::collections::HashMap;

/// Random pawns for each side of `rules`, none on a shared square: up to
/// `max` a side, on squares a pawn may stand on while the game goes on,
/// one in three on its home rank so that double steps and en passant are
/// common.
pub fn random_pawns(rng: &mut Rng, rules: RuleSet, max: usize) -> [Bitboard; 2] {
    let mut pawns = [Bitboard::EMPTY; 2];
    for color in Color::BOTH {
        let area: Vec<_> = rules.pawn_area(color).collect();
        let home: Vec<_> = (Bitboard::rank(rules.home_rank(color)) & rules.board()).collect();
        for _ in 0..=rng.below(max) {
            let sq = if rng.below(3) == 0 {
                home[rng.below(home.len())]
            } else {
                area[rng.below(area.len())]
            };
            if !(pawns[0] | pawns[1]).has(sq) {
                pawns[color.index()] |= sq.bb();
            }
        }
    }
    pawns
}

/// A random legal position of `rules` ([`random_pawns`], either side to
/// move), then up to two random moves so that en passant squares and
/// finished games turn up; `None` where the pawns make no legal position.
pub fn random_position(rng: &mut Rng, rules: RuleSet, max: usize) -> Option<Position> {
    let [white, black] = random_pawns(rng, rules, max);
    let side = Color::BOTH[rng.below(2)];
    let mut pos = Position::new(rules, white, black, side, None).ok()?;
    for _ in 0..rng.below(3) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    Some(pos)
}

/// Rule sets small enough for [`minimax`], each with the most pawns a side
/// to ask [`random_position`] for: Pawn Race, the 4x4 board (no moves
/// lose) and a 5x6 board where no moves draw.
pub fn small_rule_sets() -> [(RuleSet, usize); 3] {
    [
        (RuleSet::PAWNRACE, 3),
        (RuleSet::MINI4, 4),
        (
            RuleSet::new(5, 6, 1, true, true, true, NoMoves::Draw).expect("a valid rule set"),
            3,
        ),
    ]
}

/// The exact value of `pos` for the side to move and its distance in plies
/// (0 for a draw), by memoised full-width minimax written without the
/// solver's helpers: the winner takes the shortest win, the loser the
/// longest loss.
pub fn minimax(pos: &Position, memo: &mut HashMap<Position, (Value, u32)>) -> (Value, u32) {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let result = if pos.is_decided() {
        (Value::Loss, 0)
    } else {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            match pos.rules().no_moves() {
                NoMoves::Draw => (Value::Draw, 0),
                NoMoves::Loss => (Value::Loss, 0),
            }
        } else {
            let children: Vec<(Value, u32)> = moves
                .iter()
                .map(|m| minimax(&pos.play_unchecked(*m), memo))
                .collect();
            let win = children
                .iter()
                .filter(|c| c.0 == Value::Loss)
                .map(|c| c.1)
                .min();
            if let Some(k) = win {
                (Value::Win, k + 1)
            } else if children.iter().any(|c| c.0 == Value::Draw) {
                (Value::Draw, 0)
            } else {
                let longest = children.iter().map(|c| c.1).max().unwrap_or(0);
                (Value::Loss, longest + 1)
            }
        }
    };
    memo.insert(*pos, result);
    result
}

/// The Pawn Race position `fen`; panics on a bad one, as a test should.
pub fn pawnrace(fen: &str) -> Position {
    Position::from_fen(fen, RuleSet::PAWNRACE).expect("a Pawn Race position")
}

/// The Pawn Race position after `moves` (coordinates or SAN) from the start
/// of `gaps`; panics on a bad argument, as a test should.
pub fn replay(gaps: &str, moves: &[&str]) -> Position {
    let gaps = gaps.parse().expect("gaps like AH");
    let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).expect("a start");
    for m in moves {
        let mv = crate::rules::parse_move(&pos, m).expect("a legal move");
        pos = pos.play_unchecked(mv);
    }
    pos
}

/// The proven value of `pos` for its side to move, by a solver of the
/// caller's own (16 MiB, no limits).
pub fn proven_value(pos: &Position) -> Value {
    let mut solver = crate::solver::Solver::new(16);
    let limits = crate::solver::SolveLimits::default();
    let stop = crate::stop::Stop::new();
    solver.decide(pos, &limits, &stop).expect("no limits").value
}

//! The evaluation of a node's children from the node's: the solver orders
//! every child of every node it expands by [`evaluate`](super::evaluate),
//! and working each child out afresh was a quarter of its time.

use super::{
    ORDERING, PAWN, SCALE, Side, blocked_zone, combine, leader, moves_to_goal, side, side_of,
};
use crate::rules::{Bitboard, Color, Position, Square};

/// [`evaluate`](super::evaluate) for the children of one node, which
/// differ from it by one move of the node's side to move (the mover). Each side's share is
/// updated from the node's for what the move changed rather than worked out
/// again: the mover's for its one pawn that moved, the other side's for the
/// pawns of its own that the move made passed or no longer passed. A
/// capture changes both sides' pawns, so its child is evaluated in full.
/// The values are those of [`evaluate`](super::evaluate), as a test
/// checks.
pub struct Siblings {
    mover: Color,
    home: [i32; 2],
    scale: i32,
    /// The mover's pawns at the node, those of them passed, and the squares
    /// where a mover's pawn is not passed (fixed while no enemy pawn is
    /// taken).
    pawns: Bitboard,
    passed: Bitboard,
    zone: Bitboard,
    /// The other side's pawns at the node and those of them passed.
    enemy: Bitboard,
    enemy_passed: Bitboard,
    /// Each side's share at the node.
    ours: Side,
    theirs: Side,
}

impl Siblings {
    /// For the children of `node`, whose [`Shares`] the node's parent may
    /// have worked out already while ordering it.
    pub fn new(node: &Position, shares: Option<Shares>) -> Siblings {
        let mover = node.side_to_move();
        let pawns = node.pawns(mover);
        let zone = blocked_zone(node, mover);
        let passed = pawns & !zone;
        let enemy = node.pawns(!mover);
        let enemy_passed = enemy & !blocked_zone(node, !mover);
        let rules = node.rules();
        Siblings {
            mover,
            home: Color::BOTH.map(|c| rules.home_rank(c) as i32),
            scale: SCALE[rules.height() as usize],
            pawns,
            passed,
            zone,
            enemy,
            enemy_passed,
            ours: match shares {
                Some(s) => s.mover,
                None => side_of(node, mover, pawns, passed),
            },
            theirs: match shares {
                Some(s) => s.other,
                None => side_of(node, !mover, enemy, enemy_passed),
            },
        }
    }

    /// What a pawn of `color` on `sq` adds to its side's value, and what
    /// being passed adds to that; the terms [`side_of`] counts rank by rank.
    fn terms(&self, color: Color, sq: Square) -> (i32, i32) {
        let adv = sq.rank() as i32 - self.home[color.index()];
        let adv2 = adv * adv;
        (
            PAWN + self.scale * adv2 * ORDERING.advance / 8,
            10 + self.scale * adv2 / 2,
        )
    }

    /// [`evaluate`](super::evaluate) of `child`, a child of the node this
    /// was made for, with the child's shares for its own children.
    pub fn evaluate(&self, child: &Position) -> (i32, Shares) {
        let (us, them) = (self.mover, !self.mover);
        let pawns = child.pawns(us);
        let from = self.pawns & !pawns;
        let to = pawns & !self.pawns;
        let (Some(from_sq), Some(to_sq), false) =
            (from.first(), to.first(), child.pawns(them) != self.enemy)
        else {
            return evaluate_shares(child);
        };
        // The mover: one pawn moved, and the enemy pawns that decide what
        // is passed stayed where they were.
        let passed = (self.passed & !from) | (to & !self.zone);
        let (from_value, from_bonus) = self.terms(us, from_sq);
        let (to_value, to_bonus) = self.terms(us, to_sq);
        let mut value = self.ours.value - from_value + to_value;
        if !(from & self.passed).is_empty() {
            value -= from_bonus;
        }
        if !(to & passed).is_empty() {
            value += to_bonus;
        }
        let ours = Side {
            value,
            passer: leader(passed, us).map(|sq| moves_to_goal(child, us, sq)),
            fastest: leader(pawns, us).map_or(u32::MAX, |sq| moves_to_goal(child, us, sq)),
        };
        // The other side: the same pawns, some passed now or no longer.
        let enemy_passed = self.enemy & !blocked_zone(child, them);
        let theirs = if enemy_passed == self.enemy_passed {
            self.theirs
        } else {
            let mut value = self.theirs.value;
            for sq in enemy_passed & !self.enemy_passed {
                value += self.terms(them, sq).1;
            }
            for sq in self.enemy_passed & !enemy_passed {
                value -= self.terms(them, sq).1;
            }
            Side {
                value,
                passer: leader(enemy_passed, them).map(|sq| moves_to_goal(child, them, sq)),
                fastest: self.theirs.fastest,
            }
        };
        let shares = Shares {
            mover: theirs,
            other: ours,
        };
        (combine(theirs, ours, ORDERING.tempo), shares)
    }
}

/// A position's two shares of the evaluation: its side to move's and the
/// other side's, which its children's evaluations start from.
#[derive(Copy, Clone)]
pub struct Shares {
    mover: Side,
    other: Side,
}

/// [`evaluate`](super::evaluate), with the position's shares.
pub(super) fn evaluate_shares(pos: &Position) -> (i32, Shares) {
    let us = pos.side_to_move();
    let shares = Shares {
        mover: side(pos, us),
        other: side(pos, !us),
    };
    (combine(shares.mover, shares.other, ORDERING.tempo), shares)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::eval::tests::crowded;
    use crate::rules::{Gaps, RuleSet};
    use crate::testkit::{Rng, random_position};

    /// Every child of `node` scores through [`Siblings`] as it does alone,
    /// and so do its children through the shares handed down; returns how
    /// many were compared.
    fn siblings_agree(node: &Position, shares: Option<Shares>, depth: u32) -> u32 {
        let siblings = Siblings::new(node, shares);
        let mut compared = 0;
        for m in node.legal_moves().iter() {
            let child = node.play_unchecked(*m);
            if child.is_decided() || child.targets().is_empty() {
                continue;
            }
            let (value, child_shares) = siblings.evaluate(&child);
            assert_eq!(value, evaluate(&child), "{} after {m}", node.fen());
            compared += 1;
            if depth > 1 {
                compared += siblings_agree(&child, Some(child_shares), depth - 1);
            }
        }
        compared
    }

    #[test]
    fn siblings_score_as_they_do_alone() {
        // Three plies from every start, captures and en passant among them
        // further in, on random positions of both rule sets.
        let mut compared = 0;
        for gaps in Gaps::all(8) {
            let p = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
            compared += siblings_agree(&p, None, 3);
        }
        let mut rng = Rng::new(&[0x2545_F491_4F6C_DD1D]);
        for rules in [RuleSet::PAWNRACE, RuleSet::MINI4] {
            for _ in 0..3000 {
                let Some(p) = random_position(&mut rng, rules, crowded(rules)) else {
                    continue;
                };
                if p.is_decided() || p.targets().is_empty() {
                    continue;
                }
                compared += siblings_agree(&p, None, 2);
            }
        }
        assert!(compared > 100_000, "{compared}");
    }
}

//! Scores relative to their node: a win in k plies from here is
//! `SOLVER_WIN - k`, a loss in k plies `-(SOLVER_WIN - k)`, a draw 0. One
//! ply up or down the tree, a score changes side and distance together.

/// The parent's score for a child's score: one ply further from the end.
pub(super) const fn up(child: i32) -> i32 {
    if child > 0 {
        1 - child
    } else if child < 0 {
        -child - 1
    } else {
        0
    }
}

/// The inverse of [`up`]: the child threshold matching a parent threshold,
/// so that `up(c) > p` exactly when `c < down(p)`.
pub(super) const fn down(parent: i32) -> i32 {
    if parent > 0 {
        -parent - 1
    } else if parent < 0 {
        1 - parent
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::SOLVER_WIN;

    #[test]
    fn up_and_down_are_inverse_and_order_reversing() {
        let scores: Vec<i32> = (0..40)
            .map(|k| SOLVER_WIN - k)
            .chain((0..40).map(|k| -(SOLVER_WIN - k)))
            .chain([0])
            .collect();
        for &c in &scores {
            assert_eq!(down(up(c)), c, "{c}");
            for &p in &scores {
                assert_eq!(up(c) > p, c < down(p), "{c} {p}");
                assert_eq!(up(c) < p, c > down(p), "{c} {p}");
            }
        }
        assert_eq!(up(-SOLVER_WIN), SOLVER_WIN - 1);
        assert_eq!(up(SOLVER_WIN - 1), -(SOLVER_WIN - 2));
    }
}

//! One node of the principal variation search: the table's cutoff, each
//! move searched (late quiet ones reduced first), and what a cutoff
//! teaches the move ordering. Split in steps for reading; each is inlined,
//! so the search runs as one function did.

use super::{INFINITY, Searcher};
use crate::engine::tt::{Bound, Hit};
use crate::eval::score::SEARCH_MATE;
use crate::rules::{Move, Position};

impl Searcher<'_> {
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
    ) -> i32 {
        if depth <= 0 {
            // Before counting the node, which quiescence counts itself.
            return self.quiesce(pos, alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;
        let p = ply as usize;
        self.pv_len[p] = 0;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if let Some(score) = self.settled(pos, ply, pv_node) {
            return score;
        }
        // Mate distance pruning: nothing here can beat a shorter proven result.
        alpha = alpha.max(-(SEARCH_MATE - ply));
        beta = beta.min(SEARCH_MATE - ply - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = pos.hash();
        let hit = self.tt.probe(key, ply);
        if let Some(score) = table_cut(hit, pv_node, depth, alpha, beta) {
            return score;
        }

        let moves = pos.legal_moves();
        let ordered = self.ordered(pos, &moves, hit.and_then(|h| h.mv), p);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, &m) in ordered.iter().enumerate() {
            let score = self.move_score(pos, m, i, depth, alpha, beta, ply);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.set_pv(p, m);
                    }
                    if alpha >= beta {
                        self.learn_cutoff(pos, m, depth, p);
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, depth, best_score, bound, best_move);
        best_score
    }

    /// The score of `m`, the `i`th move in search order, from the mover's
    /// side: the first with the full window, the others with a null window
    /// first, searched again only if they beat `alpha`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn move_score(
        &mut self,
        pos: &Position,
        m: Move,
        i: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        let p = ply as usize;
        let child = pos.play_unchecked(m);
        let quiet =
            !m.is_capture() && Some(m) != self.killers[p][0] && Some(m) != self.killers[p][1];
        if i == 0 {
            return -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
        }
        // Late quiet moves are rarely best: look at them less deeply
        // first, and fully only if they surprise.
        let reduction = if depth >= 3 && i >= 3 && quiet {
            1 + (i >= 8) as i32
        } else {
            0
        };
        let mut v = -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
        if v > alpha && reduction > 0 && !self.aborted {
            v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
        }
        if v > alpha && v < beta && !self.aborted {
            v = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
        }
        v
    }

    /// A quiet move that cut off becomes the first killer at its ply, and
    /// its history grows with the depth it cut at.
    #[inline(always)]
    fn learn_cutoff(&mut self, pos: &Position, m: Move, depth: i32, p: usize) {
        if m.is_capture() {
            return;
        }
        if self.killers[p][0] != Some(m) {
            self.killers[p][1] = self.killers[p][0];
            self.killers[p][0] = Some(m);
        }
        let us = pos.side_to_move().index();
        let h = &mut self.history[us][m.from.index()][m.to.index()];
        *h = (*h + depth * depth).min(1 << 20);
    }
}

/// The table's score when its entry settles the node: deep enough, off the
/// principal variation, and a bound that cuts the window.
#[inline(always)]
fn table_cut(hit: Option<Hit>, pv_node: bool, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    let h = hit.filter(|h| !pv_node && h.depth >= depth)?;
    let cut = match h.bound {
        Bound::Exact => true,
        Bound::Lower => h.score >= beta,
        Bound::Upper => h.score <= alpha,
    };
    cut.then_some(h.score)
}

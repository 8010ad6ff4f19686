//! The search's move ordering and the nodes it settles without a full
//! search: a win on the next move, no move at all, and quiescence.

use super::{INFINITY, Searcher};
use crate::eval::score::{MAX_PLY, SEARCH_MATE};
use crate::eval::{evaluate_leaf, threatens_win};
use crate::rules::{MAX_MOVES, Move, MoveList, NoMoves, Position};
use crate::solver::{Value, race_verdict};

impl Searcher<'_> {
    /// `moves` sorted best-first for the search: the table's move, captures
    /// of the most advanced enemy pawns, killers, then quiet moves by history
    /// and by how far they advance.
    pub(super) fn ordered(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
    ) -> MoveList {
        let us = pos.side_to_move();
        let home = pos.rules().home_rank(us) as i32;
        let killers = if ply < MAX_PLY as usize {
            self.killers[ply]
        } else {
            [None; 2]
        };
        let mut list = moves.clone();
        let mut scores = [0i32; MAX_MOVES];
        for (score, &m) in scores.iter_mut().zip(list.iter()) {
            let adv = (m.to.rank() as i32 - home).abs();
            *score = if Some(m) == tt_move {
                1 << 30
            } else if m.is_capture() {
                // The victim stood where we land: the nearer our home rank,
                // the more dangerous it was.
                (1 << 28) - adv
            } else if killers[0] == Some(m) {
                (1 << 27) + 1
            } else if killers[1] == Some(m) {
                1 << 27
            } else {
                self.history[us.index()][m.from.index()][m.to.index()] + 8 * adv
            };
        }
        // Insertion sort: short lists, and stable, so equal scores keep
        // generation order and the search stays deterministic.
        let slice = list.as_mut_slice();
        for i in 1..slice.len() {
            let (m, s) = (slice[i], scores[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < s {
                slice[j] = slice[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            slice[j] = m;
            scores[j] = s;
        }
        list
    }

    /// The value of a node that needs no search: a win on the next move (the
    /// best there is), no move at all, the ply limit, or a race the solver's
    /// sound arithmetic decides ([`race_verdict`]). With `record_pv` the
    /// winning move becomes the node's line.
    ///
    /// The race verdict bounds the distance (a win or a loss within so many
    /// plies), and is scored as that distance: the evaluation's own race terms
    /// guess, and miss passers that outrun pawns which are not yet behind
    /// them, en passant, and stalemates. With it the search alone kept 210
    /// of the 256 keep-set positions at 1 M nodes against 197 (`bench keep
    /// --search-nodes`), and 203 at 500 K, about the time 1 M took
    /// before: a node costs some 28% more.
    pub(super) fn settled(&mut self, pos: &Position, ply: i32, record_pv: bool) -> Option<i32> {
        if threatens_win(pos, pos.side_to_move()) {
            if record_pv
                && let Some(m) = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| pos.play_unchecked(*m).is_decided())
            {
                let p = ply as usize;
                self.pv[p][0] = Some(m);
                self.pv_len[p] = 1;
            }
            return Some(SEARCH_MATE - ply - 1);
        }
        if pos.targets().is_empty() {
            return Some(self.no_moves_score(ply));
        }
        if ply >= MAX_PLY - 1 {
            return Some(evaluate_leaf(pos));
        }
        match race_verdict(pos) {
            Some((Value::Win, k)) => Some(SEARCH_MATE - ply - k as i32),
            Some((Value::Loss, k)) => Some(-(SEARCH_MATE - ply - k as i32)),
            _ => None,
        }
    }

    /// Captures only, on top of standing pat, unless the opponent threatens
    /// to win on its next move: then every reply is tried, since standing pat
    /// would ignore a loss in one.
    pub(super) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        let p = ply as usize;
        self.pv_len[p] = 0;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.settled(pos, ply, false) {
            return score;
        }
        let us = pos.side_to_move();
        let threatened = threatens_win(pos, !us);
        let mut best = -INFINITY;
        if !threatened {
            best = evaluate_leaf(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = pos.legal_moves();
        if !threatened {
            // Captures only; most nodes here have none, and sorting every
            // move to skip the quiet ones was a fifth of the search's time.
            let mut captures = MoveList::new();
            for m in moves.iter().filter(|m| m.is_capture()) {
                captures.push(*m);
            }
            if captures.is_empty() {
                return best;
            }
            moves = captures;
        }
        let ordered = self.ordered(pos, &moves, None, MAX_PLY as usize);
        for &m in ordered.iter() {
            let child = pos.play_unchecked(m);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn no_moves_score(&self, ply: i32) -> i32 {
        match self.no_moves {
            NoMoves::Draw => 0,
            NoMoves::Loss => -(SEARCH_MATE - ply),
        }
    }
}

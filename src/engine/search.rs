//! Search: iterative deepening over a principal variation search with a
//! transposition table. Scores are on the search's scale
//! ([`SEARCH_MATE`]); [`to_score`] turns them into the protocol's.

use super::report::{Score, SearchInfo, SearchResult, to_score};
use super::time::{Budget, Clock, Limits};
use super::tt::{Bound, Table};
use crate::eval::score::{MATE_BOUND, MAX_PLY, SEARCH_MATE};
use crate::eval::{evaluate, threatens_win};
use crate::rules::{MAX_MOVES, Move, MoveList, NoMoves, Position, RuleSet};
use std::sync::atomic::{AtomicBool, Ordering};

/// Above every score.
pub(super) const INFINITY: i32 = SEARCH_MATE + 1;
/// The deepest iteration; games end long before (a pawn moves at most six
/// times), so it only bounds `go infinite`.
const MAX_DEPTH: u32 = 100;
/// How often, in nodes, the stop flag and the clock are read.
const POLL_INTERVAL: u64 = 1024;

/// Iterative deepening from `pos` until the limits, the clock or a proof
/// end it; `info` hears of every completed iteration.
pub(super) fn iterate(
    tt: &mut Table,
    pos: &Position,
    limits: &Limits,
    budget: &Budget,
    clock: &Clock,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let root_moves = pos.legal_moves();
    if root_moves.is_empty() {
        let score = match pos.outcome() {
            Some(o) if o.winner.is_none() => Score::Cp(0),
            // Nothing to move and not a draw: the side to move has lost.
            _ => Score::Mate(0),
        };
        return SearchResult {
            best: None,
            score,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    }
    tt.new_search();
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut s = Searcher::new(tt, pos.rules(), limits, budget, clock, stop);

    // Until an iteration completes, the fallback: a win on the spot if
    // there is one (no node limit may hide it), else the first move in
    // search order.
    let winning = root_moves
        .iter()
        .copied()
        .find(|m| pos.play_unchecked(*m).is_decided());
    let mut best = winning.unwrap_or_else(|| s.ordered(pos, &root_moves, None, 0)[0]);
    let mut best_score = 0;
    let mut pv = vec![best];
    let mut completed = 0;

    for depth in 1..=max_depth as i32 {
        let (score, mv) = s.root(pos, &root_moves, depth, best);
        if s.aborted {
            // A move whose search finished in the interrupted iteration
            // and beat the previous best is a better choice.
            if let Some((m, v)) = s.root_partial
                && m != best
            {
                best = m;
                best_score = v;
                // The root's line was last written when this move became
                // best; the unfinished searches after it only wrote deeper rows.
                pv = s.pv_line();
            }
            break;
        }
        best = mv;
        best_score = score;
        pv = s.pv_line();
        completed = depth as u32;
        info(&SearchInfo {
            depth: completed,
            seldepth: s.seldepth as u32,
            score: to_score(score),
            nodes: s.nodes,
            time_ms: clock.elapsed_ms(),
            pv: pv.clone(),
            proven: None,
        });
        // A proven result within the searched depth cannot change.
        if score.abs() >= MATE_BOUND && SEARCH_MATE - score.abs() <= depth {
            break;
        }
        // With a clock running, a forced move is not worth its time.
        if budget.past_soft(clock) || (root_moves.len() == 1 && budget.total_ms().is_some()) {
            break;
        }
    }
    SearchResult {
        best: Some(best),
        score: to_score(best_score),
        depth: completed,
        nodes: s.nodes,
        pv,
    }
}

/// The state of one search.
struct Searcher<'a> {
    tt: &'a mut Table,
    no_moves: NoMoves,
    node_limit: u64,
    budget: &'a Budget,
    clock: &'a Clock,
    stop: &'a AtomicBool,
    nodes: u64,
    seldepth: i32,
    aborted: bool,
    /// The best root move of the running iteration whose search finished.
    root_partial: Option<(Move, i32)>,
    killers: [[Option<Move>; 2]; MAX_PLY as usize],
    /// Indexed by colour, from square, to square.
    history: Box<[[[i32; 64]; 64]; 2]>,
    pv: Box<[[Option<Move>; MAX_PLY as usize]; MAX_PLY as usize]>,
    pv_len: [usize; MAX_PLY as usize],
}

impl<'a> Searcher<'a> {
    fn new(
        tt: &'a mut Table,
        rules: &RuleSet,
        limits: &Limits,
        budget: &'a Budget,
        clock: &'a Clock,
        stop: &'a AtomicBool,
    ) -> Searcher<'a> {
        Searcher {
            tt,
            no_moves: rules.no_moves(),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            budget,
            clock,
            stop,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            root_partial: None,
            killers: [[None; 2]; MAX_PLY as usize],
            history: Box::new([[[0; 64]; 64]; 2]),
            pv: Box::new([[None; MAX_PLY as usize]; MAX_PLY as usize]),
            pv_len: [0; MAX_PLY as usize],
        }
    }

    /// Counts a node and decides whether the search must end now.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        let polled = self.nodes.is_multiple_of(POLL_INTERVAL)
            && (self.stop.load(Ordering::Relaxed) || self.budget.past_hard(self.clock));
        if polled || self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.aborted
    }

    fn pv_line(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    fn set_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = Some(m);
        let child_len = if ply + 1 < MAX_PLY as usize {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len.min(MAX_PLY as usize - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// `moves` sorted best-first for the search: the table's move, captures
    /// of the most advanced enemy pawns, killers, then quiet moves by history
    /// and by how far they advance.
    fn ordered(
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

    fn root(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        depth: i32,
        prev_best: Move,
    ) -> (i32, Move) {
        self.root_partial = None;
        self.pv_len[0] = 0;
        let ordered = self.ordered(pos, moves, Some(prev_best), 0);
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = ordered[0];
        for (i, &m) in ordered.iter().enumerate() {
            let child = pos.play_unchecked(m);
            let score = if child.is_decided() {
                self.pv_len[1] = 0;
                SEARCH_MATE - 1
            } else if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let mut v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if v > alpha && !self.aborted {
                    v = -self.negamax(&child, depth - 1, -beta, -alpha, 1);
                }
                v
            };
            if self.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
                best = m;
                self.set_pv(0, m);
                self.root_partial = Some((m, score));
                if score >= SEARCH_MATE - 1 {
                    break;
                }
            }
        }
        let key = pos.hash();
        if !self.aborted {
            self.tt
                .store(key, 0, depth, alpha, Bound::Exact, Some(best));
        }
        (alpha, best)
    }

    fn negamax(
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
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
        {
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            };
            if cut {
                return h.score;
            }
        }

        let moves = pos.legal_moves();
        let ordered = self.ordered(pos, &moves, hit.and_then(|h| h.mv), p);
        let us = pos.side_to_move().index();
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, &m) in ordered.iter().enumerate() {
            let child = pos.play_unchecked(m);
            let quiet =
                !m.is_capture() && Some(m) != self.killers[p][0] && Some(m) != self.killers[p][1];
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves are rarely best: look at them less deeply
                // first, and fully only if they surprise.
                let reduction = if depth >= 3 && i >= 3 && quiet {
                    1 + (i >= 8) as i32
                } else {
                    0
                };
                let mut v =
                    -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if v > alpha && reduction > 0 && !self.aborted {
                    v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                v
            };
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
                        if !m.is_capture() {
                            if self.killers[p][0] != Some(m) {
                                self.killers[p][1] = self.killers[p][0];
                                self.killers[p][0] = Some(m);
                            }
                            let h = &mut self.history[us][m.from.index()][m.to.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
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

    /// The value of a node that needs no search: a win on the next move (the
    /// best there is), no move at all, or the ply limit. With `record_pv` the
    /// winning move becomes the node's line.
    fn settled(&mut self, pos: &Position, ply: i32, record_pv: bool) -> Option<i32> {
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
        if pos.targets().count() == 0 {
            return Some(self.no_moves_score(ply));
        }
        (ply >= MAX_PLY - 1).then(|| evaluate(pos))
    }

    /// Captures only, on top of standing pat, unless the opponent threatens
    /// to win on its next move: then every reply is tried, since standing pat
    /// would ignore a loss in one.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: i32) -> i32 {
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
            best = evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let moves = pos.legal_moves();
        let ordered = self.ordered(pos, &moves, None, MAX_PLY as usize);
        for &m in ordered.iter() {
            if !threatened && !m.is_capture() {
                continue;
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, Score};
    use crate::rules::Gaps;

    fn fen(text: &str) -> Position {
        Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
    }

    fn go(pos: &Position, depth: u32) -> SearchResult {
        let mut e = Engine::new(4);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        e.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
    }

    #[test]
    fn a_finished_game_has_no_best_move() {
        let won = fen("8/4P3/8/8/8/8/p7/8 w -")
            .play_unchecked(Move::new("e7".parse().unwrap(), "e8".parse().unwrap()));
        let r = go(&won, 3);
        assert_eq!((r.best, r.score), (None, Score::Mate(0)));
        let stalemate = fen("8/8/8/4p3/4P3/8/8/8 w -");
        let r = go(&stalemate, 3);
        assert_eq!((r.best, r.score), (None, Score::Cp(0)));
    }

    #[test]
    fn the_pv_starts_with_the_best_move_and_is_legal() {
        let pos = Position::start(RuleSet::PAWNRACE, Some(Gaps { white: 0, black: 7 })).unwrap();
        let r = go(&pos, 5);
        assert_eq!(r.pv.first().copied(), r.best);
        let mut p = pos;
        for m in &r.pv {
            assert!(p.is_legal(*m), "{m} in {}", p.fen());
            p = p.play_unchecked(*m);
        }
    }

    /// The search trusts `threatens_win` to say exactly whether the side to
    /// move has a winning move; check it against the rules over random games.
    #[test]
    fn win_threats_match_the_rules() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        let mut rand = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut starts: Vec<Position> = Gaps::all(8)
            .map(|g| Position::start(RuleSet::PAWNRACE, Some(g)).unwrap())
            .collect();
        starts.push(Position::start(RuleSet::MINI4, None).unwrap());
        let odd = RuleSet::new(5, 4, 1, true, true, true, NoMoves::Draw).unwrap();
        starts.push(Position::start(odd, Some(Gaps { white: 0, black: 4 })).unwrap());
        let mut checked = 0;
        for round in 0..3000 {
            let mut pos = starts[round % starts.len()];
            loop {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let wins = moves.iter().any(|m| pos.play_unchecked(*m).is_decided());
                assert_eq!(
                    threatens_win(&pos, pos.side_to_move()),
                    wins,
                    "{}",
                    pos.fen()
                );
                checked += 1;
                pos = pos.play_unchecked(moves[rand(moves.len())]);
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn a_race_won_by_one_tempo_is_proven() {
        // Both need five moves; white moves first and wins.
        let r = go(&fen("8/p7/8/8/8/8/7P/8 w -"), 12);
        assert_eq!(r.score, Score::Mate(5));
        let r = go(&fen("8/p7/8/8/8/8/7P/8 b -"), 12);
        assert_eq!(r.score, Score::Mate(5));
    }
}

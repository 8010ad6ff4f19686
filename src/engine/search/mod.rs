//! Search: iterative deepening over a principal variation search with a
//! transposition table. Scores are on the search's scale
//! ([`SEARCH_MATE`]); [`to_score`] turns them into the protocol's.

use super::report::{Score, SearchInfo, SearchResult, to_score};
use super::time::{Budget, Clock, Limits};
use super::tt::{Bound, Table};
use crate::eval::score::{MATE_BOUND, MAX_PLY, SEARCH_MATE};
use crate::rules::{Move, MoveList, NoMoves, Position, RuleSet};
use crate::stop::Stop;

mod node;
mod order;

/// Above every score.
pub(super) const INFINITY: i32 = SEARCH_MATE + 1;
/// The deepest iteration; games end long before (a pawn moves at most six
/// times), so it only bounds `go infinite`.
const MAX_DEPTH: u32 = 100;
/// How often, in nodes, the stop flag and the clock are read: about every
/// 0.1 ms of one core. Often, because on a crowded machine a search gets a
/// small share of a core, and the wall time between two looks at the clock
/// grows by the same factor; reading the clock costs some 25 ns.
const POLL_INTERVAL: u64 = 256;

/// `moves` less those in `avoid`, unless that leaves none.
fn without(moves: MoveList, avoid: &[Move]) -> MoveList {
    let mut kept = MoveList::new();
    for m in moves.iter().filter(|m| !avoid.contains(m)) {
        kept.push(*m);
    }
    if kept.is_empty() { moves } else { kept }
}

/// Iterative deepening from `pos` until the limits, the clock or a proof
/// end it; `info` hears of every completed iteration.
#[allow(clippy::too_many_arguments)]
pub(super) fn iterate(
    tt: &mut Table,
    pos: &Position,
    limits: &Limits,
    multipv: u32,
    budget: &Budget,
    clock: &Clock,
    stop: &Stop,
    avoid: &[Move],
    info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let root_moves = without(pos.legal_moves(), avoid);
    if root_moves.is_empty() {
        return nothing_to_move(pos);
    }
    tt.new_search();
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut s = Searcher::new(tt, pos.rules(), limits, budget, clock, stop);
    let mut best = Best::fallback(&mut s, pos, &root_moves);
    // MultiPV: each further line's best move at the last depth, to search
    // first at the next.
    let mut line_bests: Vec<Move> = Vec::new();

    for depth in 1..=max_depth as i32 {
        let (score, mv) = s.root(pos, &root_moves, depth, best.mv, true);
        if s.aborted {
            best.salvage(&s);
            break;
        }
        best = Best {
            mv,
            score,
            pv: s.pv_line(),
            completed: depth as u32,
        };
        let lines = (multipv.max(1) as usize).min(root_moves.len());
        info(&SearchInfo {
            depth: best.completed,
            seldepth: s.seldepth as u32,
            score: to_score(score),
            nodes: s.nodes,
            time_ms: clock.elapsed_ms(),
            pv: best.pv.clone(),
            proven: None,
            multipv: if lines > 1 { 1 } else { 0 },
        });
        if lines > 1
            && !s.other_lines(
                pos,
                &root_moves,
                best.mv,
                lines,
                depth,
                &mut line_bests,
                info,
            )
        {
            break;
        }
        // A proven result within the searched depth cannot change.
        if score.abs() >= MATE_BOUND && SEARCH_MATE - score.abs() <= depth {
            break;
        }
        // With a clock running, a forced move is not worth its time.
        if budget.past_soft(clock) || (root_moves.len() == 1 && budget.total_ms().is_some()) {
            break;
        }
    }
    best.into_result(s.nodes)
}

/// The result where the side to move has no legal move (or none outside
/// `avoid`'s): a draw if the game says so, else a loss on the spot.
fn nothing_to_move(pos: &Position) -> SearchResult {
    let score = match pos.outcome() {
        Some(o) if o.winner.is_none() => Score::Cp(0),
        // Nothing to move and not a draw: the side to move has lost.
        _ => Score::Mate(0),
    };
    SearchResult {
        best: None,
        score,
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
    }
}

/// The move the search would play if it stopped now, with its score, its
/// line and the deepest iteration that completed (0 for none).
struct Best {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    completed: u32,
}

impl Best {
    /// Until an iteration completes: a win on the spot if there is one (no
    /// node limit may hide it), else the first move in search order.
    fn fallback(s: &mut Searcher<'_>, pos: &Position, root_moves: &MoveList) -> Best {
        let winning = root_moves
            .iter()
            .copied()
            .find(|m| pos.play_unchecked(*m).is_decided());
        let mv = winning.unwrap_or_else(|| s.ordered(pos, root_moves, None, 0)[0]);
        Best {
            mv,
            score: 0,
            pv: vec![mv],
            completed: 0,
        }
    }

    /// After an interrupted iteration: a move whose search finished in it
    /// and beat the previous best is a better choice.
    fn salvage(&mut self, s: &Searcher<'_>) {
        if let Some((m, v)) = s.root_partial
            && m != self.mv
        {
            self.mv = m;
            self.score = v;
            // The root's line was last written when this move became
            // best; the unfinished searches after it only wrote deeper rows.
            self.pv = s.pv_line();
        }
    }

    fn into_result(self, nodes: u64) -> SearchResult {
        SearchResult {
            best: Some(self.mv),
            score: to_score(self.score),
            depth: self.completed,
            nodes,
            pv: self.pv,
        }
    }
}

/// The state of one search.
struct Searcher<'a> {
    tt: &'a mut Table,
    no_moves: NoMoves,
    node_limit: u64,
    budget: &'a Budget,
    clock: &'a Clock,
    stop: &'a Stop,
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
        stop: &'a Stop,
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
            && (self.stop.poll() || self.budget.past_hard(self.clock));
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

    /// MultiPV's further lines at `depth`, by root exclusion: line 2 is the
    /// best of every move but `best`, line 3 the best of the rest, and so
    /// on. Reports each; false if the search was stopped meanwhile (the
    /// first line's result at this depth stands).
    #[allow(clippy::too_many_arguments)]
    fn other_lines(
        &mut self,
        pos: &Position,
        root_moves: &MoveList,
        best: Move,
        lines: usize,
        depth: i32,
        line_bests: &mut Vec<Move>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> bool {
        let mut excluded = vec![best];
        for line in 2..=lines {
            let mut rest = MoveList::new();
            for m in root_moves.iter().filter(|m| !excluded.contains(m)) {
                rest.push(*m);
            }
            let Some(&first) = rest.first() else {
                return true;
            };
            let hint = line_bests
                .get(line - 2)
                .copied()
                .filter(|m| rest.contains(m))
                .unwrap_or(first);
            let (score, mv) = self.root(pos, &rest, depth, hint, false);
            if self.aborted {
                return false;
            }
            info(&SearchInfo {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: to_score(score),
                nodes: self.nodes,
                time_ms: self.clock.elapsed_ms(),
                pv: self.pv_line(),
                proven: None,
                multipv: line as u32,
            });
            excluded.push(mv);
            match line_bests.get_mut(line - 2) {
                Some(slot) => *slot = mv,
                None => line_bests.push(mv),
            }
        }
        true
    }

    /// The best of `moves` at `depth`; stored in the table as the root's
    /// value only when `moves` are all the root's (`store`): a MultiPV line
    /// that leaves some out has a value of its own.
    fn root(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        depth: i32,
        prev_best: Move,
        store: bool,
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
        if store && !self.aborted {
            self.tt
                .store(key, 0, depth, alpha, Bound::Exact, Some(best));
        }
        (alpha, best)
    }
}

#[cfg(test)]
mod tests;

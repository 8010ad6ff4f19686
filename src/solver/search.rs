//! The proof search: fail-soft alpha-beta over exact, node-relative scores.
//!
//! A score is `SOLVER_WIN - k` for a win in k plies from the node, `-(SOLVER_WIN - k)`
//! for a loss in k plies, 0 for a draw. With no depth limit every returned
//! score is a proven bound, so the table keeps both bounds of each position
//! and the driver narrows them with null-window calls.

use super::busy::Busy;
use super::order::{Children, KEY_LIMIT, quiet_key};
use super::race;
use super::relative::{down, up};
use super::table::Table;
use super::{SolveLimits, SolvePhase, SolveProgress};
use crate::eval::score::SOLVER_WIN;
use crate::eval::{Shares, Siblings, threatens_win};
use crate::rules::{MAX_MOVES, Move, NoMoves, Position};
use crate::stop::Stop;
use std::time::Instant;

/// How often (in nodes, a power of two) the clock and the stop flag are
/// read: about every 0.1 ms of one core, so that a proof on a crowded
/// machine, getting a small share of a core, still ends close to its time.
const CHECK_EVERY: u64 = 256;

/// One solve's state: the table, the limits, the counters.
pub(super) struct Ctx<'a> {
    pub table: &'a Table,
    pub stop: &'a Stop,
    pub progress: &'a mut dyn FnMut(&SolveProgress),
    pub start: Instant,
    pub node_limit: u64,
    pub time_limit_ms: Option<u64>,
    pub nodes: u64,
    pub aborted: bool,
    pub phase: SolvePhase,
    pub last_report_ms: u64,
    /// In a parallel solve, the positions every thread is searching now.
    pub busy: Option<&'a Busy>,
    /// A helper of a parallel solve: at its nodes, a move some other thread
    /// is searching waits for a second pass (all but the first searched),
    /// so that the helper proves the moves the solve's own thread comes to
    /// next and leaves those proofs in the table. The solve's own thread
    /// keeps the single-threaded order: deferring there too left its best
    /// move to a helper while it proved worse ones (32 full solves on two
    /// threads: 47.0 s against 45.3 s, median 956 against 817 ms).
    pub helper: bool,
    /// Each ply's moves below the node being searched there, kept from
    /// node to node (filling a fresh array at every node cost 4% of the
    /// search), and taken out while that node searches them.
    frames: Vec<Option<Box<Children>>>,
    ply: usize,
}

impl Ctx<'_> {
    pub fn new<'a>(
        table: &'a Table,
        limits: &SolveLimits,
        stop: &'a Stop,
        progress: &'a mut dyn FnMut(&SolveProgress),
    ) -> Ctx<'a> {
        Ctx {
            table,
            stop,
            progress,
            start: Instant::now(),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            time_limit_ms: limits.movetime_ms,
            nodes: 0,
            aborted: false,
            phase: SolvePhase::Deciding,
            last_report_ms: 0,
            helper: false,
            busy: None,
            frames: Vec::new(),
            ply: 0,
        }
    }

    /// [`Ctx::node`] one ply down.
    fn child(&mut self, pos: &Position, alpha: i32, beta: i32, shares: Option<Shares>) -> i32 {
        self.ply += 1;
        let v = self.node(pos, alpha, beta, shares);
        self.ply -= 1;
        v
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    pub fn report(&mut self) {
        let time_ms = self.elapsed_ms();
        self.last_report_ms = time_ms;
        let info = SolveProgress {
            nodes: self.nodes,
            time_ms,
            phase: self.phase,
            hashfull: self.table.hashfull(),
        };
        (self.progress)(&info);
    }

    fn check_limits(&mut self) {
        if self.stop.poll() {
            self.aborted = true;
            return;
        }
        let ms = self.elapsed_ms();
        if self.time_limit_ms.is_some_and(|t| ms >= t) {
            self.aborted = true;
            return;
        }
        if ms >= self.last_report_ms + 1000 {
            self.report();
        }
    }

    /// The exact value of `pos` if it lies strictly between `alpha` and
    /// `beta`; otherwise a bound on the side it fell (fail-soft). `pos` must
    /// not be decided. Meaningless once `self.aborted` is set.
    pub fn search(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        self.node(pos, alpha, beta, None)
    }

    /// [`Ctx::search`], given `pos`'s evaluation shares when the parent
    /// worked them out while ordering its moves.
    fn node(&mut self, pos: &Position, alpha: i32, beta: i32, shares: Option<Shares>) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        let us = pos.side_to_move();
        if threatens_win(pos, us) {
            return SOLVER_WIN - 1;
        }
        if pos.targets().is_empty() {
            return match pos.rules().no_moves() {
                NoMoves::Draw => 0,
                NoMoves::Loss => -SOLVER_WIN,
            };
        }
        // No win in one: at best a win in three, at worst a loss in two. Where
        // having no move loses, a move may still win at once by leaving the
        // opponent without one.
        let mut lo = -(SOLVER_WIN - 2);
        let mut hi = match pos.rules().no_moves() {
            NoMoves::Draw => SOLVER_WIN - 3,
            NoMoves::Loss => SOLVER_WIN - 1,
        };
        let key = pos.hash();
        let mut tt_move = None;
        if let Some(hit) = self.table.probe(key) {
            // Every entry was stored by a visit that had the race bounds
            // (or returned on them without storing), and its bounds lie
            // within them: asking the race rules again adds nothing.
            lo = lo.max(hit.lo);
            hi = hi.min(hit.hi);
            tt_move = hit.mv;
        } else {
            let (race_lo, race_hi) = race::bounds_until(pos, beta);
            if let Some(l) = race_lo {
                lo = lo.max(l);
            }
            if let Some(h) = race_hi {
                hi = hi.min(h);
            }
        }
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let alpha = alpha.max(lo);
        let beta = beta.min(hi);
        let Some(busy) = self.busy else {
            return self.expand(pos, key, (alpha, beta), (lo, hi), tt_move, shares);
        };
        let marked = busy.enter(key);
        let v = self.expand(pos, key, (alpha, beta), (lo, hi), tt_move, shares);
        if marked {
            busy.leave(key);
        }
        v
    }

    /// The rest of [`Ctx::node`], for a node that the bounds did not settle:
    /// `(alpha, beta)` narrowed to them, `(lo, hi)`.
    fn expand(
        &mut self,
        pos: &Position,
        key: u64,
        (alpha, beta): (i32, i32),
        (lo, hi): (i32, i32),
        tt_move: Option<Move>,
        shares: Option<Shares>,
    ) -> i32 {
        let us = pos.side_to_move();
        let nodes_before = self.nodes;
        let list = pos.legal_moves();
        let mut best = -SOLVER_WIN - 1;
        let mut best_move = None;
        let mut a = alpha;
        // The table's move first, on its own: when it cuts off (the usual
        // case at a node that cut off before) the other moves are never
        // generated into positions, probed or evaluated.
        let tt_move = tt_move.filter(|m| list.contains(m));
        if let Some(m) = tt_move {
            let v = up(self.child(&pos.play_unchecked(m), down(beta), down(a), None));
            if self.aborted {
                return 0;
            }
            best = v;
            best_move = Some(m);
            if v >= beta {
                let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
                self.table.store(key, v, hi, best_move, work);
                return v;
            }
            a = a.max(v);
        }
        let ply = self.ply;
        while self.frames.len() <= ply {
            self.frames.push(None);
        }
        // The ply's frame is taken out of `self` while its moves are
        // searched, so that each move's position is read where it lies
        // rather than copied out for every child searched.
        let mut frame = self.frames[ply]
            .take()
            .unwrap_or_else(|| Box::new(Children::new(*pos)));
        let v = 'search: {
            let table = self.table;
            let children = &mut *frame;
            children.clear();
            // Each child's bucket is fetched first, and its ordering score worked
            // out while the fetches are under way: the probes below waited on
            // memory for much of the search's time. (Ordering only the children
            // the table leaves open, after the probes, ran fewer instructions but
            // took 18% longer a node.)
            for &m in list.iter().filter(|&&m| Some(m) != tt_move) {
                let child = pos.play_unchecked(m);
                let key = child.hash();
                table.prefetch(key);
                children.push(m, child, key, threatens_win(&child, !us));
            }
            let mut siblings: Option<Siblings> = None;
            for c in children.iter_mut() {
                if c.threat {
                    // The opponent wins at once: last of all.
                    c.order = 0;
                    continue;
                }
                let (eval, child_shares) = siblings
                    .get_or_insert_with(|| Siblings::new(pos, shares))
                    .evaluate(&c.pos);
                c.shares = Some(child_shares);
                c.order = quiet_key(c.mv, &c.pos, eval);
            }
            // What the table knows of the children: a cut-off without searching
            // (enhanced transposition cut-off), moves that cannot raise alpha, and
            // the order of the rest.
            for c in children.iter_mut() {
                let (mut child_lo, mut child_hi) = (-SOLVER_WIN, SOLVER_WIN);
                if c.threat {
                    child_lo = SOLVER_WIN - 1;
                    child_hi = SOLVER_WIN - 1;
                } else if let Some(hit) = table.probe(c.key) {
                    child_lo = hit.lo;
                    child_hi = hit.hi;
                }
                let surely = up(child_hi);
                if surely > best {
                    best = surely;
                    best_move = Some(c.mv);
                    if surely >= beta {
                        table.store(key, surely, hi, best_move, 0);
                        break 'search surely;
                    }
                }
                let at_most = up(child_lo);
                c.cap = at_most;
                c.order = if child_hi < 0 {
                    // A proven win: the shortest first.
                    (3 * KEY_LIMIT) | (surely + SOLVER_WIN) as u32
                } else if child_lo > 0 {
                    // A proven loss: last (below every quiet key's class), in
                    // the order of the moves the table knows nothing of. Where
                    // every move loses (the losing side's nodes of a distance
                    // proof), one that holds out long enough is all the proof
                    // needs, and the evaluation finds it sooner than the moves'
                    // own order (16 full solves: 121.7 M nodes against
                    // 127.7 M; ordered by the table's bound on the loss
                    // instead, the same as the moves' order).
                    c.order
                } else {
                    KEY_LIMIT | c.order
                };
            }
            children.sort();
            a = a.max(best);
            // A helper leaves a move another thread is proving for a second
            // pass, unless it is the first move searched here.
            let busy = self.busy.filter(|_| self.helper);
            let mut deferred = [0u8; MAX_MOVES];
            let mut waiting = 0;
            let count = children.len();
            let mut searched = tt_move.is_some();
            let (mut next, mut next_deferred) = (0, 0);
            loop {
                let (k, second_pass) = if next < count {
                    next += 1;
                    (next - 1, false)
                } else if next_deferred < waiting {
                    next_deferred += 1;
                    (usize::from(deferred[next_deferred - 1]), true)
                } else {
                    break;
                };
                let c = frame.sorted(k);
                let m = c.mv;
                // The table already caps this move at or below alpha.
                if c.cap <= a {
                    if c.cap > best {
                        best = c.cap;
                        best_move = Some(m);
                    }
                    continue;
                }
                if searched && !second_pass && busy.is_some_and(|b| b.contains(c.key)) {
                    deferred[waiting] = k as u8;
                    waiting += 1;
                    continue;
                }
                searched = true;
                // No win in one here, so no child is decided.
                let v = up(self.child(&c.pos, down(beta), down(a), c.shares));
                if self.aborted {
                    break 'search 0;
                }
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v > a {
                        a = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
            let (new_lo, new_hi) = if best <= alpha {
                (lo, best)
            } else if best >= beta {
                (best, hi)
            } else {
                (best, best)
            };
            self.table.store(key, new_lo, new_hi, best_move, work);
            best
        };
        self.frames[ply] = Some(frame);
        v
    }
}

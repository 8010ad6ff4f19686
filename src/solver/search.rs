//! The proof search: fail-soft alpha-beta over exact, node-relative scores.
//!
//! A score is `SOLVER_WIN - k` for a win in k plies from the node, `-(SOLVER_WIN - k)`
//! for a loss in k plies, 0 for a draw. With no depth limit every returned
//! score is a proven bound, so the table keeps both bounds of each position
//! and the driver narrows them with null-window calls.

use super::busy::Busy;
use super::known::Known;
use super::order::{Best, Children};
use super::profile::NodeProfile;
use super::race;
use super::relative::{down, up};
use super::table::Table;
use super::{SolveLimits, SolvePhase, SolveProgress};
use crate::eval::score::SOLVER_WIN;
use crate::eval::{Shares, threatens_win};
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
    /// Where this thread's nodes go, while the solver profiles.
    pub profile: Option<Box<NodeProfile>>,
    /// Values proven ahead of time, asked where the table knows nothing.
    pub known: Option<&'a Known>,
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
            profile: None,
            known: None,
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

    /// [`Ctx::search`], but with `pos`'s moves searched even where what is
    /// known of `pos` itself (its table entry, the race rules, the book)
    /// settles the question at once: so that the table gets a move that
    /// reaches `beta`, for a line through a position whose score came from
    /// the book. `pos` must have a move and no win in one.
    pub fn search_moves(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let key = pos.hash();
        let tt_move = self.table.probe(key).and_then(|hit| hit.mv);
        // The bounds stored come from this search alone: narrowed to what
        // settled the question, the window would be empty.
        let (lo, hi) = (-SOLVER_WIN, SOLVER_WIN);
        self.expand(pos, key, (alpha, beta), (lo, hi), tt_move, None)
    }

    /// [`Ctx::search`], given `pos`'s evaluation shares when the parent
    /// worked them out while ordering its moves.
    fn node(&mut self, pos: &Position, alpha: i32, beta: i32, shares: Option<Shares>) -> i32 {
        self.nodes += 1;
        if let Some(profile) = self.profile.as_deref_mut() {
            profile.count(pos);
        }
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
            if let Some((known_lo, known_hi)) = self.known.and_then(|k| k.bounds(pos, key)) {
                lo = lo.max(known_lo);
                hi = hi.min(known_hi);
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
        let nodes_before = self.nodes;
        if let Some(profile) = self.profile.as_deref_mut() {
            profile.expanded += 1;
        }
        let list = pos.legal_moves();
        let mut best = Best {
            score: -SOLVER_WIN - 1,
            mv: None,
        };
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
            best = Best {
                score: v,
                mv: Some(m),
            };
            if v >= beta {
                let work = work_since(self.nodes, nodes_before);
                self.table.store(key, v, hi, best.mv, work);
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
            frame.fill(self.table, pos, &list, tt_move, shares);
            if let Some(cut) = frame.fold_table(self.table, beta, &mut best) {
                self.table.store(key, cut, hi, best.mv, 0);
                break 'search cut;
            }
            frame.sort();
            a = a.max(best.score);
            self.search_children(&frame, beta, a, tt_move.is_some(), &mut best);
            if self.aborted {
                break 'search 0;
            }
            let work = work_since(self.nodes, nodes_before);
            let (new_lo, new_hi) = if best.score <= alpha {
                (lo, best.score)
            } else if best.score >= beta {
                (best.score, hi)
            } else {
                (best.score, best.score)
            };
            self.table.store(key, new_lo, new_hi, best.mv, work);
            best.score
        };
        self.frames[ply] = Some(frame);
        v
    }

    /// Searches a node's sorted moves in turn (the table's move, if any,
    /// already searched: `searched`) from `alpha` until one reaches `beta`,
    /// raising `best`. Returns early with `self.aborted` set when a limit
    /// ran out.
    #[inline(always)]
    fn search_children(
        &mut self,
        frame: &Children,
        beta: i32,
        mut alpha: i32,
        mut searched: bool,
        best: &mut Best,
    ) {
        // A helper leaves a move another thread is proving for a second
        // pass, unless it is the first move searched here.
        let busy = self.busy.filter(|_| self.helper);
        let mut deferred = [0u8; MAX_MOVES];
        let mut waiting = 0;
        let count = frame.len();
        let (mut next, mut next_deferred) = (0, 0);
        loop {
            let (k, second_pass) = if next < count {
                next += 1;
                (next - 1, false)
            } else if next_deferred < waiting {
                next_deferred += 1;
                (usize::from(deferred[next_deferred - 1]), true)
            } else {
                return;
            };
            let c = frame.sorted(k);
            let m = c.mv;
            // The table already caps this move at or below alpha.
            if c.cap <= alpha {
                if c.cap > best.score {
                    *best = Best {
                        score: c.cap,
                        mv: Some(m),
                    };
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
            let v = up(self.child(&c.pos, down(beta), down(alpha), c.shares));
            if self.aborted {
                return;
            }
            if v > best.score {
                *best = Best {
                    score: v,
                    mv: Some(m),
                };
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        return;
                    }
                }
            }
        }
    }
}

/// The effort a node took, as the table weighs entries: the bit length of
/// the nodes searched below it.
fn work_since(nodes: u64, before: u64) -> u8 {
    (64 - (nodes - before).leading_zeros()) as u8
}

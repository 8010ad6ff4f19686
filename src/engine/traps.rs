//! Choosing the traps table's moves ahead of time (`pawnrace traps`,
//! [`crate::proofs::traps`]): near the start the proofs a trap needs take
//! seconds each, more than a move's time, so they are chosen here, with a
//! model opponent that also searches far longer than in play.
//!
//! The model opponent is the engine's own search or, to set traps for
//! another engine, that engine ([`Opponent`]). A position whose trap another
//! model chose is assessed again, and its trap replaced where this model is
//! fooled too; a trap learned from the opponent's recorded games stays.
//! The walk keeps the game's line, so that a model can be asked as in a
//! game, after its own earlier turns.
//!
//! From each opening's start the walk follows the game as it would go: in
//! a position won for the side to move, the moves a strong opponent plays
//! (every first move that keeps the win, then the tables' move and the
//! model's choice, each proven to keep it); in a
//! position lost (or drawn) for the side to move, the trap chosen there,
//! else the move the engine plays without one. Every trap is chosen by
//! `resist::choose`, the rule the engine uses in play.
//!
//! Where a lost position fools the model at no move, the plan may spread
//! the walk over every move ([`Plan::lead_ins`]): the model's reply to one
//! may reach a position where a trap fools it, and that move is set as a
//! lead-in.

use super::resist::{self, Candidate, Opponent};
use super::time::Clock;
use crate::proofs::{self, traps};
use crate::rules::{Color, Gaps, Move, Position, RuleSet};
use crate::solver::{SolveLimits, Solver, Value};
use crate::stop::Stop;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// How far to walk and how hard to look.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Traps are chosen in positions fewer than this many plies from the
    /// root.
    pub plies: u32,
    /// The most one position's trap choice (its proofs and model searches)
    /// may take, ms.
    pub choice_ms: u64,
    /// The most one proof of a position's value on the way may take, ms.
    pub proof_ms: u64,
    /// Whether a position met after its file mirror is walked again rather
    /// than standing for it: a model that is not the same in a mirrored
    /// position, as an engine's search is not, needs both.
    pub mirrors: bool,
    /// A trap this model chose that fooled it at fewer than this many of
    /// its levels or tries is chosen again (0: never). A move-time model's
    /// trap that fooled one try of two is a coin flip in a match; asked
    /// again in more tries, the move that fools it most often replaces
    /// it. Where no move fools it now the trap stands, noted so beside it.
    pub again_below: usize,
    /// In a lost position where no move fools this model, walk on after
    /// every move rather than the one the engine plays, and set as a
    /// lead-in the move whose reply by the model reaches this model's
    /// heaviest trap (an engine's search near the start is often past
    /// fooling at once, yet not a move later).
    pub lead_ins: bool,
}

/// What the walk reports.
pub enum Event<'a> {
    /// A position's candidates as the model saw them, and the trap chosen
    /// (now in the table) if any.
    Assessed {
        pos: &'a Position,
        ply: u32,
        value: Value,
        candidates: &'a [Candidate],
        chosen: Option<&'a traps::Trap>,
        table: &'a traps::Traps,
    },
    /// A lead-in set (now in the table): a lost position's move whose
    /// reply by the model reaches its trap.
    Lead {
        pos: &'a Position,
        ply: u32,
        lead: &'a traps::Trap,
        table: &'a traps::Traps,
    },
    /// A position on the way whose value was not proven in time: the walk
    /// leaves it and what follows out.
    Unknown { pos: &'a Position, ply: u32 },
}

/// A walk's start: a position and the moves to follow from it if it is
/// won, of which those proven to keep the win are followed.
pub struct Root {
    pub pos: Position,
    pub keep: Vec<Move>,
    /// The game's positions before `pos`, oldest first (a model that plays
    /// as in a game searches its own turns among them first).
    pub before: Vec<Position>,
    /// Walked only where its side to move is lost or drawn: a position met
    /// in a played game, where a won side needs no trap and the winner's
    /// moves are the game's business, not the walk's.
    pub only_if_lost: bool,
}

/// The starts of `gaps`' openings, each with all its first moves (those
/// proven to keep a win are followed), each pair once. Unless `mirrors`, a
/// pair whose file mirror comes earlier is left out too (the table's
/// entries stand for their mirrors); a model that is not the same in a
/// mirrored position, as an engine's search is not, walks both.
pub fn opening_roots(gaps: &[Gaps], mirrors: bool) -> Vec<Root> {
    let mut taken: Vec<Gaps> = Vec::new();
    let mut roots = Vec::new();
    for &g in gaps {
        let width = RuleSet::PAWNRACE.width();
        let mirror = Gaps {
            white: width - 1 - g.white,
            black: width - 1 - g.black,
        };
        if taken.contains(&g) || (!mirrors && taken.contains(&mirror)) {
            continue;
        }
        taken.push(g);
        if let Ok(pos) = Position::start(RuleSet::PAWNRACE, Some(g)) {
            // Every first move: engines choose among the winning ones
            // freely, and the openings table lists only those it settled.
            let keep = pos.legal_moves().iter().copied().collect();
            roots.push(Root {
                pos,
                keep,
                before: Vec::new(),
                only_if_lost: false,
            });
        }
    }
    roots
}

/// Walks from each of `roots`, adding the traps chosen to `table`
/// (positions it has already are followed, not chosen again: a run
/// resumes).
pub fn grow(
    plan: &Plan,
    roots: Vec<Root>,
    opponent: &mut dyn Opponent,
    solver: &mut Solver,
    table: &mut traps::Traps,
    stop: &Stop,
    report: &mut dyn FnMut(Event),
) {
    let mut walk = Walk {
        plan,
        opponent,
        solver,
        table,
        stop,
        report,
        seen: HashSet::new(),
        line: Vec::new(),
        only_if_lost: false,
        model_replies: HashMap::new(),
    };
    for root in roots {
        walk.line = root.before;
        walk.only_if_lost = root.only_if_lost;
        walk.visit(&root.pos, 0, root.keep, None, false);
        if stop.is_raised() {
            return;
        }
    }
}

/// A position's proven value for the side to move, and the tables' (or
/// the solver's) move keeping it.
type Known = (Value, Option<Move>);

struct Walk<'a> {
    plan: &'a Plan,
    opponent: &'a mut dyn Opponent,
    solver: &'a mut Solver,
    table: &'a mut traps::Traps,
    stop: &'a Stop,
    report: &'a mut dyn FnMut(Event),
    /// Positions walked from already: transpositions (and, unless the plan
    /// walks mirrors, mirrors) are walked once.
    seen: HashSet<Position>,
    /// The game's positions before the one visited, oldest first.
    line: Vec<Position>,
    /// The root's [`Root::only_if_lost`].
    only_if_lost: bool,
    /// The model's reply in each position the walk asked it for its best
    /// (the winner's moves), to find the lead-ins.
    model_replies: HashMap<Position, Move>,
}

impl Walk<'_> {
    /// Walks on from `pos`; `known` is its value and tables' move where
    /// the caller proved them already; `spread` where the walk reached it
    /// by spreading over every move of a lost position, so that only the
    /// model's reply is followed (a lead-in is that reply alone).
    fn visit(
        &mut self,
        pos: &Position,
        ply: u32,
        keep: Vec<Move>,
        known: Option<Known>,
        spread: bool,
    ) {
        if ply >= self.plan.plies || pos.outcome().is_some() || self.stop.is_raised() {
            return;
        }
        // The mirror first: a position that is its own mirror is walked.
        let mirrored = !self.plan.mirrors && self.seen.contains(&pos.mirror_files());
        if mirrored || !self.seen.insert(*pos) {
            return;
        }
        let Some((value, tables_move)) = known.or_else(|| self.value(pos)) else {
            (self.report)(Event::Unknown { pos, ply });
            return;
        };
        if ply == 0 && self.only_if_lost && value == Value::Win {
            return;
        }
        let mut spreads = false;
        let next: Vec<(Move, Option<Known>)> = match value {
            Value::Win if spread => self.winning_moves(pos, None, keep),
            Value::Win => self.winning_moves(pos, tables_move, keep),
            Value::Loss | Value::Draw => {
                let played = self.resist(pos, ply, value, tables_move);
                spreads = self.spreads(pos, ply, value);
                let moves = if spreads {
                    pos.legal_moves().iter().copied().collect()
                } else {
                    Vec::from_iter(played)
                };
                moves.into_iter().map(|mv| (mv, None)).collect()
            }
        };
        self.line.push(*pos);
        for &(mv, known) in &next {
            let after = pos.play_unchecked(mv);
            self.visit(&after, ply + 1, Vec::new(), known, spreads);
        }
        self.line.pop();
        if spreads && !self.stop.is_raised() {
            let moves: Vec<Move> = next.iter().map(|&(mv, _)| mv).collect();
            self.lead_in(pos, ply, &moves);
        }
    }

    /// The positions before the one visited where `side` was to move: a
    /// model's earlier turns of this game.
    fn turns_of(&self, side: Color) -> Vec<Position> {
        self.line
            .iter()
            .filter(|p| p.side_to_move() == side)
            .copied()
            .collect()
    }

    /// The position's value for the side to move and a move keeping it:
    /// the tables', else the solver's.
    fn value(&mut self, pos: &Position) -> Option<Known> {
        if let Some(p) = proofs::known(pos) {
            return Some((p.value, p.line.first().copied()));
        }
        let limits = SolveLimits {
            nodes: None,
            movetime_ms: Some(self.plan.proof_ms),
        };
        let p = self.solver.decide(pos, &limits, self.stop)?;
        Some((p.value, p.line.first().copied()))
    }

    /// The winner's moves a strong opponent may play: `keep` (a root's
    /// moves), the tables' move and the model's choice, each proven to keep
    /// the win, with what that proof found of the position after it.
    fn winning_moves(
        &mut self,
        pos: &Position,
        tables: Option<Move>,
        keep: Vec<Move>,
    ) -> Vec<(Move, Option<Known>)> {
        let mut moves = keep;
        moves.extend(tables);
        let earlier = self.turns_of(pos.side_to_move());
        let model = resist::model_best(pos, &earlier, self.opponent, self.stop);
        if let Some(m) = model {
            self.model_replies.insert(*pos, m);
        }
        moves.extend(model);
        let mut out: Vec<(Move, Option<Known>)> = Vec::new();
        for mv in moves {
            if out.iter().any(|(m, _)| *m == mv) || !pos.is_legal(mv) {
                continue;
            }
            let after = pos.play_unchecked(mv);
            if after.outcome().is_some() {
                out.push((mv, None));
            } else if let Some(known) = self.value(&after)
                && known.0 == Value::Loss
            {
                out.push((mv, Some(known)));
            }
        }
        out
    }

    /// The trap set in `pos` (chosen now unless the table has this model's,
    /// or notes that no move fooled it), else the move the tables or the
    /// solver keep the value with.
    fn resist(
        &mut self,
        pos: &Position,
        ply: u32,
        value: Value,
        tables: Option<Move>,
    ) -> Option<Move> {
        // This model's own trap here, not its mirror's: an engine's search
        // is not the same in a mirrored position.
        // A trap learned from the opponent's own games outweighs any model.
        if let Some(t) = self.table.written_for(pos)
            && ((t.by == self.opponent.name() && t.fools.len() >= self.plan.again_below)
                || t.learned())
        {
            return Some(t.mv);
        }
        let held = self.table.get(pos);
        if self.table.found_nothing(pos, self.opponent.name()) {
            return held.map(|t| t.mv).or(tables);
        }
        let clock = Clock::since(Instant::now());
        let deadline = self.plan.choice_ms;
        let earlier = self.turns_of(!pos.side_to_move());
        let assessed = resist::assess(
            self.solver,
            pos,
            value,
            self.opponent,
            &earlier,
            deadline,
            &clock,
            self.stop,
        );
        let candidates = assessed.candidates;
        let chosen = resist::pick(&candidates, self.opponent.trap_rule()).map(|c| traps::Trap {
            value,
            mv: c.mv,
            reply: c.reply(),
            fools: c
                .fooled_at
                .iter()
                .map(|&l| self.opponent.label(l))
                .collect(),
            by: self.opponent.name().to_string(),
            lead: false,
        });
        match &chosen {
            Some(t) => self.table.replace(*pos, t.clone()),
            // Only where the model answered everywhere and every answer was
            // judged: a run cut short (by time, a fault or Ctrl-C) asks again.
            None if assessed.complete => {
                self.table.note_nothing(*pos, value, self.opponent.name());
            }
            None => {}
        }
        (self.report)(Event::Assessed {
            pos,
            ply,
            value,
            candidates: &candidates,
            chosen: chosen.as_ref(),
            table: self.table,
        });
        chosen.or(held).map(|t| t.mv).or(tables)
    }
}

mod lead;
#[cfg(test)]
mod tests;

//! Lead-ins ([`super::Plan::lead_ins`]): where a lost position fools the
//! model at no move, the walk spreads over every move, and the move whose
//! reply by the model reaches its trap a move later is set to lead there.

use super::{Event, Walk};
use crate::proofs::traps;
use crate::rules::{Move, Position};
use crate::solver::Value;

impl Walk<'_> {
    /// Whether the walk spreads over every move of `pos` (worth `value` to
    /// the side to move) to look for a lead-in: the plan asks for them,
    /// the position is lost, a trap two plies on is still within the plan,
    /// and this model was asked here, fooled at no move, and has no trap or
    /// lead-in of its own here (a resumed walk follows its lead-in).
    pub(super) fn spreads(&self, pos: &Position, ply: u32, value: Value) -> bool {
        let name = self.opponent.name();
        self.plan.lead_ins
            && value == Value::Loss
            && ply + 2 < self.plan.plies
            && self.table.found_nothing(pos, name)
            && self.table.written_for(pos).is_none_or(|t| t.by != name)
    }

    /// After the walk spread over `moves` of the lost `pos`: the move whose
    /// reply by the model reaches this model's heaviest trap (the first of
    /// equals) is set as a lead-in, unless another engine's trap stands
    /// here (a trap that fools an engine at once beats one a move away;
    /// one the position reads from its file mirror is a guess, and gives
    /// way to a lead seen here).
    /// The own search's trap gives way: against Fairy-Stockfish it fell
    /// far less often than an engine model's. The trap it replaces stays
    /// for the file mirror where the mirror read it: the model's reply the
    /// lead hangs on was seen here.
    pub(super) fn lead_in(&mut self, pos: &Position, ply: u32, moves: &[Move]) {
        let name = self.opponent.name().to_string();
        let best = moves
            .iter()
            .filter_map(|&mv| {
                let child = pos.play_unchecked(mv);
                let reply = *self.model_replies.get(&child)?;
                let trap = self.table.written_for(&child.play_unchecked(reply))?;
                (trap.by == name && !trap.lead).then(|| (mv, reply, trap.fools.clone()))
            })
            .reduce(|best, next| {
                if next.2.len() > best.2.len() {
                    next
                } else {
                    best
                }
            });
        let Some((mv, reply, fools)) = best else {
            return;
        };
        let gives_way = self
            .table
            .written_for(pos)
            .is_none_or(|t| t.by == traps::OWN_MODEL || (t.lead && t.by == name));
        if !gives_way {
            return;
        }
        let lead = traps::Trap {
            value: Value::Loss,
            mv,
            reply,
            fools,
            by: name,
            lead: true,
        };
        self.table.replace_here(*pos, lead.clone());
        (self.report)(Event::Lead {
            pos,
            ply,
            lead: &lead,
            table: self.table,
        });
    }
}

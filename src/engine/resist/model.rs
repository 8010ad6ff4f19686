//! The opponent a trap is set for, as a model ([`Opponent`]), and the
//! engine's own search standing for it ([`SearchModel`]).

use super::{ModelSettings, TrapRule};
use crate::engine::report::Score;
use crate::engine::search;
use crate::engine::time::{Budget, Clock, Limits};
use crate::engine::tt::Table;
use crate::rules::{Move, Position};
use crate::stop::Stop;

/// The model's own small table, fresh for each candidate: what one
/// candidate's search learnt must not colour another's.
pub(super) const MODEL_TABLE_MIB: usize = 1;

/// A model opponent's replies in one position, one for each of its levels,
/// weakest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub replies: Vec<Move>,
    /// Its score at its strongest level, for the side it plays (`Cp(0)`
    /// when it gives none): ties between traps go to the move it likes
    /// least.
    pub score: Score,
    /// The nodes it searched.
    pub nodes: u64,
}

/// The opponent a trap is set for, as a model: its reply in a position at
/// each of its levels (search depths, node counts, tries), weakest first.
pub trait Opponent {
    /// Its name in the traps table (`pawnrace` for the engine's own search).
    fn name(&self) -> &str;
    /// What its level `level` (from 1) is, as the table writes it: a depth,
    /// a node count, a try's number.
    fn label(&self, level: u32) -> u32;
    /// What a trap for it is, and what it weighs
    /// ([`super::Candidate::weight`]).
    fn trap_rule(&self) -> TrapRule;
    /// Its replies in `pos` (the opponent to move there), `None` when
    /// `deadline_ms` on `clock` came first or `stop` was raised. `earlier`
    /// are the game's positions before `pos` where it was to move, oldest
    /// first: a model that plays as in a game searches them first, as an
    /// engine in a match has, its table still holding them.
    fn replies(
        &mut self,
        pos: &Position,
        earlier: &[Position],
        deadline_ms: u64,
        clock: &Clock,
        stop: &Stop,
    ) -> Option<Seen>;
}

/// The engine's own search as the model opponent: its best reply at each
/// depth to `settings.depth`, in `settings.nodes`, with a small table
/// cleared for each position (what one candidate's search learnt must not
/// colour another's).
pub struct SearchModel {
    settings: ModelSettings,
    table: Table,
}

impl SearchModel {
    pub fn new(settings: ModelSettings) -> SearchModel {
        SearchModel {
            settings,
            table: Table::new(MODEL_TABLE_MIB),
        }
    }
}

impl Opponent for SearchModel {
    fn name(&self) -> &str {
        crate::proofs::traps::OWN_MODEL
    }

    fn label(&self, level: u32) -> u32 {
        level
    }

    fn trap_rule(&self) -> TrapRule {
        TrapRule::Deepest(self.settings.trap_depth)
    }

    /// Each position from an empty table (`earlier` unused): what one
    /// candidate's search learnt must not colour another's.
    fn replies(
        &mut self,
        pos: &Position,
        _earlier: &[Position],
        deadline_ms: u64,
        clock: &Clock,
        stop: &Stop,
    ) -> Option<Seen> {
        let model = model_replies(
            &mut self.table,
            pos,
            &self.settings,
            clock,
            deadline_ms,
            stop,
        )?;
        Some(Seen {
            replies: model.choices(self.settings.depth).map(|(_, m)| m).collect(),
            score: model.score,
            nodes: model.nodes,
        })
    }
}

/// The model opponent's choices in one position: its best reply at each
/// depth, from 1 to its deepest.
pub(super) struct Model {
    /// The best reply at each completed depth, from depth 1.
    bests: Vec<Move>,
    /// Whether the search ended by proving the result, so that its last
    /// choice stands at every deeper depth too.
    settled: bool,
    /// Its score at the last completed depth, for the side it plays.
    score: Score,
    /// The nodes it searched.
    nodes: u64,
}

impl Model {
    /// The best reply at each depth to `depth`: a settled search's last
    /// stands for the deeper ones.
    pub(super) fn choices(&self, depth: u32) -> impl Iterator<Item = (u32, Move)> + '_ {
        let last = self.bests.last().copied();
        let deeper = if self.settled {
            depth as usize - self.bests.len().min(depth as usize)
        } else {
            0
        };
        let extra = last
            .into_iter()
            .flat_map(move |m| std::iter::repeat_n(m, deeper));
        self.bests
            .iter()
            .copied()
            .chain(extra)
            .enumerate()
            .map(|(i, m)| (i as u32 + 1, m))
    }
}

/// The model's search of `pos` (the opponent to move), `None` when the
/// deadline came first.
pub(super) fn model_replies(
    table: &mut Table,
    pos: &Position,
    settings: &ModelSettings,
    clock: &Clock,
    deadline_ms: u64,
    stop: &Stop,
) -> Option<Model> {
    table.clear();
    let limits = Limits {
        depth: Some(settings.depth),
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let budget = Budget {
        hard_ms: Some(deadline_ms),
        soft_ms: None,
    };
    let mut bests = Vec::new();
    let mut score = Score::Cp(0);
    let result = search::iterate(
        table,
        pos,
        &limits,
        1,
        &budget,
        clock,
        stop,
        &[],
        &mut |info| {
            if let Some(&m) = info.pv.first()
                && info.depth as usize == bests.len() + 1
            {
                bests.push(m);
                score = info.score;
            }
        },
    );
    if budget.past_hard(clock) || stop.is_raised() || bests.is_empty() {
        return None;
    }
    // Ended before its depth and node limits with a mate in view: proven.
    let settled = matches!(result.score, Score::Mate(_)) && (bests.len() as u32) < settings.depth;
    Some(Model {
        bests,
        settled,
        score,
        nodes: result.nodes,
    })
}

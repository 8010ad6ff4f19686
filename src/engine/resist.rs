//! Resisting a proven loss (or holding a proven draw) the practical way:
//! every losing move loses, so choose the one a fallible opponent is most
//! likely to answer wrongly.
//!
//! The opponent is modelled as a searcher ([`Opponent`]): in play the
//! engine's own search, run on the position after each candidate move to
//! increasing depths ([`SearchModel`]); choosing the traps table ahead of
//! time, another engine may stand for it, at increasing node counts. Where
//! its choice of reply at some depth (level) is proven to throw the
//! opponent's result away (a win to a draw or a loss, a draw to a loss),
//! the candidate is a trap at that depth. Deeper misjudgements weigh more,
//! since a stronger opponent searches deeper: a move that fools only a
//! two-ply search fools no real engine. Whether a reply is an error is
//! proven, from the tables or the solver, never guessed; a reply that
//! cannot be proven in time counts as no error.
//!
//! The loser's "longest loss" is a poor proxy for chances: a searcher errs
//! where the only winning replies are quiet, deep or counter-intuitive (a
//! tempo move instead of a push), not where the loss is long. The longest
//! loss remains the choice when no candidate fools the model, and is what
//! [`Resistance::Longest`] always plays.
//!
//! A proven draw is held the same way, among the moves proven to keep it
//! only: a trap never costs a proven result.

mod model;

pub use model::{Opponent, SearchModel, Seen};

use super::report::{Score, from_score};
use super::time::Clock;
use crate::proofs;
use crate::rules::{Move, Position};
use crate::solver::{SolveLimits, Solver, Value};
use crate::stop::Stop;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// How the engine plays a position proven lost, or drawn at best (the
/// `Resistance` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Resistance {
    /// The move a fallible opponent is likeliest to answer wrongly, among
    /// those keeping the proven value (the longest loss when none sets a
    /// trap).
    #[default]
    Practical,
    /// The longest loss (any drawing move for a draw), as a perfect
    /// opponent would make it last.
    Longest,
}

impl Resistance {
    pub const ALL: [Resistance; 2] = [Resistance::Practical, Resistance::Longest];

    pub fn word(self) -> &'static str {
        match self {
            Resistance::Practical => "practical",
            Resistance::Longest => "longest",
        }
    }
}

impl fmt::Display for Resistance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for Resistance {
    type Err = String;

    fn from_str(s: &str) -> Result<Resistance, String> {
        Resistance::ALL
            .into_iter()
            .find(|r| s.trim().eq_ignore_ascii_case(r.word()))
            .ok_or_else(|| "Resistance takes practical or longest".to_string())
    }
}

/// How hard the model opponent looks, and how deep a misjudgement must be
/// to count as a trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelSettings {
    /// The deepest the model searches.
    pub depth: u32,
    /// Its nodes per candidate move, the same for each so that their
    /// depths compare.
    pub nodes: u64,
    /// A trap must fool the model at its deepest search, and that at least
    /// this deep.
    pub trap_depth: u32,
}

impl ModelSettings {
    /// In play: depths to 14 (the race is short: a pawn moves at most six
    /// times, and the engines the model stands for see far) in 50,000
    /// nodes, about 10 ms of one core. Trap depth 8: counting any depth's
    /// error, against Fairy-Stockfish at 1 s a move the engine turned 20
    /// of 62 proven-lost games into wins where the longest loss turned 28
    /// of 59; a move that fools a shallow search gives up length for
    /// nothing against an engine that sees far.
    pub const IN_PLAY: ModelSettings = ModelSettings {
        depth: 14,
        nodes: 50_000,
        trap_depth: 8,
    };
}

/// The chosen move and how it fools the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trap {
    pub mv: Move,
    /// The levels (search depths) at which the model's reply is an error.
    pub fooled_at: Vec<u32>,
    /// The model's reply at its deepest search: an error.
    pub reply: Move,
    /// Nodes the choice cost: the solver's and the model's.
    pub nodes: u64,
}

/// One candidate move as the model sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub mv: Move,
    /// The model's reply at each of its levels, weakest first.
    pub replies: Vec<Move>,
    /// The levels (from 1) at which that reply is proven an error.
    pub fooled_at: Vec<u32>,
    /// The model's score at its deepest search, for the side it plays.
    pub score: Score,
}

/// What makes a candidate a trap for a model, and what it weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrapRule {
    /// The model's levels are ever deeper searches: a trap fools the
    /// deepest, and that at least this deep; it weighs the squares of the
    /// depths it fools (deeper misjudgements weigh more).
    Deepest(u32),
    /// The levels are tries of one search whose answer varies (another
    /// engine at a move time): a trap fools any, and weighs the tries it
    /// fools.
    AnyTry,
}

impl Candidate {
    /// The model's reply at the last level it is an error at, else at its
    /// deepest (the candidate itself when the model saw no level, which
    /// [`Candidate::weight`] makes no trap).
    pub fn reply(&self) -> Move {
        let level = self
            .fooled_at
            .last()
            .map_or(self.replies.len(), |&l| l as usize);
        level
            .checked_sub(1)
            .and_then(|i| self.replies.get(i))
            .copied()
            .unwrap_or(self.mv)
    }

    /// The trap's weight under `rule`; 0 when it is no trap.
    pub fn weight(&self, rule: TrapRule) -> u64 {
        match rule {
            TrapRule::Deepest(trap_depth) => {
                let deepest = self.replies.len() as u32;
                if deepest < trap_depth || self.fooled_at.last() != Some(&deepest) {
                    return 0;
                }
                self.fooled_at.iter().map(|&d| u64::from(d * d)).sum()
            }
            TrapRule::AnyTry => self.fooled_at.len() as u64,
        }
    }
}

/// Among `pos`'s moves that keep `value` (the position's proven value, a
/// loss or a draw), the one whose position fools the model opponent, the
/// engine's own search with `model`'s settings, most (see the module's
/// documentation), deciding until `deadline_ms` on `clock`. `None` when no
/// candidate is a trap, the position is won (nothing to resist), or the
/// time ran out first.
pub fn choose(
    solver: &mut Solver,
    pos: &Position,
    value: Value,
    model: &ModelSettings,
    deadline_ms: u64,
    clock: &Clock,
    stop: &Stop,
) -> Option<Trap> {
    let mut opponent = SearchModel::new(*model);
    let Assessment {
        candidates, nodes, ..
    } = assess(
        solver,
        pos,
        value,
        &mut opponent,
        &[],
        deadline_ms,
        clock,
        stop,
    );
    pick(&candidates, TrapRule::Deepest(model.trap_depth)).map(|c| Trap {
        mv: c.mv,
        reply: c.reply(),
        fooled_at: c.fooled_at.clone(),
        nodes,
    })
}

/// The trap among `candidates`: the heaviest ([`Candidate::weight`]); ties
/// go to the move whose position the model likes least for itself, where it
/// is the likelier to go astray, then to the first. `None` when none is a
/// trap.
pub fn pick(candidates: &[Candidate], rule: TrapRule) -> Option<&Candidate> {
    candidates
        .iter()
        .map(|c| ((c.weight(rule), -from_score(c.score)), c))
        .filter(|((weight, _), _)| *weight > 0)
        .reduce(|best, next| if next.0 > best.0 { next } else { best })
        .map(|(_, c)| c)
}

/// The model's move in `pos` at its strongest level (for the side to move
/// there; `earlier` as [`Opponent::replies`] takes it), `None` when stopped.
pub fn model_best(
    pos: &Position,
    earlier: &[Position],
    opponent: &mut dyn Opponent,
    stop: &Stop,
) -> Option<Move> {
    let clock = Clock::since(std::time::Instant::now());
    let seen = opponent.replies(pos, earlier, u64::MAX, &clock, stop)?;
    seen.replies.last().copied()
}

/// What [`assess`] found.
pub struct Assessment {
    /// Every move of the position keeping its value, in move order, with
    /// the model's replies and which of them are proven errors, as far as
    /// the time allowed.
    pub candidates: Vec<Candidate>,
    /// The nodes that cost (the solver's and the model's).
    pub nodes: u64,
    /// Whether every move was looked at and every reply judged: then no
    /// trap among the candidates means no move fools the model.
    pub complete: bool,
}

/// Every move of `pos` keeping `value` (a loss or a draw) with
/// `opponent`'s replies and which of them are proven errors.
/// `earlier`: the game's positions before `pos` where the opponent was to
/// move, oldest first ([`Opponent::replies`]). Nothing for a won position
/// or one with a single move.
#[allow(clippy::too_many_arguments)]
pub fn assess(
    solver: &mut Solver,
    pos: &Position,
    value: Value,
    opponent: &mut dyn Opponent,
    earlier: &[Position],
    deadline_ms: u64,
    clock: &Clock,
    stop: &Stop,
) -> Assessment {
    let nothing = Assessment {
        candidates: Vec::new(),
        nodes: 0,
        complete: true,
    };
    let mistake = match value {
        Value::Win => return nothing,
        Value::Draw => Value::Win,
        Value::Loss => Value::Draw,
    };
    let moves = pos.legal_moves();
    if moves.len() < 2 {
        return nothing;
    }
    let mut judge = Judge {
        solver,
        clock,
        deadline_ms,
        stop,
        nodes: 0,
        known: HashMap::new(),
    };
    let mut out = Vec::new();
    let mut model_nodes = 0;
    let mut complete = true;
    for &mv in moves.iter() {
        if judge.out_of_time() {
            complete = false;
            break;
        }
        let after = pos.play_unchecked(mv);
        // A draw is held only by moves proven to hold it.
        if value == Value::Draw {
            match judge.at_least(&after, Value::Win) {
                Some(false) => {}
                Some(true) => continue,
                None => {
                    complete = false;
                    continue;
                }
            }
        }
        let Some(seen) = opponent.replies(&after, earlier, deadline_ms, clock, stop) else {
            complete = false;
            break;
        };
        model_nodes += seen.nodes;
        let mut fooled_at = Vec::new();
        for (level, &reply) in (1..).zip(&seen.replies) {
            // An illegal reply (another engine's) is no error of the game's.
            if !after.is_legal(reply) {
                continue;
            }
            match judge.at_least(&after.play_unchecked(reply), mistake) {
                Some(true) => fooled_at.push(level),
                Some(false) => {}
                None => complete = false,
            }
        }
        out.push(Candidate {
            mv,
            replies: seen.replies,
            fooled_at,
            score: seen.score,
        });
    }
    Assessment {
        candidates: out,
        nodes: judge.nodes + model_nodes,
        complete: complete && !stop.is_raised(),
    }
}

/// Proves what the replies are worth, each position once, within the
/// choice's deadline.
struct Judge<'a> {
    solver: &'a mut Solver,
    clock: &'a Clock,
    deadline_ms: u64,
    stop: &'a Stop,
    nodes: u64,
    known: HashMap<(u64, Value), Option<bool>>,
}

impl Judge<'_> {
    fn out_of_time(&self) -> bool {
        self.stop.is_raised() || self.clock.elapsed_ms() >= self.deadline_ms
    }

    /// Whether the side to move in `pos` gets at least `value`: from the
    /// tables, else the solver; `None` when not proven in time.
    fn at_least(&mut self, pos: &Position, value: Value) -> Option<bool> {
        if let Some(&known) = self.known.get(&(pos.hash(), value)) {
            return known;
        }
        let answer = match proofs::known(pos) {
            Some(p) => Some(p.value >= value),
            None if self.out_of_time() => None,
            None => {
                let limits = SolveLimits {
                    nodes: None,
                    movetime_ms: Some(self.clock.left_ms(self.deadline_ms).max(1)),
                };
                let answer = self.solver.at_least(pos, value, &limits, self.stop);
                self.nodes += self.solver.last_nodes();
                answer
            }
        };
        if answer.is_some() {
            self.known.insert((pos.hash(), value), answer);
        }
        answer
    }
}

#[cfg(test)]
mod tests;

//! Another engine as the traps' model opponent (`pawnrace traps --engine`):
//! its `bestmove` at each of a few node counts, weakest first, or in a few
//! tries at one move time. A node count, unlike a move time, gives the same
//! answer on any machine, and a trap that fools the engine at several
//! counts still fools it when a move time gives it somewhat more or fewer
//! nodes. Tries at a move time ask it as a match on this machine does,
//! where its own first move already varies from run to run: a move is a
//! trap where any try errs, and weighs more the more tries err
//! ([`TrapRule::AnyTry`]).
//!
//! Each reply is asked in a new game (`ucinewgame`): what one candidate's
//! search left in the engine's table must not colour the next, and the
//! table's choice is then reproducible. In a match, though, the engine's
//! table still holds its own earlier searches of the game, and they see
//! past many traps a fresh search falls for
//! (`clients/analysis/traps_met.py --engine`); `in_game` asks as a game
//! does: the engine's earlier turns on the walk's line are searched first,
//! at the same node count.

use pawnrace::engine::{Clock, Opponent, Score, Seen, TrapRule};
use pawnrace::rules::{Move, Position, parse_move};
use pawnrace::stop::Stop;
use pawnrace::tournament::{EngineOption, Launch, Player, Start, UciPlayer};
use std::time::Duration;

/// The longest one search may take before the engine counts as hung.
const PATIENCE: Duration = Duration::from_secs(120);

/// How the engine is asked at each of its levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Levels {
    /// One search at each node count (ascending).
    Nodes(Vec<u32>),
    /// `tries` searches, each of `ms` milliseconds; the table numbers
    /// them 1, 2, ...
    MoveTime { ms: u32, tries: u32 },
}

impl Levels {
    fn count(&self) -> usize {
        match self {
            Levels::Nodes(n) => n.len(),
            Levels::MoveTime { tries, .. } => *tries as usize,
        }
    }

    /// The `go` arguments of level `level` (from 0).
    fn go_args(&self, level: usize) -> String {
        match self {
            Levels::Nodes(n) => format!("nodes {}", n[level]),
            Levels::MoveTime { ms, .. } => format!("movetime {ms}"),
        }
    }

    /// The nodes asked for at `level` (from 0), for the walk's count; a
    /// move time's are not known (0).
    fn nodes(&self, level: usize) -> u64 {
        match self {
            Levels::Nodes(n) => u64::from(n[level]),
            Levels::MoveTime { .. } => 0,
        }
    }
}

pub struct UciModel {
    name: String,
    player: UciPlayer,
    levels: Levels,
    /// Whether each reply is asked after the engine's earlier turns.
    in_game: bool,
    /// What went wrong with the engine, if anything (the walk then stops).
    fault: Option<String>,
}

impl UciModel {
    /// The engine `argv` with `options`, answering at `levels` (node
    /// counts ascending and above 0, or tries above 0), as in a game where
    /// `in_game`.
    pub fn new(
        name: String,
        argv: Vec<String>,
        options: Vec<EngineOption>,
        levels: Levels,
        in_game: bool,
    ) -> UciModel {
        UciModel {
            name,
            player: UciPlayer::new(Launch::Command(argv), options, PATIENCE),
            levels,
            in_game,
            fault: None,
        }
    }

    /// The engine's fault that stopped the walk, if any.
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    /// The engine's move in `pos` with `go_args`, in a new game; where
    /// `in_game`, after it searched each of `earlier` (its turns before,
    /// oldest first) the same way.
    fn best(
        &mut self,
        pos: &Position,
        earlier: &[Position],
        go_args: &str,
    ) -> Result<Move, String> {
        self.player
            .start_game(pos.side_to_move())
            .map_err(|f| f.to_string())?;
        if self.in_game {
            for at in earlier {
                self.ask(at, go_args)?;
            }
        }
        self.ask(pos, go_args)
    }

    /// The engine's move in `at` with `go_args`, in the game as it stands.
    fn ask(&mut self, at: &Position, go_args: &str) -> Result<Move, String> {
        let start = Start {
            position: *at,
            gaps: None,
        };
        let answer = self
            .player
            .go(&start, &[], go_args, PATIENCE)
            .map_err(|f| f.to_string())?;
        parse_move(at, &answer.text).map_err(|e| {
            format!(
                "its move '{}' in {} does not read: {e}",
                answer.text,
                at.fen()
            )
        })
    }
}

impl Opponent for UciModel {
    fn name(&self) -> &str {
        &self.name
    }

    fn label(&self, level: u32) -> u32 {
        match &self.levels {
            Levels::Nodes(n) => n[level as usize - 1],
            Levels::MoveTime { .. } => level,
        }
    }

    fn trap_rule(&self) -> TrapRule {
        match &self.levels {
            Levels::Nodes(n) => TrapRule::Deepest(n.len() as u32),
            Levels::MoveTime { .. } => TrapRule::AnyTry,
        }
    }

    fn replies(
        &mut self,
        pos: &Position,
        earlier: &[Position],
        deadline_ms: u64,
        clock: &Clock,
        stop: &Stop,
    ) -> Option<Seen> {
        let mut replies = Vec::new();
        for level in 0..self.levels.count() {
            if stop.is_raised() || clock.elapsed_ms() >= deadline_ms {
                return None;
            }
            match self.best(pos, earlier, &self.levels.go_args(level)) {
                Ok(m) => replies.push(m),
                Err(e) => {
                    // The run reports it once the walk has stopped.
                    self.fault = Some(e);
                    stop.raise();
                    return None;
                }
            }
        }
        let asked = if self.in_game { earlier.len() + 1 } else { 1 };
        let nodes = (0..self.levels.count())
            .map(|l| self.levels.nodes(l))
            .sum::<u64>()
            * asked as u64;
        Some(Seen {
            replies,
            score: Score::Cp(0),
            nodes,
        })
    }
}

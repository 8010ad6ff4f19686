//! Another engine as the traps' model opponent (`pawnrace traps --engine`):
//! its `bestmove` at each of a few node counts, weakest first. A node
//! count, unlike a move time, gives the same answer on any machine, and a
//! trap that fools the engine at several counts still fools it when a move
//! time gives it somewhat more or fewer nodes.
//!
//! Each reply is asked in a new game (`ucinewgame`): what one candidate's
//! search left in the engine's table must not colour the next, and the
//! table's choice is then reproducible. In a match, though, the engine's
//! table still holds its own earlier searches of the game, and they see
//! past many traps a fresh search falls for
//! (`clients/analysis/traps_met.py --engine`); `in_game` asks as a game
//! does: the engine's earlier turns on the walk's line are searched first,
//! at the same node count.

use pawnrace::engine::{Clock, Opponent, Score, Seen};
use pawnrace::rules::{Move, Position, parse_move};
use pawnrace::stop::Stop;
use pawnrace::tournament::{EngineOption, Launch, Player, Start, UciPlayer};
use std::time::Duration;

/// The longest one search may take before the engine counts as hung.
const PATIENCE: Duration = Duration::from_secs(120);

pub struct UciModel {
    name: String,
    player: UciPlayer,
    /// Its levels: node counts, ascending.
    nodes: Vec<u32>,
    /// Whether each reply is asked after the engine's earlier turns.
    in_game: bool,
    /// What went wrong with the engine, if anything (the walk then stops).
    fault: Option<String>,
}

impl UciModel {
    /// The engine `argv` with `options`, answering at `nodes` (ascending,
    /// each above 0), as in a game where `in_game`.
    pub fn new(
        name: String,
        argv: Vec<String>,
        options: Vec<EngineOption>,
        nodes: Vec<u32>,
        in_game: bool,
    ) -> UciModel {
        UciModel {
            name,
            player: UciPlayer::new(Launch::Command(argv), options, PATIENCE),
            nodes,
            in_game,
            fault: None,
        }
    }

    /// The engine's fault that stopped the walk, if any.
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    /// The engine's move in `pos` at `nodes`, in a new game; where
    /// `in_game`, after it searched each of `earlier` (its turns before,
    /// oldest first) at the same count.
    fn best(&mut self, pos: &Position, earlier: &[Position], nodes: u32) -> Result<Move, String> {
        self.player
            .start_game(pos.side_to_move())
            .map_err(|f| f.to_string())?;
        if self.in_game {
            for at in earlier {
                self.ask(at, nodes)?;
            }
        }
        self.ask(pos, nodes)
    }

    /// The engine's move in `at` at `nodes`, in the game as it stands.
    fn ask(&mut self, at: &Position, nodes: u32) -> Result<Move, String> {
        let start = Start {
            position: *at,
            gaps: None,
        };
        let answer = self
            .player
            .go(&start, &[], &format!("nodes {nodes}"), PATIENCE)
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
        self.nodes[level as usize - 1]
    }

    fn trap_level(&self) -> u32 {
        self.nodes.len() as u32
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
        for level in 0..self.nodes.len() {
            let n = self.nodes[level];
            if stop.is_raised() || clock.elapsed_ms() >= deadline_ms {
                return None;
            }
            match self.best(pos, earlier, n) {
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
        let nodes = self.nodes.iter().map(|&n| u64::from(n)).sum::<u64>() * asked as u64;
        Some(Seen {
            replies,
            score: Score::Cp(0),
            nodes,
        })
    }
}

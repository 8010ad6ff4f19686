//! A session's state: the game, the engine, a running job. Lines in, lines out.
//!
//! Every command gets exactly one final line. Long work (a search, perft)
//! leaves as a [`Job`] for the server to run elsewhere; while it runs the
//! session still answers, and a `stop` or `quit` gets its reply after the
//! job's, so that the order of final lines never depends on timing.

mod chess;
mod game;
mod job;
mod options;
mod queue;
mod running;
mod search;
mod uci;

use job::Work;
pub use job::{Job, JobDone, JobTerms};
use running::{Running, answers_while_busy};

use super::command::{Command, GameKind, Verb, parse};
use super::reply::{Done, ErrorCode, Refusal, Reply, board_lines};
use crate::engine::{DEFAULT_MOVE_OVERHEAD_MS, Engine, EngineSettings, Limits, Resistance};
use crate::memory::MemoryBudget;

use crate::rules::{Game, Gaps, Position, RuleSet, Variant};
use search::{analyse_limits, explore_limits};
use std::collections::VecDeque;
use std::sync::Arc;

/// The most time `Move Overhead` may keep back, ms.
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// The table size a session starts with unless its server says otherwise,
/// MiB: what a move at move time searches and proves with.
pub const DEFAULT_HASH_MIB: usize = 16;

/// Settings a server gives every session it starts.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// Transposition table size a session starts with, MiB.
    pub hash_mib: usize,
    /// The most `setoption name Hash` may ask for, MiB.
    pub max_hash_mib: usize,
    /// What every session's tables together may take.
    pub memory: Arc<MemoryBudget>,
    /// Whether the session may ask for files on the server's machine
    /// (`setoption name VariantPath`): only for the engine on stdin and
    /// stdout, never for a network peer.
    pub local_files: bool,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            hash_mib: DEFAULT_HASH_MIB,
            max_hash_mib: 1024,
            memory: MemoryBudget::unlimited(),
            local_files: false,
        }
    }
}

/// What the server must do after handing the session a line or a finished job.
#[derive(Debug)]
pub enum Action {
    /// Write these lines, in order. Empty when the reply waits for the
    /// running job (a `stop` or `quit` during a search).
    Reply(Vec<Reply>),
    /// Run this job off the async workers and hand its result to
    /// [`Session::finish`]. Commands keep arriving meanwhile.
    Run(Box<Job>),
    /// Write these lines, then end the session.
    Quit(Vec<Reply>),
    /// Read this file (at most [`variant_ini::MAX_INI_BYTES`]) and hand its
    /// text or the error to [`Session::file_read`]: the protocol does no
    /// I/O of its own.
    ///
    /// [`variant_ini::MAX_INI_BYTES`]: crate::protocol::variant_ini::MAX_INI_BYTES
    ReadFile(String),
}

/// Where the session's game stands.
enum State {
    /// A rule set with gaps, before black has chosen them.
    AwaitingGaps(RuleSet),
    Playing(Game),
    /// The chess validator's game: every position so far, the current last,
    /// so that `undo` can step back.
    Chess(Vec<crate::chess::Game>),
    /// The last `position` was refused (the reason kept): the game it was
    /// meant to replace is gone too, so that a client that never reads
    /// `error` lines (a UCI GUI) gets no move for the wrong position.
    Refused(RuleSet, String),
}

pub struct Session {
    options: SessionOptions,
    hash_mib: usize,
    /// The solver's threads at move time (`setoption name Threads`).
    threads: usize,
    /// Lines a search reports (`setoption name MultiPV`).
    multipv: u32,
    move_overhead_ms: u64,
    /// How a proven loss is played out (`setoption name Resistance`).
    resistance: Resistance,
    state: State,
    /// Made on first use, so that idle sessions hold no table; away while a
    /// job has it. Its solver serves `solve` too, and its table outlives one
    /// solve, so that solving the positions of one game in turn is cheap.
    /// A new game, or the end of one, lets it go: its tables are made
    /// afresh for the next search.
    engine: Option<Box<Engine>>,
    running: Option<Running>,
    /// Lines that arrived while a job ran, to handle in order once it ends
    /// (see `queue`).
    queued: VecDeque<String>,
    /// The input has ended (or `quit` came with lines still queued): what
    /// is queued still runs, but a job that would never end on its own is
    /// stopped as it starts.
    ending: bool,
    /// `uci` was sent: the session speaks UCI (see `uci`).
    uci: bool,
    /// Positions are written as Fairy-Stockfish's six-field FEN (after
    /// `setoption name UCI_Variant value pawnrace`, Fairy-Stockfish's name,
    /// or `setoption name FEN value fairy`), not the house text.
    fairy_fen: bool,
    /// The move number of the game's first position, from a six-field FEN.
    first_move_number: u32,
    /// `UCI_Variant` was set to `pawnrace`, Fairy-Stockfish's name: the
    /// peer is a tool of the variant world, and `position startpos` with no
    /// gaps means the start its variants file defines.
    fairy_variant: bool,
    /// The `Gaps` option: what `position startpos` without gaps uses.
    gaps_option: Option<Gaps>,
    /// The `UCI_Variant` option: the game `newgame` (`ucinewgame`) without
    /// a name starts.
    variant: Variant,
}

/// A command's lines, or why the session will not carry it out.
type Answer = Result<Vec<Reply>, Refusal>;

fn fail(code: ErrorCode, detail: impl Into<String>) -> Refusal {
    Refusal::new(code, detail)
}

impl Session {
    pub fn new(options: SessionOptions) -> Session {
        Session {
            hash_mib: options.hash_mib,
            threads: 1,
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            resistance: Resistance::default(),
            options,
            state: State::AwaitingGaps(RuleSet::PAWNRACE),
            engine: None,
            running: None,
            queued: VecDeque::new(),
            ending: false,
            uci: false,
            fairy_fen: false,
            first_move_number: 1,
            fairy_variant: false,
            gaps_option: None,
            variant: Variant::PawnRace,
        }
    }

    /// Whether a job is running.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the running job has been told to stop (`stop`, `quit`, the
    /// end of input for an unbounded job, [`Session::abandon`]). A stopped
    /// job returns at once, so it need not wait its turn behind other
    /// sessions' searches.
    pub fn stop_requested(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.stop.is_raised())
    }

    /// Raises the running job's stop flag. Its result must still be handed
    /// to `finish`.
    fn interrupt(&self) {
        if let Some(running) = &self.running {
            running.stop.raise();
        }
    }

    /// Handles one input line (without its line ending). While a job runs,
    /// `isready`, `stop`, `quit` and `ponderhit` are answered at once and
    /// every other line waits its turn (see [`Session::next_queued`]).
    pub fn handle_line(&mut self, line: &str) -> Action {
        let verb = Verb::of_line(line);
        // A line that waits its turn changes the dialect when its turn
        // comes, as it would have typed then: a piped script gets what a
        // person typing gets.
        if self.running.is_none() {
            self.note_dialect(line, verb);
        }
        let action = self.handle(line, verb);
        let action = self.end_refused_go(verb, action);
        self.speak(verb, action)
    }

    fn handle(&mut self, line: &str, verb: Option<Verb>) -> Action {
        let parsed = parse(line);
        if self.running.is_some() {
            return match parsed {
                Ok(None) => Action::Reply(Vec::new()),
                Ok(Some(command)) if answers_while_busy(&command) => self.while_busy(&command),
                _ => self.queue(line),
            };
        }
        let command = match parsed {
            Ok(Some(c)) => c,
            Ok(None) => return Action::Reply(Vec::new()),
            Err(e) => {
                self.refuse_position(verb, &e.detail);
                return Action::Reply(vec![e.into()]);
            }
        };
        if let Some(reply) = self.chess_command(&command) {
            return Action::Reply(reply.unwrap_or_else(|e| vec![e.into()]));
        }
        let reply = match command {
            Command::Uci => Ok(self.greeting()),
            Command::IsReady => Ok(vec![Reply::ReadyOk]),
            Command::Help => Ok(help()),
            Command::Quit => return Action::Quit(vec![Done::Bye.into()]),
            Command::Stop => Ok(vec![Done::Stop.into()]),
            Command::PonderHit => Err(fail(ErrorCode::WrongState, "no go ponder is running")),
            Command::SetOption { name, value } if options::is_variant_path(&name) => {
                return self.variant_path(value.as_deref());
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame(kind) => {
                Ok(self.new_game(kind.unwrap_or(GameKind::Pawn(self.variant))))
            }
            Command::Gaps(gaps) => self.choose_gaps(gaps),
            Command::Position { setup, moves } => self.position(setup, &moves),
            Command::Move(text) => self.play(&text),
            Command::Undo => self.undo(),
            Command::Moves => self.moves(),
            Command::Board => self.game().map(|g| {
                let mut lines = board_lines(g, &self.fen_of(g));
                lines.push(Done::Board.into());
                lines
            }),
            Command::Fen => self.game().map(|g| vec![Done::Fen(self.fen_of(g)).into()]),
            Command::Go(limits, searchmoves) => match self.root_moves(&searchmoves) {
                Ok(moves) => {
                    return self.go(Limits {
                        searchmoves: moves,
                        ..limits
                    });
                }
                Err(e) => Err(e),
            },
            // The empty sequence: nothing to run.
            Command::Perft(0) => self.game().map(|_| vec![Done::Nodes(1).into()]),
            Command::Solve(limits) => match self.game() {
                Ok(g) => {
                    let pos = *g.position();
                    return self.start(Work::Solve { pos, limits });
                }
                Err(e) => Err(e),
            },
            Command::Analyse(limits) => match self.game() {
                Ok(g) => {
                    let (start, moves) = (*g.start(), g.moves().to_vec());
                    return self.start(Work::Analyse {
                        start,
                        moves,
                        limits: analyse_limits(limits),
                    });
                }
                Err(e) => Err(e),
            },
            Command::Explore(limits) => match self.game() {
                Ok(g) => {
                    let pos = *g.position();
                    return self.start(Work::Explore {
                        pos,
                        limits: explore_limits(limits),
                    });
                }
                Err(e) => Err(e),
            },
            Command::Perft(depth) => match self.game() {
                Ok(g) => {
                    return self.start(Work::Perft {
                        pos: *g.position(),
                        depth,
                    });
                }
                Err(e) => Err(e),
            },
        };
        Action::Reply(reply.unwrap_or_else(|e| vec![e.into()]))
    }

    /// The game's position as this session writes positions: the house
    /// text, or Fairy-Stockfish's FEN with the move number.
    fn fen_of(&self, game: &Game) -> String {
        let pos = game.position();
        if !self.fairy_fen {
            return pos.fen();
        }
        let black_first = usize::from(game.start().side_to_move() == crate::rules::Color::Black);
        let moves = (game.moves().len() + black_first) / 2;
        pos.fairy_fen(self.first_move_number.saturating_add(moves as u32))
    }

    /// The session's options as its engine takes them.
    fn engine_settings(&self) -> EngineSettings {
        EngineSettings {
            hash_mib: self.hash_mib,
            threads: self.threads,
            multipv: self.multipv,
            move_overhead_ms: self.move_overhead_ms,
            resistance: self.resistance,
        }
    }

    fn game(&self) -> Result<&Game, Refusal> {
        match &self.state {
            State::Playing(g) => Ok(g),
            State::Refused(_, why) => Err(refused(why)),
            _ => Err(no_position()),
        }
    }

    fn game_mut(&mut self) -> Result<&mut Game, Refusal> {
        match &mut self.state {
            State::Playing(g) => Ok(g),
            State::Refused(_, why) => Err(refused(why)),
            _ => Err(no_position()),
        }
    }

    /// The pawn rules in force. In chess no pawn-game command gets this far
    /// (`chess_command` answers them all), so any answer would do.
    fn rules(&self) -> RuleSet {
        match &self.state {
            State::AwaitingGaps(r) | State::Refused(r, _) => *r,
            State::Playing(g) => *g.rules(),
            State::Chess(_) => RuleSet::PAWNRACE,
        }
    }

    fn new_game(&mut self, kind: GameKind) -> Vec<Reply> {
        // The old game's tables: their memory goes back to the budget.
        self.engine = None;
        self.first_move_number = 1;
        self.state = match kind {
            GameKind::FullChess => State::Chess(vec![crate::chess::Game::chess()]),
            GameKind::Pawn(variant) => {
                let rules = variant.rules();
                match Position::start(rules, None) {
                    Ok(start) => State::Playing(Game::new(start, None)),
                    Err(_) => State::AwaitingGaps(rules),
                }
            }
        };
        let awaiting_gaps = matches!(self.state, State::AwaitingGaps(_));
        vec![
            Done::NewGame {
                game: kind,
                awaiting_gaps,
            }
            .into(),
        ]
    }
}

fn refused(why: &str) -> Refusal {
    fail(
        ErrorCode::WrongState,
        format!("no position: the last position command was refused ({why})"),
    )
}

fn no_position() -> Refusal {
    fail(
        ErrorCode::WrongState,
        "no position yet: black chooses the gaps first (gaps AH), or go lets the engine choose",
    )
}

fn help() -> Vec<Reply> {
    let mut lines: Vec<Reply> = super::command::help()
        .into_iter()
        .map(|(command, what)| Reply::Help { command, what })
        .collect();
    lines.push(Done::Help.into());
    lines
}

#[cfg(test)]
mod tests;

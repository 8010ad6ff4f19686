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
mod search;
mod uci;

use job::{EngineSlot, Finished, Held, Work};
pub use job::{Job, JobDone, JobTerms};

use super::command::{Command, GameKind, HELP, ParseError, parse};
use super::reply::{ErrorCode, board_lines, error};
use crate::engine::{DEFAULT_MOVE_OVERHEAD_MS, Limits};
use crate::memory::MemoryBudget;

use crate::rules::{Game, Gaps, Position, RuleSet, Variant};
use crate::stop::Stop;
use game::file_order;
use search::{analyse_limits, solution_line};
use std::collections::VecDeque;
use std::sync::Arc;

/// The most time `Move Overhead` may keep back, ms.
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// Settings a server gives every session it starts.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// Transposition table size a session starts with, MiB.
    pub hash_mib: usize,
    /// The most `setoption name Hash` may ask for, MiB.
    pub max_hash_mib: usize,
    /// What every session's tables together may take.
    pub memory: Arc<MemoryBudget>,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            hash_mib: 16,
            max_hash_mib: 1024,
            memory: MemoryBudget::unlimited(),
        }
    }
}

/// What the server must do after handing the session a line or a finished job.
#[derive(Debug)]
pub enum Action {
    /// Write these lines, in order. Empty when the reply waits for the
    /// running job (a `stop` or `quit` during a search).
    Reply(Vec<String>),
    /// Run this job off the async workers and hand its result to
    /// [`Session::finish`]. Commands keep arriving meanwhile.
    Run(Box<Job>),
    /// Write these lines, then end the session.
    Quit(Vec<String>),
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

/// A job that is out, and the replies that wait for it.
struct Running {
    stop: Arc<Stop>,
    deferred: Vec<String>,
    quit: bool,
    /// For `go ponder`: the limits of the real search that `ponderhit`
    /// starts, and whether it came.
    ponder: Option<Limits>,
    ponderhit: bool,
    /// It ends on its own (see [`JobTerms::bounded`]).
    bounded: bool,
    /// A UCI `go` before the gaps were chosen: once the engine has chosen
    /// them, the search on these limits follows, so that `go` still ends
    /// in `bestmove`.
    search_after_gaps: Option<Limits>,
}

pub struct Session {
    options: SessionOptions,
    hash_mib: usize,
    /// The solver's threads at move time (`setoption name Threads`).
    threads: usize,
    /// Lines a search reports (`setoption name MultiPV`).
    multipv: u32,
    move_overhead_ms: u64,
    state: State,
    /// Made on first use, so that idle sessions hold no table; away while a
    /// job has it. Its solver serves `solve` too, and its table outlives one
    /// solve, so that solving the positions of one game in turn is cheap.
    /// A new game, or the end of one, lets it go: its tables are made
    /// afresh for the next search.
    engine: Option<Held>,
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
    /// The `Gaps` option: what `position startpos` without gaps uses.
    gaps_option: Option<Gaps>,
    /// The `UCI_Variant` option: the game `newgame` (`ucinewgame`) without
    /// a name starts.
    variant: Variant,
}

type Reply = Result<Vec<String>, ParseError>;

fn fail(code: ErrorCode, detail: impl Into<String>) -> ParseError {
    ParseError {
        code,
        detail: detail.into(),
    }
}

impl Session {
    pub fn new(options: SessionOptions) -> Session {
        Session {
            hash_mib: options.hash_mib,
            threads: 1,
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            options,
            state: State::AwaitingGaps(RuleSet::PAWNRACE),
            engine: None,
            running: None,
            queued: VecDeque::new(),
            ending: false,
            uci: false,
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
        self.note_dialect(line);
        let action = self.handle(line);
        self.speak(Some(line), action)
    }

    fn handle(&mut self, line: &str) -> Action {
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
                self.refuse_position(line, &e.detail);
                return Action::Reply(vec![error(e.code, e.detail)]);
            }
        };
        if let Some(reply) = self.chess_command(&command) {
            return Action::Reply(reply.unwrap_or_else(|e| vec![error(e.code, e.detail)]));
        }
        let reply = match command {
            Command::Uci => Ok(self.greeting()),
            Command::IsReady => Ok(vec!["readyok".into()]),
            Command::Help => Ok(help()),
            Command::Quit => return Action::Quit(vec!["ok bye".into()]),
            Command::Stop => Ok(vec!["ok stop".into()]),
            Command::PonderHit => Err(fail(ErrorCode::WrongState, "no go ponder is running")),
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
                let mut lines = board_lines(g);
                lines.push("ok board".into());
                lines
            }),
            Command::Fen => self
                .game()
                .map(|g| vec![format!("ok fen {}", g.position().fen())]),
            Command::Go(limits) => return self.go(limits),
            // The empty sequence: nothing to run.
            Command::Perft(0) => self.game().map(|_| vec!["ok nodes 1".into()]),
            Command::Solve(limits) => match self.game() {
                Ok(g) => {
                    let pos = *g.position();
                    let engine = self.take_engine();
                    return self.start(Work::Solve {
                        engine,
                        pos,
                        limits,
                    });
                }
                Err(e) => Err(e),
            },
            Command::Analyse(limits) => match self.game() {
                Ok(g) => {
                    let (start, moves) = (*g.start(), g.moves().to_vec());
                    let engine = self.take_engine();
                    return self.start(Work::Analyse {
                        engine,
                        start,
                        moves,
                        limits: analyse_limits(limits),
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
        Action::Reply(reply.unwrap_or_else(|e| vec![error(e.code, e.detail)]))
    }

    /// The commands that do not wait for a running job (see
    /// [`answers_while_busy`]): `isready` answers, `stop` and `quit` stop
    /// the job and answer after its lines, `ponderhit` turns pondering into
    /// the real search.
    fn while_busy(&mut self, command: &Command) -> Action {
        let Some(running) = self.running.as_mut() else {
            return Action::Reply(Vec::new());
        };
        match command {
            Command::Stop => {
                running.stop.raise();
                running.deferred.push("ok stop".into());
                Action::Reply(Vec::new())
            }
            // With lines queued, they still run (like the end of input)
            // and `quit` comes last; otherwise it follows the job.
            Command::Quit if !self.queued.is_empty() => {
                running.stop.raise();
                self.ending = true;
                self.queued.push_back("quit".into());
                Action::Reply(Vec::new())
            }
            Command::Quit => {
                running.stop.raise();
                running.quit = true;
                Action::Reply(Vec::new())
            }
            // The pondering ends, and its job's end starts the real search.
            Command::PonderHit if running.ponder.is_some() && !running.ponderhit => {
                running.ponderhit = true;
                running.stop.raise();
                Action::Reply(vec!["ok ponderhit".into()])
            }
            Command::PonderHit => Action::Reply(vec![error(
                ErrorCode::WrongState,
                "no go ponder is running",
            )]),
            _ => Action::Reply(vec!["readyok".into()]),
        }
    }

    /// Takes a finished job's result; returns its final lines.
    pub fn finish(&mut self, done: JobDone) -> Action {
        let action = self.finished(done);
        self.speak(None, action)
    }

    fn finished(&mut self, done: JobDone) -> Action {
        let mut lines = match done.result {
            Finished::Search { engine, result } => {
                self.engine = Some(engine);
                if let Some(limits) = self.after_ponderhit() {
                    return self.go(limits);
                }
                let lines = self.apply_search(result);
                if self.game().is_ok_and(|g| g.outcome().is_some()) {
                    // The game is over: nothing left to use its tables for.
                    self.engine = None;
                }
                lines
            }
            Finished::ChooseGaps { engine, gaps } => {
                self.engine = Some(engine);
                let then = self
                    .running
                    .as_mut()
                    .and_then(|r| r.search_after_gaps.take());
                match (self.start_game(gaps), then) {
                    (Ok(()), Some(limits)) if !self.stop_requested() => {
                        self.running = None;
                        let said = format!("info string gaps {gaps}");
                        return match self.go(limits) {
                            Action::Reply(mut lines) => {
                                lines.insert(0, said);
                                Action::Reply(lines)
                            }
                            Action::Run(mut job) => {
                                job.preamble.push(said);
                                Action::Run(job)
                            }
                            quit => quit,
                        };
                    }
                    (Ok(()), Some(_)) => {
                        vec![format!("info string gaps {gaps}"), "bestmove (none)".into()]
                    }
                    (Ok(()), None) => vec![format!("ok gaps {gaps}")],
                    (Err(e), _) => vec![error(e.code, e.detail)],
                }
            }
            Finished::Perft {
                divide: Some(mut divide),
            } => {
                divide.sort_by_key(|(m, _)| file_order(*m));
                let total: u64 = divide.iter().map(|(_, n)| n).sum();
                let mut lines: Vec<String> =
                    divide.iter().map(|(m, n)| format!("{m}: {n}")).collect();
                lines.push(format!("ok nodes {total}"));
                lines
            }
            Finished::Solve {
                engine,
                pos,
                solution,
            } => {
                self.engine = Some(engine);
                vec![solution_line(&pos, solution.as_ref())]
            }
            Finished::Analyse { engine, analysis } => {
                self.engine = Some(engine);
                let mut lines = crate::analysis::write::protocol_lines(&analysis);
                lines.push(crate::analysis::write::protocol_final(&analysis));
                lines
            }
            Finished::Perft { divide: None } => vec![error(
                ErrorCode::Interrupted,
                "perft stopped before it finished",
            )],
        };
        let Some(running) = self.running.take() else {
            return Action::Reply(lines);
        };
        lines.extend(running.deferred);
        if running.quit {
            lines.push("ok bye".into());
            Action::Quit(lines)
        } else {
            Action::Reply(lines)
        }
    }

    fn start(&mut self, work: Work) -> Action {
        let job = Job {
            work,
            stop: Arc::new(Stop::new()),
            preamble: Vec::new(),
        };
        let bounded = job.terms().bounded;
        if self.ending && !bounded {
            job.stop.raise();
        }
        self.running = Some(Running {
            stop: job.stop.clone(),
            deferred: Vec::new(),
            quit: false,
            ponder: None,
            ponderhit: false,
            bounded,
            search_after_gaps: None,
        });
        Action::Run(Box::new(job))
    }

    /// When a `go ponder` ends by `ponderhit` (and not by `stop` or `quit`
    /// as well), the limits of the real search, which replaces it.
    fn after_ponderhit(&mut self) -> Option<Limits> {
        let running = self.running.as_ref()?;
        if !running.ponderhit || running.quit || !running.deferred.is_empty() {
            return None;
        }
        let limits = running.ponder.clone()?;
        self.running = None;
        Some(limits)
    }

    fn take_engine(&mut self) -> EngineSlot {
        EngineSlot {
            held: self.engine.take(),
            hash_mib: self.hash_mib,
            threads: self.threads,
            budget: Arc::clone(&self.options.memory),
        }
    }

    fn game(&self) -> Result<&Game, ParseError> {
        match &self.state {
            State::Playing(g) => Ok(g),
            State::Refused(_, why) => Err(refused(why)),
            _ => Err(no_position()),
        }
    }

    fn game_mut(&mut self) -> Result<&mut Game, ParseError> {
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

    fn new_game(&mut self, kind: GameKind) -> Vec<String> {
        // The old game's tables: their memory goes back to the budget.
        self.engine = None;
        let variant = match kind {
            GameKind::Chess => {
                self.state = State::Chess(vec![crate::chess::Game::chess()]);
                return vec!["ok newgame chess".into()];
            }
            GameKind::Pawn(variant) => variant,
        };
        let rules = variant.rules();
        self.state = match Position::start(rules, None) {
            Ok(start) => State::Playing(Game::new(start, None)),
            Err(_) => State::AwaitingGaps(rules),
        };
        match self.state {
            State::Playing(_) => vec![format!("ok newgame {variant}")],
            _ => vec![format!("ok newgame {variant} awaiting gaps")],
        }
    }
}

/// Commands answered while a job runs; every other line waits its turn.
fn answers_while_busy(command: &Command) -> bool {
    matches!(
        command,
        Command::IsReady | Command::Stop | Command::Quit | Command::PonderHit
    )
}

fn refused(why: &str) -> ParseError {
    fail(
        ErrorCode::WrongState,
        format!("no position: the last position command was refused ({why})"),
    )
}

fn no_position() -> ParseError {
    fail(
        ErrorCode::WrongState,
        "no position yet: black chooses the gaps first (gaps AH), or go lets the engine choose",
    )
}

fn help() -> Vec<String> {
    let mut lines: Vec<String> = HELP
        .iter()
        .map(|(cmd, what)| format!("help {cmd} -- {what}"))
        .collect();
    lines.push("ok help".into());
    lines
}

#[cfg(test)]
mod tests;

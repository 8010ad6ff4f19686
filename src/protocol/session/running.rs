//! A job that is out: starting it, the commands that do not wait for it
//! (`isready`, `stop`, `quit`, `ponderhit`), and its end, when its result
//! becomes the command's final line and the replies held back for it
//! follow.

use super::game::file_order;
use super::job::{Finished, Work};
use super::{Action, Job, JobDone, Session};
use crate::engine::{Limits, SearchResult};
use crate::protocol::command::Command;
use crate::protocol::reply::{Done, ErrorCode, Reply};
use crate::rules::{Gaps, Move};
use crate::stop::Stop;
use std::sync::Arc;
use std::time::Instant;

/// A job that is out, and the replies that wait for it.
pub(super) struct Running {
    pub(super) stop: Arc<Stop>,
    pub(super) deferred: Vec<Reply>,
    pub(super) quit: bool,
    /// For `go ponder`: the limits of the real search that `ponderhit`
    /// starts, and whether it came.
    pub(super) ponder: Option<Limits>,
    pub(super) ponderhit: bool,
    /// It ends on its own (see [`super::JobTerms::bounded`]).
    pub(super) bounded: bool,
    /// A UCI `go` before the gaps were chosen: once the engine has chosen
    /// them, the search on these limits follows, so that `go` still ends
    /// in `bestmove`.
    pub(super) search_after_gaps: Option<Limits>,
}

impl Session {
    /// The commands that do not wait for a running job (see
    /// [`answers_while_busy`]): `isready` answers, `stop` and `quit` stop
    /// the job and answer after its lines, `ponderhit` turns pondering into
    /// the real search.
    pub(super) fn while_busy(&mut self, command: &Command) -> Action {
        let Some(running) = self.running.as_mut() else {
            return Action::Reply(Vec::new());
        };
        match command {
            Command::Stop => {
                running.stop.raise();
                running.deferred.push(Done::Stop.into());
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
                Action::Reply(vec![Done::PonderHit.into()])
            }
            Command::PonderHit => Action::Reply(vec![Reply::error(
                ErrorCode::WrongState,
                "no go ponder is running",
            )]),
            _ => Action::Reply(vec![Reply::ReadyOk]),
        }
    }

    /// Takes a finished job's result; returns its final lines.
    pub fn finish(&mut self, done: JobDone) -> Action {
        let action = self.finished(done);
        self.speak(None, action)
    }

    /// A job's end: the command's final lines, or for a search that
    /// follows (after `ponderhit`, or a `go` that waited for the gaps), its
    /// start.
    fn finished(&mut self, done: JobDone) -> Action {
        if let Some(engine) = done.engine {
            self.engine = Some(engine);
        }
        match done.result {
            Finished::Search(result) => self.search_finished(result),
            Finished::ChooseGaps(gaps) => self.gaps_chosen(gaps),
            Finished::Perft(Some(divide)) => self.close_job(divide_lines(divide)),
            Finished::Perft(None) => self.close_job(vec![Reply::error(
                ErrorCode::Interrupted,
                "perft stopped before it finished",
            )]),
            Finished::Solve { pos, solution } => {
                self.close_job(vec![Reply::solution(&pos, solution.as_ref())])
            }
            Finished::Analyse(analysis) => {
                let mut lines: Vec<Reply> = crate::analysis::write::protocol_lines(&analysis)
                    .into_iter()
                    .map(Reply::Analysis)
                    .collect();
                lines.push(Done::analyse(&analysis).into());
                self.close_job(lines)
            }
            Finished::Explore(found) => self.close_job(vec![
                Done::Explore {
                    moves: found.moves.len(),
                    unknown: found.unknown(),
                    stopped: found.stopped,
                }
                .into(),
            ]),
        }
    }

    /// A search's end: its move is played, unless it was pondering that
    /// `ponderhit` turned into the real search, which starts now.
    fn search_finished(&mut self, result: SearchResult) -> Action {
        if let Some(limits) = self.after_ponderhit() {
            return self.go(limits);
        }
        let lines = self.apply_search(result);
        if self.game().is_ok_and(|g| g.outcome().is_some()) {
            // The game is over: nothing left to use its tables for.
            self.engine = None;
        }
        self.close_job(lines)
    }

    /// The engine chose the gaps: the game starts, and a UCI `go` that
    /// came before them searches now, so that it still ends in `bestmove`
    /// (or, stopped meanwhile, in no move).
    fn gaps_chosen(&mut self, gaps: Gaps) -> Action {
        let then = self
            .running
            .as_mut()
            .and_then(|r| r.search_after_gaps.take());
        let lines = match (self.start_game(gaps), then) {
            (Ok(()), Some(limits)) if !self.stop_requested() => {
                self.running = None;
                let said = Reply::say(format!("gaps {gaps}"));
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
            (Ok(()), Some(_)) => vec![Reply::say(format!("gaps {gaps}")), Reply::no_move()],
            (Ok(()), None) => vec![Done::Gaps(gaps).into()],
            (Err(e), _) => vec![e.into()],
        };
        self.close_job(lines)
    }

    /// Ends the running job's command with `lines`; the replies held back
    /// for it follow, and a `quit` sent meanwhile ends the session.
    fn close_job(&mut self, mut lines: Vec<Reply>) -> Action {
        let Some(running) = self.running.take() else {
            return Action::Reply(lines);
        };
        lines.extend(running.deferred);
        if running.quit {
            lines.push(Done::Bye.into());
            Action::Quit(lines)
        } else {
            Action::Reply(lines)
        }
    }

    /// Hands `work` out as a job, lending it the engine if it needs one.
    pub(super) fn start(&mut self, work: Work) -> Action {
        let engine = if work.needs_engine() {
            self.engine.take()
        } else {
            None
        };
        let job = Job {
            work,
            engine,
            settings: self.engine_settings(),
            budget: Arc::clone(&self.options.memory),
            stop: Arc::new(Stop::new()),
            preamble: Vec::new(),
            received: Instant::now(),
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
}

/// Commands answered while a job runs; every other line waits its turn.
pub(super) fn answers_while_busy(command: &Command) -> bool {
    matches!(
        command,
        Command::IsReady | Command::Stop | Command::Quit | Command::PonderHit
    )
}

/// `perft`'s divide: each root move's count in file order, then the total.
fn divide_lines(mut divide: Vec<(Move, u64)>) -> Vec<Reply> {
    divide.sort_by_key(|(m, _)| file_order(*m));
    let total: u64 = divide.iter().map(|(_, n)| n).sum();
    let mut lines: Vec<Reply> = divide
        .iter()
        .map(|(m, n)| Reply::Divide {
            mv: m.to_string(),
            nodes: *n,
        })
        .collect();
    lines.push(Done::Nodes(total).into());
    lines
}

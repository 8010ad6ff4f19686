//! A session's state: the game, the engine, a running job. Lines in, lines out.
//!
//! Every command gets exactly one final line. Long work (a search, perft)
//! leaves as a [`Job`] for the server to run elsewhere; while it runs the
//! session still answers, and a `stop` or `quit` gets its reply after the
//! job's, so that the order of final lines never depends on timing.

use super::command::{Command, HELP, ParseError, Setup, parse};
use super::reply::{ErrorCode, board_lines, error, info_line};
use crate::engine::{Engine, Limits, SearchResult};
use crate::rules::{Game, Gaps, Move, Position, RuleSet, Variant, parse_move, perft_divide, san};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Settings a server gives every session it starts.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// Transposition table size a session starts with, MiB.
    pub hash_mib: usize,
    /// The most `setoption name Hash` may ask for, MiB.
    pub max_hash_mib: usize,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            hash_mib: 16,
            max_hash_mib: 1024,
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
    Run(Job),
    /// Write these lines, then end the session.
    Quit(Vec<String>),
}

/// CPU-bound work of a session (a search, perft), run on a blocking thread.
pub struct Job {
    work: Work,
    stop: Arc<AtomicBool>,
}

enum Work {
    Search {
        engine: Box<Engine>,
        pos: Position,
        limits: Limits,
    },
    ChooseGaps {
        engine: Box<Engine>,
        rules: RuleSet,
        limits: Limits,
    },
    Perft {
        pos: Position,
        depth: u32,
    },
}

/// The result of a [`Job`], to give back to the session that made it.
pub struct JobDone {
    result: Finished,
}

enum Finished {
    Search {
        engine: Box<Engine>,
        result: SearchResult,
    },
    ChooseGaps {
        engine: Box<Engine>,
        gaps: Gaps,
    },
    /// `None` when stopped before it finished.
    Perft {
        divide: Option<Vec<(Move, u64)>>,
    },
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.work {
            Work::Search { .. } => "search",
            Work::ChooseGaps { .. } => "choose-gaps",
            Work::Perft { .. } => "perft",
        };
        f.debug_struct("Job").field("kind", &kind).finish()
    }
}

impl std::fmt::Debug for JobDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JobDone")
    }
}

impl Job {
    /// Runs to completion on the calling thread. `emit` gets progress lines
    /// (`info ...`) as they are produced.
    pub fn run(self, emit: &mut dyn FnMut(String)) -> JobDone {
        let stop = &*self.stop;
        let result = match self.work {
            Work::Search {
                mut engine,
                pos,
                limits,
            } => {
                let result = engine.search(&pos, &limits, stop, &mut |info| emit(info_line(info)));
                Finished::Search { engine, result }
            }
            Work::ChooseGaps {
                mut engine,
                rules,
                limits,
            } => {
                let gaps = engine.choose_gaps(&rules, &limits, stop);
                Finished::ChooseGaps { engine, gaps }
            }
            Work::Perft { pos, depth } => Finished::Perft {
                divide: perft_divide(&pos, depth, stop),
            },
        };
        JobDone { result }
    }
}

/// Where the session's game stands.
enum State {
    /// A rule set with gaps, before black has chosen them.
    AwaitingGaps(RuleSet),
    Playing(Game),
}

/// A job that is out, and the replies that wait for it.
struct Running {
    stop: Arc<AtomicBool>,
    deferred: Vec<String>,
    quit: bool,
}

pub struct Session {
    options: SessionOptions,
    hash_mib: usize,
    state: State,
    /// Made on first use, so that idle sessions hold no table; away while a
    /// job has it.
    engine: Option<Box<Engine>>,
    running: Option<Running>,
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
            options,
            state: State::AwaitingGaps(RuleSet::PAWNRACE),
            engine: None,
            running: None,
        }
    }

    /// Whether a job is running.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// Raises the running job's stop flag (a peer left, the server is
    /// shutting down). Its result must still be handed to `finish`.
    pub fn interrupt(&self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Handles one input line (without its line ending).
    pub fn handle_line(&mut self, line: &str) -> Action {
        let command = match parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Action::Reply(Vec::new()),
            Err(e) => return Action::Reply(vec![error(e.code, e.detail)]),
        };
        if let Some(action) = self.while_busy(&command) {
            return action;
        }
        let reply = match command {
            Command::Uci => Ok(self.uci()),
            Command::IsReady => Ok(vec!["readyok".into()]),
            Command::Help => Ok(help()),
            Command::Quit => return Action::Quit(vec!["ok bye".into()]),
            Command::Stop => Ok(vec!["ok stop".into()]),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame(variant) => Ok(self.new_game(variant)),
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

    /// What a command does while a job runs: read-only commands answer as
    /// usual, `stop` and `quit` wait for the job, the rest are refused.
    fn while_busy(&mut self, command: &Command) -> Option<Action> {
        let running = self.running.as_mut()?;
        match command {
            Command::Stop => {
                running.stop.store(true, Ordering::Relaxed);
                running.deferred.push("ok stop".into());
                Some(Action::Reply(Vec::new()))
            }
            Command::Quit => {
                running.stop.store(true, Ordering::Relaxed);
                running.quit = true;
                Some(Action::Reply(Vec::new()))
            }
            Command::Uci
            | Command::IsReady
            | Command::Help
            | Command::Board
            | Command::Fen
            | Command::Moves => None,
            _ => Some(Action::Reply(vec![error(
                ErrorCode::Busy,
                "a search is running (send stop first)",
            )])),
        }
    }

    /// Takes a finished job's result; returns its final lines.
    pub fn finish(&mut self, done: JobDone) -> Action {
        let mut lines = match done.result {
            Finished::Search { engine, result } => {
                self.engine = Some(engine);
                self.apply_search(result)
            }
            Finished::ChooseGaps { engine, gaps } => {
                self.engine = Some(engine);
                match self.start_game(gaps) {
                    Ok(()) => vec![format!("ok gaps {gaps}")],
                    Err(e) => vec![error(e.code, e.detail)],
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
        let stop = Arc::new(AtomicBool::new(false));
        self.running = Some(Running {
            stop: stop.clone(),
            deferred: Vec::new(),
            quit: false,
        });
        Action::Run(Job { work, stop })
    }

    fn take_engine(&mut self) -> Box<Engine> {
        let hash = self.hash_mib;
        self.engine
            .take()
            .unwrap_or_else(|| Box::new(Engine::new(hash)))
    }

    fn game(&self) -> Result<&Game, ParseError> {
        match &self.state {
            State::Playing(g) => Ok(g),
            State::AwaitingGaps(_) => Err(fail(
                ErrorCode::WrongState,
                "no position yet: black chooses the gaps first (gaps AH), or go lets the engine choose",
            )),
        }
    }

    fn game_mut(&mut self) -> Result<&mut Game, ParseError> {
        self.game()?;
        match &mut self.state {
            State::Playing(g) => Ok(g),
            State::AwaitingGaps(_) => unreachable!("checked by game()"),
        }
    }

    fn rules(&self) -> RuleSet {
        match &self.state {
            State::AwaitingGaps(r) => *r,
            State::Playing(g) => *g.rules(),
        }
    }

    fn uci(&self) -> Vec<String> {
        vec![
            "id name pawnrace".into(),
            format!("id version {}", env!("CARGO_PKG_VERSION")),
            "id author the pawnrace developers".into(),
            format!(
                "option name Hash type spin default {} min 1 max {}",
                self.options.hash_mib, self.options.max_hash_mib
            ),
            "uciok".into(),
        ]
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Reply {
        if !name.eq_ignore_ascii_case("hash") {
            return Err(fail(
                ErrorCode::BadArgument,
                format!("unknown option '{name}' (known: Hash)"),
            ));
        }
        let max = self.options.max_hash_mib;
        let mib = value
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|m| (1..=max).contains(m))
            .ok_or_else(|| {
                fail(
                    ErrorCode::BadArgument,
                    format!("Hash takes MiB from 1 to {max}"),
                )
            })?;
        self.hash_mib = mib;
        if let Some(engine) = &mut self.engine {
            engine.set_hash(mib);
        }
        Ok(vec![format!("ok setoption Hash {mib}")])
    }

    fn new_game(&mut self, variant: Variant) -> Vec<String> {
        if let Some(engine) = &mut self.engine {
            engine.new_game();
        }
        let rules = variant.rules();
        self.state = match Position::start(rules, None) {
            Ok(start) => State::Playing(Game::new(start, None)),
            Err(_) => State::AwaitingGaps(rules),
        };
        match self.state {
            State::AwaitingGaps(_) => vec![format!("ok newgame {variant} awaiting gaps")],
            State::Playing(_) => vec![format!("ok newgame {variant}")],
        }
    }

    fn choose_gaps(&mut self, gaps: Gaps) -> Reply {
        let rules = self.rules();
        if !rules.has_gaps() {
            return Err(fail(
                ErrorCode::WrongState,
                format!("{} has no gaps", rules.name()),
            ));
        }
        if let State::Playing(g) = &self.state
            && (!g.moves().is_empty() || g.gaps().is_none())
        {
            return Err(fail(
                ErrorCode::WrongState,
                "gaps are chosen before the first move of a game from the start (newgame to begin again)",
            ));
        }
        self.start_game(gaps)?;
        Ok(vec![format!("ok gaps {gaps}")])
    }

    fn start_game(&mut self, gaps: Gaps) -> Result<(), ParseError> {
        let start = Position::start(self.rules(), Some(gaps))
            .map_err(|e| fail(ErrorCode::BadArgument, e.to_string()))?;
        self.state = State::Playing(Game::new(start, Some(gaps)));
        Ok(())
    }

    /// Sets up a position and plays `moves` from it, all or nothing.
    fn position(&mut self, setup: Setup, moves: &[String]) -> Reply {
        let rules = self.rules();
        let mut game = match setup {
            Setup::StartPos(gaps) => match (rules.has_gaps(), gaps) {
                (true, None) => {
                    if !moves.is_empty() {
                        return Err(fail(
                            ErrorCode::BadArgument,
                            "moves from the start need gaps: position startpos gaps AH moves ...",
                        ));
                    }
                    self.state = State::AwaitingGaps(rules);
                    return Ok(vec![format!(
                        "ok position startpos {} awaiting gaps",
                        rules.name()
                    )]);
                }
                (_, gaps) => {
                    let start = Position::start(rules, gaps)
                        .map_err(|e| fail(ErrorCode::BadArgument, e.to_string()))?;
                    Game::new(start, gaps)
                }
            },
            Setup::Fen(text) => {
                let pos = Position::from_fen(&text, rules)
                    .map_err(|e| fail(ErrorCode::BadPosition, e.to_string()))?;
                Game::new(pos, None)
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let m = legal_move(game.position(), text).map_err(|e| ParseError {
                code: e.code,
                detail: format!("move {} ({text}): {}", i + 1, e.detail),
            })?;
            game.play(m);
        }
        let fen = game.position().fen();
        self.state = State::Playing(game);
        Ok(vec![format!("ok position {fen}")])
    }

    fn play(&mut self, text: &str) -> Reply {
        let game = self.game_mut()?;
        let m = legal_move(game.position(), text)?;
        game.play(m);
        Ok(vec![move_reply(m, game)])
    }

    fn undo(&mut self) -> Reply {
        let game = self.game_mut()?;
        let m = game
            .undo()
            .ok_or_else(|| fail(ErrorCode::WrongState, "no move to take back"))?;
        Ok(vec![format!("ok undo {m} san {}", san(m))])
    }

    fn moves(&self) -> Reply {
        let mut legal = self.game()?.position().legal_moves();
        legal.as_mut_slice().sort_by_key(|m| file_order(*m));
        let mut lines: Vec<String> = legal
            .iter()
            .map(|m| format!("move {m} san {}", san(*m)))
            .collect();
        lines.push(format!("ok moves {}", legal.len()));
        Ok(lines)
    }

    fn go(&mut self, limits: Limits) -> Action {
        match &self.state {
            State::AwaitingGaps(rules) => {
                let rules = *rules;
                let engine = self.take_engine();
                self.start(Work::ChooseGaps {
                    engine,
                    rules,
                    limits,
                })
            }
            State::Playing(game) if game.outcome().is_some() => {
                Action::Reply(vec!["bestmove (none)".into()])
            }
            State::Playing(game) => {
                let pos = *game.position();
                let engine = self.take_engine();
                self.start(Work::Search {
                    engine,
                    pos,
                    limits,
                })
            }
        }
    }

    /// Plays the engine's move on the board. Nothing else could change the
    /// game while the search ran: the session refuses moves while busy.
    fn apply_search(&mut self, result: SearchResult) -> Vec<String> {
        let State::Playing(game) = &mut self.state else {
            return vec!["bestmove (none)".into()];
        };
        match result.best.filter(|m| game.position().is_legal(*m)) {
            Some(m) => {
                game.play(m);
                let mut lines = Vec::new();
                if let Some(o) = game.outcome() {
                    lines.push(format!(
                        "info string result {} {}",
                        o.result_word(),
                        o.reason_tokens()
                    ));
                }
                lines.push(format!("bestmove {m}"));
                lines
            }
            None => vec!["bestmove (none)".into()],
        }
    }
}

/// Reads `text` as a move in `pos`, with the protocol's error codes.
fn legal_move(pos: &Position, text: &str) -> Result<Move, ParseError> {
    if let Some(o) = pos.outcome() {
        return Err(fail(ErrorCode::GameOver, format!("the game is over: {o}")));
    }
    parse_move(pos, text).map_err(|e| match e {
        crate::rules::MoveError::Malformed(d) => fail(ErrorCode::BadArgument, d),
        crate::rules::MoveError::Illegal(d) => fail(ErrorCode::IllegalMove, d),
    })
}

/// `ok move e2e4 san e4`, with ` result ...` when the move ended the game.
fn move_reply(m: Move, game: &Game) -> String {
    let mut line = format!("ok move {m} san {}", san(m));
    if let Some(o) = game.outcome() {
        line.push_str(&format!(
            " result {} {}",
            o.result_word(),
            o.reason_tokens()
        ));
    }
    line
}

/// Move lists read file by file, a to h, as people scan a board.
fn file_order(m: Move) -> (u8, u8, u8, u8) {
    (m.from.file(), m.from.rank(), m.to.file(), m.to.rank())
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
mod tests {
    use super::*;

    /// Feeds lines to a session, running any job inline, and returns every
    /// line written.
    fn drive(session: &mut Session, lines: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for line in lines {
            let mut action = session.handle_line(line);
            loop {
                match action {
                    Action::Reply(l) | Action::Quit(l) => {
                        out.extend(l);
                        break;
                    }
                    Action::Run(job) => {
                        let done = job.run(&mut |l| out.push(l));
                        action = session.finish(done);
                    }
                }
            }
        }
        out
    }

    fn finals(out: &[String]) -> Vec<&str> {
        out.iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("info "))
            .collect()
    }

    #[test]
    fn a_game_from_gaps_to_undo() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(
            &mut s,
            &[
                "newgame",
                "gaps ah",
                "move e2e4",
                "move d5",
                "fen",
                "undo",
                "fen",
            ],
        );
        assert_eq!(
            out,
            [
                "ok newgame pawnrace awaiting gaps",
                "ok gaps AH",
                "ok move e2e4 san e4",
                "ok move d7d5 san d5",
                "ok fen 8/ppp1ppp1/8/3p4/4P3/8/1PPP1PPP/8 w -",
                "ok undo d7d5 san d5",
                "ok fen 8/ppppppp1/8/8/4P3/8/1PPP1PPP/8 b -",
            ]
        );
    }

    #[test]
    fn errors_have_codes_and_change_nothing() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(
            &mut s,
            &[
                "move e2e4",
                "gaps AH",
                "move e2e5",
                "move zz",
                "move e2e4",
                "gaps BG",
                "undo",
                "undo",
            ],
        );
        let codes: Vec<&str> = out
            .iter()
            .map(|l| l.split(' ').take(2).last().unwrap_or(""))
            .collect();
        assert_eq!(
            codes,
            [
                "wrong-state",
                "gaps",
                "illegal-move",
                "bad-argument",
                "move",
                "wrong-state",
                "undo",
                "wrong-state"
            ]
        );
    }

    #[test]
    fn a_winning_move_says_so_and_ends_the_game() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(
            &mut s,
            &[
                "position fen 8/4P3/8/8/8/8/p7/8 w -",
                "move e8",
                "move a1",
                "go depth 1",
            ],
        );
        assert_eq!(out[1], "ok move e7e8 san e8 result white-wins promotion e8");
        assert!(
            out[2].starts_with("error game-over the game is over: white wins"),
            "{}",
            out[2]
        );
        assert_eq!(out[3], "bestmove (none)");
    }

    #[test]
    fn go_plays_the_engine_move_on_the_board() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(
            &mut s,
            &["position startpos gaps AH", "go depth 2", "board"],
        );
        let bestmove = out.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        assert!(out.iter().any(|l| l.starts_with("info depth 1 ")));
        assert!(out.iter().any(|l| l == "side black"), "{out:?}");
        assert!(
            out.iter().any(|l| l.starts_with("history 1. ")),
            "{bestmove}"
        );
    }

    #[test]
    fn go_before_gaps_lets_the_engine_choose_them() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(&mut s, &["newgame", "go depth 1", "fen"]);
        assert!(out[1].starts_with("ok gaps "), "{out:?}");
        assert!(out[2].starts_with("ok fen ") && out[2].ends_with(" w -"));
    }

    #[test]
    fn while_busy_stop_and_quit_answer_after_the_job() {
        let mut s = Session::new(SessionOptions::default());
        drive(&mut s, &["position startpos gaps AH"]);
        let Action::Run(job) = s.handle_line("go infinite") else {
            panic!("go must start a job")
        };
        assert!(s.is_busy());
        assert!(matches!(s.handle_line("isready"), Action::Reply(l) if l == ["readyok"]));
        assert!(
            matches!(s.handle_line("move e2e4"), Action::Reply(l) if l[0].starts_with("error busy"))
        );
        assert!(matches!(s.handle_line("stop"), Action::Reply(l) if l.is_empty()));
        assert!(matches!(s.handle_line("quit"), Action::Reply(l) if l.is_empty()));
        let done = job.run(&mut |_| {});
        let Action::Quit(lines) = s.finish(done) else {
            panic!("quit was pending")
        };
        assert_eq!(finals(&lines)[1..], ["ok stop", "ok bye"]);
        assert!(lines[0].starts_with("bestmove ") && lines[0] != "bestmove (none)");
    }

    #[test]
    fn perft_lists_root_moves_then_the_total() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(&mut s, &["position startpos gaps AH", "perft 3"]);
        assert_eq!(out.len(), 1 + 14 + 1);
        assert_eq!(out.last().unwrap(), "ok nodes 2554");
        assert!(out[1..15].iter().all(|l| l.contains(": ")));
    }

    #[test]
    fn mini4_plays_without_gaps() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(
            &mut s,
            &[
                "newgame mini4",
                "gaps AB",
                "moves",
                "position fen pppp/..../..../PPPP w -",
                "perft 2",
            ],
        );
        assert_eq!(out[0], "ok newgame mini4");
        assert!(out[1].starts_with("error wrong-state mini4 has no gaps"));
        assert_eq!(out[6], "ok moves 4");
        assert_eq!(out[7], "ok position pppp/4/4/PPPP w -");
        assert_eq!(out.last().unwrap(), "ok nodes 16");
    }

    #[test]
    fn position_with_a_bad_move_changes_nothing() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(
            &mut s,
            &[
                "position startpos gaps AH moves e2e4",
                "position startpos gaps AH moves e2e4 e7e4",
                "fen",
            ],
        );
        assert_eq!(
            out[1],
            "error illegal-move move 2 (e7e4): e7e4 is not legal here (black to move)"
        );
        assert_eq!(out[2], "ok fen 8/ppppppp1/8/8/4P3/8/1PPP1PPP/8 b -");
    }

    #[test]
    fn options() {
        let mut s = Session::new(SessionOptions::default());
        let out = drive(
            &mut s,
            &[
                "setoption name hash value 32",
                "setoption name Hash value 0",
                "setoption name Ponder value true",
            ],
        );
        assert_eq!(out[0], "ok setoption Hash 32");
        assert!(out[1].starts_with("error bad-argument Hash takes MiB"));
        assert!(out[2].starts_with("error bad-argument unknown option"));
    }
}

//! XBoard/WinBoard's protocol (CECP v2) for Pawn Race, sans-IO: a line in,
//! the lines to send and what the engine should do out. The server runs the
//! searches and hands their results back through [`XBoard::searched`].
//!
//! The GUI learns the game as Fairy-Stockfish teaches it a custom variant:
//! after `variant`, a `setup` line with the start position on an 8x8 board
//! of the `fairy` family and a `piece` line with the pawn's moves in Betza
//! notation, so that `xboard -variant fairy` draws and checks Pawn Race.

mod clock;
#[cfg(test)]
mod tests;

use crate::engine::{Limits, Score, SearchInfo, SearchResult};
use crate::protocol::variant_ini::{self, VARIANT_NAME};
use crate::rules::{Color, Game, Move, Position, RuleSet, parse_move};
use clock::Clock;
use std::ops::Not;

/// The variants offered: `fairy` is what XBoard sends for a variant it does
/// not know itself; `pawnrace` is the name Fairy-Stockfish's ini gives it.
pub const VARIANTS: &str = "pawnrace,fairy";

/// Fairy-Stockfish's `setup` for its pawn-only variant: the piece list,
/// the board and family, then the position.
const SETUP_PIECES: &str = "(PNBRQ................Kpnbrq................k) 8x8+0_fairy";

/// The pawn's moves in Betza notation, as Fairy-Stockfish sends them:
/// forward step, diagonal capture, en passant, double step from home.
const PAWN_BETZA: &str = "piece P& fmWfceFifmnD";

/// What the server must do after a line.
#[derive(Debug, PartialEq)]
pub enum Out {
    /// A line for the GUI.
    Line(String),
    /// Start a search of `pos`; its result comes back through
    /// [`XBoard::searched`] with this id.
    Search {
        id: u64,
        pos: Position,
        limits: Box<Limits>,
    },
    /// End the running search now and play what it found (`?`).
    MoveNow,
    /// End the running search and forget it.
    Abort,
    /// End the session.
    Quit,
}

/// One CECP session.
pub struct XBoard {
    game: Game,
    /// The colour the engine plays; `None` in force mode.
    engine: Option<Color>,
    clock: Clock,
    post: bool,
    /// The id of the running search, if any; results of others are stale.
    searching: Option<u64>,
    next_id: u64,
}

impl Default for XBoard {
    fn default() -> Self {
        XBoard::new()
    }
}

impl XBoard {
    pub fn new() -> XBoard {
        XBoard {
            game: Game::new(start(), None),
            engine: Some(Color::Black),
            clock: Clock::default(),
            post: false,
            searching: None,
            next_id: 0,
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// What to do with one line from the GUI.
    pub fn handle_line(&mut self, line: &str) -> Vec<Out> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "hard" | "easy" | "memory" | "cores" | "egtpath" | "option" | "draw"
            | "hint" | "bk" | "analyze" | "exit" | "." => Vec::new(),
            "protover" => features(),
            "variant" => self.variant(rest),
            "new" => self.new_game(),
            "setboard" => self.setboard(rest),
            "usermove" => self.user_move(rest),
            "go" => {
                self.engine = Some(self.game.position().side_to_move());
                self.think()
            }
            "playother" => {
                self.engine = Some(self.game.position().side_to_move().not());
                self.stop_search()
            }
            "force" => {
                self.engine = None;
                self.stop_search()
            }
            "?" => match self.searching {
                Some(_) => vec![Out::MoveNow],
                None => Vec::new(),
            },
            "ping" => {
                // Sent once every command before it is done: a search may
                // still run, which CECP allows.
                vec![Out::Line(format!("pong {rest}"))]
            }
            "result" => {
                self.engine = None;
                self.stop_search()
            }
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "post" => {
                self.post = true;
                Vec::new()
            }
            "nopost" => {
                self.post = false;
                Vec::new()
            }
            "level" | "st" | "sd" | "time" | "otim" => match self.clock.command(word, rest) {
                Ok(()) => Vec::new(),
                Err(why) => vec![error(why, line)],
            },
            "quit" => {
                let mut out = self.stop_search();
                out.push(Out::Quit);
                out
            }
            _ => vec![error("unknown command", line)],
        }
    }

    /// A search's progress: a thinking line when `post` is on.
    pub fn thinking(&self, id: u64, info: &SearchInfo) -> Option<Out> {
        if !self.post || self.searching != Some(id) {
            return None;
        }
        let score = match info.score {
            Score::Cp(cp) => cp,
            // XBoard's convention for mates: 100000 plus the moves to it.
            Score::Mate(n) if n > 0 => 100_000 + n,
            Score::Mate(n) => -100_000 + n,
        };
        let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
        Some(Out::Line(format!(
            "{} {} {} {} {}",
            info.depth,
            score,
            info.time_ms / 10,
            info.nodes,
            pv.join(" ")
        )))
    }

    /// A search `id` ended with `result`: the engine's move, and the
    /// result line if the move ended the game. Stale results are dropped.
    pub fn searched(&mut self, id: u64, result: &SearchResult) -> Vec<Out> {
        if self.searching != Some(id) {
            return Vec::new();
        }
        self.searching = None;
        let Some(m) = result.best else {
            return self.game_over();
        };
        if !self.game.position().is_legal(m) {
            return vec![Out::Line(format!("Error (engine): no legal move {m}"))];
        }
        self.game.play(m);
        let mut out = vec![Out::Line(format!("move {m}"))];
        out.extend(self.game_over());
        out
    }

    fn variant(&mut self, name: &str) -> Vec<Out> {
        if !is_our_variant(name) {
            return vec![error("unsupported variant", &format!("variant {name}"))];
        }
        self.game = Game::new(start(), None);
        vec![
            Out::Line(format!("setup {SETUP_PIECES} {}", start().fairy_fen(1))),
            Out::Line(PAWN_BETZA.into()),
        ]
    }

    fn new_game(&mut self) -> Vec<Out> {
        let mut out = self.stop_search();
        self.game = Game::new(start(), None);
        self.engine = Some(Color::Black);
        // CECP: `new` keeps the time control but drops an `sd` limit.
        self.clock.new_game();
        out.extend(self.think());
        out
    }

    fn setboard(&mut self, fen: &str) -> Vec<Out> {
        let mut out = self.stop_search();
        match Position::from_fen(fen, RuleSet::PAWNRACE) {
            Ok(pos) => self.game = Game::new(pos, None),
            Err(e) => {
                tracing::info!("setboard {fen}: {e}");
                out.push(Out::Line("tellusererror Illegal position".into()));
            }
        }
        out
    }

    fn user_move(&mut self, text: &str) -> Vec<Out> {
        if self.searching.is_some() || self.game.outcome().is_some() {
            let why = if self.searching.is_some() {
                "not your turn"
            } else {
                "game over"
            };
            return vec![Out::Line(format!("Illegal move ({why}): {text}"))];
        }
        match parse_move(self.game.position(), text) {
            Ok(m) => {
                self.game.play(m);
                let mut out = self.game_over();
                if out.is_empty() {
                    out = self.think();
                }
                out
            }
            Err(e) => {
                tracing::info!("usermove {text}: {e:?}");
                vec![Out::Line(format!("Illegal move: {text}"))]
            }
        }
    }

    fn take_back(&mut self, plies: usize) -> Vec<Out> {
        let mut out = self.stop_search();
        if self.game.moves().len() < plies {
            out.push(error(
                "no move to take back",
                if plies == 1 { "undo" } else { "remove" },
            ));
            return out;
        }
        for _ in 0..plies {
            self.game.undo();
        }
        out
    }

    /// Starts a search if the engine is to move and the game goes on.
    fn think(&mut self) -> Vec<Out> {
        let pos = *self.game.position();
        if self.engine != Some(pos.side_to_move()) || pos.outcome().is_some() {
            return Vec::new();
        }
        if self.searching.is_some() {
            return Vec::new();
        }
        self.next_id += 1;
        self.searching = Some(self.next_id);
        vec![Out::Search {
            id: self.next_id,
            pos,
            limits: Box::new(self.clock.limits(pos.side_to_move())),
        }]
    }

    fn stop_search(&mut self) -> Vec<Out> {
        match self.searching.take() {
            Some(_) => vec![Out::Abort],
            None => Vec::new(),
        }
    }

    /// The result line when the game is over, for the GUI to end it.
    fn game_over(&mut self) -> Vec<Out> {
        let Some(outcome) = self.game.outcome() else {
            return Vec::new();
        };
        let mut reason = outcome.to_string();
        if let Some(first) = reason.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        vec![Out::Line(format!("{} {{{reason}}}", outcome.pgn()))]
    }
}

/// The start of Pawn Race as the shipped ini's `startFen` writes it.
fn start() -> Position {
    variant_ini::start().0
}

/// `pawnrace`, `fairy`, or the board-and-family name XBoard may send back
/// after our `setup` (`8x8+0_fairy`).
fn is_our_variant(name: &str) -> bool {
    name == VARIANT_NAME || name == "fairy" || name.ends_with("_fairy")
}

fn features() -> Vec<Out> {
    let name = concat!("pawnrace ", env!("CARGO_PKG_VERSION"));
    vec![
        Out::Line("feature done=0".into()),
        Out::Line(format!(
            "feature setboard=1 usermove=1 time=1 ping=1 playother=1 draw=0 sigint=0 \
             sigterm=0 colors=0 reuse=1 analyze=0 name=0 myname=\"{name}\" variants=\"{VARIANTS}\""
        )),
        Out::Line("feature done=1".into()),
    ]
}

/// CECP's `Error (REASON): COMMAND`.
fn error(why: &str, command: &str) -> Out {
    Out::Line(format!("Error ({why}): {command}"))
}

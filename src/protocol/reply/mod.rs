//! Every line the protocol sends, typed. A session and the server pass
//! [`Reply`] values; a line becomes text only on its way to the peer
//! (`Display`). UCI mode is a way of rendering them ([`Reply::render`]),
//! and which lines end a command's reply is one rule ([`Reply::is_final`],
//! [`is_final_line`] for a line read back as text).

mod board;
mod done;
mod error;
mod info;

pub use board::{board_lines, history};
pub use done::Done;
pub use error::{ErrorCode, Refusal, ascii_line};
pub use info::Info;

use super::command::{ParseError, Verb};
use crate::analysis::explore::Explored;
use crate::rules::{Color, Position};
use crate::solver::Proven;
use std::fmt;

/// One line the protocol sends.
#[derive(Clone, Debug)]
pub enum Reply {
    /// The end of `uci`'s greeting.
    UciOk,
    ReadyOk,
    /// `id name pawnrace`, `id version ...`, `id author ...`.
    Id {
        key: &'static str,
        value: String,
    },
    /// `option name <text>`: one of the engine's UCI options.
    UciOption(String),
    /// `ok <command> ...`.
    Ok(Done),
    /// `error <code> <detail>`, the detail written as one line of ASCII.
    Error {
        code: ErrorCode,
        detail: String,
    },
    /// `bestmove e2e4 [ponder d7d5]`, or `bestmove (none)` when there is no
    /// move to play.
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    /// `solution white plies 31 pv b2b4 ...`, or `solution unknown`: a
    /// budget that ran out is said so, never guessed.
    Solution(Option<Solved>),
    Info(Info),
    /// A line of `board`'s picture or facts.
    Board(String),
    /// `help <command> -- <what it does>`.
    Help {
        command: &'static str,
        what: String,
    },
    /// `move e2e4 san e4`: one legal move of `moves`' list (the chess
    /// validator's without SAN).
    Move {
        mv: String,
        san: Option<String>,
    },
    /// `e2e4: 1234`: one first move of `perft` and what follows it.
    Divide {
        mv: String,
        nodes: u64,
    },
    /// `analysis ...`: one line of `analyse`'s report.
    Analysis(String),
    /// `explore move e2e4 san e4 value white wins in 29 source book`: one
    /// legal move of `explore`'s and its proven value (`value unknown
    /// source none` where no proof came in the budget).
    Explore {
        mv: String,
        san: String,
        value: String,
        source: &'static str,
    },
}

/// A proven result as `solution` reports it: the winner (none for a
/// draw), the distance in plies, and a line that keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub winner: Option<Color>,
    pub plies: u32,
    pub pv: Vec<String>,
}

/// The first words of the lines that end a reply, one of them per
/// command (protocol.md, "Replies").
pub const FINAL_WORDS: [&str; 6] = ["uciok", "readyok", "bestmove", "solution", "ok", "error"];

/// Whether `line`, as a peer reads it, ends its command's reply: its first
/// word (up to a space) is one of [`FINAL_WORDS`]. Clients read to such a
/// line and so never get out of step.
pub fn is_final_line(line: &str) -> bool {
    let word = line.split(' ').next().unwrap_or_default();
    FINAL_WORDS.contains(&word)
}

/// How a session speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The protocol's own: every reply as it is.
    Protocol,
    /// UCI mode (after `uci`), answering the command `answering`; `None`
    /// for the replies that end a job.
    Uci { answering: Option<Verb> },
}

impl Reply {
    pub fn error(code: ErrorCode, detail: impl Into<String>) -> Reply {
        Reply::Error {
            code,
            detail: detail.into(),
        }
    }

    /// `info string <text>`.
    pub fn say(text: impl Into<String>) -> Reply {
        Reply::Info(Info::String(text.into()))
    }

    /// The unsolicited line a session gets when the server is about to
    /// close it.
    pub fn shutdown_notice() -> Reply {
        Reply::say("server shutting down")
    }

    /// `explore`'s line for one move.
    pub fn explored(m: &Explored) -> Reply {
        Reply::Explore {
            mv: m.mv.to_string(),
            san: m.san.clone(),
            value: m.value_text(),
            source: m.after.as_ref().map_or("none", |p| p.source.name()),
        }
    }

    /// `bestmove (none)`.
    pub fn no_move() -> Reply {
        Reply::BestMove {
            best: None,
            ponder: None,
        }
    }

    /// `solve`'s final line for `pos`: `None` when no result was proven.
    pub fn solution(pos: &Position, solution: Option<&Proven>) -> Reply {
        Reply::Solution(solution.map(|s| Solved {
            winner: s.winner(pos.side_to_move()),
            // A solve always proves the distance.
            plies: s.plies.unwrap_or(s.line.len() as u32),
            pv: s.line.iter().map(|m| m.to_string()).collect(),
        }))
    }

    /// Whether this line ends its command's reply. Agrees with
    /// [`is_final_line`] on the line as written.
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            Reply::UciOk
                | Reply::ReadyOk
                | Reply::Ok(_)
                | Reply::Error { .. }
                | Reply::BestMove { .. }
                | Reply::Solution(_)
        )
    }

    /// The reply as a peer speaking `dialect` gets it; `None` where that
    /// dialect has no such line. In UCI mode what UCI leaves unanswered
    /// stays unanswered (see [`Done::silent_in_uci`]), and an error
    /// answering one of UCI's commands comes as `info string error ...`,
    /// the one line UCI gives an engine to say something: a GUI shows it
    /// and takes no other line for noise. The protocol's own commands keep
    /// their error lines, which whoever sent them reads.
    pub fn render(self, dialect: Dialect) -> Option<Reply> {
        let Dialect::Uci { answering } = dialect else {
            return Some(self);
        };
        match self {
            Reply::Ok(done) if done.silent_in_uci(answering) => None,
            error @ Reply::Error { .. } if answering.is_some_and(Verb::is_uci) => {
                Some(Reply::say(error.to_string()))
            }
            reply => Some(reply),
        }
    }
}

impl From<Refusal> for Reply {
    fn from(refusal: Refusal) -> Reply {
        Reply::Error {
            code: refusal.code,
            detail: refusal.detail,
        }
    }
}

impl From<ParseError> for Reply {
    fn from(e: ParseError) -> Reply {
        Reply::Error {
            code: e.code,
            detail: e.detail,
        }
    }
}

impl From<Done> for Reply {
    fn from(done: Done) -> Reply {
        Reply::Ok(done)
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Id { key, value } => write!(f, "id {key} {value}"),
            Reply::UciOption(text) => write!(f, "option name {text}"),
            Reply::Ok(done) => done.fmt(f),
            Reply::Error { code, detail } => write!(f, "error {code} {}", ascii_line(detail)),
            Reply::BestMove { best: None, .. } => f.write_str("bestmove (none)"),
            Reply::BestMove {
                best: Some(best),
                ponder,
            } => {
                write!(f, "bestmove {best}")?;
                if let Some(ponder) = ponder {
                    write!(f, " ponder {ponder}")?;
                }
                Ok(())
            }
            Reply::Solution(None) => f.write_str("solution unknown"),
            Reply::Solution(Some(s)) => {
                let winner = s.winner.map_or("draw", Color::name);
                write!(f, "solution {winner} plies {}", s.plies)?;
                if !s.pv.is_empty() {
                    write!(f, " pv {}", s.pv.join(" "))?;
                }
                Ok(())
            }
            Reply::Info(info) => info.fmt(f),
            Reply::Board(line) | Reply::Analysis(line) => f.write_str(line),
            Reply::Help { command, what } => write!(f, "help {command} -- {what}"),
            Reply::Move { mv, san: None } => write!(f, "move {mv}"),
            Reply::Move { mv, san: Some(san) } => write!(f, "move {mv} san {san}"),
            Reply::Divide { mv, nodes } => write!(f, "{mv}: {nodes}"),
            Reply::Explore {
                mv,
                san,
                value,
                source,
            } => write!(
                f,
                "explore move {mv} san {san} value {value} source {source}"
            ),
        }
    }
}

#[cfg(test)]
mod tests;

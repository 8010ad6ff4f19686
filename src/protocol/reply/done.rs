//! `ok <command> ...`: the final line of a command that succeeded.

use crate::analysis::{GameAnalysis, Verdict};
use crate::protocol::command::{GameKind, Verb};
use crate::rules::Gaps;
use std::fmt;

/// What succeeded, with what its `ok` line reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Done {
    Bye,
    Stop,
    PonderHit,
    Help,
    Board,
    Fen(String),
    /// `perft`'s total.
    Nodes(u64),
    NewGame {
        game: GameKind,
        awaiting_gaps: bool,
    },
    Gaps(Gaps),
    /// `position startpos` of a rule set with gaps, none chosen yet.
    PositionAwaitingGaps {
        rules: &'static str,
    },
    /// A pawn game's position, set up.
    Position {
        fen: String,
    },
    /// The chess validator's start, with its moves played.
    ChessPosition,
    /// `san` and `result` are a pawn game's; the chess validator reports
    /// the move alone.
    Move {
        mv: String,
        san: Option<String>,
        result: Option<String>,
    },
    /// The move taken back and its SAN; the chess validator names none.
    Undo {
        taken: Option<(String, String)>,
    },
    Moves(usize),
    SetOption {
        name: &'static str,
        value: String,
    },
    Analyse {
        plies: usize,
        unknown: usize,
        stopped: bool,
    },
    /// `ok explore moves N unknown U [stopped]`: the moves listed, and how
    /// many of them no proof reached.
    Explore {
        moves: usize,
        unknown: usize,
        stopped: bool,
    },
}

impl Done {
    /// `ok analyse plies N unknown U [stopped]`: the moves valued, and how
    /// many of them no proof reached.
    pub fn analyse(analysis: &GameAnalysis) -> Done {
        Done::Analyse {
            plies: analysis.moves.len(),
            unknown: analysis
                .moves
                .iter()
                .filter(|r| r.verdict == Verdict::Unknown)
                .count(),
            stopped: analysis.stopped,
        }
    }

    /// UCI has no reply for these: a GUI would take the line for noise.
    /// `newgame` keeps its reply, UCI's spelling of it (`ucinewgame`) has
    /// none; `answering` is the command replied to, if the reply answers
    /// one.
    pub fn silent_in_uci(&self, answering: Option<Verb>) -> bool {
        match self {
            Done::Bye
            | Done::Stop
            | Done::PonderHit
            | Done::SetOption { .. }
            | Done::PositionAwaitingGaps { .. }
            | Done::Position { .. }
            | Done::ChessPosition => true,
            Done::NewGame { .. } => answering == Some(Verb::UciNewGame),
            _ => false,
        }
    }
}

impl fmt::Display for Done {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ok ")?;
        match self {
            Done::Bye => f.write_str("bye"),
            Done::Stop => f.write_str("stop"),
            Done::PonderHit => f.write_str("ponderhit"),
            Done::Help => f.write_str("help"),
            Done::Board => f.write_str("board"),
            Done::Fen(fen) => write!(f, "fen {fen}"),
            Done::Nodes(n) => write!(f, "nodes {n}"),
            Done::NewGame {
                game,
                awaiting_gaps,
            } => {
                write!(f, "newgame {game}")?;
                if *awaiting_gaps {
                    f.write_str(" awaiting gaps")?;
                }
                Ok(())
            }
            Done::Gaps(gaps) => write!(f, "gaps {gaps}"),
            Done::PositionAwaitingGaps { rules } => {
                write!(f, "position startpos {rules} awaiting gaps")
            }
            Done::Position { fen } => write!(f, "position {fen}"),
            Done::ChessPosition => f.write_str("position startpos chess"),
            Done::Move { mv, san, result } => {
                write!(f, "move {mv}")?;
                if let Some(san) = san {
                    write!(f, " san {san}")?;
                }
                if let Some(result) = result {
                    write!(f, " result {result}")?;
                }
                Ok(())
            }
            Done::Undo { taken: None } => f.write_str("undo"),
            Done::Undo {
                taken: Some((mv, san)),
            } => write!(f, "undo {mv} san {san}"),
            Done::Moves(n) => write!(f, "moves {n}"),
            Done::SetOption { name, value } => write!(f, "setoption {name} {value}"),
            Done::Analyse {
                plies,
                unknown,
                stopped,
            } => {
                write!(f, "analyse plies {plies} unknown {unknown}")?;
                stopped_word(f, *stopped)
            }
            Done::Explore {
                moves,
                unknown,
                stopped,
            } => {
                write!(f, "explore moves {moves} unknown {unknown}")?;
                stopped_word(f, *stopped)
            }
        }
    }
}

/// ` stopped` where `stop` cut the work short.
fn stopped_word(f: &mut fmt::Formatter<'_>, stopped: bool) -> fmt::Result {
    if stopped {
        f.write_str(" stopped")?;
    }
    Ok(())
}

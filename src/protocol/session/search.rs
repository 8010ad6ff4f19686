//! The engine's work seen from the session: `go` and the move it plays, and
//! the budgets and final lines of `solve` and `analyse`.

use super::job::Work;
use super::{Action, Session, State};
use crate::engine::{Limits, SearchResult};
use crate::protocol::reply::{ErrorCode, error};
use crate::rules::{Color, Position, uci};
use crate::solver::{Proven, SolveLimits};

impl Session {
    /// `go`: its limits as the command gave them; the session's options
    /// reach the engine with the job (see [`Session::start`]).
    pub(super) fn go(&mut self, limits: Limits) -> Action {
        match &self.state {
            State::AwaitingGaps(rules) => {
                let rules = *rules;
                // Pondering is for a game under way; the gaps are chosen now.
                let gaps_limits = Limits {
                    ponder: false,
                    ..limits.clone()
                };
                let action = self.start(Work::ChooseGaps {
                    rules,
                    limits: gaps_limits,
                });
                // A UCI GUI waits for `bestmove` whatever happens: the
                // search follows the choice.
                if self.uci
                    && let Some(running) = &mut self.running
                {
                    running.search_after_gaps = Some(limits);
                }
                action
            }
            State::Chess(_) => self.no_search(error(
                ErrorCode::Unsupported,
                "the engine plays pawn games only",
            )),
            State::Refused(_, why) => {
                let detail = format!("no position: the last position command was refused ({why})");
                self.no_search(error(ErrorCode::WrongState, detail))
            }
            State::Playing(game) if game.outcome().is_some() => {
                Action::Reply(vec!["bestmove (none)".into()])
            }
            State::Playing(game) if limits.ponder => {
                // Until `ponderhit` or `stop`: prove and search for as long
                // as the opponent thinks; the real limits wait.
                let pos = *game.position();
                let pondering = Limits {
                    infinite: true,
                    ponder: true,
                    ..Limits::default()
                };
                let action = self.start(Work::Search {
                    pos,
                    limits: pondering,
                });
                if let Some(running) = &mut self.running {
                    running.ponder = Some(Limits {
                        ponder: false,
                        ..limits
                    });
                }
                action
            }
            State::Playing(game) => {
                let pos = *game.position();
                self.start(Work::Search { pos, limits })
            }
        }
    }

    /// A `go` that cannot search: the error, and for a UCI GUI, which waits
    /// for `bestmove` and never reads errors, `bestmove (none)` too.
    fn no_search(&self, error_line: String) -> Action {
        let mut lines = vec![error_line];
        if self.uci {
            lines.push("bestmove (none)".into());
        }
        Action::Reply(lines)
    }

    /// Plays the engine's move on the board. Nothing else could change the
    /// game while the search ran: the session refuses moves while busy.
    pub(super) fn apply_search(&mut self, result: SearchResult) -> Vec<String> {
        let State::Playing(game) = &mut self.state else {
            return vec!["bestmove (none)".into()];
        };
        match result.best.filter(|m| game.position().is_legal(*m)) {
            Some(m) => {
                let before = *game.position();
                game.play(m);
                let mut lines = Vec::new();
                if let Some(o) = game.outcome() {
                    lines.push(format!(
                        "info string result {} {}",
                        o.result_word(),
                        o.reason_tokens()
                    ));
                }
                let mut best = format!("bestmove {}", uci(&before, m));
                // UCI's guess at the reply, which a GUI may ponder on; the
                // protocol's own peers get the move alone.
                if self.uci
                    && let [first, reply, ..] = result.pv.as_slice()
                    && *first == m
                    && game.outcome().is_none()
                    && game.position().is_legal(*reply)
                {
                    best.push_str(&format!(" ponder {}", uci(game.position(), *reply)));
                }
                lines.push(best);
                lines
            }
            None => vec!["bestmove (none)".into()],
        }
    }
}

/// `solution white plies 31 pv b2b4 ...`, or `solution unknown`: a budget
/// that ran out is said so, never guessed.
pub(super) fn solution_line(pos: &Position, solution: Option<&Proven>) -> String {
    let Some(s) = solution else {
        return "solution unknown".into();
    };
    let winner = s
        .value
        .winner(pos.side_to_move())
        .map_or("draw", Color::name);
    // A solve always proves the distance.
    let plies = s.plies.unwrap_or(s.line.len() as u32);
    let mut line = format!("solution {winner} plies {plies}");
    if !s.line.is_empty() {
        line.push_str(" pv");
        for m in &s.line {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// `analyse` without a budget gets the command line's default per position.
pub(super) fn analyse_limits(limits: SolveLimits) -> SolveLimits {
    if limits.nodes.is_none() && limits.movetime_ms.is_none() {
        SolveLimits {
            nodes: None,
            movetime_ms: Some(crate::analysis::DEFAULT_POSITION_MS),
        }
    } else {
        limits
    }
}

//! The engine's work seen from the session: `go` and the move it plays, and
//! the budgets and final lines of `solve` and `analyse`.

use super::game::legal_move;
use super::job::Work;
use super::{Action, Session, State};
use crate::engine::{Limits, SearchResult};
use crate::protocol::reply::{ErrorCode, Refusal, Reply};
use crate::rules::{Move, uci};
use crate::solver::SolveLimits;

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
            State::Chess(_) => Action::Reply(vec![Reply::error(
                ErrorCode::Unsupported,
                "the engine plays pawn games only",
            )]),
            State::Refused(_, why) => {
                let detail = format!("no position: the last position command was refused ({why})");
                Action::Reply(vec![Reply::error(ErrorCode::WrongState, detail)])
            }
            State::Playing(game) if game.outcome().is_some() => {
                Action::Reply(vec![Reply::no_move()])
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

    /// Plays the engine's move on the board. Nothing else could change the
    /// game while the search ran: the session refuses moves while busy.
    pub(super) fn apply_search(&mut self, result: SearchResult) -> Vec<Reply> {
        let State::Playing(game) = &mut self.state else {
            return vec![Reply::no_move()];
        };
        match result.best.filter(|m| game.position().is_legal(*m)) {
            Some(m) => {
                let before = *game.position();
                game.play(m);
                let mut lines = Vec::new();
                if let Some(o) = game.outcome() {
                    lines.push(Reply::say(format!(
                        "result {} {}",
                        o.result_word(),
                        o.reason_tokens()
                    )));
                }
                // UCI's guess at the reply, which a GUI may ponder on; the
                // protocol's own peers get the move alone.
                let ponder = match result.pv.as_slice() {
                    [first, reply, ..]
                        if self.uci
                            && *first == m
                            && game.outcome().is_none()
                            && game.position().is_legal(*reply) =>
                    {
                        Some(uci(game.position(), *reply))
                    }
                    _ => None,
                };
                lines.push(Reply::BestMove {
                    best: Some(uci(&before, m)),
                    ponder,
                });
                lines
            }
            None => vec![Reply::no_move()],
        }
    }

    /// `go searchmoves`' moves read against the game's position (none
    /// given: none, every move may be chosen).
    pub(super) fn root_moves(&self, texts: &[String]) -> Result<Vec<Move>, Refusal> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let pos = *self.game()?.position();
        texts.iter().map(|t| legal_move(&pos, t)).collect()
    }
}

/// `analyse` without a budget gets the command line's default per position.
pub(super) fn analyse_limits(limits: SolveLimits) -> SolveLimits {
    or_movetime(limits, crate::analysis::DEFAULT_POSITION_MS)
}

/// `explore` without a budget gets its default per move.
pub(super) fn explore_limits(limits: SolveLimits) -> SolveLimits {
    or_movetime(limits, crate::analysis::explore::DEFAULT_MOVE_MS)
}

fn or_movetime(limits: SolveLimits, ms: u64) -> SolveLimits {
    if limits.nodes.is_none() && limits.movetime_ms.is_none() {
        SolveLimits {
            nodes: None,
            movetime_ms: Some(ms),
        }
    } else {
        limits
    }
}

//! UCI mode: after `uci`, and until one of the protocol's own commands
//! (`newgame`, `gaps`, `move`, `board`, ...), a session is a drop-in UCI
//! engine for chess GUIs and libraries (python-chess among them). Its
//! replies are rendered in UCI's dialect ([`Reply::render`]): what UCI
//! leaves unanswered stays unanswered, errors of UCI's commands come as
//! `info string error <code> <detail>`, and `go` always ends in `bestmove`.
//! The rest of the protocol works as before.

use super::{Action, Session, State};
use crate::protocol::command::Verb;
use crate::protocol::reply::{Dialect, Reply};

impl Session {
    /// Enters UCI mode on `uci`, leaves it on one of the protocol's own
    /// commands (see [`Verb::leaves_uci`]).
    pub(super) fn note_dialect(&mut self, line: &str, verb: Option<Verb>) {
        if verb == Some(Verb::Uci) && line.split_ascii_whitespace().nth(1).is_none() {
            self.uci = true;
        } else if verb.is_some_and(Verb::leaves_uci) {
            self.uci = false;
        }
    }

    /// In UCI mode a `go` ends in `bestmove`, whatever happens: a GUI waits
    /// for it. A `go` refused (malformed, no position, chess, dropped while
    /// busy) gets `bestmove (none)` after its error.
    pub(super) fn end_refused_go(&self, verb: Option<Verb>, action: Action) -> Action {
        match action {
            Action::Reply(mut lines)
                if self.uci
                    && verb == Some(Verb::Go)
                    && lines.iter().any(|l| matches!(l, Reply::Error { .. }))
                    && !lines.iter().any(|l| matches!(l, Reply::BestMove { .. })) =>
            {
                lines.push(Reply::no_move());
                Action::Reply(lines)
            }
            action => action,
        }
    }

    /// The action as the session's peer should get it (see
    /// [`Reply::render`]); `answering` is the verb of the line it answers,
    /// if any.
    pub(super) fn speak(&self, answering: Option<Verb>, action: Action) -> Action {
        let dialect = if self.uci {
            Dialect::Uci { answering }
        } else {
            Dialect::Protocol
        };
        let said = |lines: Vec<Reply>| -> Vec<Reply> {
            lines
                .into_iter()
                .filter_map(|l| l.render(dialect))
                .collect()
        };
        match action {
            Action::Reply(lines) => Action::Reply(said(lines)),
            Action::Quit(lines) => Action::Quit(said(lines)),
            run => run,
        }
    }

    /// A `position` line that did not even parse still replaces the game:
    /// it was meant to (see [`State::Refused`]).
    pub(super) fn refuse_position(&mut self, verb: Option<Verb>, why: &str) {
        if verb == Some(Verb::Position) && !matches!(self.state, State::Chess(_)) {
            self.state = State::Refused(self.rules(), why.to_string());
        }
    }
}

#[cfg(test)]
mod tests;

//! UCI mode: after `uci`, and until one of the protocol's own commands
//! (`newgame`, `gaps`, `move`, `board`, ...), a session is a drop-in UCI
//! engine for chess GUIs and libraries (python-chess among them). What UCI
//! leaves unanswered stays unanswered (`position`, `setoption`,
//! `ucinewgame`, `stop`, `ponderhit`, `quit`: their `ok ...` lines are left
//! out, as a GUI takes any other line for noise), errors of UCI's commands
//! come as `info string error <code> <detail>` (the one line UCI gives an
//! engine to say something), and `go` always ends in `bestmove`. The rest
//! of the protocol works as before.

use super::{Action, Session, State};

/// Replies that UCI's commands do not have. (`newgame` keeps its reply;
/// UCI's spelling, `ucinewgame`, has none: see [`Session::speak`].)
const SILENT_IN_UCI: [&str; 5] = [
    "ok position",
    "ok setoption",
    "ok stop",
    "ok ponderhit",
    "ok bye",
];

/// The commands UCI defines.
const UCI_COMMANDS: [&str; 11] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// The protocol's own commands: a peer that sends one speaks the protocol,
/// not UCI, and the session leaves UCI mode (a person who sent `uci` to
/// see the options, then plays).
const OWN_COMMANDS: [&str; 13] = [
    "newgame", "gaps", "move", "undo", "moves", "board", "d", "fen", "perft", "solve", "analyse",
    "analyze", "help",
];

impl Session {
    /// Enters UCI mode on `uci`, leaves it on one of the protocol's own
    /// commands.
    pub(super) fn note_dialect(&mut self, line: &str) {
        let mut words = line.split_ascii_whitespace();
        let Some(word) = words.next() else {
            return;
        };
        if word.eq_ignore_ascii_case("uci") && words.next().is_none() {
            self.uci = true;
        } else if OWN_COMMANDS.iter().any(|c| word.eq_ignore_ascii_case(c)) {
            self.uci = false;
        }
    }

    /// The action as the session's peer should get it; `line` is the input
    /// it answers, if any.
    pub(super) fn speak(&self, line: Option<&str>, action: Action) -> Action {
        if !self.uci {
            return action;
        }
        let word = line.and_then(|l| l.split_ascii_whitespace().next());
        let is = |name: &str| word.is_some_and(|w| w.eq_ignore_ascii_case(name));
        let uci_new_game = is("ucinewgame");
        // Errors of UCI's own commands go where a GUI shows them; the
        // protocol's commands (`move`, `gaps`, ...) keep their error lines,
        // which the person or program that sent them reads.
        let uci_command = UCI_COMMANDS.iter().any(|c| is(c));
        let said = |lines: Vec<String>| uci_lines(lines, uci_new_game, uci_command);
        match action {
            Action::Reply(lines) => Action::Reply(said(lines)),
            Action::Quit(lines) => Action::Quit(said(lines)),
            run => run,
        }
    }

    /// A `position` line that did not even parse still replaces the game:
    /// it was meant to (see [`State::Refused`]).
    pub(super) fn refuse_position(&mut self, line: &str, why: &str) {
        let is_position = line
            .split_ascii_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("position"));
        if is_position && !matches!(self.state, State::Chess(_)) {
            self.state = State::Refused(self.rules(), why.to_string());
        }
    }
}

fn uci_lines(lines: Vec<String>, uci_new_game: bool, uci_command: bool) -> Vec<String> {
    lines
        .into_iter()
        .filter(|l| !SILENT_IN_UCI.iter().any(|p| l.starts_with(p)))
        .filter(|l| !(uci_new_game && l.starts_with("ok newgame")))
        .map(|l| {
            if uci_command && l.starts_with("error ") {
                format!("info string {l}")
            } else {
                l
            }
        })
        .collect()
}

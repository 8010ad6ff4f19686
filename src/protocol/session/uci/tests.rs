//! The dialect rules clients copy (`Verb::silent_in_uci`, which the page's
//! script is held to) against what a session really sends.

use super::super::{Action, Session, SessionOptions};
use crate::protocol::command::Verb;
use crate::protocol::reply::Reply;

/// A well-formed line of each verb.
fn sample(verb: Verb) -> &'static str {
    match verb {
        Verb::Uci => "uci",
        Verb::Debug => "debug on",
        Verb::IsReady => "isready",
        Verb::SetOption => "setoption name Threads value 1",
        Verb::Register => "register later",
        Verb::UciNewGame => "ucinewgame",
        Verb::Position => "position startpos gaps AH",
        Verb::Go => "go depth 1",
        Verb::Stop => "stop",
        Verb::PonderHit => "ponderhit",
        Verb::Quit => "quit",
        Verb::Exit => "exit",
        Verb::NewGame => "newgame",
        Verb::Gaps => "gaps AH",
        Verb::Move => "move e2e4",
        Verb::Undo => "undo",
        Verb::Moves => "moves",
        Verb::Board => "board",
        Verb::D => "d",
        Verb::Fen => "fen",
        Verb::Perft => "perft 1",
        Verb::Solve => "solve nodes 1000",
        Verb::Analyse => "analyse nodes 100",
        Verb::Analyze => "analyze nodes 100",
        Verb::Explore => "explore nodes 100",
        Verb::Help => "help",
    }
}

/// Every reply to `line`, its job run inline.
fn answer(session: &mut Session, line: &str) -> Vec<Reply> {
    let mut out = Vec::new();
    let mut action = session.handle_line(line);
    loop {
        match action {
            Action::Reply(lines) | Action::Quit(lines) => {
                out.extend(lines);
                return out;
            }
            Action::Run(job) => {
                let done = job.run(&mut |reply| out.push(reply));
                action = session.finish(done);
            }
            Action::ReadFile(path) => {
                let text = std::fs::read_to_string(&path).map_err(|e| e.to_string());
                action = session.file_read(&path, text);
            }
        }
    }
}

/// A session with a game under way, speaking `uci` or not.
fn session(uci: bool) -> Session {
    let mut s = Session::new(SessionOptions::default());
    answer(&mut s, "position startpos gaps AH");
    if uci {
        answer(&mut s, "uci");
    }
    s
}

#[test]
fn every_command_gets_one_final_line_and_it_comes_last() {
    for verb in Verb::ALL {
        let line = sample(verb);
        let replies = answer(&mut session(false), line);
        let finals = replies.iter().filter(|r| r.is_final()).count();
        assert_eq!(finals, 1, "{line}: {replies:?}");
        assert!(replies.last().is_some_and(Reply::is_final), "{line}");
    }
}

#[test]
fn in_uci_mode_the_silent_verbs_get_no_final_line_and_the_rest_one() {
    for verb in Verb::ALL {
        let line = sample(verb);
        let replies = answer(&mut session(true), line);
        let finals = replies.iter().filter(|r| r.is_final()).count();
        let want = usize::from(!verb.silent_in_uci());
        assert_eq!(finals, want, "{line}: {replies:?}");
    }
}

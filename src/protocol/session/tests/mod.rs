//! The session driven line by line, jobs run inline: the drivers here,
//! the tests by topic in the files beside.

use super::*;

mod fuzz;
mod game;
mod jobs;
mod options;
mod uci;

/// Feeds lines to a session, running any job inline, and returns every
/// line written.
fn drive(session: &mut Session, lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let mut action = session.handle_line(line);
        loop {
            match action {
                Action::Reply(l) | Action::Quit(l) => {
                    out.extend(text(&l));
                    break;
                }
                Action::Run(job) => {
                    let done = job.run(&mut |l| out.push(l.to_string()));
                    action = session.finish(done);
                }
                Action::ReadFile(path) => action = session.file_read(&path, read(&path)),
            }
        }
    }
    out
}

/// A file as the server reads it for [`Action::ReadFile`].
fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// The lines as the peer reads them.
fn text(lines: &[Reply]) -> Vec<String> {
    lines.iter().map(Reply::to_string).collect()
}

/// What each command finally answered: the lines that end a reply.
fn finals(out: &[String]) -> Vec<&str> {
    out.iter()
        .map(String::as_str)
        .filter(|l| crate::protocol::is_final_line(l))
        .collect()
}

/// Runs the session's actions as the server does: a job to its end, then
/// whatever waited behind it.
fn settle(s: &mut Session, mut action: Action, out: &mut Vec<String>) {
    loop {
        match action {
            Action::Reply(l) => out.extend(text(&l)),
            Action::Quit(l) => {
                out.extend(text(&l));
                return;
            }
            Action::Run(job) => {
                let done = job.run(&mut |_| {});
                action = s.finish(done);
                continue;
            }
            Action::ReadFile(path) => {
                action = s.file_read(&path, read(&path));
                continue;
            }
        }
        match s.next_queued() {
            Some(next) => action = next,
            None => return,
        }
    }
}

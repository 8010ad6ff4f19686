//! The documents' example sessions replayed against the real binary, so
//! that what README.md and protocol.md show is what the program answers.
//!
//! A session is a block of lines: `> ` starts what the client sends, every
//! other line is a reply. Replies are compared exactly but for `...`: inside
//! a line it stands for any text (times, speeds, the machine's cores); a line
//! that starts with `...` stands for any number of lines, up to the next
//! line the block names (it may not end a command's replies). Each command
//! is sent only once the replies listed under it have come, as a person
//! typing would, and nothing more may come in between.

mod common;

use common::{LINE_TIMEOUT, Recv, StdioProcess, wait_exit};
use std::time::Duration;

/// One command and the replies the document lists under it.
struct Exchange {
    send: String,
    replies: Vec<Expected>,
}

enum Expected {
    Line { pattern: String, at: usize },
    Lines { at: usize },
}

fn read(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The lines of the first code block after `heading`: an indented block
/// (four spaces) or a fenced one. Each line comes with its number in `doc`.
fn block_after(doc: &str, heading: &str) -> Vec<(usize, String)> {
    block_after_line(doc, heading, |l| l.trim_end() == heading)
}

/// [`block_after`] for the block after the first line that `starts` it.
fn block_after_line(doc: &str, what: &str, starts: impl Fn(&str) -> bool) -> Vec<(usize, String)> {
    let lines: Vec<&str> = doc.lines().collect();
    let start = lines
        .iter()
        .position(|l| starts(l))
        .unwrap_or_else(|| panic!("no line {what:?}"));
    let mut block = Vec::new();
    let mut fenced = false;
    let mut blanks = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(start + 1) {
        if line.starts_with("#") && !fenced {
            break;
        }
        if line.starts_with("```") {
            if fenced {
                break;
            }
            fenced = true;
            continue;
        }
        if fenced {
            block.push((i + 1, line.to_string()));
        } else if let Some(code) = line.strip_prefix("    ") {
            // Blank lines inside an indented block belong to it.
            block.extend(blanks.drain(..).map(|at| (at, String::new())));
            block.push((i + 1, code.to_string()));
        } else if line.trim().is_empty() && !block.is_empty() {
            blanks.push(i + 1);
        } else if !block.is_empty() {
            break;
        }
    }
    assert!(!block.is_empty(), "no code block after {what:?}");
    block
}

fn exchanges(block: &[(usize, String)]) -> Vec<Exchange> {
    let mut out: Vec<Exchange> = Vec::new();
    for (at, line) in block {
        if let Some(send) = line.strip_prefix("> ") {
            out.push(Exchange {
                send: send.to_string(),
                replies: Vec::new(),
            });
            continue;
        }
        let exchange = out
            .last_mut()
            .unwrap_or_else(|| panic!("line {at}: a reply before any command: {line:?}"));
        exchange.replies.push(if line.starts_with("...") {
            Expected::Lines { at: *at }
        } else {
            Expected::Line {
                pattern: line.clone(),
                at: *at,
            }
        });
    }
    for exchange in &out {
        if let Some(Expected::Lines { at }) = exchange.replies.last() {
            panic!("line {at}: a `...` line cannot end a command's replies");
        }
    }
    out
}

/// `text` matches `pattern`, where each `...` in the pattern is any text.
fn matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split("...");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Plays `doc`'s session on a fresh `pawnrace` over stdio; the first
/// mismatch, as the document's file and line.
fn replay(name: &str, doc: &str, heading: &str) -> Result<(), String> {
    let block = block_after(doc, heading);
    let exchanges = exchanges(&block);
    if exchanges.is_empty() {
        return Err(format!("{name}: no command after {heading:?}"));
    }
    let mut process = StdioProcess::spawn(&[]);
    let peer = &process.peer;
    let next = |at: usize| match peer.recv_within(LINE_TIMEOUT) {
        Recv::Line(line) => Ok(line),
        Recv::Eof => Err(format!("{name}:{at}: the output ended")),
        Recv::Timeout => Err(format!("{name}:{at}: nothing came in time")),
    };
    for exchange in &exchanges {
        peer.send(&exchange.send);
        let mut skipping = false;
        for expected in &exchange.replies {
            match expected {
                Expected::Lines { .. } => skipping = true,
                Expected::Line { pattern, at } => loop {
                    let got = next(*at)?;
                    if matches(pattern, &got) {
                        skipping = false;
                        break;
                    }
                    if !skipping {
                        return Err(format!("{name}:{at}: expected {pattern:?}, got {got:?}"));
                    }
                },
            }
        }
    }
    peer.close_input();
    let rest = peer
        .rest(Duration::from_secs(10))
        .map_err(|rest| format!("{name}: the output did not end; after the session: {rest:?}"))?;
    if !rest.is_empty() {
        return Err(format!("{name}: more than the document shows: {rest:?}"));
    }
    match wait_exit(&mut process.child, Duration::from_secs(10)) {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(format!("{name}: pawnrace exited with {status}")),
        None => Err(format!("{name}: pawnrace did not exit")),
    }
}

#[test]
fn readme_try_it_is_what_the_program_answers() {
    replay("README.md", &read("README.md"), "## Try it").unwrap();
}

#[test]
fn protocol_example_session_is_what_the_program_answers() {
    replay("protocol.md", &read("protocol.md"), "## Example session").unwrap();
}

#[test]
fn a_changed_reply_fails_the_replay() {
    let doc = "## S\n\n    > newgame\n    ok newgame pawnrace awaiting gaps\n    > gaps AH\n    ok gaps AB\n";
    let e = replay("doc", doc, "## S").unwrap_err();
    assert!(e.contains("doc:6: expected \"ok gaps AB\""), "{e}");
}

#[test]
fn a_missing_reply_line_fails_the_replay() {
    // The document leaves out `ok gaps AH`: the next line it names is not it.
    let doc = "## S\n\n    > newgame\n    ok newgame pawnrace awaiting gaps\n    > gaps AH\n    > fen\n    ok fen 8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -\n";
    let e = replay("doc", doc, "## S").unwrap_err();
    assert!(e.contains("got \"ok gaps AH\""), "{e}");
}

#[test]
fn wildcards_match_within_a_line_and_across_lines() {
    assert!(matches(
        "info depth ... nps ... pv a7a5",
        "info depth 1 nodes 14 nps 9 pv a7a5"
    ));
    assert!(matches("a ...", "a "));
    assert!(!matches("a ... b", "a x c"));
    assert!(!matches("ok gaps AH", "ok gaps AH extra"));
    assert!(!matches("x...x", "x"));
    let doc = "## S\n\n    > newgame\n    ok newgame pawnrace awaiting gaps\n    > gaps AH\n    ok gaps AH\n    > board\n    ... the board ...\n    status ...\n    ok board\n";
    replay("doc", doc, "## S").unwrap();
}

/// `output` is what `block` shows, line for line, with the same `...`
/// rules as a session's replies.
fn compare(name: &str, block: &[(usize, String)], output: &str) -> Result<(), String> {
    let mut got = output.lines();
    let mut skipping = false;
    for (at, pattern) in block {
        if pattern.starts_with("...") {
            skipping = true;
            continue;
        }
        loop {
            let Some(line) = got.next() else {
                return Err(format!(
                    "{name}:{at}: expected {pattern:?}, the output ended"
                ));
            };
            if matches(pattern, line) {
                skipping = false;
                break;
            }
            if !skipping {
                return Err(format!("{name}:{at}: expected {pattern:?}, got {line:?}"));
            }
        }
    }
    let rest: Vec<&str> = got.collect();
    if skipping || !rest.is_empty() {
        return Err(format!("{name}: more than the document shows: {rest:?}"));
    }
    Ok(())
}

/// README's "Analysing games" table, made from the game it describes.
#[test]
fn readme_analysis_example_is_what_analyse_prints() {
    let dir = common::temp_dir("readme-analyse");
    let pgn = dir.join("game.pgn");
    std::fs::write(
        &pgn,
        "[White \"alice\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n[Gaps \"CG\"]\n\n\
         1. a4 a6 2. g4 e5 3. g5 a5 4. h4 c6 5. h5 b5 6. b3 bxa4 7. bxa4 e4 8. f4 exf3 \
         9. exf3 c5 10. f4 c4 11. f5 c3 12. g6 d5 13. gxh7 cxd2 14. h8=Q 1-0\n",
    )
    .unwrap();
    let path = pgn.to_string_lossy().into_owned();
    let (ok, stdout, stderr) = common::run_binary(&["analyse", &path], b"");
    assert!(ok, "{stderr}");
    let doc = read("README.md");
    let block = block_after_line(&doc, "holds the output to it", |l| {
        l.contains("analyses this game and holds the output to it):")
    });
    compare("README.md", &block, &stdout).unwrap();
}

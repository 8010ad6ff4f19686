//! The Imperial College Pawn Race autorunner's protocol, so that pawnrace
//! can take a student bot's seat in that harness (`pawnrace autorunner W`).
//!
//! It is not the pawnrace protocol: there are no commands and no replies,
//! only the game's items, one a line. Black first writes the gaps it chooses
//! (white's first, `AH`); then both players read the gaps the harness
//! confirms; then the moves go back and forth in SAN, white first. We write
//! nothing but gaps and moves, flushing each line, because the harness
//! forwards our output to the other bot verbatim.
//!
//! Real bots are untidy, so reading is forgiving: moves in SAN or long
//! forms, any case, with check marks or a move number; a line that is not a
//! move (a prompt, a board dump) is logged and skipped; so is a well-formed
//! move the position does not allow, since it is more likely an echo or a
//! stray line than the opponent's real move, and giving up would forfeit a
//! game the harness may still carry on. (An echo of our own move is mostly
//! caught by this: our pawn now stands on its square, so the echo of a step
//! or of any coordinates is illegal for the other side. The SAN of a
//! capture, `dxe5`, can name an opponent's capture too and is read as one;
//! an echoing bot could not play in the harness anyway.)

use crate::engine::{Engine, Limits};
use crate::rules::{Color, Gaps, Move, MoveError, Outcome, Position, RuleSet, parse_move, san};
use crate::stop::Stop;
use std::io::{self, BufRead, Write};
use tracing::{debug, info, warn};

/// The per-move budget without `--movetime`: the engine's default move
/// time.
pub use crate::engine::DEFAULT_MOVETIME_MS;

/// No gaps line or move is anywhere near this long; the cap keeps a peer
/// that never sends a newline from filling our memory.
const MAX_LINE_BYTES: usize = 1024;

/// How the engine plays.
#[derive(Clone, Debug)]
pub struct Config {
    /// Every move and the choice of gaps get these limits. A `movetime`
    /// lets the engine play from its openings table or a solver proof.
    pub limits: Limits,
    /// Transposition table size, MiB.
    pub hash_mib: usize,
    /// Think on the opponent's time: while its move is awaited, the engine
    /// proves the position, so that the proof of our reply is mostly in
    /// the table when the move comes. Only with a clock: a depth-limited
    /// game stays reproducible.
    pub ponder: bool,
}

impl Config {
    pub fn with_movetime(ms: u64) -> Config {
        Config {
            limits: Limits {
                movetime_ms: Some(ms),
                ..Limits::default()
            },
            hash_mib: 16,
            ponder: true,
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::with_movetime(DEFAULT_MOVETIME_MS)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None` if the input closed before the harness confirmed the gaps.
    pub gaps: Option<Gaps>,
    /// Every move of the game, both sides'.
    pub moves: Vec<Move>,
    /// `None` if the input closed before the game was over.
    pub outcome: Option<Outcome>,
}

/// Plays one game as `colour`: gaps first if black, then moves until the
/// game is over or `input` ends. Only a failing stream is an error.
pub fn run(
    colour: Color,
    mut input: impl BufRead,
    mut output: impl Write,
    config: &Config,
) -> io::Result<Ending> {
    let mut engine = Engine::new(config.hash_mib);
    // Nothing stops a search early: each ends on its own clock.
    let stop = Stop::new();
    let rules = RuleSet::PAWNRACE;

    if colour == Color::Black {
        let gaps = engine.choose_gaps(&rules, &config.limits, &stop);
        info!("chose gaps {gaps}");
        say(&mut output, &gaps.to_string())?;
    }
    let Some(gaps) = read_gaps(&mut input)? else {
        info!("input closed before the gaps");
        return Ok(Ending {
            gaps: None,
            moves: Vec::new(),
            outcome: None,
        });
    };
    info!("playing {colour} with gaps {gaps}");
    let mut pos = match Position::start(rules, Some(gaps)) {
        Ok(pos) => pos,
        // Two file letters always make a start; this only guards the rules.
        Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string())),
    };
    let mut moves = Vec::new();

    while pos.outcome().is_none() {
        let m = if pos.side_to_move() == colour {
            let m = our_move(&mut engine, &pos, &config.limits, &stop)?;
            say(&mut output, &san(m))?;
            m
        } else {
            let read = |input: &mut _| read_opponent_move(input, &pos);
            let reading = if config.ponder {
                ponder_while(&mut engine, &pos, || read(&mut input))
            } else {
                read(&mut input)
            };
            match reading? {
                Some(m) => m,
                None => {
                    info!("input closed during the game");
                    return Ok(Ending {
                        gaps: Some(gaps),
                        moves,
                        outcome: None,
                    });
                }
            }
        };
        moves.push(m);
        pos = pos.play_unchecked(m);
    }
    let outcome = pos.outcome();
    if let Some(o) = outcome {
        info!("game over: {o}");
    }
    Ok(Ending {
        gaps: Some(gaps),
        moves,
        outcome,
    })
}

/// Runs `wait` (reading the opponent's move) while the engine ponders
/// `pos` on another thread, and stops the pondering when it returns.
fn ponder_while<T>(engine: &mut Engine, pos: &Position, wait: impl FnOnce() -> T) -> T {
    let stop = Stop::new();
    let limits = Limits {
        infinite: true,
        ponder: true,
        ..Limits::default()
    };
    std::thread::scope(|s| {
        let thinker = s.spawn(|| {
            engine.search(pos, &limits, &stop, &mut |_| {});
        });
        let out = wait();
        stop.raise();
        if thinker.join().is_err() {
            warn!("pondering failed; the game goes on without it");
        }
        out
    })
}

/// One item on its own line, at once: the harness waits for it.
fn say(output: &mut impl Write, item: &str) -> io::Result<()> {
    writeln!(output, "{item}")?;
    output.flush()
}

fn our_move(engine: &mut Engine, pos: &Position, limits: &Limits, stop: &Stop) -> io::Result<Move> {
    let mut last = None;
    let result = engine.search(pos, limits, stop, &mut |i| last = Some(i.clone()));
    if let Some(i) = last {
        debug!(
            "depth {} score {} nodes {} time {}{}",
            i.depth,
            i.score,
            i.nodes,
            i.time_ms,
            if i.proven.is_some() { " proven" } else { "" }
        );
    }
    // The search always has a move in a game that is not over; falling back
    // to the first legal one keeps that a promise rather than a panic.
    result
        .best
        .filter(|m| pos.is_legal(*m))
        .or_else(|| pos.legal_moves().iter().next().copied())
        .ok_or_else(|| io::Error::other(format!("no legal move in {}", pos.fen())))
}

/// The first line that is a pair of gaps; `None` at the end of input.
fn read_gaps(input: &mut impl BufRead) -> io::Result<Option<Gaps>> {
    while let Some(line) = read_line(input)? {
        let compact: String = line.split_whitespace().collect();
        match compact.parse::<Gaps>() {
            Ok(gaps) => return Ok(Some(gaps)),
            Err(_) if compact.is_empty() => {}
            Err(_) => info!("ignored a line that is not gaps: {line:?}"),
        }
    }
    Ok(None)
}

/// The opponent's next legal move; `None` at the end of input.
fn read_opponent_move(input: &mut impl BufRead, pos: &Position) -> io::Result<Option<Move>> {
    while let Some(line) = read_line(input)? {
        match read_move(pos, &line) {
            Reading::Move(m) => return Ok(Some(m)),
            Reading::Blank => {}
            Reading::NotAMove => info!("ignored a line that is not a move: {line:?}"),
            Reading::Illegal(why) => warn!("ignored an illegal move from the opponent: {why}"),
        }
    }
    Ok(None)
}

/// What one line from the opponent says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    Move(Move),
    Blank,
    /// Chatter: a prompt, a board row, anything not shaped like a move.
    NotAMove,
    /// Shaped like a move, but not one the position allows; the reason.
    Illegal(String),
}

/// Reads a line the way bots write moves: whatever `parse_move` takes (SAN,
/// `e2e4`, `e2-e4`, `e5xd6`, any case, `+`/`#`/`!`/`?`), also after a move
/// number (`12. e4`, `3...exd4`) or split in two (`e2 e4`).
pub fn read_move(pos: &Position, line: &str) -> Reading {
    let text = line.trim();
    if text.is_empty() {
        return Reading::Blank;
    }
    let unnumbered = strip_move_number(text);
    let joined: String = unnumbered.split_whitespace().collect();
    let mut illegal = None;
    for candidate in [text, unnumbered, joined.as_str()] {
        if candidate.is_empty() || candidate.len() > 16 {
            continue;
        }
        match parse_move(pos, candidate) {
            Ok(m) => return Reading::Move(m),
            Err(MoveError::Illegal(why)) => {
                illegal.get_or_insert(why);
            }
            Err(MoveError::Malformed(_)) => {}
        }
    }
    illegal.map_or(Reading::NotAMove, Reading::Illegal)
}

/// `12. e4` and `3...exd4` without their numbers; anything else unchanged.
fn strip_move_number(text: &str) -> &str {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &text[digits..];
    let dots = rest.len() - rest.trim_start_matches('.').len();
    if digits == 0 || dots == 0 {
        return text;
    }
    rest[dots..].trim_start()
}

/// The next line without its line end, `None` at the end of input. Bytes
/// past the cap are dropped and bad UTF-8 is replaced: either way the line
/// is no move and is skipped, never a reason to stop.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut kept = Vec::new();
    let mut read_any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(read_any.then(|| finish_line(&kept)));
        }
        read_any = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let room = MAX_LINE_BYTES.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(finish_line(&kept)));
        }
    }
}

fn finish_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.trim_end_matches('\r').to_string()
}

#[cfg(test)]
mod tests;

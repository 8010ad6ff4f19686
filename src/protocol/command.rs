//! Parsing one line into a command. Verbs and keywords are case-insensitive;
//! what is left after a command's arguments is an error, not ignored.

mod help;
mod verb;

pub use help::help;
pub use verb::Verb;

use super::reply::ErrorCode;
use crate::engine::Limits;
use crate::rules::{Gaps, Variant};
use crate::solver::SolveLimits;

/// The deepest `perft` a session accepts; deeper ones would run for days.
pub const MAX_PERFT_DEPTH: u32 = 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `None`: the session's `UCI_Variant` (pawnrace unless set).
    NewGame(Option<GameKind>),
    Gaps(Gaps),
    Position {
        setup: Setup,
        moves: Vec<String>,
    },
    Move(String),
    Undo,
    Moves,
    Board,
    Fen,
    /// The limits, and `searchmoves`' moves as written (the session reads
    /// them against its position into [`Limits::searchmoves`]).
    Go(Limits, Vec<String>),
    Stop,
    PonderHit,
    Perft(u32),
    Solve(SolveLimits),
    /// Per-position budget; both `None` means the default.
    Analyse(SolveLimits),
    /// `explore`: every legal move's proven value, budget per move.
    Explore(SolveLimits),
    Help,
    Quit,
}

/// The games `newgame` starts: a pawn game the engine plays, or the chess
/// validator's full chess (`newgame chess`), which has no engine. Not the
/// `chess` of `UCI_Variant`, which names the board Pawn Race is played on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameKind {
    Pawn(Variant),
    FullChess,
}

impl std::str::FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<GameKind, String> {
        if s.eq_ignore_ascii_case("chess") {
            return Ok(GameKind::FullChess);
        }
        s.parse()
            .map(GameKind::Pawn)
            .map_err(|_| format!("unknown game '{s}' (known: pawnrace, mini4, chess)"))
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameKind::Pawn(variant) => variant.fmt(f),
            GameKind::FullChess => f.write_str("chess"),
        }
    }
}

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    StartPos(Option<Gaps>),
    Fen(String),
}

/// A line that is not a valid command: an unknown verb, or arguments its
/// verb does not take. (A well-formed command the session will not carry
/// out is a [`super::reply::Refusal`].)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub code: ErrorCode,
    pub detail: String,
}

fn bad(detail: impl Into<String>) -> ParseError {
    ParseError {
        code: ErrorCode::BadArgument,
        detail: detail.into(),
    }
}

/// Parses a line. `Ok(None)` for a blank line, which is not a command.
///
/// Words are separated by ASCII spaces and tabs only: another kind of space
/// is part of a word (and so makes it unknown), never a separator.
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    let mut words = line.split_ascii_whitespace();
    let Some(verb) = words.next() else {
        return Ok(None);
    };
    let args: Vec<&str> = words.collect();
    let unknown = || ParseError {
        code: ErrorCode::UnknownCommand,
        detail: format!("'{}' is not a command (help lists them)", printable(verb)),
    };
    let Some(known) = Verb::of(verb) else {
        return Err(unknown());
    };
    let verb_lc = known.word();
    let simple = |cmd: Command| {
        if args.is_empty() {
            Ok(cmd)
        } else {
            Err(bad(format!(
                "{verb_lc} takes no arguments, got '{}'",
                args.join(" ")
            )))
        }
    };
    let cmd = match known {
        Verb::Uci => simple(Command::Uci),
        Verb::IsReady => simple(Command::IsReady),
        Verb::Undo => simple(Command::Undo),
        Verb::Moves => simple(Command::Moves),
        Verb::Board | Verb::D => simple(Command::Board),
        Verb::Fen => simple(Command::Fen),
        Verb::Stop => simple(Command::Stop),
        Verb::PonderHit => simple(Command::PonderHit),
        Verb::Help => simple(Command::Help),
        Verb::Quit | Verb::Exit => simple(Command::Quit),
        Verb::SetOption => parse_setoption(&args),
        Verb::NewGame | Verb::UciNewGame => match args.as_slice() {
            [] => Ok(Command::NewGame(None)),
            [name] => name.parse().map(|k| Command::NewGame(Some(k))).map_err(bad),
            _ => Err(bad("newgame takes at most one game name")),
        },
        Verb::Gaps => match args.as_slice() {
            [g] => g.parse().map(Command::Gaps).map_err(bad),
            _ => Err(bad(
                "gaps takes two file letters, white's gap first, e.g. gaps AH",
            )),
        },
        Verb::Position => parse_position(&args),
        Verb::Move => match args.as_slice() {
            [m] => Ok(Command::Move(m.to_string())),
            [] => Err(bad("move needs a move, e.g. move e2e4 or move e4")),
            _ => Err(bad(
                "move takes one move; use position ... moves for several",
            )),
        },
        Verb::Go => parse_go(&args).map(|(limits, searchmoves)| Command::Go(limits, searchmoves)),
        Verb::Solve => parse_solve("solve", &args).map(Command::Solve),
        Verb::Analyse | Verb::Analyze => parse_solve("analyse", &args).map(Command::Analyse),
        Verb::Explore => parse_solve("explore", &args).map(Command::Explore),
        Verb::Perft => match args.as_slice() {
            [n] => match n.parse::<u32>() {
                Ok(d) if d <= MAX_PERFT_DEPTH => Ok(Command::Perft(d)),
                _ => Err(bad(format!(
                    "perft depth must be 0..{MAX_PERFT_DEPTH}, not '{n}'"
                ))),
            },
            _ => Err(bad("perft takes one depth, e.g. perft 5")),
        },
        // UCI's, but not taken here.
        Verb::Debug | Verb::Register => Err(unknown()),
    };
    cmd.map(Some)
}

/// The word as it may safely be echoed on one line.
/// A word of the peer's, fit to echo in a reply: at most 40 characters, no
/// control characters, and ASCII (others written as `\u{e9}`), since every
/// reply is ASCII.
fn printable(word: &str) -> String {
    const MAX: usize = 40;
    let mut s: String = word
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX)
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                c.escape_unicode().to_string()
            }
        })
        .collect();
    if word.chars().count() > MAX {
        s.push_str("...");
    }
    s
}

fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    let usage = "usage: setoption name <name> value <value>";
    let Some((first, rest)) = args.split_first() else {
        return Err(bad(usage));
    };
    if !first.eq_ignore_ascii_case("name") {
        return Err(bad(usage));
    }
    let value_at = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(bad(usage));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let usage = "usage: position startpos [gaps XY] [moves ...] | position fen <text> [moves ...]";
    let moves_at = args.iter().position(|w| w.eq_ignore_ascii_case("moves"));
    let (head, moves) = match moves_at {
        Some(i) => (
            &args[..i],
            args[i + 1..].iter().map(|m| m.to_string()).collect(),
        ),
        None => (args, Vec::new()),
    };
    let setup = match head {
        [kind] if kind.eq_ignore_ascii_case("startpos") => Setup::StartPos(None),
        [kind, g, gaps]
            if kind.eq_ignore_ascii_case("startpos") && g.eq_ignore_ascii_case("gaps") =>
        {
            Setup::StartPos(Some(gaps.parse().map_err(bad)?))
        }
        [kind, fen @ ..] if kind.eq_ignore_ascii_case("fen") && !fen.is_empty() => {
            Setup::Fen(fen.join(" "))
        }
        _ => return Err(bad(usage)),
    };
    Ok(Command::Position { setup, moves })
}

/// `solve [movetime MS] [nodes N]`; with neither it runs until `stop`.
/// `analyse` takes the same budget, per position, and `explore` per move.
fn parse_solve(verb: &str, args: &[&str]) -> Result<SolveLimits, ParseError> {
    let mut limits = SolveLimits::default();
    for pair in args.chunks(2) {
        let [key, value] = pair else {
            return Err(bad(format!("{verb} {} needs a value", pair[0])));
        };
        let number = above_zero::<u64>(value);
        let key_lc = key.to_ascii_lowercase();
        let slot = match key_lc.as_str() {
            "movetime" => &mut limits.movetime_ms,
            "nodes" => &mut limits.nodes,
            _ => {
                return Err(bad(format!(
                    "{verb} does not know '{}' (movetime, nodes)",
                    printable(key)
                )));
            }
        };
        if slot.is_some() {
            return Err(bad(format!("{verb} {key_lc} is given twice")));
        }
        *slot = Some(number.ok_or_else(|| {
            bad(format!(
                "{verb} {key_lc} takes a number above 0, not '{}'",
                printable(value)
            ))
        })?);
    }
    Ok(limits)
}

/// `value` as a number above 0.
fn above_zero<T: std::str::FromStr + PartialOrd + From<u8>>(value: &str) -> Option<T> {
    value.parse().ok().filter(|n: &T| *n > T::from(0))
}

/// `go`'s keywords: UCI's, `searchmoves` taking the words up to the next.
const GO_KEYWORDS: [&str; 12] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
];

fn parse_go(args: &[&str]) -> Result<(Limits, Vec<String>), ParseError> {
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut words = args.iter().peekable();
    let mut seen: Vec<String> = Vec::new();
    while let Some(word) = words.next() {
        let key = word.to_ascii_lowercase();
        if seen.contains(&key) {
            return Err(bad(format!("go {} is given twice", printable(&key))));
        }
        seen.push(key.clone());
        if key == "infinite" {
            limits.infinite = true;
            continue;
        }
        if key == "ponder" {
            limits.ponder = true;
            continue;
        }
        if key == "searchmoves" {
            while let Some(m) =
                words.next_if(|w| !GO_KEYWORDS.contains(&w.to_ascii_lowercase().as_str()))
            {
                searchmoves.push(m.to_string());
            }
            if searchmoves.is_empty() {
                return Err(bad("go searchmoves needs at least one move"));
            }
            continue;
        }
        let Some(value) = words.next() else {
            return Err(bad(format!("go {} needs a value", printable(&key))));
        };
        let number = |what: &str| bad(format!("go {key} takes {what}, not '{}'", printable(value)));
        match key.as_str() {
            "depth" => {
                limits.depth = Some(above_zero(value).ok_or_else(|| number("a depth above 0"))?)
            }
            "nodes" => {
                limits.nodes = Some(above_zero(value).ok_or_else(|| number("a count above 0"))?)
            }
            "movetime" => {
                limits.movetime_ms = Some(value.parse().map_err(|_| number("milliseconds"))?)
            }
            "movestogo" => {
                limits.movestogo = Some(value.parse().map_err(|_| number("a move count"))?)
            }
            "mate" => {
                limits.mate = Some(above_zero(value).ok_or_else(|| number("a move count above 0"))?)
            }
            "wtime" => limits.wtime_ms = Some(value.parse().map_err(|_| number("milliseconds"))?),
            "btime" => limits.btime_ms = Some(value.parse().map_err(|_| number("milliseconds"))?),
            "winc" => limits.winc_ms = Some(value.parse().map_err(|_| number("milliseconds"))?),
            "binc" => limits.binc_ms = Some(value.parse().map_err(|_| number("milliseconds"))?),
            _ => return Err(bad(format!("go does not know '{}'", printable(word)))),
        }
    }
    Ok((limits.or_default_movetime(), searchmoves))
}

#[cfg(test)]
mod tests;

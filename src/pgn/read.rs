//! Reading games: PGN (as `pawnrace match --pgn` writes it, and
//! the annotated PGN `pawnrace analyse --pgn-out` writes) and a plain form.
//!
//! PGN: tag pairs (`[White "alice"]`), then movetext with move numbers
//! (`1.`, `1...`, `12.e4`), `{comments}` (over several lines too), `;`
//! comments, `(variations)` and `$n` glyphs, all skipped, and a result
//! token (`1-0`, `0-1`, `1/2-1/2`, `*`), which ends the game. The tags read
//! are `White`, `Black` (the players' names; `?` or missing gives `white`,
//! `black`), `Variant` (`pawnrace`, the default, or `mini4`), `Gaps` (`AH`)
//! and `FEN` (the start position, in pawnrace's position text or the
//! six-field FEN `pawnrace match` writes; `SetUp` is not required). A Pawn Race game needs `Gaps` or `FEN`.
//!
//! Plain form: header lines `variant NAME`, `gaps XY` and `fen TEXT`, then
//! moves in SAN (`e4`, `exd5`) or coordinates (`e2e4`), any number a line,
//! with or without move numbers; `#` starts a comment line. A game ends at
//! a blank line after its moves, at a result token, or where the next game's
//! header starts (a `gaps`, `fen` or `variant` line after moves, or after
//! another start line). Both forms may be mixed in one text.

use crate::rules::{Gaps, Move, Position, RuleSet, Variant, parse_move};

/// A game read and replayed through the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    /// The PGN tags as read, in order (empty for the plain form).
    pub tags: Vec<(String, String)>,
    pub white: String,
    pub black: String,
    pub rules: RuleSet,
    pub gaps: Option<Gaps>,
    /// The position text the game was set up from, if it was.
    pub fen: Option<String>,
    pub start: Position,
    /// Legal in turn from `start`.
    pub moves: Vec<Move>,
    /// The result token, `*` when none was given.
    pub result: String,
}

impl ReadGame {
    /// The value of the tag `name`, as read.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The player of `color`.
    pub fn player(&self, color: crate::rules::Color) -> &str {
        match color {
            crate::rules::Color::White => &self.white,
            crate::rules::Color::Black => &self.black,
        }
    }
}

/// One game's worth of text, as the splitter found it.
#[derive(Default)]
struct Chunk {
    tags: Vec<(String, String)>,
    /// Plain header lines: (keyword in lower case, rest of the line).
    headers: Vec<(String, String)>,
    /// Movetext tokens with their line numbers.
    tokens: Vec<(usize, String)>,
    result: Option<String>,
    /// The first thing that was wrong, with its line number.
    error: Option<String>,
    /// Set once anything was read into the chunk.
    used: bool,
}

impl Chunk {
    fn has_movetext(&self) -> bool {
        !self.tokens.is_empty() || self.result.is_some()
    }

    fn has_start(&self) -> bool {
        self.headers.iter().any(|(k, _)| k == "gaps" || k == "fen")
    }

    fn fail(&mut self, line: usize, reason: impl Into<String>) {
        if self.error.is_none() {
            self.error = Some(format!("line {line}: {}", reason.into()));
        }
    }
}

/// Every game in `text`, in order: each replayed through the rules, or the
/// reason it could not be (its first problem, with a line number). A
/// malformed game never hides the others.
pub fn read_games(text: &str) -> Vec<Result<ReadGame, String>> {
    split(text).into_iter().map(build).collect()
}

const HEADERS: [&str; 3] = ["variant", "gaps", "fen"];

/// Cuts the text into games.
fn split(text: &str) -> Vec<Chunk> {
    let mut splitter = Splitter::default();
    for (i, raw) in text.lines().enumerate() {
        splitter.line(i + 1, raw.trim());
    }
    splitter.end(text.lines().count())
}

/// The games cut so far and the one being read.
#[derive(Default)]
struct Splitter {
    chunks: Vec<Chunk>,
    chunk: Chunk,
    /// Inside a `{` comment: it carries over line ends.
    in_comment: bool,
    /// How deep in `(` variations: they carry over line ends.
    depth: usize,
}

impl Splitter {
    /// Ends the game being read, if anything was read into it.
    fn finish(&mut self) {
        if self.chunk.used {
            self.chunks.push(std::mem::take(&mut self.chunk));
        }
    }

    /// Line `n`, trimmed: a blank, comment, tag or header line, else
    /// movetext.
    fn line(&mut self, n: usize, line: &str) {
        if self.in_comment || self.depth > 0 || !self.between_moves(n, line) {
            self.movetext(n, line);
        }
    }

    /// Reads `line` if it is one that stands between games or before their
    /// moves (a blank, `%` or `#` line, a tag, a header); whether it was.
    fn between_moves(&mut self, n: usize, line: &str) -> bool {
        let chunk = &mut self.chunk;
        if line.is_empty() {
            if chunk.has_movetext() {
                self.finish();
            }
            return true;
        }
        if line.starts_with('%') || line.starts_with('#') {
            return true;
        }
        if line.starts_with('[') {
            if chunk.has_movetext() || !chunk.headers.is_empty() {
                self.finish();
            }
            self.chunk.used = true;
            match parse_tag(line) {
                Ok(tag) => self.chunk.tags.push(tag),
                Err(e) => self.chunk.fail(n, e),
            }
            return true;
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let word = word.to_ascii_lowercase();
        if !HEADERS.contains(&word.as_str()) {
            return false;
        }
        let starts = word == "gaps" || word == "fen";
        if chunk.has_movetext()
            || !chunk.tags.is_empty()
            || (starts && chunk.has_start())
            || chunk.headers.iter().any(|(k, _)| *k == word)
        {
            self.finish();
        }
        self.chunk.used = true;
        self.chunk.headers.push((word, rest.trim().to_string()));
        true
    }

    /// Movetext on line `n`: comments and variations skipped, each token
    /// read.
    fn movetext(&mut self, n: usize, line: &str) {
        let mut rest = line;
        loop {
            if self.in_comment {
                match rest.find('}') {
                    Some(close) => {
                        self.in_comment = false;
                        rest = &rest[close + 1..];
                    }
                    None => return,
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else {
                return;
            };
            if self.depth > 0 {
                // Inside a variation: only nesting and comments matter.
                match c {
                    '(' => self.depth += 1,
                    ')' => self.depth -= 1,
                    '{' => self.in_comment = true,
                    _ => {}
                }
                rest = &rest[c.len_utf8()..];
                continue;
            }
            match c {
                '{' => {
                    self.in_comment = true;
                    rest = &rest[1..];
                    continue;
                }
                ';' => return,
                '(' => {
                    self.depth = 1;
                    rest = &rest[1..];
                    continue;
                }
                _ => {}
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '{' | '(' | ';'))
                .unwrap_or(rest.len());
            self.token(n, &rest[..end]);
            rest = &rest[end..];
        }
    }

    /// One movetext token: a result ends the game, `$n` glyphs and move
    /// numbers are skipped, anything else is a move.
    fn token(&mut self, n: usize, token: &str) {
        self.chunk.used = true;
        match token {
            "1-0" | "0-1" | "1/2-1/2" | "*" => {
                self.chunk.result = Some(token.to_string());
                self.finish();
            }
            t if t.starts_with('$') => {}
            t => {
                // Move numbers (`12.`, `12...`), also glued to the move.
                let digits = t.trim_start_matches(|c: char| c.is_ascii_digit());
                let mv = if digits.len() < t.len() && digits.starts_with('.') {
                    digits.trim_start_matches('.')
                } else {
                    t
                };
                if !mv.chars().all(|c| c == '.') {
                    self.chunk.tokens.push((n, mv.to_string()));
                }
            }
        }
    }

    /// The games, once the text's `last` line is read.
    fn end(mut self, last: usize) -> Vec<Chunk> {
        if self.in_comment {
            self.chunk.fail(last, "a {comment} is not closed");
        } else if self.depth > 0 {
            self.chunk.fail(last, "a (variation) is not closed");
        }
        self.finish();
        self.chunks
    }
}

/// `[Name "value"]`.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("a tag must be [Name \"value\"] on one line")?;
    let (name, value) = inner
        .trim()
        .split_once(char::is_whitespace)
        .ok_or("a tag without a value")?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or("a tag value without quotes")?;
    let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
    Ok((name.to_string(), value))
}

/// A chunk replayed through the rules.
fn build(chunk: Chunk) -> Result<ReadGame, String> {
    if let Some(e) = chunk.error {
        return Err(e);
    }
    let tag = |name: &str| {
        chunk
            .tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
    };
    let header = |name: &str| {
        chunk
            .headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let variant = match tag("Variant").or_else(|| header("variant")) {
        Some(v) => v.parse::<Variant>()?,
        None => Variant::PawnRace,
    };
    let rules = variant.rules();
    let gaps = match tag("Gaps").or_else(|| header("gaps")) {
        Some(g) if rules.has_gaps() => Some(g.parse::<Gaps>()?),
        Some(g) => return Err(format!("gaps {g} given, but {variant} has no gaps")),
        None => None,
    };
    let fen = tag("FEN").or_else(|| header("fen")).map(str::to_string);
    let start = match (&fen, gaps) {
        (Some(text), _) => Position::from_fen(text, rules)
            .map_err(|e| format!("the start position '{text}': {e}"))?,
        (None, None) if rules.has_gaps() => {
            return Err(
                "no start: a Pawn Race game needs its gaps (a Gaps tag or a gaps line) or a FEN"
                    .into(),
            );
        }
        (None, gaps) => Position::start(rules, gaps).map_err(|e| e.to_string())?,
    };
    let mut pos = start;
    let mut moves = Vec::new();
    for (k, (line, text)) in chunk.tokens.iter().enumerate() {
        if let Some(outcome) = pos.outcome() {
            return Err(format!(
                "line {line}: move {} ({text}) comes after the end of the game ({outcome})",
                k + 1
            ));
        }
        let m = parse_move(&pos, text)
            .map_err(|e| format!("line {line}: move {} ({}): {e}", k + 1, printable(text)))?;
        pos = pos.play_unchecked(m);
        moves.push(m);
    }
    let name = |tag_name: &str, default: &str| {
        tag(tag_name)
            .map(|n| n.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| default.to_string())
    };
    Ok(ReadGame {
        white: name("White", "white"),
        black: name("Black", "black"),
        tags: chunk.tags,
        rules,
        gaps,
        fen,
        start,
        moves,
        result: chunk.result.unwrap_or_else(|| "*".into()),
    })
}

/// A token as it may be echoed in a message: short, without control
/// characters.
fn printable(text: &str) -> String {
    const MAX: usize = 20;
    let mut s: String = text.chars().filter(|c| !c.is_control()).take(MAX).collect();
    if text.chars().count() > MAX {
        s.push_str("...");
    }
    s
}

//! Reply lines shared by the session and the server.

use std::fmt;

/// The stable error codes of `error <code> <detail>`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ErrorCode {
    UnknownCommand,
    BadArgument,
    BadPosition,
    IllegalMove,
    GameOver,
    WrongState,
    Busy,
    LineTooLong,
    BadEncoding,
    IdleTimeout,
    Shutdown,
    Interrupted,
    Unsupported,
}

impl ErrorCode {
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown-command",
            ErrorCode::BadArgument => "bad-argument",
            ErrorCode::BadPosition => "bad-position",
            ErrorCode::IllegalMove => "illegal-move",
            ErrorCode::GameOver => "game-over",
            ErrorCode::WrongState => "wrong-state",
            ErrorCode::Busy => "busy",
            ErrorCode::LineTooLong => "line-too-long",
            ErrorCode::BadEncoding => "bad-encoding",
            ErrorCode::IdleTimeout => "idle-timeout",
            ErrorCode::Shutdown => "shutdown",
            ErrorCode::Interrupted => "interrupted",
            ErrorCode::Unsupported => "unsupported",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `error <code> <detail>`, on one line whatever the detail holds.
pub fn error(code: ErrorCode, detail: impl fmt::Display) -> String {
    format!("error {code} {}", ascii_line(&detail.to_string()))
}

/// `text` as one line of ASCII: line breaks become spaces, and any other
/// character outside ASCII is written as `\u{e9}`. Every reply is ASCII,
/// whatever a peer sent that an error quotes back.
pub fn ascii_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\r' | '\n' => " ".to_string(),
            c if c.is_ascii() => c.to_string(),
            c => c.escape_unicode().to_string(),
        })
        .collect()
}

/// The unsolicited line a session gets when the server is about to close it.
pub fn shutdown_notice() -> String {
    "info string server shutting down".to_string()
}

use crate::engine::SearchInfo;
use crate::rules::{Game, Position, Square, san, uci_line};

/// The board as people read it in a terminal, white at the bottom, with the
/// facts a GUI needs after it. Every line but the final `ok board`.
pub fn board_lines(game: &Game) -> Vec<String> {
    let pos = game.position();
    let rules = pos.rules();
    let width = rules.width() as usize;
    let border = format!("   +{}+", "-".repeat(2 * width + 1));
    let mut lines = vec![border.clone()];
    for rank in (0..rules.height()).rev() {
        let mut row = format!("{:>2} |", rank + 1);
        for file in 0..rules.width() {
            let c = match pos.pawn_at(Square::new(file, rank)) {
                Some(crate::rules::Color::White) => 'P',
                Some(crate::rules::Color::Black) => 'p',
                None => '.',
            };
            row.push(' ');
            row.push(c);
        }
        row.push_str(" |");
        lines.push(row);
    }
    lines.push(border);
    let files: String = (0..rules.width())
        .map(|f| format!(" {}", (b'a' + f) as char))
        .collect();
    lines.push(format!("    {files}"));
    lines.push(format!("fen {}", pos.fen()));
    match game.gaps() {
        Some(g) => lines.push(format!("variant {} gaps {g}", rules.name())),
        None => lines.push(format!("variant {}", rules.name())),
    }
    lines.push(format!("side {}", pos.side_to_move()));
    lines.push(format!("history {}", history(game)));
    lines.push(match game.outcome() {
        Some(o) => format!("status {} {} ({o})", o.result_word(), o.reason_tokens()),
        None => "status playing".to_string(),
    });
    lines
}

/// The moves so far in SAN, numbered as in a score sheet; `-` for none.
pub fn history(game: &Game) -> String {
    if game.moves().is_empty() {
        return "-".into();
    }
    let black_first = game.start().side_to_move() == crate::rules::Color::Black;
    let mut out = String::new();
    for (i, m) in game.moves().iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            out.push_str(&format!("{}. ", ply / 2 + 1));
        } else if i == 0 {
            out.push_str(&format!("{}... ", ply / 2 + 1));
        }
        out.push_str(&san(*m));
        out.push(' ');
    }
    out.trim_end().to_string()
}

/// `info depth 5 seldepth 7 score cp 12 nodes 900 nps 90000 time 10 pv e2e4 ...`
/// The pv is written in UCI's coordinates from `pos` (a promotion as
/// `a7a8q`).
pub fn info_line(pos: &Position, info: &SearchInfo) -> String {
    let multipv = match info.multipv {
        0 => String::new(),
        n => format!(" multipv {n}"),
    };
    let mut line = format!(
        "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps(),
        info.time_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&uci_line(pos, &info.pv));
    }
    line
}

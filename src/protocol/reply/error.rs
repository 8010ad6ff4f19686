//! `error <code> <detail>`: the codes, and the one-line ASCII the detail is
//! written in.

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

/// A command the session will not carry out as things stand (no position
/// yet, an illegal move, a value out of range): the command itself was
/// well formed, unlike a [`crate::protocol::ParseError`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub detail: String,
}

impl Refusal {
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Refusal {
        Refusal {
            code,
            detail: detail.into(),
        }
    }
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

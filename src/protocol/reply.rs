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
    let detail = detail.to_string().replace(['\r', '\n'], " ");
    format!("error {code} {detail}")
}

/// The unsolicited line a session gets when the server is about to close it.
pub fn shutdown_notice() -> String {
    "info string server shutting down".to_string()
}

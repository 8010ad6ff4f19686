//! The first word of a line: which command it is, as spelled, and which of
//! the two dialects it belongs to. The page's client (`web/protocol.js`)
//! keeps the same lists; a test holds them to these.

/// Every word the session knows as a command's first, in either dialect.
/// Spellings of one command (`d` for `board`) are verbs of their own, so
/// that whether a line belongs to UCI or to the protocol is read off its
/// first word alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verb {
    Uci,
    Debug,
    IsReady,
    SetOption,
    Register,
    UciNewGame,
    Position,
    Go,
    Stop,
    PonderHit,
    Quit,
    Exit,
    NewGame,
    Gaps,
    Move,
    Undo,
    Moves,
    Board,
    D,
    Fen,
    Perft,
    Solve,
    Analyse,
    Analyze,
    Explore,
    Help,
}

impl Verb {
    pub const ALL: [Verb; 26] = [
        Verb::Uci,
        Verb::Debug,
        Verb::IsReady,
        Verb::SetOption,
        Verb::Register,
        Verb::UciNewGame,
        Verb::Position,
        Verb::Go,
        Verb::Stop,
        Verb::PonderHit,
        Verb::Quit,
        Verb::Exit,
        Verb::NewGame,
        Verb::Gaps,
        Verb::Move,
        Verb::Undo,
        Verb::Moves,
        Verb::Board,
        Verb::D,
        Verb::Fen,
        Verb::Perft,
        Verb::Solve,
        Verb::Analyse,
        Verb::Analyze,
        Verb::Explore,
        Verb::Help,
    ];

    pub const fn word(self) -> &'static str {
        match self {
            Verb::Uci => "uci",
            Verb::Debug => "debug",
            Verb::IsReady => "isready",
            Verb::SetOption => "setoption",
            Verb::Register => "register",
            Verb::UciNewGame => "ucinewgame",
            Verb::Position => "position",
            Verb::Go => "go",
            Verb::Stop => "stop",
            Verb::PonderHit => "ponderhit",
            Verb::Quit => "quit",
            Verb::Exit => "exit",
            Verb::NewGame => "newgame",
            Verb::Gaps => "gaps",
            Verb::Move => "move",
            Verb::Undo => "undo",
            Verb::Moves => "moves",
            Verb::Board => "board",
            Verb::D => "d",
            Verb::Fen => "fen",
            Verb::Perft => "perft",
            Verb::Solve => "solve",
            Verb::Analyse => "analyse",
            Verb::Analyze => "analyze",
            Verb::Explore => "explore",
            Verb::Help => "help",
        }
    }

    /// The verb `word` spells, in any case.
    pub fn of(word: &str) -> Option<Verb> {
        Verb::ALL
            .into_iter()
            .find(|v| v.word().eq_ignore_ascii_case(word))
    }

    /// The first word of `line`, if it is a verb.
    pub fn of_line(line: &str) -> Option<Verb> {
        line.split_ascii_whitespace().next().and_then(Verb::of)
    }

    /// UCI defines it (`debug` and `register` too, which this engine does
    /// not take: their errors still go where a GUI shows them).
    pub const fn is_uci(self) -> bool {
        matches!(
            self,
            Verb::Uci
                | Verb::Debug
                | Verb::IsReady
                | Verb::SetOption
                | Verb::Register
                | Verb::UciNewGame
                | Verb::Position
                | Verb::Go
                | Verb::Stop
                | Verb::PonderHit
                | Verb::Quit
        )
    }

    /// One of the protocol's own commands: a peer that sends one speaks
    /// the protocol, not UCI, and the session leaves UCI mode (a person who
    /// sent `uci` to see the options, then plays). `exit` is neither: it
    /// leaves the mode as it was.
    pub const fn leaves_uci(self) -> bool {
        !self.is_uci() && !matches!(self, Verb::Exit)
    }

    /// In UCI mode, a line with this verb gets no final line: UCI has no
    /// reply for it (`position`, `setoption`, `ucinewgame`, `stop`,
    /// `ponderhit`, `quit` and `exit`), or it is one of UCI's that this
    /// engine refuses, which it says in an `info string` (`debug`,
    /// `register`). A client pairing replies with commands must not wait
    /// for one.
    pub const fn silent_in_uci(self) -> bool {
        matches!(
            self,
            Verb::Debug
                | Verb::SetOption
                | Verb::Register
                | Verb::UciNewGame
                | Verb::Position
                | Verb::Stop
                | Verb::PonderHit
                | Verb::Quit
                | Verb::Exit
        )
    }
}

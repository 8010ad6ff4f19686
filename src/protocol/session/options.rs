//! The engine's settings: `uci`'s greeting with its options, and `setoption`.

use super::{Action, Answer, DEFAULT_MOVE_OVERHEAD_MS, MAX_MOVE_OVERHEAD_MS, Session, fail};
use crate::engine::Resistance;
use crate::protocol::command::GameKind;
use crate::protocol::reply::{Done, ErrorCode, Refusal, Reply};
use crate::protocol::variant_ini::{self, VARIANT_NAME};
use crate::rules::{Gaps, Variant};

/// What chess GUIs and python-chess call the 8x8 board as `UCI_Variant`:
/// Pawn Race's board, not the full chess of `newgame chess`.
const UCI_CHESS_BOARD: &str = "chess";

impl Session {
    pub(super) fn greeting(&self) -> Vec<Reply> {
        let id = |key, value: &str| Reply::Id {
            key,
            value: value.to_string(),
        };
        let options = UciOption::ALL.map(|o| format!("{} type {}", o.name(), self.declared(o)));
        [
            id("name", "pawnrace"),
            id("version", env!("CARGO_PKG_VERSION")),
            id("author", "the pawnrace developers"),
        ]
        .into_iter()
        .chain(options.into_iter().map(Reply::UciOption))
        .chain([Reply::UciOk])
        .collect()
    }

    /// How `uci` declares `option`: its type, default and range.
    fn declared(&self, option: UciOption) -> String {
        match option {
            UciOption::Hash => format!(
                "spin default {} min 1 max {}",
                self.options.hash_mib, self.options.max_hash_mib
            ),
            UciOption::MoveOverhead => {
                format!("spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}")
            }
            UciOption::Threads => format!("spin default 1 min 1 max {}", max_threads()),
            UciOption::Ponder => "check default false".into(),
            UciOption::MultiPv => format!("spin default 1 min 1 max {MAX_MULTIPV}"),
            UciOption::Resistance => format!(
                "combo default {} {}",
                Resistance::default(),
                Resistance::ALL.map(|r| format!("var {r}")).join(" ")
            ),
            UciOption::Gaps => "string default <empty>".into(),
            UciOption::VariantPath => "string default <empty>".into(),
            UciOption::Fen => format!(
                "combo default {} var house var fairy",
                if self.fairy_fen { "fairy" } else { "house" }
            ),
            UciOption::UciVariant => format!(
                "combo default {} {} var {UCI_CHESS_BOARD}",
                Variant::PawnRace,
                Variant::ALL.map(|v| format!("var {v}")).join(" ")
            ),
        }
    }

    /// `setoption`: finds the option by its name in any case, then sets it.
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) -> Answer {
        let Some(&option) = UciOption::ALL
            .iter()
            .find(|o| name.eq_ignore_ascii_case(o.name()))
        else {
            let known = UciOption::ALL.map(UciOption::name).join(", ");
            return Err(fail(
                ErrorCode::BadArgument,
                format!("unknown option '{name}' (known: {known})"),
            ));
        };
        let value = Value { name, text: value };
        let set = match option {
            UciOption::Hash => self.set_hash(value)?.to_string(),
            UciOption::MoveOverhead => {
                let ms = value.number(0, MAX_MOVE_OVERHEAD_MS, "milliseconds")?;
                self.move_overhead_ms = ms;
                ms.to_string()
            }
            UciOption::Threads => {
                let n = value.number(1, max_threads() as u64, "threads")? as usize;
                self.threads = n;
                n.to_string()
            }
            UciOption::Ponder => value.ponder()?.to_string(),
            UciOption::MultiPv => {
                let n = value.number(1, MAX_MULTIPV as u64, "lines")? as u32;
                self.multipv = n;
                n.to_string()
            }
            UciOption::Resistance => {
                let r: Resistance = value
                    .text
                    .unwrap_or("")
                    .parse()
                    .map_err(|e: String| fail(ErrorCode::BadArgument, e))?;
                self.resistance = r;
                r.to_string()
            }
            UciOption::Gaps => self.set_gaps(value)?,
            UciOption::UciVariant => self.set_variant(value)?.to_string(),
            UciOption::Fen => {
                self.fairy_fen = value.fen_style()?;
                if self.fairy_fen { "fairy" } else { "house" }.to_string()
            }
            UciOption::VariantPath => unreachable!("VariantPath is answered by variant_path"),
        };
        Ok(vec![
            Done::SetOption {
                name: option.name(),
                value: set,
            }
            .into(),
        ])
    }

    /// `VariantPath`: Fairy-Stockfish's variants file, which the engine
    /// reads to learn the variant. pawnrace knows its one variant; it reads
    /// the file only to check that the `pawnrace` section there describes
    /// these rules, so that a GUI's board and the engine agree.
    pub(super) fn variant_path(&mut self, value: Option<&str>) -> Action {
        let path = value.map(str::trim).unwrap_or("");
        let refused =
            |detail: String| Action::Reply(vec![fail(ErrorCode::BadArgument, detail).into()]);
        if path.is_empty() || path == "<empty>" {
            return Action::Reply(vec![
                Done::SetOption {
                    name: "VariantPath",
                    value: "<empty>".into(),
                }
                .into(),
            ]);
        }
        if !self.options.local_files {
            return refused(format!(
                "VariantPath {path}: a network session cannot have the server read files; pawnrace knows {VARIANT_NAME} without one"
            ));
        }
        Action::ReadFile(path.to_string())
    }

    /// The file [`Action::ReadFile`] asked for, read (or why not): the
    /// answer to its `setoption name VariantPath`.
    pub fn file_read(&mut self, path: &str, text: Result<String, String>) -> Action {
        let checked = text
            .map_err(|e| format!("VariantPath {path}: {e}"))
            .and_then(|t| variant_ini::check(&t).map_err(|e| format!("VariantPath {path}: {e}")));
        let action = match checked {
            Ok(()) => Action::Reply(vec![
                Done::SetOption {
                    name: "VariantPath",
                    value: path.to_string(),
                }
                .into(),
            ]),
            Err(detail) => Action::Reply(vec![fail(ErrorCode::BadArgument, detail).into()]),
        };
        self.speak(Some(crate::protocol::Verb::SetOption), action)
    }

    /// `Hash`, if the server's memory budget can hold it.
    fn set_hash(&mut self, value: Value) -> Result<usize, Refusal> {
        let mib = value.number(1, self.options.max_hash_mib as u64, "MiB")? as usize;
        // Two tables of the size (the search's and the solver's), and
        // what this session holds now comes back when they are made.
        let budget = &self.options.memory;
        let held = self.engine.as_ref().map_or(0, |e| e.memory_mib());
        let left = budget.left_mib().saturating_add(held);
        if mib.saturating_mul(2) > left {
            return Err(fail(
                ErrorCode::BadArgument,
                format!(
                    "Hash {mib} needs {} MiB (the search's table and the solver's); the server's memory budget has {left} MiB left of {}",
                    mib * 2,
                    budget.limit_mib()
                ),
            ));
        }
        // The table is resized when the next job takes the engine.
        self.hash_mib = mib;
        Ok(mib)
    }

    /// `Gaps`: what `position startpos` without gaps starts from, since a
    /// chess GUI knows only `position startpos`. Says what it now is.
    fn set_gaps(&mut self, value: Value) -> Result<String, Refusal> {
        let text = value.text.map(str::trim).unwrap_or("");
        if text.is_empty() || text == "<empty>" || text.eq_ignore_ascii_case("none") {
            self.gaps_option = None;
            return Ok("none".into());
        }
        let gaps: Gaps = text.parse().map_err(|e| {
            fail(
                ErrorCode::BadArgument,
                format!("Gaps takes two files like AH, or none: {e}"),
            )
        })?;
        self.gaps_option = Some(gaps);
        Ok(gaps.to_string())
    }

    /// `UCI_Variant`: the game `ucinewgame` starts. `chess` is the 8x8
    /// board that chess GUIs and python-chess know, on which pawn race is
    /// played: python-chess names it before every position.
    fn set_variant(&mut self, value: Value) -> Result<Variant, Refusal> {
        let text = value.text.map(str::trim).unwrap_or("");
        let variant: Variant = match text {
            t if t.eq_ignore_ascii_case(UCI_CHESS_BOARD) => Variant::PawnRace,
            t => t.parse().map_err(|e: String| {
                fail(
                    ErrorCode::BadArgument,
                    format!("{e}; or chess, for pawnrace"),
                )
            })?,
        };
        self.fairy_variant = text.eq_ignore_ascii_case(VARIANT_NAME);
        // A tool that names the variant as Fairy-Stockfish does reads
        // positions as Fairy-Stockfish writes them.
        self.fairy_fen |= self.fairy_variant;
        // A GUI sets it just before a game: a new variant starts its
        // game now; the one in force changes nothing (the tables stay).
        if variant != self.variant {
            self.variant = variant;
            self.new_game(GameKind::Pawn(variant));
        }
        Ok(variant)
    }
}

/// Whether `name` is `VariantPath`, whose answer waits for its file.
pub(super) fn is_variant_path(name: &str) -> bool {
    name.eq_ignore_ascii_case(UciOption::VariantPath.name())
}

/// The options `uci` lists and `setoption` sets, in the greeting's order.
#[derive(Clone, Copy)]
enum UciOption {
    Hash,
    MoveOverhead,
    Threads,
    Ponder,
    MultiPv,
    Resistance,
    Gaps,
    UciVariant,
    VariantPath,
    Fen,
}

impl UciOption {
    const ALL: [UciOption; 10] = [
        UciOption::Hash,
        UciOption::MoveOverhead,
        UciOption::Threads,
        UciOption::Ponder,
        UciOption::MultiPv,
        UciOption::Resistance,
        UciOption::Gaps,
        UciOption::UciVariant,
        UciOption::VariantPath,
        UciOption::Fen,
    ];

    /// The name as `uci` lists it and `setoption` confirms it.
    fn name(self) -> &'static str {
        match self {
            UciOption::Hash => "Hash",
            UciOption::MoveOverhead => "Move Overhead",
            UciOption::Threads => "Threads",
            UciOption::Ponder => "Ponder",
            UciOption::MultiPv => "MultiPV",
            UciOption::Resistance => "Resistance",
            UciOption::Gaps => "Gaps",
            UciOption::UciVariant => "UCI_Variant",
            UciOption::VariantPath => "VariantPath",
            UciOption::Fen => "FEN",
        }
    }
}

/// A `setoption` value with the name the peer spelt it by, which its
/// errors repeat.
#[derive(Clone, Copy)]
struct Value<'a> {
    name: &'a str,
    text: Option<&'a str>,
}

impl Value<'_> {
    /// A whole number in `min..=max`, named in `unit` when it is not one.
    fn number(self, min: u64, max: u64, unit: &str) -> Result<u64, Refusal> {
        self.text
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                fail(
                    ErrorCode::BadArgument,
                    format!("{} takes {unit} from {min} to {max}", self.name),
                )
            })
    }

    /// `FEN`: how positions are written, `fairy` (Fairy-Stockfish's six
    /// fields) or `house` (the protocol's own text).
    fn fen_style(self) -> Result<bool, Refusal> {
        match self.text.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("fairy") => Ok(true),
            Some("house") => Ok(false),
            _ => Err(fail(ErrorCode::BadArgument, "FEN takes fairy or house")),
        }
    }

    /// `Ponder`: UCI's note that the GUI may send `go ponder`; pondering
    /// itself needs no setting, so it is only checked.
    fn ponder(self) -> Result<bool, Refusal> {
        match self.text.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(fail(ErrorCode::BadArgument, "Ponder takes true or false")),
        }
    }
}

/// The most lines `MultiPV` may ask for: more than a pawn position has
/// moves.
const MAX_MULTIPV: u32 = 32;

/// The most `Threads` may ask for: the machine's cores.
fn max_threads() -> usize {
    crate::solver::cores()
}

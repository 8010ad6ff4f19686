//! The engine's settings: `uci`'s greeting with its options, and `setoption`.

use super::{Answer, DEFAULT_MOVE_OVERHEAD_MS, MAX_MOVE_OVERHEAD_MS, Session, fail};
use crate::protocol::command::GameKind;
use crate::protocol::reply::{Done, ErrorCode, Reply};
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
        let options = [
            format!(
                "Hash type spin default {} min 1 max {}",
                self.options.hash_mib, self.options.max_hash_mib
            ),
            format!(
                "Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
            ),
            format!("Threads type spin default 1 min 1 max {}", max_threads()),
            "Ponder type check default false".into(),
            format!("MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "Gaps type string default <empty>".into(),
            format!(
                "UCI_Variant type combo default {} {} var {UCI_CHESS_BOARD}",
                Variant::PawnRace,
                Variant::ALL.map(|v| format!("var {v}")).join(" ")
            ),
        ];
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

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) -> Answer {
        let set = |name, value: &dyn std::fmt::Display| {
            Ok(vec![
                Done::SetOption {
                    name,
                    value: value.to_string(),
                }
                .into(),
            ])
        };
        let number = |min: u64, max: u64, unit: &str| {
            value
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| {
                    fail(
                        ErrorCode::BadArgument,
                        format!("{name} takes {unit} from {min} to {max}"),
                    )
                })
        };
        if name.eq_ignore_ascii_case("hash") {
            let mib = number(1, self.options.max_hash_mib as u64, "MiB")? as usize;
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
            set("Hash", &mib)
        } else if name.eq_ignore_ascii_case("threads") {
            let n = number(1, max_threads() as u64, "threads")? as usize;
            self.threads = n;
            set("Threads", &n)
        } else if name.eq_ignore_ascii_case("ponder") {
            // UCI's note that the GUI may send `go ponder`; pondering itself
            // needs no setting.
            let on = match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("true") => true,
                Some("false") => false,
                _ => return Err(fail(ErrorCode::BadArgument, "Ponder takes true or false")),
            };
            set("Ponder", &on)
        } else if name.eq_ignore_ascii_case("multipv") {
            let n = number(1, MAX_MULTIPV as u64, "lines")? as u32;
            self.multipv = n;
            set("MultiPV", &n)
        } else if name.eq_ignore_ascii_case("gaps") {
            // What `position startpos` without gaps starts from: a chess
            // GUI knows only `position startpos`.
            let text = value.map(str::trim).unwrap_or("");
            if text.is_empty() || text == "<empty>" || text.eq_ignore_ascii_case("none") {
                self.gaps_option = None;
                return set("Gaps", &"none");
            }
            let gaps: Gaps = text.parse().map_err(|e| {
                fail(
                    ErrorCode::BadArgument,
                    format!("Gaps takes two files like AH, or none: {e}"),
                )
            })?;
            self.gaps_option = Some(gaps);
            set("Gaps", &gaps)
        } else if name.eq_ignore_ascii_case("uci_variant") {
            // The game `ucinewgame` starts. `chess` is the 8x8 board that
            // chess GUIs and python-chess know, on which pawn race is
            // played: python-chess names it before every position.
            let text = value.map(str::trim).unwrap_or("");
            let variant: Variant = match text {
                t if t.eq_ignore_ascii_case(UCI_CHESS_BOARD) => Variant::PawnRace,
                t => t.parse().map_err(|e: String| {
                    fail(
                        ErrorCode::BadArgument,
                        format!("{e}; or chess, for pawnrace"),
                    )
                })?,
            };
            // A GUI sets it just before a game: a new variant starts its
            // game now; the one in force changes nothing (the tables stay).
            if variant != self.variant {
                self.variant = variant;
                self.new_game(GameKind::Pawn(variant));
            }
            set("UCI_Variant", &variant)
        } else if name.eq_ignore_ascii_case("move overhead") {
            let ms = number(0, MAX_MOVE_OVERHEAD_MS, "milliseconds")?;
            self.move_overhead_ms = ms;
            set("Move Overhead", &ms)
        } else {
            Err(fail(
                ErrorCode::BadArgument,
                format!(
                    "unknown option '{name}' (known: Hash, Move Overhead, Threads, Ponder, MultiPV, Gaps, UCI_Variant)"
                ),
            ))
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

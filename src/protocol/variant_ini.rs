//! Fairy-Stockfish's variant files (`variants.ini`): the `pawnrace`
//! section a GUI points the engine at with `setoption name VariantPath`,
//! checked against the one pawnrace ships (fairy-stockfish/pawnrace.ini,
//! compiled in), whose `startFen` is also what `position startpos` means to
//! a UCI client that names no gaps. Text in, verdicts out: the file itself
//! is read at the server's edge.

use crate::rules::{Gaps, Position, RuleSet};

/// The ini pawnrace ships for Fairy-Stockfish and its tools.
pub const SHIPPED_INI: &str = include_str!("../../fairy-stockfish/pawnrace.ini");

/// The variant's name, as Fairy-Stockfish's `UCI_Variant` spells it.
pub const VARIANT_NAME: &str = "pawnrace";

/// The largest variant file read; Fairy-Stockfish's own, with every
/// variant it knows, is under 100 KiB.
pub const MAX_INI_BYTES: u64 = 1 << 20;

/// Keys that change how a GUI draws the variant, never its rules.
const COSMETIC_KEYS: [&str; 2] = ["pieceToCharTable", "variantTemplate"];

/// One section: `[name]` or `[name:parent]` and its `key = value` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Section {
    name: String,
    parent: Option<String>,
    entries: Vec<(String, String)>,
}

impl Section {
    fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The sections of an ini text, in order. Fairy-Stockfish reads `#` and `;`
/// comments and `key = value` lines; a key given twice keeps its last value.
fn sections(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, parent) = match header.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                None => (header.trim(), None),
            };
            out.push(Section {
                name: name.to_string(),
                parent,
                entries: Vec::new(),
            });
        } else if let (Some(section), Some((key, value))) = (out.last_mut(), line.split_once('=')) {
            let (key, value) = (key.trim().to_string(), normalise(value));
            section.entries.retain(|(k, _)| *k != key);
            section.entries.push((key, value));
        }
    }
    out
}

/// A value as compared: spaces collapsed, booleans in lower case.
fn normalise(value: &str) -> String {
    let words: Vec<&str> = value.split_whitespace().collect();
    let joined = words.join(" ");
    match joined.to_ascii_lowercase().as_str() {
        b @ ("true" | "false") => b.to_string(),
        _ => joined,
    }
}

fn shipped() -> Section {
    sections(SHIPPED_INI)
        .into_iter()
        .find(|s| s.name == VARIANT_NAME)
        .expect("the shipped ini has a pawnrace section")
}

/// Whether `text` (a variants file) defines `pawnrace` with these rules: the
/// shipped section's keys and values, the same parent, and nothing else
/// that could change the rules. The error says what differs first.
pub fn check(text: &str) -> Result<(), String> {
    let want = shipped();
    let Some(given) = sections(text).into_iter().find(|s| s.name == VARIANT_NAME) else {
        return Err(format!(
            "no [{VARIANT_NAME}] section (Fairy-Stockfish's variant name for Pawn Race; see fairy-stockfish/pawnrace.ini)"
        ));
    };
    if given.parent != want.parent {
        return Err(format!(
            "[{VARIANT_NAME}] is based on {}, Pawn Race's section on {}",
            given.parent.as_deref().unwrap_or("no variant"),
            want.parent.as_deref().unwrap_or("no variant")
        ));
    }
    for (key, value) in &want.entries {
        match given.get(key) {
            None => return Err(format!("[{VARIANT_NAME}] lacks {key} = {value}")),
            Some(v) if v != value => {
                return Err(format!(
                    "[{VARIANT_NAME}] has {key} = {v}; Pawn Race's rules need {key} = {value}"
                ));
            }
            Some(_) => {}
        }
    }
    if let Some((key, value)) = given
        .entries
        .iter()
        .find(|(k, _)| want.get(k).is_none() && !COSMETIC_KEYS.contains(&k.as_str()))
    {
        return Err(format!(
            "[{VARIANT_NAME}] also sets {key} = {value}, which Pawn Race's rules do not have"
        ));
    }
    Ok(())
}

/// The shipped ini's `startFen`, and the gaps it leaves: what `position
/// startpos` starts in UCI mode when no gaps are named.
pub fn start() -> (Position, Gaps) {
    let fen = shipped()
        .get("startFen")
        .expect("the shipped ini has a startFen")
        .to_string();
    let pos = Position::from_fen(&fen, RuleSet::PAWNRACE).expect("the shipped startFen reads");
    let gaps = Gaps::all(8)
        .find(|g| Position::start(RuleSet::PAWNRACE, Some(*g)).as_ref() == Ok(&pos))
        .expect("the shipped startFen is a gap start");
    (pos, gaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(change: impl Fn(&str) -> String) -> String {
        SHIPPED_INI.lines().map(|l| change(l) + "\n").collect()
    }

    #[test]
    fn the_shipped_ini_passes_and_starts_at_gaps_ah() {
        assert_eq!(check(SHIPPED_INI), Ok(()));
        let (pos, gaps) = start();
        assert_eq!(gaps.to_string(), "AH");
        assert_eq!(pos.fairy_fen(1), "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1");
        // Other variants beside it, spacing and case of booleans are free.
        let text = format!(
            "[other]\nking = k\n\n{}",
            with(|l| l.replace(" = ", "=").replace("false", "False"))
        );
        assert_eq!(check(&text), Ok(()));
    }

    #[test]
    fn a_different_rule_is_named() {
        let cases = [
            (
                with(|l| l.replace("flagRegionWhite = *8", "flagRegionWhite = *7")),
                "flagRegionWhite = *7; Pawn Race's rules need flagRegionWhite = *8",
            ),
            (
                with(|l| {
                    if l.starts_with("extinctionValue") {
                        String::new()
                    } else {
                        l.into()
                    }
                }),
                "lacks extinctionValue = loss",
            ),
            (
                with(|l| l.replace("castling = false", "castling = true")),
                "castling = true",
            ),
            (
                with(|l| l.replace("[pawnrace:chess]", "[pawnrace:shatranj]")),
                "based on shatranj",
            ),
            (
                with(|l| l.replace("[pawnrace:chess]", "[pawn-race:chess]")),
                "no [pawnrace] section",
            ),
            (
                format!("{SHIPPED_INI}doubleStep = false\n"),
                "also sets doubleStep = false",
            ),
        ];
        for (text, why) in cases {
            let err = check(&text).unwrap_err();
            assert!(err.contains(why), "{why}: {err}");
        }
        assert!(check("").is_err());
    }
}

//! `vocabulary.js`: the protocol's words as the page's client needs them,
//! written by the server from its own lists ([`Verb`], [`FINAL_WORDS`]) so
//! that the page and the session cannot disagree on which commands are the
//! session's own, which UCI leaves unanswered, and which lines end a reply.
//! A copy kept by hand once drifted, and a `stop` got a reply the page did
//! not wait for: every later reply then answered the command before it.

use crate::protocol::{FINAL_WORDS, Verb};
use std::fmt::Write as _;
use std::sync::LazyLock;

/// The module's text, made once.
pub static SCRIPT: LazyLock<String> = LazyLock::new(script);

fn script() -> String {
    let words = |rule: fn(Verb) -> bool| -> Vec<&'static str> {
        Verb::ALL
            .into_iter()
            .filter(|v| rule(*v))
            .map(Verb::word)
            .collect()
    };
    let list = |items: &[&str]| {
        let quoted: Vec<String> = items.iter().map(|w| format!("\"{w}\"")).collect();
        format!("[{}]", quoted.join(", "))
    };
    let mut out = String::from(
        "// Written by the server (pawnrace::server::vocabulary) from its own\n\
         // lists: the page's client pairs replies with commands by these.\n\n",
    );
    let _ = writeln!(
        out,
        "// The first words of the lines that end a reply.\n\
         export const FINAL_WORDS = {};\n",
        list(&FINAL_WORDS)
    );
    let _ = writeln!(
        out,
        "// The protocol's own commands, which take a session out of UCI mode.\n\
         export const OWN = new Set({});\n",
        list(&words(Verb::leaves_uci))
    );
    let _ = writeln!(
        out,
        "// In UCI mode these get no final line.\n\
         export const SILENT_IN_UCI = new Set({});",
        list(&words(Verb::silent_in_uci))
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of `export const NAME = ...;` in the script.
    fn words(name: &str) -> Vec<String> {
        let head = format!("export const {name} = ");
        let start = SCRIPT.find(&head).unwrap() + head.len();
        let end = start + SCRIPT[start..].find(';').unwrap();
        SCRIPT[start..end]
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_script_lists_the_servers_words() {
        assert_eq!(words("FINAL_WORDS"), FINAL_WORDS);
        let own = words("OWN");
        assert!(own.contains(&"d".to_string()) && own.contains(&"explore".to_string()));
        assert!(!own.contains(&"uci".to_string()) && !own.contains(&"exit".to_string()));
        for verb in Verb::ALL {
            let word = verb.word().to_string();
            assert_eq!(own.contains(&word), verb.leaves_uci(), "{word}");
            assert_eq!(
                words("SILENT_IN_UCI").contains(&word),
                verb.silent_in_uci(),
                "{word}"
            );
        }
    }
}

//! PGN, the one reader and the pieces both writers share: the match's game
//! records (`tournament::pgn`) and the annotated analysis
//! (`analysis::write`) are written with [`tag_line`] and [`wrap`], and
//! every PGN (with the plain form beside it) is read by [`read_games`].
//!
//! Above `rules` only: `tournament` and `analysis` lean on it.

mod read;

pub use read::{ReadGame, read_games};

/// `[Name "value"]` and its newline, the value's `\` and `"` escaped.
pub fn tag_line(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// Tokens joined by spaces into lines of at most `width` characters (PGN
/// wants at most 79; a longer token gets a line of its own); no token is
/// split.
pub fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for t in tokens {
        if len > 0 && len + 1 + t.len() > width {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(t);
        len += t.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_movetext_wraps_and_tags_escape() {
        let tokens: Vec<String> = (0..60).map(|i| format!("m{i}")).collect();
        let text = wrap(&tokens, 79);
        assert!(text.lines().all(|l| l.len() <= 79));
        assert_eq!(text.split_whitespace().count(), 60);
        let long = vec!["x".repeat(90), "y".into()];
        assert_eq!(wrap(&long, 79), format!("{}\ny", "x".repeat(90)));
        assert_eq!(
            tag_line("Event", "a \"b\" \\c"),
            "[Event \"a \\\"b\\\" \\\\c\"]\n"
        );
    }
}

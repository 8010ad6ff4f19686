//! `board`: the picture and the facts a GUI needs.

use super::Reply;
use crate::rules::{Game, Square, san};

/// The board as people read it in a terminal, white at the bottom, with the
/// facts a GUI needs after it (`fen`, the position as the session writes
/// positions). Every line but the final `ok board`.
pub fn board_lines(game: &Game, fen: &str) -> Vec<Reply> {
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
    lines.push(format!("fen {fen}"));
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
    lines.into_iter().map(Reply::Board).collect()
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

//! A second referee: pawnrace's rules against Fairy-Stockfish's own
//! implementation, through its Python binding pyffish and the shipped
//! fairy-stockfish/pawnrace.ini (tests/referee/second_referee.py does the
//! work; read it for what is compared). Perft from all 64 gap starts, and
//! seeded random games with their legal moves, game ends and FEN at every
//! step; any disagreement prints the position.

mod common;

use common::BIN;
use std::path::Path;
use std::process::Command;

#[test]
fn fairy_stockfish_agrees_with_our_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let probe = Command::new("python3")
        .args(["-c", "import pyffish"])
        .output();
    match probe {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            let why = format!(
                "pyffish is not installed (pip install pyffish): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            return common::tool_missing("fairy_stockfish_agrees_with_our_rules", &why);
        }
        Err(e) => {
            let why = format!("python3 does not run: {e}");
            return common::tool_missing("fairy_stockfish_agrees_with_our_rules", &why);
        }
    }
    let out = Command::new("python3")
        .arg(root.join("tests/referee/second_referee.py"))
        .arg(BIN)
        .arg(root.join("fairy-stockfish/pawnrace.ini"))
        .args(["--games", "2000", "--seed", "2026"])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Shown with --nocapture: what was compared, and how long it took.
    println!("{stdout}");
    assert!(
        out.status.success() && stdout.contains("agreed everywhere"),
        "the second referee disagrees:\n{stdout}\n{stderr}"
    );
}

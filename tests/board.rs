//! The board page as a player of a solved game uses it, in headless
//! Chromium against the real server: the explorer's values (held to
//! `solve` over TCP), review by the move list, side lines in analysis, what
//! would have kept a spoiled result, the value graph, and the game as a PGN
//! file (read back by `pawnrace analyse`).
//!
//! Without Chromium and chromedriver these tests fail where `CI` is set and
//! elsewhere say SKIPPED and pass (see `tests/browser.rs`).

#[path = "common/browser.rs"]
mod browser;
mod common;
#[path = "common/page.rs"]
mod page;

use browser::{Browser, Screen};
use common::{Peer, run_binary};
use page::*;
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A race: white's h-pawn is one step ahead (white wins in 9 with h4).
const RACE: &str = "8/p7/8/3p4/8/3P4/7P/8 w -";
/// One pawn each on the e-file: a draw whoever moves.
const BLOCKED: &str = "8/4p3/8/8/8/8/4P3/8 w -";

/// A new game from `fen` (empty: gaps AH) with the person on `seat`.
async fn new_game(b: &Browser, seat: &str, fen: &str) {
    b.click(&format!("input[name='seat'][value='{seat}']"))
        .await;
    b.js(
        "document.querySelector('#setup details').open = true;",
        vec![],
    )
    .await;
    let field = b.element("#start-fen").await;
    field.clear().await.expect("clear the start position");
    if !fen.is_empty() {
        b.keys("#start-fen", fen).await;
    }
    b.click("#new-game").await;
    b.wait_until(&format!(
        "document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 0 \
         && pawnrace.play.fens[0] === {}",
        if fen.is_empty() {
            "'8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -'".to_string()
        } else {
            format!("'{fen}'")
        }
    ))
    .await;
}

/// The explorer's rows once every move has its value: (uci, value,
/// source) in the order shown.
async fn explored(b: &Browser, fen: &str) -> Vec<(String, String, String)> {
    b.wait_until(&format!(
        "pawnrace.explorer.fen === '{fen}' && pawnrace.explorer.cache.has('{fen}') \
         && document.querySelectorAll('#explorer-moves button').length > 0 \
         && ![...document.querySelectorAll('#explorer-moves button')].some(e => e.dataset.result === 'pending')"
    ))
    .await;
    let rows = b
        .js(
            "return [...document.querySelectorAll('#explorer-moves button')]
               .map(e => [e.dataset.uci, e.dataset.value, e.dataset.source]);",
            vec![],
        )
        .await;
    serde_json::from_value(rows).expect("rows")
}

/// The value `solve` proves for the position after `uci` from `fen`, in
/// the explorer's words (plies counted from `fen`).
fn solved_after(peer: &Peer, fen: &str, uci: &str) -> String {
    let (_, set) = ask(peer, &format!("position fen {fen} moves {uci}"));
    assert!(set.starts_with("ok position "), "{set}");
    let (_, solution) = ask(peer, "solve movetime 60000");
    let words: Vec<&str> = solution.split(' ').collect();
    match words.as_slice() {
        ["solution", "draw", ..] => "draw".to_string(),
        ["solution", winner, "plies", plies, ..] => {
            let plies: u32 = plies.parse().expect("plies");
            format!("{winner} wins in {}", plies + 1)
        }
        _ => panic!("no solution: {solution}"),
    }
}

/// The rank of a value for the side to move (`white`/`black`), best first.
fn rank(value: &str, side: &str) -> (u8, i64) {
    if value == "draw" {
        return (1, 0);
    }
    let words: Vec<&str> = value.split(' ').collect();
    let plies: i64 = words[3].parse().expect("plies");
    if words[0] == side {
        (0, plies)
    } else {
        (3, -plies)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_gives_every_move_the_value_solve_proves() {
    let Some((server, b)) = open_page("explorer", Screen::Desktop).await else {
        return;
    };
    // Off against the engine, so that it is not a cheat by accident.
    assert_eq!(
        b.js("return pawnrace.explorer.enabled;", vec![]).await,
        json!(false)
    );
    let peer = Peer::connect(server.addr);
    for fen in [RACE, BLOCKED] {
        // Playing both sides: the explorer is on.
        new_game(&b, "both", fen).await;
        let rows = explored(&b, fen).await;
        let moves = {
            let (lines, _) = ask(&peer, &format!("position fen {fen}"));
            assert!(lines.is_empty());
            let (lines, _) = ask(&peer, "moves");
            lines.len()
        };
        assert_eq!(rows.len(), moves, "every legal move is listed: {rows:?}");
        for (uci, value, source) in &rows {
            assert_eq!(value, &solved_after(&peer, fen, uci), "{fen} {uci}");
            assert_eq!(source, "solver");
        }
        let ranks: Vec<_> = rows.iter().map(|(_, v, _)| rank(v, "white")).collect();
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]),
            "best first: {rows:?}"
        );
    }
    b.screenshot("explorer.png").await;

    // From the race: the explorer's best move, clicked, is played.
    new_game(&b, "both", RACE).await;
    let rows = explored(&b, RACE).await;
    assert_eq!(
        rows[0],
        ("h2h4".into(), "white wins in 9".into(), "solver".into())
    );
    b.click("#explorer-moves button[data-uci='h2h4']").await;
    b.wait_until("document.querySelectorAll('#moves .ply').length === 1")
        .await;
    assert_eq!(move_list(&b, "#moves").await, ["h4"]);

    // The start of a proven opening: the tables answer, the line first.
    new_game(&b, "both", "").await;
    let start = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -";
    let rows = explored(&b, start).await;
    assert_eq!(rows.len(), 14);
    assert_eq!(
        rows[0],
        ("h2h4".into(), "white wins in 29".into(), "openings".into())
    );
    assert!(rows[1..].iter().all(|(_, _, s)| s == "book"), "{rows:?}");
    b.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_reviewed_by_its_move_list_and_downloaded_as_pgn() {
    let Some((server, b)) = open_page("review", Screen::Desktop).await else {
        return;
    };
    new_game(&b, "both", "").await;
    for (n, m) in ["h2h4", "a7a5", "h4h5"].iter().enumerate() {
        // The board takes no input while the last move is animated.
        tokio::time::sleep(Duration::from_millis(300)).await;
        click_move(&b, m).await;
        b.wait_until(&format!(
            "pawnrace.play.moves.length === {} && document.body.dataset.state === 'your-move'",
            n + 1
        ))
        .await;
    }
    let peer = Peer::connect(server.addr);
    let after = |moves: &str| {
        let (_, set) = ask(&peer, &format!("position startpos gaps AH moves {moves}"));
        set.strip_prefix("ok position ")
            .expect("a position")
            .to_string()
    };
    let (one, two, three) = (after("h2h4"), after("h2h4 a7a5"), after("h2h4 a7a5 h4h5"));

    // A click on 1. h4 shows the position after it; the game waits.
    b.click("#moves .ply[data-ply='1']").await;
    board_shows(&b, &one).await;
    b.wait_until("!document.getElementById('back-to-game').hidden")
        .await;
    assert_eq!(
        b.js("return pawnrace.play.viewPly;", vec![]).await,
        json!(1)
    );
    assert!(
        !legal_moves(&b).await.is_empty(),
        "the game's moves are kept"
    );
    assert!(
        move_field_disabled(&b).await,
        "no move is played from a position under review"
    );
    // The explorer values the position reviewed.
    b.wait_until(&format!("pawnrace.explorer.fen === '{one}'"))
        .await;
    // Arrows step; End (or the button) returns to the game.
    b.keys("body", &fantoccini::key::Key::Right.to_string())
        .await;
    board_shows(&b, &two).await;
    b.keys("body", &fantoccini::key::Key::Home.to_string())
        .await;
    board_shows(&b, "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -").await;
    b.click("#back-to-game").await;
    board_shows(&b, &three).await;
    b.wait_until(
        "document.getElementById('back-to-game').hidden && pawnrace.play.viewPly === null",
    )
    .await;
    assert!(!move_field_disabled(&b).await);

    // The game as a file: the Seven Tag Roster, the gaps, the moves.
    b.click("#download-pgn").await;
    let pgn = downloaded(&b, "pawnrace-game.pgn").await;
    for want in [
        "[Event \"pawnrace board\"]",
        "[White \"you\"]",
        "[Gaps \"AH\"]",
        "[Result \"*\"]",
        "1. h4 a5 2. h5 *",
    ] {
        assert!(pgn.contains(want), "{want} in {pgn}");
    }
    check_readable(&b, &pgn);

    // A game from a set-up position: SetUp and FEN.
    new_game(&b, "both", RACE).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    click_move(&b, "h2h4").await;
    b.wait_until("document.querySelectorAll('#moves .ply').length === 1")
        .await;
    b.click("#download-pgn").await;
    let pgn = downloaded(&b, "pawnrace-game.pgn").await;
    for want in ["[SetUp \"1\"]", &format!("[FEN \"{RACE}\"]"), "1. h4 *"] {
        assert!(pgn.contains(want), "{want} in {pgn}");
    }
    assert!(!pgn.contains("[Gaps"), "{pgn}");
    check_readable(&b, &pgn);
    b.finish().await;
}

/// The newest file the browser saved under `name` (`name`, `name (1)`, ...),
/// once it is complete.
async fn downloaded(b: &Browser, name: &str) -> String {
    let stem = name.trim_end_matches(".pgn");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&b.downloads)
            .expect("the downloads folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let file = p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                file.starts_with(stem) && file.ends_with(".pgn")
            })
            .collect();
        files.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        if let Some(newest) = files.last() {
            let text = std::fs::read_to_string(newest).unwrap_or_default();
            let recorded = b
                .js("return pawnrace.downloads.at(-1)?.text ?? '';", vec![])
                .await;
            if recorded.as_str() == Some(text.as_str()) {
                for f in &files {
                    let _ = std::fs::remove_file(f);
                }
                return text;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no download {name} in {}",
            b.downloads.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `pawnrace analyse` reads the page's PGN.
fn check_readable(b: &Browser, pgn: &str) {
    let path = b.downloads.join("read-back.pgn");
    std::fs::write(&path, pgn).expect("write the PGN");
    let (ok, _, stderr) = run_binary(
        &[
            "analyse",
            "--movetime",
            "50",
            "--hash",
            "16",
            path.to_str().expect("a path"),
        ],
        b"",
    );
    assert!(ok, "pawnrace analyse refused the page's PGN: {stderr}");
}

/// The second game of the analysis test's file: a race from a set-up
/// position where both sides spoil at once.
const SPOILED: &str = r#"[White "carol"]
[Black "dave"]
[SetUp "1"]
[FEN "8/p7/8/3p4/8/3P4/7P/8 w -"]

1. h3 a6 2. h4 a5 3. h5 *
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_shows_what_kept_the_result_and_tries_side_lines() {
    let Some((server, b)) = open_page("side-line", Screen::Desktop).await else {
        return;
    };
    // With no game loaded the Analyse tab is a board to try moves on.
    b.click("#tab-analyse").await;
    let start = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -";
    board_shows(&b, start).await;
    b.wait_until(&format!(
        "pawnrace.explorer.fen === '{start}' && pawnrace.explorer.enabled"
    ))
    .await;
    // A move tried on the board starts a side line the explorer values.
    b.wait_until("pawnrace.board.legal.length === 14").await;
    click_move(&b, "h2h4").await;
    b.wait_until("!document.getElementById('side-line').hidden")
        .await;
    assert_eq!(
        b.text("#side-line").await,
        "Side line from the start: 1. h4"
    );
    let peer = Peer::connect(server.addr);
    let (_, set) = ask(&peer, &format!("position fen {start} moves h2h4"));
    let after_h4 = set
        .strip_prefix("ok position ")
        .expect("a position")
        .to_string();
    board_shows(&b, &after_h4).await;
    let rows = explored(&b, &after_h4).await;
    assert_eq!(rows.len(), 14);
    assert!(
        rows.iter().all(|(_, v, _)| v.starts_with("white wins in ")),
        "{rows:?}"
    );
    // Back to the game: the side line is gone.
    b.click("#back-to-game").await;
    board_shows(&b, start).await;
    b.wait_until("document.getElementById('side-line').hidden")
        .await;

    // A game with spoiled moves, analysed.
    b.js(
        "document.getElementById('pgn').value = arguments[0];",
        vec![json!(SPOILED)],
    )
    .await;
    b.click("#analyse").await;
    b.wait_until(
        "document.getElementById('analysis-progress').textContent.includes('click one to see')",
    )
    .await;
    // 1. h3?? threw white's win away: only h4 kept it, as explore says.
    b.click("#analysis-moves .ply[data-ply='1']").await;
    b.wait_until("!document.getElementById('alternatives').hidden")
        .await;
    let (lines, fin) = ask(&peer, &format!("position fen {RACE}"));
    assert!(lines.is_empty(), "{fin}");
    let (lines, fin) = ask(&peer, "explore movetime 5000");
    assert_eq!(fin, "ok explore moves 3 unknown 0");
    let keeping: Vec<String> = lines
        .iter()
        .filter(|l| l.contains(" value white wins "))
        .map(|l| l.split(' ').nth(4).expect("san").to_string())
        .collect();
    assert_eq!(keeping, ["h4"]);
    assert_eq!(
        b.text("#alternatives").await,
        "Instead of 1. h3, these kept the result:\nh4: Win in 9 (white wins)"
    );
    b.screenshot("why-spoiled.png").await;

    // The value graph: one column per position; a click goes there.
    let columns = b
        .js(
            "return document.querySelectorAll('#value-graph .column').length;",
            vec![],
        )
        .await;
    assert_eq!(columns, json!(6));
    assert_eq!(
        b.js(
            "return document.querySelectorAll('#value-graph .spoil-dot').length;",
            vec![]
        )
        .await,
        json!(2)
    );
    b.click("#value-graph .column[data-ply='3']").await;
    b.wait_until("document.getElementById('ply-detail').textContent.startsWith('2. h4: chance')")
        .await;

    // A side line from inside the game, then back.
    b.wait_until("pawnrace.board.legal.length > 0").await;
    let tried = legal_moves_of_board(&b).await;
    click_move(&b, &tried[0]).await;
    b.wait_until("!document.getElementById('side-line').hidden")
        .await;
    assert!(
        b.text("#side-line")
            .await
            .starts_with("Side line from after 2. h4: 2...")
    );
    b.keys("body", &fantoccini::key::Key::Left.to_string())
        .await;
    b.keys("body", &fantoccini::key::Key::Left.to_string())
        .await;
    b.wait_until("document.getElementById('side-line').hidden && pawnrace.analysis.ply === 3")
        .await;

    // The analysed game as a file, with its verdicts and what kept them.
    b.click("#download-analysis").await;
    let pgn = downloaded(&b, "pawnrace-analysis.pgn").await;
    for want in [
        "[FEN \"8/p7/8/3p4/8/3P4/7P/8 w -\"]",
        "[Annotator ",
        "1. h3?? {",
        "spoiled; kept by h4}",
        "2. h4! {",
    ] {
        assert!(pgn.contains(want), "{want} in {pgn}");
    }
    check_readable(&b, &pgn);
    b.finish().await;
}

/// The moves the board takes now, in coordinates.
async fn legal_moves_of_board(b: &Browser) -> Vec<String> {
    let legal = b
        .js("return pawnrace.board.legal.map(m => m.uci);", vec![])
        .await;
    serde_json::from_value(legal).expect("legal moves")
}

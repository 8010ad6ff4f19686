//! The page at `/` in a real browser: headless Chromium under chromedriver,
//! driven over WebDriver, against the real binary's `serve --http`. A
//! person's game by clicks, drags and keys; an analysis of a PGN; the
//! page's WebSocket traffic replayed over TCP with the same replies.
//! Screenshots go to target/tmp/browser-test/.
//!
//! Without Chromium and chromedriver these tests fail where `CI` is set
//! (`.ci/run` sets it and installs them) and elsewhere say SKIPPED and pass.

#[path = "common/browser.rs"]
mod browser;
mod common;
#[path = "common/page.rs"]
mod page;

use browser::{Browser, Screen, output_dir};
use common::ServerProcess;
use fantoccini::Locator;
use fantoccini::key::Key;
use page::*;
use serde_json::json;

/// A race: white's h-pawn is one step ahead (white wins in 9 with h4).
const RACE: &str = "8/p7/8/3p4/8/3P4/7P/8 w -";

async fn open(test: &str) -> Option<(ServerProcess, Browser)> {
    open_page(test, Screen::Desktop).await
}

/// The engine's time per move, set by a key on its slider.
async fn engine_time(b: &Browser, key: Key, shown: &str) {
    b.keys("#movetime", &key).await;
    assert_eq!(b.text("#movetime-out").await, shown);
}

/// Waits for the engine's answer to the person's move: `plies` in the
/// list and a person to move, or the end.
async fn after_move(b: &Browser, plies: usize) {
    b.wait_until(&format!(
        "document.body.dataset.state === 'over' || \
         (document.body.dataset.state === 'your-move' && \
          document.querySelectorAll('#moves .ply').length === {plies})"
    ))
    .await;
}

/// The board and the move list are what the session last said (its last
/// `board` reply in the page's own traffic).
async fn check_against_session(b: &Browser) {
    let traffic = traffic(b, "client").await;
    let fen = last_received(&traffic, "fen").expect("a board reply");
    board_shows(b, &fen).await;
    let history = last_received(&traffic, "history").expect("a history line");
    assert_eq!(move_list(b, "#moves").await, history_sans(&history));
}

/// Plays white by `choose` until the game ends; every `how(n)` says how
/// the n-th move is made (0: clicks, 1: a drag, 2: typed).
async fn play_out(b: &Browser, how: impl Fn(usize) -> u8) -> usize {
    let mut plies = move_list(b, "#moves").await.len();
    for n in 0..60 {
        if is(
            &b.js("return document.body.dataset.state;", vec![]).await,
            "over",
        ) {
            return plies;
        }
        let m = choose(&legal_moves(b).await, true);
        match how(n) {
            1 => drag_move(b, &m).await,
            2 => {
                let san = if m.as_bytes()[0] == m.as_bytes()[2] {
                    m[2..4].to_string()
                } else {
                    format!("{}x{}", &m[0..1], &m[2..4])
                };
                b.keys("#move-input", &format!("{san}{}", &*Key::Enter))
                    .await;
            }
            _ => click_move(b, &m).await,
        }
        plies += 2;
        after_move(b, plies).await;
        plies = move_list(b, "#moves").await.len();
        check_against_session(b).await;
    }
    panic!("the game did not end in 60 moves");
}

async fn check_result_banner(b: &Browser) {
    let traffic = traffic(b, "client").await;
    let status = last_received(&traffic, "status").expect("a status line");
    let result = status.split(' ').next().unwrap_or_default().to_string();
    let sentence = &status[status.find('(').expect("(") + 1..status.len() - 1];
    let token = match result.as_str() {
        "white-wins" => "1-0",
        "black-wins" => "0-1",
        _ => "1/2-1/2",
    };
    let mut want = sentence.to_string();
    want[..1].make_ascii_uppercase();
    // The person plays white in these games: the banner says how it went
    // for them, in the colour of that (green won, red lost, yellow drawn).
    let (said, outcome) = match result.as_str() {
        "white-wins" => ("You won. ", "won"),
        "black-wins" => ("You lost. ", "lost"),
        _ => ("", "draw"),
    };
    // The banner's text, its close button's, and the way to the analysis.
    let why = if outcome == "lost" {
        "See which move lost it"
    } else {
        "Analyse the game"
    };
    assert_eq!(
        b.text("#banner").await,
        format!("{said}{want} ({token})\u{d7}\n{why}")
    );
    let colour = b
        .js(
            "return document.getElementById('banner').dataset.outcome;",
            vec![],
        )
        .await;
    assert!(is(&colour, outcome), "banner outcome {colour}");
    let shown = b
        .js(
            "return document.getElementById('banner').dataset.result;",
            vec![],
        )
        .await;
    assert!(
        is(&shown, &result),
        "banner result {shown}, status {status}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_game_against_the_engine_by_clicks_drags_and_keys() {
    let Some((_server, b)) = open("play").await else {
        return;
    };
    b.screenshot("01-start.png").await;

    // Gaps c and f by clicking the file selector; white against the engine.
    b.click(".files[data-side='white'] input[value='C'] + span")
        .await;
    b.click(".files[data-side='black'] input[value='F'] + span")
        .await;
    engine_time(&b, Key::Home, "50 ms").await;
    b.click("#new-game").await;
    b.wait_until("pawnrace.client.traffic.some(t => t.line === 'ok gaps CF')")
        .await;
    b.wait_until("document.body.dataset.state === 'your-move'")
        .await;
    board_shows(&b, "8/ppppp1pp/8/8/8/8/PP1PPPPP/8 w -").await;
    assert_eq!(legal_moves(&b).await.len(), 14);

    // The targets of a selected pawn are marked.
    b.click("#board rect[data-square='e2']").await;
    let targets = b
        .js("return [...document.querySelectorAll('#board .markers g[data-square] use.marker-dot')].map(u => u.parentNode.dataset.square).sort();", vec![])
        .await;
    assert_eq!(targets, json!(["e3", "e4"]));
    b.click("#board rect[data-square='e4']").await;
    after_move(&b, 2).await;
    check_against_session(&b).await;
    // The last move is marked on its two squares.
    let marked = b
        .js("return [...document.querySelectorAll('#board .markers use.marker-last')].map(u => u.parentNode.dataset.square).sort();", vec![])
        .await;
    assert_eq!(marked.as_array().map(Vec::len), Some(2), "{marked}");

    // Undo takes back the engine's move and the person's.
    b.click("#undo").await;
    after_move(&b, 0).await;
    check_against_session(&b).await;
    board_shows(&b, "8/ppppp1pp/8/8/8/8/PP1PPPPP/8 w -").await;

    // The board turns over and back.
    b.click("#flip").await;
    // Flipped: a1 is drawn above a8.
    let y = |square: &str| {
        format!(
            "document.querySelector(\"#board rect[data-square='{square}']\").getBoundingClientRect().y"
        )
    };
    b.wait_until(&format!("{} < {}", y("a1"), y("a8"))).await;
    b.screenshot("02-flipped.png").await;
    b.click("#flip").await;
    b.wait_until(&format!("{} > {}", y("a1"), y("a8"))).await;

    // The game to its end: clicks, with one drag and one typed move.
    play_out(&b, |n| match n {
        1 => 1,
        2 => 2,
        _ => 0,
    })
    .await;
    check_against_session(&b).await;
    check_result_banner(&b).await;
    assert!(!b.text("#think-who").await.is_empty());
    b.screenshot("03-game-over.png").await;

    // Watch: the engine against itself, paused after a few moves.
    b.click("input[name='seat'][value='none']").await;
    engine_time(&b, Key::Right, "100 ms").await;
    engine_time(&b, Key::Right, "200 ms").await;
    b.click("#new-game").await;
    b.wait_until(
        "document.getElementById('game-info').textContent.includes('the engine plays both sides') \
         && document.querySelectorAll('#moves .ply').length >= 4",
    )
    .await;
    b.click("#pause").await;
    b.wait_until("document.body.dataset.state === 'paused'")
        .await;
    check_against_session(&b).await;
    assert_eq!(b.text("#pause").await, "Resume");

    // A phone-sized window: everything fits its width.
    b.client.set_window_size(390, 844).await.expect("resize");
    b.wait_until("document.documentElement.scrollWidth <= window.innerWidth")
        .await;
    b.screenshot("04-phone.png").await;
    b.finish().await;
}

const PGN: &str = r#"[Event "on the proven line"]
[White "alice"]
[Black "bob"]
[Gaps "AH"]
[Result "*"]

1. h4 a5 2. h5 f6 *

[Event "a race thrown away and taken back"]
[White "carol"]
[Black "dave"]
[FEN "8/p7/8/3p4/8/3P4/7P/8 w - - 0 1"]
[SetUp "1"]
[Result "*"]

1. h3 {too slow} a6?? 2. h4! a5 3. h5 *
"#;

const ANNOTATED: &str = r#"[Event "annotated"]
[Gaps "CG"]
[Result "1-0"]

1. a4 {white wins in 31} 1... h5 $1 2. b4?? (2. c4 d5 {a line
over two}) 2... g5 ; a comment to the end of the line
3. bxa5! 1-0
[Gaps "AH"]
1.h4 a5 *
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_traffic_is_the_protocol_and_replays_over_tcp() {
    let Some((_server, b)) = open("replay").await else {
        return;
    };

    // A game from a set-up position, played to its end by clicks.
    b.click("#setup summary").await;
    b.keys("#start-fen", RACE).await;
    // 2 s a move: the engine's proofs here take a millisecond and end its
    // search, and the replay needs them (a crowded machine's late answer
    // would be a guess).
    engine_time(&b, Key::Right, "2 s").await;
    b.click("#new-game").await;
    b.wait_until(&format!(
        "pawnrace.client.traffic.some(t => t.line === 'ok position {RACE}')"
    ))
    .await;
    b.wait_until("document.body.dataset.state === 'your-move'")
        .await;
    board_shows(&b, RACE).await;
    let plies = play_out(&b, |_| 0).await;
    check_result_banner(&b).await;
    assert!(
        b.text("#banner")
            .await
            .starts_with("You won. White wins by promotion"),
        "{}",
        b.text("#banner").await
    );
    assert!(plies <= 12, "{plies} plies");

    // The analysis of a PGN file: its second game, step by step.
    b.click("#tab-analyse").await;
    let file = output_dir().join("two-games.pgn");
    std::fs::write(&file, PGN).expect("write the PGN");
    b.keys("#pgn-file", &file.display().to_string()).await;
    b.wait_until("document.querySelectorAll('#pgn-games option').length === 2")
        .await;
    b.client
        .find(Locator::Id("pgn-games"))
        .await
        .expect("games")
        .select_by_value("1")
        .await
        .expect("select");
    let budget = b.client.find(Locator::Id("budget")).await.expect("budget");
    budget.clear().await.expect("clear");
    b.keys("#budget", "5000").await;
    b.click("#analyse").await;
    b.wait_until("document.getElementById('analysis-progress').textContent.startsWith('Analysed')")
        .await;
    assert_eq!(
        move_list(&b, "#analysis-moves").await,
        ["h3", "a6", "h4", "a5", "h5"]
    );
    let verdicts = b
        .js("return [...document.querySelectorAll('#analysis-moves .ply')].map(e => e.dataset.verdict);", vec![])
        .await;
    assert_eq!(
        verdicts,
        json!(["spoiled", "spoiled", "chance", "kept", "kept"])
    );
    // Home, then three steps forward by the arrow key: after 2. h4.
    let keys = [Key::Home, Key::Right, Key::Right, Key::Right];
    b.keys("body", &keys.map(|k| k.to_string()).concat()).await;
    b.wait_until("document.getElementById('ply-detail').textContent.startsWith('2. h4: chance')")
        .await;
    assert_eq!(
        b.text("#ply-detail").await,
        "2. h4: chance, took the chance the opponent gave. Before: White wins in 9; after: White wins in 8."
    );
    board_shows(&b, "8/8/p7/3p4/7P/3P4/8/8 b -").await;
    assert_eq!(b.text("#analysis-summary").await.lines().count(), 3);
    b.screenshot("05-analysis.png").await;

    // The page's PGN reader on what annotators write: comments, glyphs,
    // marks, variations, move numbers stuck to moves, a game with no
    // blank line before the next one's tags.
    let read = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             import('/pgn.js').then(m => done(m.parsePgn(arguments[0])
               .map(g => [g.tags.Gaps, g.moves.join(' '), g.result])));",
            vec![json!(ANNOTATED)],
        )
        .await
        .expect("pgn.js reads");
    assert_eq!(
        read,
        json!([["CG", "a4 h5 b4 g5 bxa5", "1-0"], ["AH", "h4 a5", "*"]])
    );

    // The page's two sessions, replayed over TCP on a fresh server.
    let play = traffic(&b, "client").await;
    let analysis = traffic(&b, "analysis.client").await;
    b.finish().await;
    let fresh = ServerProcess::spawn(&[]);
    let mut transcript = String::from("# The page's play session, then its analysis session.\n");
    transcript.push_str(&replay_over_tcp(fresh.addr, &play));
    transcript.push_str(&replay_over_tcp(fresh.addr, &analysis));
    let path = output_dir().join("board-session.txt");
    std::fs::write(&path, transcript).expect("write the transcript");
    eprintln!("recorded: {}", path.display());
}

/// The page's line client keeps step with the server in and out of UCI
/// mode: after `uci` then `d` (which ends UCI mode), `position` is
/// answered, a `stop` during a search (the console's Move now) is answered
/// `ok stop`, and the next command gets its own reply, not that one.
#[tokio::test]
async fn the_pages_client_keeps_step_when_a_command_ends_uci_mode() {
    let Some((_server, b)) = open("uci-desync").await else {
        return;
    };
    let finals = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             import('/protocol.js').then(async ({ LineClient }) => {
               const c = new LineClient(`ws://${location.host}/ws`);
               await c.connect();
               const said = [];
               for (const line of ['uci', 'd', 'position startpos gaps AH']) {
                 said.push((await c.send(line)).final);
               }
               // Sent at once, as the console sends them: the replies
               // come in the server's order and must find their commands.
               const go = c.send('go infinite');
               const stop = c.send('stop');
               const fen = c.send('fen');
               for (const reply of [go, stop, fen]) said.push((await reply).final);
               done(said);
             }).catch(e => done(String(e)));",
            vec![],
        )
        .await
        .expect("the client runs");
    b.finish().await;
    let finals: Vec<Option<String>> = serde_json::from_value(finals.clone())
        .unwrap_or_else(|_| panic!("the client failed: {finals}"));
    // `d` before any position is refused, and still ends UCI mode.
    let want = [
        "uciok",
        "error wrong-state ",
        "ok position ",
        "bestmove ",
        "ok stop",
        "ok fen ",
    ];
    assert_eq!(finals.len(), want.len(), "{finals:?}");
    for (got, want) in finals.iter().zip(want) {
        assert!(
            got.as_deref().is_some_and(|got| got.starts_with(want)),
            "{finals:?}"
        );
    }
}

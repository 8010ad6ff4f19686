//! The board page's rough edges, each found by trying the page as a new
//! player would and each held here in headless Chromium against the real
//! server: the console's replies in step with the page, Move now in a
//! watched game, what the page says while it has no game, the gaps the
//! engine chose, the thinking panel after Undo, the banner of a lost game,
//! a server that goes away, the favicon, the board by keyboard, and the
//! layout on a phone.
//!
//! Without Chromium and chromedriver these tests fail where `CI` is set and
//! elsewhere say SKIPPED and pass (see `tests/browser.rs`).

#[path = "common/browser.rs"]
mod browser;
mod common;
#[path = "common/page.rs"]
mod page;

use browser::{Browser, Screen};
use fantoccini::key::Key;
use page::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The Pawn Race start with gaps AH but black to move: far from every
/// table, so the engine searches for all the time it is given.
const LONG_THINK: &str = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 b -";

/// A new game: the person's seat, the engine's time (a key on its slider)
/// and a start position (empty: the gaps chosen in the form).
async fn new_game(b: &Browser, seat: &str, time_key: Key, fen: &str) {
    b.click(&format!("input[name='seat'][value='{seat}']"))
        .await;
    b.keys("#movetime", &time_key).await;
    b.js(
        "document.querySelector('#setup details').open = true;
         document.getElementById('start-fen').value = arguments[0];",
        vec![json!(fen)],
    )
    .await;
    b.click("#new-game").await;
}

async fn state(b: &Browser) -> Value {
    b.js("return document.body.dataset.state;", vec![]).await
}

/// Waits at most `within` for `condition`: for what must be prompt.
async fn soon(b: &Browser, condition: &str, within: Duration) {
    let deadline = Instant::now() + within;
    let script = format!("return Boolean({condition});");
    while b.js(&script, vec![]).await != Value::Bool(true) {
        assert!(
            Instant::now() < deadline,
            "not within {within:?}: {condition}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Plays `m` by two clicks and waits until the page has it in its move
/// list: in a proven position the engine answers within milliseconds, and
/// the page's thinking state can come and go between two looks at it.
async fn play_move(b: &Browser, m: &str) {
    let played = b.js("return pawnrace.play.moves.length;", vec![]).await;
    click_move(b, m).await;
    b.wait_until(&format!(
        "pawnrace.play.moves.length > {played} && pawnrace.play.moves[{played}].uci === '{m}'"
    ))
    .await;
}

/// The person (white) plays `choose`'s moves by clicks, at most `moves` of
/// them, until the game is over.
async fn play_white_to_the_end(b: &Browser, moves: usize) {
    for _ in 0..moves {
        b.wait_until(
            "['your-move', 'over'].includes(document.body.dataset.state) && pawnrace.client.idle",
        )
        .await;
        if state(b).await == json!("over") {
            return;
        }
        // The board takes no input while the last move is animated.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let m = choose(&legal_moves(b).await, true);
        play_move(b, &m).await;
    }
}

/// `uci`, then `d`, typed in the console while the engine thinks, then
/// Move now: every reply still answers its own command, and the game goes
/// on (the engine's move in the list, the person's moves offered).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_lines_during_a_search_keep_the_page_in_step() {
    let Some((_server, b)) = open_page("console-step", Screen::Desktop).await else {
        return;
    };
    new_game(&b, "white", Key::End, LONG_THINK).await;
    b.wait_until("document.body.dataset.state === 'thinking'")
        .await;
    b.click("#console summary").await;
    b.keys("#console-line", &format!("uci{}", &*Key::Enter))
        .await;
    b.keys("#console-line", &format!("d{}", &*Key::Enter)).await;
    b.wait_until("pawnrace.client.traffic.some(t => t.line === 'd')")
        .await;
    b.click("#stop").await;
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 1 && pawnrace.client.idle")
        .await;
    let traffic = traffic(&b, "client").await;
    assert!(traffic.iter().any(|(d, l)| d == "<" && l == "uciok"));
    assert!(traffic.iter().any(|(d, l)| d == "<" && l == "ok stop"));
    assert_eq!(move_list(&b, "#moves").await.len(), 1);
    assert!(!legal_moves(&b).await.is_empty());
    assert!(!move_field_disabled(&b).await);
    // And on: the person moves, the engine thinks, Move now again. The
    // stopped search's proofs are kept, so the engine may already know the
    // answer and move at once, its thinking too brief to be seen.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let m = choose(&legal_moves(&b).await, true);
    click_move(&b, &m).await;
    b.wait_until("document.body.dataset.state === 'thinking' || pawnrace.play.moves.length === 3")
        .await;
    if state(&b).await == json!("thinking") {
        b.click("#stop").await;
    }
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 3 && pawnrace.client.idle")
        .await;
    let played = b.js("return pawnrace.play.moves[1].uci;", vec![]).await;
    assert_eq!(played, json!(m));
    b.finish().await;
}

/// In a watched game the engine waits out the chosen time between moves
/// even where its proof is instant; Move now ends the wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_now_moves_at_once_in_a_watched_game() {
    let Some((_server, b)) = open_page("watch-move-now", Screen::Desktop).await else {
        return;
    };
    // 30 s a move, from the start of a proven opening.
    new_game(&b, "none", Key::End, "").await;
    b.wait_until("document.body.dataset.state === 'thinking'")
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    b.click("#stop").await;
    soon(
        &b,
        "document.querySelectorAll('#moves .ply').length >= 1",
        Duration::from_secs(10),
    )
    .await;
    b.click("#pause").await;
    b.finish().await;
}

/// With no game the page says why (a refused start position, a server
/// gone), never "the engine chooses the gaps"; the gaps the engine
/// chose show in the form; Undo clears the thinking of a position taken back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_says_why_there_is_no_game_and_what_the_engine_chose() {
    let Some((mut server, b)) = open_page("no-game", Screen::Desktop).await else {
        return;
    };
    let info = || b.text("#game-info");

    // A start position the server refuses.
    new_game(&b, "white", Key::Home, "8/8/8/8/8/8/8/8 w -").await;
    b.wait_until("document.getElementById('message').textContent.startsWith('The start position')")
        .await;
    let said = info().await;
    assert!(said.contains("refused"), "{said}");
    assert!(!said.contains("chooses the gaps"), "{said}");

    // The engine chooses the gaps: the form shows them.
    b.js(
        "document.getElementById('engine-gaps').checked = true;",
        vec![],
    )
    .await;
    new_game(&b, "white", Key::Home, "").await;
    b.wait_until("pawnrace.client.traffic.some(t => t.line.startsWith('ok gaps '))")
        .await;
    b.wait_until("document.body.dataset.state === 'your-move'")
        .await;
    let traffic = traffic(&b, "client").await;
    let gaps = traffic
        .iter()
        .rev()
        .find_map(|(_, l)| l.strip_prefix("ok gaps "))
        .expect("the engine's gaps")
        .to_string();
    let checked = b
        .js(
            "const f = document.getElementById('setup').elements;
             return f['gap-white'].value + f['gap-black'].value;",
            vec![],
        )
        .await;
    assert_eq!(checked, json!(gaps));

    // A move, the engine's answer with its thinking, then Undo.
    b.js(
        "document.getElementById('engine-gaps').checked = false;",
        vec![],
    )
    .await;
    new_game(&b, "white", Key::Home, "").await;
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 0")
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    click_move(&b, "h2h4").await;
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 2")
        .await;
    assert!(!b.text("#think-value").await.is_empty());
    b.click("#undo").await;
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 0")
        .await;
    for part in ["#think-value", "#think-stats", "#think-pv"] {
        assert_eq!(b.text(part).await, "", "{part} after Undo");
    }

    // The favicon is there.
    let icon = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/favicon.ico').then(r => done([r.status, r.headers.get('content-type')]));",
            vec![],
        )
        .await
        .expect("fetch the favicon");
    assert_eq!(icon, json!([200, "image/svg+xml"]));

    // The server goes away: nothing can be played, and the page says so.
    let _ = server.child.kill();
    let _ = server.child.wait();
    b.wait_until("document.body.dataset.state === 'disconnected'")
        .await;
    assert_eq!(
        b.js("return document.getElementById('move-input').disabled && document.getElementById('move-submit').disabled && document.getElementById('new-game').disabled;", vec![]).await,
        json!(true)
    );
    let said = info().await;
    assert!(said.starts_with("Disconnected"), "{said}");
    b.finish().await;
}

/// A lost game's banner is red and says so, and the board stays where it
/// was: the banner lies over it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_game_is_said_in_red_without_moving_the_board() {
    let Some((_server, b)) = open_page("lost", Screen::Desktop).await else {
        return;
    };
    let top = "return document.getElementById('board').getBoundingClientRect().top;";
    let before = b.js(top, vec![]).await;
    // Black's a-pawn is two steps from promoting, white's four.
    new_game(&b, "white", Key::Home, "8/8/8/8/8/p7/7P/8 w -").await;
    play_white_to_the_end(&b, 4).await;
    b.wait_until("document.body.dataset.state === 'over'").await;
    b.wait_until("!document.getElementById('banner').hidden")
        .await;
    let banner = b.text("#banner").await;
    assert!(banner.starts_with("You lost. Black wins"), "{banner}");
    let look = b
        .js(
            "const banner = document.getElementById('banner');
             return [banner.dataset.outcome, getComputedStyle(banner).backgroundColor];",
            vec![],
        )
        .await;
    assert_eq!(look, json!(["lost", "rgb(254, 226, 226)"]));
    assert_eq!(b.js(top, vec![]).await, before, "the board moved");
    b.screenshot("lost.png").await;
    // Closed, it shows the board.
    b.click("#banner .close").await;
    b.wait_until("document.getElementById('banner').hidden")
        .await;
    // Lost from the start: the analysis says no move of the person's lost it.
    b.click("#analyse-this").await;
    b.wait_until(
        "document.getElementById('analysis-progress').textContent.startsWith('No move of')",
    )
    .await;
    assert_eq!(
        b.text("#analysis-progress").await,
        "No move of white's spoiled the result. White was lost from the start."
    );
    b.finish().await;
}

/// After a loss, one click shows the move that threw the game away and
/// what would have held, without a word of protocol.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_loss_the_page_shows_the_move_that_lost_and_what_held() {
    let Some((_server, b)) = open_page("why-lost", Screen::Desktop).await else {
        return;
    };
    // A race white wins only with h4; the person plays h3, then anything.
    new_game(&b, "white", Key::Home, "8/p7/8/3p4/8/3P4/7P/8 w -").await;
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 0")
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    play_move(&b, "h2h3").await;
    play_white_to_the_end(&b, 8).await;
    b.wait_until("!document.getElementById('banner').hidden")
        .await;
    assert!(b.text("#banner").await.starts_with("You lost."));
    b.click("#banner .why").await;
    // The analysis lands on 1. h3 and says what held.
    b.wait_until("document.getElementById('alternatives').textContent.includes('h4: Win in 9')")
        .await;
    assert!(b.text("#ply-detail").await.starts_with("1. h3: spoiled"));
    assert_eq!(
        b.text("#alternatives").await,
        "Instead of 1. h3, these kept the result:\nh4: Win in 9 (white wins)"
    );
    b.screenshot("why-lost.png").await;
    b.finish().await;
}

/// The board by keyboard: Tab to it, arrows to a pawn, Enter, arrows to
/// its target, Enter. The square under the cursor is marked while the
/// board has the keyboard's focus.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_is_played_by_keyboard() {
    let Some((_server, b)) = open_page("keyboard", Screen::Desktop).await else {
        return;
    };
    // The cursor starts on e2.
    b.keys("#board", "").await;
    b.wait_until("document.querySelector('#board .markers use.marker-cursor') !== null")
        .await;
    let cursor = b
        .js(
            "return document.querySelector('#board .markers use.marker-cursor').parentNode.dataset.square;",
            vec![],
        )
        .await;
    assert_eq!(cursor, json!("e2"));
    let keys = [Key::Enter, Key::Up, Key::Up, Key::Enter].map(|k| k.to_string());
    b.keys("#board", &keys.concat()).await;
    b.wait_until("pawnrace.client.traffic.some(t => t.line === 'move e2e4')")
        .await;
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 2")
        .await;
    assert_eq!(move_list(&b, "#moves").await[0], "e4");
    b.finish().await;
}

/// On a phone (390x844, touch): the board, the status line and the last
/// moves in the first screen; no keyboard hints; in Analyse the board and
/// the verdicts share the screen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_board_and_the_game_share_the_first_screen() {
    let Some((_server, b)) = open_page("phone", Screen::Phone).await else {
        return;
    };
    let size = b.js("return [innerWidth, innerHeight];", vec![]).await;
    assert_eq!(size, json!([390, 844]));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let m = choose(&legal_moves(&b).await, true);
    click_move(&b, &m).await;
    b.wait_until("document.body.dataset.state === 'your-move' && pawnrace.play.moves.length === 2")
        .await;
    let bottom =
        |css: &str| format!("document.querySelector(\"{css}\").getBoundingClientRect().bottom");
    for part in [
        "#board",
        "#game-info",
        "#think-who",
        "#moves .ply:last-child",
        "#move-input",
    ] {
        let at = b.js(&format!("return {};", bottom(part)), vec![]).await;
        assert!(
            at.as_f64().is_some_and(|y| y > 0.0 && y <= 844.0),
            "{part} ends at {at}, below the first screen"
        );
    }
    assert_eq!(
        b.js(
            "return getComputedStyle(document.querySelector('.keys')).display;",
            vec![]
        )
        .await,
        json!("none")
    );
    b.screenshot("phone-play.png").await;

    // Analyse: the board and the verdicts together.
    b.click("#tab-analyse").await;
    b.js(
        "document.getElementById('pgn').value = arguments[0];",
        vec![json!(
            "[FEN \"8/p7/8/3p4/8/3P4/7P/8 w -\"]\n\n1. h3 a6 2. h4 a5 3. h5 *\n"
        )],
    )
    .await;
    b.js("document.getElementById('analyse').click();", vec![])
        .await;
    b.wait_until("document.getElementById('analysis-progress').textContent.includes('Analysed')")
        .await;
    for part in ["#board", "#analysis-moves .ply"] {
        let at = b.js(&format!("return {};", bottom(part)), vec![]).await;
        assert!(
            at.as_f64().is_some_and(|y| y > 0.0 && y <= 844.0),
            "{part} ends at {at}, below the first screen"
        );
    }
    b.screenshot("phone-analyse.png").await;
    b.finish().await;
}

/// While the engine proves, the thinking panel shows the solver at work
/// (its phase, nodes and speed), not nothing for seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_thinking_panel_shows_the_solver_at_work() {
    let Some((_server, b)) = open_page("live-proof", Screen::Desktop).await else {
        return;
    };
    // 30 s a move, from a position no table knows: the solver works for
    // seconds before anything is proven or searched.
    new_game(&b, "white", Key::End, LONG_THINK).await;
    b.wait_until("document.body.dataset.state === 'thinking'")
        .await;
    b.wait_until(
        "document.body.dataset.state !== 'thinking' || document.getElementById('thinking').dataset.proving",
    )
    .await;
    let proving = b
        .js(
            "return [document.body.dataset.state, document.getElementById('think-stats').textContent];",
            vec![],
        )
        .await;
    let [state, stats] = [&proving[0], &proving[1]];
    assert_eq!(
        state,
        &json!("thinking"),
        "no progress before the move: {proving}"
    );
    let stats = stats.as_str().unwrap_or_default();
    assert!(stats.starts_with("proving: "), "{stats}");
    assert!(stats.contains(" nodes"), "{stats}");
    b.click("#stop").await;
    b.finish().await;
}

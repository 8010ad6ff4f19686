//! `pawnrace xboard`: the XBoard/WinBoard protocol (CECP v2) over the real
//! binary's stdin and stdout, and once end to end under Debian's `xboard`.

mod common;

use common::{StdioProcess, tool_missing, wait_exit};
use std::time::Duration;

fn xboard() -> StdioProcess {
    let process = StdioProcess::spawn(&["xboard", "--hash", "8"]);
    process.peer.send("xboard");
    process.peer.send("protover 2");
    process
}

#[test]
fn features_variant_setup_moves_and_results() {
    let mut process = xboard();
    let peer = &process.peer;
    assert_eq!(peer.line(), "feature done=0");
    let features = peer.line();
    for feature in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "variants=\"pawnrace,fairy\"",
    ] {
        assert!(features.contains(feature), "{feature} missing: {features}");
    }
    assert_eq!(peer.line(), "feature done=1");
    // The variant's setup as Fairy-Stockfish gives it to the GUI.
    peer.send("variant fairy");
    assert_eq!(
        peer.line(),
        "setup (PNBRQ................Kpnbrq................k) 8x8+0_fairy 8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1"
    );
    assert_eq!(peer.line(), "piece P& fmWfceFifmnD");
    peer.send("new");
    peer.send("st 0.2");
    // White's a-file is empty: a2a4 is illegal and changes nothing.
    peer.send("usermove a2a4");
    assert_eq!(peer.line(), "Illegal move: a2a4");
    peer.send("usermove e2e4");
    let reply = peer.line();
    assert!(reply.starts_with("move ") && reply.len() == 9, "{reply}");
    peer.send("ping 5");
    assert_eq!(peer.line(), "pong 5");
    peer.send("frobnicate");
    assert_eq!(peer.line(), "Error (unknown command): frobnicate");
    peer.send("setboard 8/8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(peer.line(), "tellusererror Illegal position");
    // Black to move one step from promotion: the engine takes it and says
    // how the game ended.
    peer.send("force");
    peer.send("setboard 8/8/8/4P3/8/8/7p/8 b - - 0 1");
    peer.send("go");
    assert_eq!(peer.line(), "move h2h1");
    assert_eq!(peer.line(), "0-1 {Black wins by promotion on h1}");
    peer.send("usermove e5e6");
    assert_eq!(peer.line(), "Illegal move (game over): e5e6");
    peer.send("quit");
    peer.expect_eof();
    let status = wait_exit(&mut process.child, Duration::from_secs(10)).expect("no exit");
    assert!(status.success());
}

/// Reading goes on during a search (`ping` is answered, `?` taken), and
/// `post` shows the thinking in CECP's form. Whether `?` cut the search
/// short cannot be seen here: the engine proves the start at once and
/// moves without using its time (the session's unit tests check that `?`
/// asks for the move).
#[test]
fn move_now_and_thinking_during_a_search() {
    let mut process = xboard();
    let peer = &process.peer;
    for _ in 0..3 {
        peer.line();
    }
    peer.send("new");
    peer.send("post");
    peer.send("st 60");
    peer.send("go");
    peer.send("ping 1");
    // The move may come before `pong` (a proof at once) or after `?`.
    let mut lines = Vec::new();
    let mut mv = None;
    loop {
        let line = peer.line();
        if line == "pong 1" {
            break;
        }
        if line.starts_with("move ") {
            mv = Some(line);
        } else {
            lines.push(line);
        }
    }
    peer.send("?");
    let mv = match mv {
        Some(mv) => mv,
        None => loop {
            let line = peer.line();
            if line.starts_with("move ") {
                break line;
            }
            lines.push(line);
        },
    };
    assert!(mv.len() == 9, "{mv}");
    // `depth score centiseconds nodes pv`.
    for line in &lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(fields.len() >= 5, "thinking line {line:?}");
        assert!(
            fields[..4].iter().all(|f| f.parse::<i64>().is_ok()),
            "thinking line {line:?}"
        );
    }
    peer.send("quit");
    let status = wait_exit(&mut process.child, Duration::from_secs(10)).expect("no exit");
    assert!(status.success());
}

/// Where a program is: on `PATH`, or Debian's /usr/games for xboard.
fn find(program: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([std::path::PathBuf::from("/usr/games")])
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Debian's `xboard` in a virtual X server plays a whole game between two
/// `pawnrace xboard` engines from the setup they give it; a screenshot is
/// taken after a few moves (target/xboard-screenshot.png), and the game
/// xboard saved is checked: the Pawn Race start, moves, a result.
#[test]
fn xboard_plays_pawn_race_under_xvfb() {
    let test = "xboard_plays_pawn_race_under_xvfb";
    let (Some(xboard), Some(xvfb_run), Some(_)) =
        (find("xboard"), find("xvfb-run"), find("import"))
    else {
        return tool_missing(
            test,
            "xboard, xvfb-run or imagemagick's import is missing (apt-get install xboard xvfb imagemagick)",
        );
    };
    let dir = common::temp_dir("xboard-gui");
    let shot =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/xboard-screenshot.png");
    let _ = std::fs::remove_file(&shot);
    let engine = format!("{} xboard --hash 8", common::BIN);
    // Legality testing off: xboard's own checker wants kings on the board.
    // The screenshot waits for the fourth move in xboard's debug log.
    let script = r#"
        "$XBOARD" -fcp "$ENGINE" -scp "$ENGINE" -variant fairy -xlegal -mg 1 -st 0:01 \
            -sgf "$DIR/game.pgn" -debug -nameOfDebugFile "$DIR/debug.txt" \
            -xexit -xponder -saveSettingsOnExit false -settingsFile /dev/null &
        pid=$!
        for i in $(seq 300); do
            n=$(grep -c ': move ' "$DIR/debug.txt" 2>/dev/null)
            [ "${n:-0}" -ge 4 ] && break
            sleep 0.1
        done
        import -window root "$SHOT"
        wait $pid
    "#;
    let status = std::process::Command::new(xvfb_run)
        .args(["-a", "-s", "-screen 0 800x600x24", "sh", "-c", script])
        .env("XBOARD", &xboard)
        .env("ENGINE", &engine)
        .env("DIR", &dir)
        .env("SHOT", &shot)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run xvfb-run");
    assert!(status.success(), "xvfb-run xboard: {status}");
    let debug = std::fs::read_to_string(dir.join("debug.txt")).expect("xboard's debug file");
    assert!(
        debug.contains("<first : setup (PNBRQ") && debug.contains("<second: setup (PNBRQ"),
        "the engines gave xboard no setup:\n{debug}"
    );
    let pgn = std::fs::read_to_string(dir.join("game.pgn")).expect("xboard's saved game");
    assert!(
        pgn.contains("[FEN \"8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1\"]"),
        "{pgn}"
    );
    assert!(!pgn.contains("Forfeit") && !pgn.contains("nvalid"), "{pgn}");
    let result = ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .find(|r| pgn.contains(&format!("[Result \"{r}\"]")));
    assert!(result.is_some(), "no result in {pgn}");
    assert!(
        pgn.contains("2. ") && pgn.contains("3. "),
        "fewer than three moves each: {pgn}"
    );
    let png = std::fs::read(&shot).expect("the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "screenshot of {} bytes",
        png.len()
    );
}

/// The end of input during a search ends the process (the search either
/// moved already, as it does where it proves the position at once, or is
/// stopped and says nothing).
#[test]
fn end_of_input_mid_search_exits_0() {
    let mut process = xboard();
    for _ in 0..3 {
        process.peer.line();
    }
    process.peer.send("st 600");
    process.peer.send("go");
    process.peer.send("ping 9");
    // A move proven at once may come before the pong.
    let mut line = process.peer.line();
    while line.starts_with("move ") {
        line = process.peer.line();
    }
    assert_eq!(line, "pong 9");
    process.peer.close_input();
    let rest = process
        .peer
        .rest(Duration::from_secs(10))
        .expect("no EOF in time");
    assert!(rest.iter().all(|l| l.starts_with("move ")), "{rest:?}");
    let status = wait_exit(&mut process.child, Duration::from_secs(10)).expect("no exit after EOF");
    assert!(status.success());
}

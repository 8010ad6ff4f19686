//! Any line a peer can send, built from the protocol's words.

use super::*;

/// Words the fuzzer builds lines from: every command, their keywords, and
/// values good and bad. Nothing that waits for `stop` (`infinite`,
/// `ponder`) or runs unbounded (`solve`, `analyse`, big depths), since the
/// driver runs each job to its end.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "newgame",
    "ucinewgame",
    "pawnrace",
    "mini4",
    "chess",
    "gaps",
    "AH",
    "hh",
    "A",
    "position",
    "startpos",
    "fen",
    "moves",
    "move",
    "e2e4",
    "e4",
    "a7a8q",
    "e8=Q",
    "exd5",
    "undo",
    "board",
    "d",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "movestogo",
    "perft",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "Gaps",
    "Move",
    "Overhead",
    "quit",
    "help",
    "0",
    "1",
    "2",
    "-3",
    "99999999999999999999",
    "w",
    "b",
    "-",
    "8/ppppppp1/8/8/8/8/1PPPPPPP/8",
    "8/8/8",
    "p7/8",
    "\u{e9}",
    "\u{3000}",
    "",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Whatever a peer sends, the session answers in ASCII and never panics.
    #[test]
    fn any_line_gets_a_sane_answer(
        script in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(WORDS), 0..6),
            1..12,
        )
    ) {
        let mut s = Session::new(SessionOptions::default());
        for words in script {
            let line = words.join(" ");
            let mut out = Vec::new();
            let action = s.handle_line(&line);
            settle(&mut s, action, &mut out);
            for reply in &out {
                proptest::prop_assert!(reply.is_ascii(), "{line:?} got {reply:?}");
            }
        }
    }
}

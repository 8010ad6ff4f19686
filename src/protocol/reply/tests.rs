//! The final-line rule and UCI's rendering, on one reply of every kind.

use super::*;
use crate::protocol::command::GameKind;
use crate::rules::Variant;

/// One reply of every kind the protocol sends.
fn every_kind() -> Vec<Reply> {
    let done = [
        Done::Bye,
        Done::Stop,
        Done::PonderHit,
        Done::Help,
        Done::Board,
        Done::Fen("8/8/8/8/8/8/8/8 w -".into()),
        Done::Nodes(3),
        Done::NewGame {
            game: GameKind::Pawn(Variant::PawnRace),
            awaiting_gaps: true,
        },
        Done::NewGame {
            game: GameKind::FullChess,
            awaiting_gaps: false,
        },
        Done::Gaps("AH".parse().unwrap()),
        Done::PositionAwaitingGaps { rules: "pawnrace" },
        Done::Position { fen: "x".into() },
        Done::ChessPosition,
        Done::Move {
            mv: "e2e4".into(),
            san: Some("e4".into()),
            result: None,
        },
        Done::Undo { taken: None },
        Done::Moves(2),
        Done::SetOption {
            name: "Hash",
            value: "4".into(),
        },
        Done::Analyse {
            plies: 1,
            unknown: 0,
            stopped: true,
        },
    ];
    let mut replies: Vec<Reply> = done.into_iter().map(Reply::Ok).collect();
    replies.extend([
        Reply::UciOk,
        Reply::ReadyOk,
        Reply::Id {
            key: "name",
            value: "pawnrace".into(),
        },
        Reply::UciOption("Ponder type check default false".into()),
        Reply::error(ErrorCode::Busy, "x"),
        Reply::no_move(),
        Reply::BestMove {
            best: Some("e2e4".into()),
            ponder: Some("d7d5".into()),
        },
        Reply::Solution(None),
        Reply::Solution(Some(Solved {
            winner: Some(Color::White),
            plies: 3,
            pv: vec!["e2e4".into()],
        })),
        Reply::say("gaps AH"),
        Reply::shutdown_notice(),
        Reply::Board("side w".into()),
        Reply::Help {
            command: "fen",
            what: "show the position text".into(),
        },
        Reply::Move {
            mv: "e2e4".into(),
            san: None,
        },
        Reply::Divide {
            mv: "e2e4".into(),
            nodes: 9,
        },
        Reply::Analysis("analysis ply 1".into()),
    ]);
    replies
}

#[test]
fn the_typed_rule_and_the_rule_for_lines_agree() {
    for reply in every_kind() {
        let line = reply.to_string();
        assert_eq!(reply.is_final(), is_final_line(&line), "{line}");
    }
}

#[test]
fn final_lines_are_told_by_their_first_word() {
    for line in [
        "readyok",
        "uciok",
        "bestmove e2e4",
        "bestmove (none)",
        "ok gaps AH",
        "error busy x",
        "solution unknown",
    ] {
        assert!(is_final_line(line), "{line}");
    }
    for line in [
        "info depth 1",
        "id name x",
        "",
        "okay",
        "bestmoves",
        "solutions",
        " ok",
    ] {
        assert!(!is_final_line(line), "{line}");
    }
}

#[test]
fn the_protocol_dialect_changes_nothing() {
    for reply in every_kind() {
        let line = reply.to_string();
        let rendered = reply.render(Dialect::Protocol).map(|r| r.to_string());
        assert_eq!(rendered.as_deref(), Some(line.as_str()));
    }
}

#[test]
fn uci_leaves_out_what_it_has_no_reply_for() {
    let uci = |reply: Reply, answering| {
        reply
            .render(Dialect::Uci { answering })
            .map(|r| r.to_string())
    };
    assert_eq!(uci(Done::Stop.into(), None), None);
    assert_eq!(uci(Done::Bye.into(), Some(Verb::Exit)), None);
    let new_game = || {
        Reply::Ok(Done::NewGame {
            game: GameKind::Pawn(Variant::Mini4),
            awaiting_gaps: false,
        })
    };
    assert_eq!(uci(new_game(), Some(Verb::UciNewGame)), None);
    assert_eq!(
        uci(new_game(), Some(Verb::NewGame)).as_deref(),
        Some("ok newgame mini4")
    );
    let error = || Reply::error(ErrorCode::BadArgument, "no\nway é");
    assert_eq!(
        uci(error(), Some(Verb::Go)).as_deref(),
        Some("info string error bad-argument no way \\u{e9}")
    );
    assert_eq!(
        uci(error(), Some(Verb::Move)).as_deref(),
        Some("error bad-argument no way \\u{e9}")
    );
    assert_eq!(
        uci(error(), None).as_deref(),
        Some("error bad-argument no way \\u{e9}")
    );
}

//! A match's game records as PGN (read back by [`crate::pgn::read_games`]).

use super::game::GameRecord;
use crate::pgn::{tag_line, wrap};
use crate::rules::{Color, san};
use std::time::{SystemTime, UNIX_EPOCH};

/// What a game's record needs beyond the game itself.
pub struct Header<'a> {
    pub event: &'a str,
    pub site: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    pub round: usize,
    pub white: &'a str,
    pub black: &'a str,
    /// White's, then black's: one `TimeControl` tag when they agree, else
    /// `WhiteTimeControl` and `BlackTimeControl` (as cutechess writes them).
    pub time_control: [&'a str; 2],
}

/// One game in PGN, ending with a blank line.
pub fn write_game(header: &Header, record: &GameRecord) -> String {
    // A game from a position says where it started, in the FEN that
    // Fairy-Stockfish's tools read; a gap start names its gaps.
    let start = match record.setup {
        Some(pos) => vec![("SetUp", "1".to_string()), ("FEN", pos.fairy_fen(1))],
        None => vec![(
            "Gaps",
            record.gaps.map_or("?".to_string(), |g| g.to_string()),
        )],
    };
    let tags = [
        ("Event", header.event.to_string()),
        ("Site", header.site.to_string()),
        ("Date", header.date.to_string()),
        ("Round", header.round.to_string()),
        ("White", header.white.to_string()),
        ("Black", header.black.to_string()),
        ("Result", record.result().to_string()),
        ("Variant", "pawnrace".to_string()),
    ];
    let time_control = match header.time_control {
        [white, black] if white == black => vec![("TimeControl", white.to_string())],
        [white, black] => vec![
            ("WhiteTimeControl", white.to_string()),
            ("BlackTimeControl", black.to_string()),
        ],
    };
    let end = [
        ("Termination", record.termination_text()),
        ("PlyCount", record.moves.len().to_string()),
    ];
    let mut out = String::new();
    for (name, value) in tags.into_iter().chain(start).chain(time_control).chain(end) {
        out.push_str(&tag_line(name, &value));
    }
    out.push('\n');
    // Plies counted from white's first move of move 1, so that a game
    // from a position with black to move starts `1...`.
    let first = usize::from(
        record
            .setup
            .is_some_and(|p| p.side_to_move() == Color::Black),
    );
    let mut tokens = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let ply = first + i;
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            tokens.push("1...".to_string());
        }
        tokens.push(san(*m));
    }
    tokens.push(record.result().to_string());
    out.push_str(&wrap(&tokens, 79));
    out.push_str("\n\n");
    out
}

/// Today in PGN's form, from the system clock (UTC).
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Howard Hinnant's days-to-civil conversion: no date crate needed.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;
    use crate::rules::{Color, Move, Outcome, Reason};
    use crate::tournament::game::Termination;

    fn mv(from: &str, to: &str) -> Move {
        Move::new(from.parse().unwrap(), to.parse().unwrap())
    }

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn a_game_written_and_read_back() {
        let record = GameRecord {
            gaps: Some("AH".parse().unwrap()),
            setup: None,
            moves: vec![mv("e2", "e4"), mv("d7", "d5"), mv("e4", "d5")],
            winner: Some(Color::White),
            termination: Termination::Rules(Outcome {
                winner: Some(Color::White),
                reason: Reason::LastCapture,
            }),
            move_times: Default::default(),
        };
        let header = Header {
            event: "test \"quoted\"",
            site: "here",
            date: "2026.01.02",
            round: 7,
            white: "A",
            black: "B",
            time_control: ["1+0.1", "1+0.1"],
        };
        let text = write_game(&header, &record);
        assert!(text.contains("[Variant \"pawnrace\"]\n[Gaps \"AH\"]\n"));
        assert!(text.contains("\n1. e4 d5 2. exd5 1-0\n"));
        let games: Vec<_> = read_games(&format!("{text}{text}"))
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, record.moves);
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[0].tag("Event"), Some("test \"quoted\""));
        assert_eq!(games[0].tag("Round"), Some("7"));
        assert!(games[0].tag("Termination").unwrap().starts_with("normal"));
    }

    #[test]
    fn a_game_from_a_position_has_its_fen() {
        let setup = crate::rules::Position::from_fen(
            "8/1pppppp1/8/p7/4P3/8/1PPP1PPP/8 b -",
            crate::rules::RuleSet::PAWNRACE,
        )
        .unwrap();
        let record = GameRecord {
            gaps: None,
            setup: Some(setup),
            moves: vec![mv("d7", "d5"), mv("e4", "d5")],
            winner: None,
            termination: Termination::Adjudicated { plies: 0 },
            move_times: Default::default(),
        };
        let header = Header {
            event: "e",
            site: "s",
            date: "2026.01.02",
            round: 1,
            white: "A",
            black: "B",
            time_control: ["movetime 100ms", "movetime 1000ms"],
        };
        let text = write_game(&header, &record);
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"8/1pppppp1/8/p7/4P3/8/1PPP1PPP/8 b - - 0 1\"]\n"),
            "{text}"
        );
        assert!(!text.contains("[Gaps"), "{text}");
        assert!(text.contains(
            "[WhiteTimeControl \"movetime 100ms\"]\n[BlackTimeControl \"movetime 1000ms\"]\n"
        ));
        assert!(text.contains("\n1... d5 2. exd5 1/2-1/2\n"), "{text}");
        let game = read_games(&text).remove(0).unwrap();
        assert_eq!((game.start, game.moves), (setup, record.moves));
    }
}

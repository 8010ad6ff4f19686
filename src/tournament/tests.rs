//! The referee against scripted players: no processes, no waiting, the
//! elapsed times are whatever the script says.

use super::*;
use crate::rules::{Color, Gaps, Move, Position, RuleSet};

type Script = Box<dyn FnMut(&Position) -> Result<Answer, Fault> + Send>;

/// A player that answers `go` with its script and `choose_gaps` with a
/// fixed text, and remembers how each game ended for it.
struct Scripted {
    play: Script,
    gaps: String,
    ended: Vec<bool>,
    /// Hangs at the start of a game instead of greeting.
    hangs_at_start: bool,
}

impl Scripted {
    fn new(play: Script) -> Scripted {
        Scripted {
            play,
            gaps: "CF".into(),
            ended: Vec::new(),
            hangs_at_start: false,
        }
    }
}

fn answer(text: &str, ms: u64) -> Result<Answer, Fault> {
    Ok(Answer {
        text: text.into(),
        elapsed: Duration::from_millis(ms),
    })
}

/// Plays the first legal move, in `ms` milliseconds.
fn first_legal(ms: u64) -> Script {
    Box::new(move |pos| answer(&pos.legal_moves()[0].to_string(), ms))
}

impl Player for Scripted {
    fn start_game(&mut self, _colour: Color) -> Result<(), Fault> {
        match self.hangs_at_start {
            true => Err(Fault::new(FaultKind::Hang, "no answer to 'newgame'")),
            false => Ok(()),
        }
    }
    fn choose_gaps(&mut self, _go_args: &str, _patience: Duration) -> Result<Answer, Fault> {
        answer(&self.gaps, 5)
    }
    fn set_gaps(&mut self, _gaps: Gaps, _patience: Duration) -> Result<(), Fault> {
        Ok(())
    }
    fn go(
        &mut self,
        start: &Start,
        moves: &[Move],
        _go_args: &str,
        _patience: Duration,
    ) -> Result<Answer, Fault> {
        let mut pos = start.position;
        for m in moves {
            pos = pos.play_unchecked(*m);
        }
        (self.play)(&pos)
    }
    fn end_game(&mut self, faulted: bool) {
        self.ended.push(faulted);
    }
}

const MOVETIME: [TimeControl; 2] = [TimeControl::MoveTime(Duration::from_millis(100)); 2];
const MARGIN: Duration = Duration::from_millis(50);

fn ah() -> Opening {
    Opening::Gaps("AH".parse().unwrap())
}

fn play(white: &mut Scripted, black: &mut Scripted, choice: Opening) -> GameRecord {
    play_game([white, black], choice, MOVETIME, MARGIN, None)
}

#[test]
fn a_game_the_rules_end() {
    let (mut w, mut b) = (
        Scripted::new(first_legal(10)),
        Scripted::new(first_legal(20)),
    );
    let record = play(&mut w, &mut b, ah());
    let Termination::Rules(outcome) = record.termination else {
        panic!("{record:?}");
    };
    assert_eq!(record.winner, outcome.winner);
    let mut pos = Position::start(RuleSet::PAWNRACE, record.gaps).unwrap();
    for m in &record.moves {
        assert!(pos.is_legal(*m));
        pos = pos.play_unchecked(*m);
    }
    assert_eq!(pos.outcome(), Some(outcome));
    let n = record.moves.len();
    assert_eq!(record.move_times[0].len(), n.div_ceil(2));
    assert_eq!(record.move_times[1].len(), n / 2);
    assert!(
        record.move_times[1]
            .iter()
            .all(|t| *t == Duration::from_millis(20))
    );
    assert_eq!(
        (w.ended.as_slice(), b.ended.as_slice()),
        (&[false][..], &[false][..])
    );
}

#[test]
fn an_illegal_move_loses_and_the_engine_is_restarted() {
    let mut w = Scripted::new(first_legal(10));
    let mut b = Scripted::new(Box::new(|_| answer("a1a1", 10)));
    let record = play(&mut w, &mut b, ah());
    assert_eq!(record.winner, Some(Color::White));
    assert_eq!(record.moves.len(), 1);
    let Termination::Fault { side, fault } = &record.termination else {
        panic!("{record:?}");
    };
    assert_eq!((*side, fault.kind), (Color::Black, FaultKind::Illegal));
    assert!(
        record
            .termination_text()
            .starts_with("rules infraction: black")
    );
    assert_eq!(
        (w.ended.as_slice(), b.ended.as_slice()),
        (&[false][..], &[true][..])
    );
}

#[test]
fn late_beyond_the_margin_is_a_timeout_within_it_is_not() {
    let mut w = Scripted::new(first_legal(151));
    let mut b = Scripted::new(first_legal(10));
    let record = play(&mut w, &mut b, ah());
    assert!(record.moves.is_empty());
    assert!(matches!(
        &record.termination,
        Termination::Fault { side: Color::White, fault } if fault.kind == FaultKind::Timeout
    ));
    assert!(record.termination_text().starts_with("time forfeit: white"));
    let mut w = Scripted::new(first_legal(150));
    let record = play(&mut w, &mut b, ah());
    assert!(matches!(record.termination, Termination::Rules(_)));
}

#[test]
fn clocks_run_down_over_a_game() {
    // 1 s and no increment: 300 ms a move flags on the fourth move.
    let tc = TimeControl::Clock {
        base: Duration::from_secs(1),
        inc: Duration::ZERO,
    };
    let mut w = Scripted::new(first_legal(300));
    let mut b = Scripted::new(first_legal(1));
    let record = play_game([&mut w, &mut b], ah(), [tc, tc], MARGIN, None);
    assert_eq!(record.moves.len(), 6, "{record:?}");
    assert_eq!(record.winner, Some(Color::Black));
}

#[test]
fn crashes_and_hangs_reported_by_players_lose() {
    for kind in [FaultKind::Crash, FaultKind::Hang, FaultKind::Protocol] {
        let mut w = Scripted::new(first_legal(1));
        let mut b = Scripted::new(Box::new(move |_| Err(Fault::new(kind, "scripted"))));
        let record = play(&mut w, &mut b, ah());
        assert_eq!(record.winner, Some(Color::White));
        assert!(record.termination_text().contains(kind.name()));
    }
}

/// A game lost before its first move still records its opening, so that
/// its PGN reads back (and `pawnrace analyse` takes it).
#[test]
fn a_game_lost_at_the_start_keeps_its_opening() {
    let mut w = Scripted::new(first_legal(1));
    let mut b = Scripted::new(first_legal(1));
    b.hangs_at_start = true;
    let record = play(&mut w, &mut b, ah());
    assert_eq!((record.winner, record.moves.len()), (Some(Color::White), 0));
    assert_eq!(record.gaps, Some("AH".parse().unwrap()));
    let header = pgn::Header {
        event: "e",
        site: "s",
        date: "2026.01.02",
        round: 1,
        white: "w",
        black: "b",
        time_control: ["movetime 100ms"; 2],
    };
    let text = pgn::write_game(&header, &record);
    let read = crate::pgn::read_games(&text).remove(0).unwrap();
    assert_eq!(read.gaps, record.gaps);
}

#[test]
fn black_chooses_the_gaps_and_bad_gaps_lose() {
    let mut w = Scripted::new(first_legal(1));
    let mut b = Scripted::new(first_legal(1));
    let record = play(&mut w, &mut b, Opening::BlackChooses);
    assert_eq!(record.gaps, Some("CF".parse().unwrap()));
    b.gaps = "ZZ".into();
    let record = play(&mut w, &mut b, Opening::BlackChooses);
    assert_eq!(record.gaps, None);
    assert_eq!(record.winner, Some(Color::White));
    assert!(record.termination_text().contains("illegal"));
}

#[test]
fn the_solver_adjudicates_proven_positions() {
    let mut adj = Adjudicator::new(100_000, 1);
    let pos = |fen: &str| Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
    assert_eq!(
        adj.judge(&pos("8/P7/8/8/8/8/7p/8 w -")),
        Some((Some(Color::White), 1))
    );
    assert_eq!(
        adj.judge(&pos("8/P7/8/8/8/8/7p/8 b -")),
        Some((Some(Color::Black), 1))
    );
    assert!(matches!(
        adj.judge(&pos("8/4p3/8/8/8/8/4P3/8 w -")),
        Some((None, _))
    ));
}

#[test]
fn a_tally_counts_from_a_s_point_of_view() {
    let mut w = Scripted::new(first_legal(1));
    let mut b = Scripted::new(Box::new(|_| answer("a1a1", 3)));
    let record = play(&mut w, &mut b, ah());
    let mut tally = MatchTally::default();
    // A had white and won; then B had white (A black) and won.
    tally.add(1, 0, &record);
    assert_eq!(tally.pairs.pairs(), 0, "half a pair");
    tally.add(2, 1, &record);
    assert_eq!((tally.score.wins, tally.score.losses), (1, 1), "{tally:?}");
    assert_eq!(tally.pairs.counts, [0, 0, 1, 0, 0], "one game each way");
    assert_eq!(tally.by_colour[0].wins, 1);
    assert_eq!(tally.by_colour[1].losses, 1);
    // The illegal move was black's: B's in the first game, A's in the second.
    assert_eq!(tally.faults[0][0], 1);
    assert_eq!(tally.faults[1][0], 1);
    assert_eq!(tally.times[0].moves + tally.times[1].moves, 4);
}

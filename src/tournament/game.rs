//! One refereed game. The referee is pawnrace's rules core and trusts
//! neither engine: every answer is timed against the clock and every move
//! checked for legality before it is played. Engines are reached only
//! through [`Player`], so a game can be played against scripted players.

use super::clock::{Clocks, TimeControl};
use super::player::{Player, Start};
use super::reply::{Answer, Fault, FaultKind};
use crate::rules::{Color, Game, Gaps, Move, Outcome, Position, RuleSet, parse_move};
use crate::solver::{SolveLimits, Solver};
use crate::stop::Stop;
use std::time::Duration;

/// Where a game starts.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Opening {
    /// The start with these gaps.
    Gaps(Gaps),
    /// The start with the gaps black chooses, on its clock.
    BlackChooses,
    /// A position from an openings file.
    Position(Position),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Termination {
    /// The rules ended the game.
    Rules(Outcome),
    /// The exact solver proved the result; `plies` is its distance.
    Adjudicated { plies: u32 },
    /// `side` lost by this fault.
    Fault { side: Color, fault: Fault },
}

/// Everything a game leaves behind, colours as played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// `None` if the game ended before the gaps were settled, or started
    /// from a position.
    pub gaps: Option<Gaps>,
    /// The position the game started from, when it was not a gap start.
    pub setup: Option<Position>,
    pub moves: Vec<Move>,
    pub winner: Option<Color>,
    pub termination: Termination,
    /// Thinking time of every move, white's then black's.
    pub move_times: [Vec<Duration>; 2],
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// How the game ended, for people and for PGN's `Termination` tag.
    pub fn termination_text(&self) -> String {
        match &self.termination {
            Termination::Rules(o) => format!("normal: {o}"),
            Termination::Adjudicated { plies } => match self.winner {
                Some(w) => format!("adjudication: {w} wins, proven win in {plies} more plies"),
                None => "adjudication: proven draw".to_string(),
            },
            Termination::Fault { side, fault } => {
                let kind = match fault.kind {
                    FaultKind::Timeout => "time forfeit",
                    FaultKind::Illegal => "rules infraction",
                    _ => "abandoned",
                };
                format!("{kind}: {side} {}", fault)
            }
        }
    }
}

/// Ends games early once the exact solver proves their result within a
/// small node budget. The table is kept between positions and games: a
/// game's positions share most of their proofs.
pub struct Adjudicator {
    solver: Solver,
    nodes: u64,
}

impl Adjudicator {
    pub fn new(nodes: u64, hash_mib: usize) -> Adjudicator {
        Adjudicator {
            solver: Solver::new(hash_mib),
            nodes,
        }
    }

    /// The proven winner (`None` for a draw) and distance, if proven.
    pub fn judge(&mut self, pos: &Position) -> Option<(Option<Color>, u32)> {
        let limits = SolveLimits {
            nodes: Some(self.nodes),
            movetime_ms: None,
        };
        let solution = self.solver.solve(pos, &limits, &Stop::new(), &mut |_| {})?;
        Some((solution.winner(pos.side_to_move()), solution.plies?))
    }
}

/// The clocks and the judgement of answers.
pub struct Referee {
    clocks: Clocks,
    margin: Duration,
    move_times: [Vec<Duration>; 2],
}

impl Referee {
    /// A referee with `tc` for white, then black.
    pub fn new(tc: [TimeControl; 2], margin: Duration) -> Referee {
        Referee {
            clocks: Clocks::new(tc),
            margin,
            move_times: [Vec::new(), Vec::new()],
        }
    }

    /// The arguments of `go` for `side`.
    pub fn go_args(&self, side: Color) -> String {
        self.clocks.go_args(side)
    }

    /// How long to wait for `side` before calling it hung: an answer in
    /// the second margin is late (a timeout), none at all a hang.
    pub fn patience(&self, side: Color) -> Duration {
        self.clocks.budget(side) + 2 * self.margin
    }

    fn charge(&mut self, side: Color, answer: &Answer) -> Result<(), Fault> {
        self.clocks
            .charge(side, answer.elapsed, self.margin)
            .map_err(|o| {
                Fault::new(
                    FaultKind::Timeout,
                    format!(
                        "answered after {} ms with {} ms left (margin {} ms)",
                        o.used.as_millis(),
                        o.allowed.as_millis(),
                        self.margin.as_millis()
                    ),
                )
            })
    }

    /// Black's gaps, if in time and well-formed.
    pub fn judge_gaps(&mut self, answer: &Answer) -> Result<Gaps, Fault> {
        self.charge(Color::Black, answer)?;
        answer.text.parse::<Gaps>().map_err(|e| {
            Fault::new(
                FaultKind::Illegal,
                format!("chose gaps '{}': {e}", answer.text),
            )
        })
    }

    /// The side to move's move, if in time and legal.
    pub fn judge_move(&mut self, pos: &Position, answer: &Answer) -> Result<Move, Fault> {
        let side = pos.side_to_move();
        self.charge(side, answer)?;
        self.move_times[side.index()].push(answer.elapsed);
        parse_move(pos, &answer.text).map_err(|e| {
            Fault::new(
                FaultKind::Illegal,
                format!("played '{}' in {}: {e}", answer.text, pos.fen()),
            )
        })
    }
}

/// Plays one game between `players` (white's seat first, and white's
/// time control first in `tc`). A fault loses
/// the game for the side that made it; the faulted player is told so at
/// the end, to restart before its next game.
pub fn play_game(
    players: [&mut dyn Player; 2],
    opening: Opening,
    tc: [TimeControl; 2],
    margin: Duration,
    adjudicator: Option<&mut Adjudicator>,
) -> GameRecord {
    let mut referee = Referee::new(tc, margin);
    let [white, black] = players;
    let mut seats: [&mut dyn Player; 2] = [white, black];
    let mut record = GameRecord {
        gaps: None,
        setup: None,
        moves: Vec::new(),
        winner: None,
        termination: Termination::Adjudicated { plies: 0 },
        move_times: [Vec::new(), Vec::new()],
    };
    let ending = run(&mut seats, opening, &mut referee, adjudicator, &mut record);
    let faulted = match &ending {
        Err((side, _)) => Some(*side),
        Ok(_) => None,
    };
    for colour in Color::BOTH {
        seats[colour.index()].end_game(faulted == Some(colour));
    }
    match ending {
        Ok((winner, termination)) => {
            record.winner = winner;
            record.termination = termination;
        }
        Err((side, fault)) => {
            record.winner = Some(!side);
            record.termination = Termination::Fault { side, fault };
        }
    }
    record.move_times = referee.move_times;
    record
}

type Ending = Result<(Option<Color>, Termination), (Color, Fault)>;

/// Tells both players the game's gaps, black first (an autorunner black has
/// its own proposal to get out), and gives their start.
fn settle_gaps(
    seats: &mut [&mut dyn Player; 2],
    referee: &Referee,
    gaps: Gaps,
) -> Result<Position, (Color, Fault)> {
    for colour in [Color::Black, Color::White] {
        seats[colour.index()]
            .set_gaps(gaps, referee.patience(colour))
            .map_err(|f| (colour, f))?;
    }
    Ok(Position::start(RuleSet::PAWNRACE, Some(gaps))
        .expect("gaps parsed from two file letters always make a start"))
}

fn run(
    seats: &mut [&mut dyn Player; 2],
    opening: Opening,
    referee: &mut Referee,
    mut adjudicator: Option<&mut Adjudicator>,
    record: &mut GameRecord,
) -> Ending {
    let blame = |side: Color| move |f: Fault| (side, f);
    // Known before anyone answers: a game lost at the greeting still says
    // where it was to start, so that its record reads back.
    match opening {
        Opening::Gaps(gaps) => record.gaps = Some(gaps),
        Opening::Position(pos) => record.setup = Some(pos),
        Opening::BlackChooses => {}
    }
    for colour in Color::BOTH {
        seats[colour.index()]
            .start_game(colour)
            .map_err(blame(colour))?;
    }
    let start = match opening {
        Opening::Position(pos) => pos,
        Opening::Gaps(gaps) => settle_gaps(seats, referee, gaps)?,
        Opening::BlackChooses => {
            let b = Color::Black;
            let answer = seats[b.index()]
                .choose_gaps(&referee.go_args(b), referee.patience(b))
                .map_err(blame(b))?;
            let gaps = referee.judge_gaps(&answer).map_err(blame(b))?;
            record.gaps = Some(gaps);
            settle_gaps(seats, referee, gaps)?
        }
    };
    let mut game = Game::new(start, record.gaps);
    loop {
        if let Some(outcome) = game.outcome() {
            return Ok((outcome.winner, Termination::Rules(outcome)));
        }
        if !game.moves().is_empty()
            && let Some(adj) = adjudicator.as_deref_mut()
            && let Some((winner, plies)) = adj.judge(game.position())
        {
            return Ok((winner, Termination::Adjudicated { plies }));
        }
        let side = game.position().side_to_move();
        let answer = seats[side.index()]
            .go(
                &Start {
                    position: start,
                    gaps: record.gaps,
                },
                game.moves(),
                &referee.go_args(side),
                referee.patience(side),
            )
            .map_err(blame(side))?;
        let m = referee
            .judge_move(game.position(), &answer)
            .map_err(blame(side))?;
        game.play(m);
        record.moves.push(m);
    }
}

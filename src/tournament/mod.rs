//! `pawnrace match`: a tournament runner for two Pawn Race engines, in the
//! manner of cutechess-cli and fastchess. pawnrace's rules core referees
//! every game; engines speak the pawnrace protocol (a process or a TCP
//! server), UCI (Fairy-Stockfish with pawnrace.ini, or any other) or the
//! Imperial autorunner protocol.
//!
//! Threads, not tokio: a game is a loop of blocking request-and-wait
//! steps, each with a deadline, and a worker thread per concurrent game
//! keeps it a plain loop. Each worker owns its pair of engines, so engines
//! are never shared between games running at once.

mod clock;
mod engine_proc;
mod game;
mod link;
pub mod pgn;
mod plan;
mod player;
mod reply;
mod report;
mod stats;
#[cfg(test)]
mod tests;
mod uci_player;

pub use clock::{Clocks, TimeControl};
pub use game::{Adjudicator, GameRecord, Opening, Referee, Termination, play_game};
pub use link::{EngineOption, Launch};
pub use plan::{Openings, Pairing, schedule};
pub use player::{AutorunnerPlayer, PawnracePlayer, Player, Start};
pub use reply::{Answer, Fault, FaultKind};
pub use report::{progress_line, table};
pub use stats::{
    Elo, MatchTally, MoveTimes, Pentanomial, Score, Sprt, SprtDecision, elo, elo_from_score,
};
pub use uci_player::UciPlayer;

use crate::stop::Stop;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// The protocol an engine speaks.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Proto {
    Pawnrace,
    /// `uci`, `position fen ... moves ...`, `go`, `bestmove`.
    Uci,
    Autorunner,
}

impl std::str::FromStr for Proto {
    type Err = String;
    fn from_str(s: &str) -> Result<Proto, String> {
        match s.to_ascii_lowercase().as_str() {
            "pawnrace" => Ok(Proto::Pawnrace),
            "uci" => Ok(Proto::Uci),
            "autorunner" => Ok(Proto::Autorunner),
            _ => Err(format!(
                "'{s}' is not a protocol (pawnrace, uci or autorunner)"
            )),
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub launch: Launch,
    pub proto: Proto,
    /// `setoption`s for the engine once started (`--engine-option`).
    pub options: Vec<EngineOption>,
}

impl EngineSpec {
    /// `tcp://host:port`, or a command line split on whitespace (no shell).
    pub fn parse(text: &str, proto: Proto) -> Result<EngineSpec, String> {
        let launch = match text.trim().strip_prefix("tcp://") {
            Some(addr) if proto == Proto::Autorunner => {
                return Err(format!(
                    "tcp://{addr}: the autorunner protocol needs a process per game"
                ));
            }
            Some(addr) => Launch::Tcp(addr.to_string()),
            None => {
                let argv: Vec<String> = text.split_whitespace().map(String::from).collect();
                if argv.is_empty() {
                    return Err("an engine command is empty".into());
                }
                Launch::Command(argv)
            }
        };
        Ok(EngineSpec {
            name: text.split_whitespace().collect::<Vec<_>>().join(" "),
            launch,
            proto,
            options: Vec::new(),
        })
    }

    fn player(&self, command_patience: Duration) -> Box<dyn Player> {
        let (launch, options) = (self.launch.clone(), self.options.clone());
        match (launch, self.proto) {
            (Launch::Command(argv), Proto::Autorunner) => Box::new(AutorunnerPlayer::new(argv)),
            (launch, Proto::Uci) => Box::new(UciPlayer::new(launch, options, command_patience)),
            (launch, _) => Box::new(PawnracePlayer::new(launch, options, command_patience)),
        }
    }
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine A, then engine B; results are A's.
    pub engines: [EngineSpec; 2],
    pub openings: Openings,
    /// `None`: one pass over the openings with both colours.
    pub games: Option<usize>,
    /// A's time control, then B's.
    pub tc: [TimeControl; 2],
    pub margin: Duration,
    /// How long commands other than moves may take (greeting, `newgame`).
    pub command_patience: Duration,
    pub concurrency: usize,
    /// Adjudicate with the exact solver, this many nodes a position.
    pub adjudicate_nodes: Option<u64>,
    pub sprt: Option<Sprt>,
}

/// A finished game and where it stood in the schedule.
#[derive(Clone, Debug)]
pub struct Played {
    pub pairing: Pairing,
    pub record: GameRecord,
}

/// What a match ends with.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub planned: usize,
    pub tally: MatchTally,
    /// The SPRT's decision, and the LLR when it was made.
    pub sprt: Option<(SprtDecision, f64)>,
}

/// Plays the match; `on_game` sees every game as it finishes, with the
/// tally including it. With an SPRT, no game starts once it has decided;
/// games already running are finished and counted.
pub fn run(config: &MatchConfig, mut on_game: impl FnMut(&Played, &MatchTally)) -> MatchSummary {
    let plan = schedule(&config.openings, config.games);
    let next = AtomicUsize::new(0);
    let stop = Stop::new();
    let mut tally = MatchTally::default();
    let mut decided = None;
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Played>();
        for _ in 0..config.concurrency.clamp(1, plan.len().max(1)) {
            let tx = tx.clone();
            let (plan, next, stop) = (&plan, &next, &stop);
            scope.spawn(move || worker(config, plan, next, stop, tx));
        }
        drop(tx);
        for played in rx {
            tally.add(played.pairing.round, played.pairing.white, &played.record);
            on_game(&played, &tally);
            if decided.is_none()
                && let Some(sprt) = &config.sprt
                && let Some(decision) = sprt.decide_llr(tally.llr(sprt))
            {
                decided = Some((decision, tally.llr(sprt)));
                stop.raise();
            }
        }
    });
    MatchSummary {
        planned: plan.len(),
        tally,
        sprt: decided,
    }
}

/// Takes games off the schedule until it is empty or the match stops.
fn worker(
    config: &MatchConfig,
    plan: &[Pairing],
    next: &AtomicUsize,
    stop: &Stop,
    results: mpsc::Sender<Played>,
) {
    let mut engines = config
        .engines
        .clone()
        .map(|e| e.player(config.command_patience));
    let mut adjudicator = config.adjudicate_nodes.map(|n| Adjudicator::new(n, 16));
    while !stop.is_raised() {
        let Some(&pairing) = plan.get(next.fetch_add(1, Ordering::SeqCst)) else {
            break;
        };
        let [a, b] = &mut engines;
        let [tc_a, tc_b] = config.tc;
        let (seats, tc): ([&mut dyn Player; 2], _) = if pairing.white == 0 {
            ([a.as_mut(), b.as_mut()], [tc_a, tc_b])
        } else {
            ([b.as_mut(), a.as_mut()], [tc_b, tc_a])
        };
        let record = play_game(
            seats,
            pairing.opening,
            tc,
            config.margin,
            adjudicator.as_mut(),
        );
        if results.send(Played { pairing, record }).is_err() {
            break;
        }
    }
}

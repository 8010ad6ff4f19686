//! `pawnrace match`: the command line of the tournament runner; the
//! runner itself is `pawnrace::tournament`.

use clap::Args;
use pawnrace::tournament::{
    self, EngineOption, EngineSpec, MatchConfig, MatchTally, Openings, Played, Proto, Sprt,
    TimeControl, pgn,
};
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
#[command(after_help = "\
Engines are command lines split on whitespace (no shell), or tcp://host:port
for a pawnrace server (one connection per game). An engine speaking the
autorunner protocol is started once per game with W or B appended. A UCI
engine gets `uci`, its options, then per move `position fen <start> moves
...` and `go`; it cannot choose gaps.

pawnrace's rules referee every game. An illegal move, a timeout, a crash
(exit, end of output, lost connection), a hang (no answer a margin after
the timeout) or a protocol error loses the game; it is counted, the engine
is restarted, and the match goes on. The table gives A's results by colour,
faults and move times per engine, and the Elo difference (logistic model)
with a 95% interval from the trinomial win/draw/loss variance. The SPRT
uses the normal approximation of the log-likelihood ratio over game pairs
(an opening with colours swapped) and their pentanomial variance.

Examples:
  pawnrace match --engine \"target/release/pawnrace --hash 8\" \\
                 --engine \"target/release/pawnrace --hash 1\" \\
                 --gaps all --tc 2+0.05 --concurrency 2 --pgn games.pgn
  pawnrace match --engine target/release/pawnrace --engine stockfish \\
                 --engine-proto pawnrace --engine-proto uci \\
                 --engine-option B:VariantPath=fairy-stockfish/pawnrace.ini \\
                 --engine-option B:UCI_Variant=pawnrace \\
                 --movetime 100 --movetime 1000 --margin 200")]
pub struct MatchArgs {
    /// An engine: a command line, or tcp://host:port. Give it twice: A,
    /// then B (results are A's).
    #[arg(long = "engine", value_name = "CMD", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Engine names, A's first (default: the command line).
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// The protocol: pawnrace, uci or autorunner. Once for both engines,
    /// or twice, A's first.
    #[arg(long = "engine-proto", value_name = "PROTO")]
    protos: Vec<Proto>,
    /// An option set when an engine starts: `NAME=VALUE` for both engines,
    /// `A:NAME=VALUE` or `B:NAME=VALUE` for one (repeatable; sent as
    /// `setoption name NAME value VALUE`, e.g. VariantPath, UCI_Variant,
    /// Hash, Threads).
    #[arg(long = "engine-option", value_name = "[A:|B:]NAME=VALUE")]
    engine_options: Vec<String>,
    /// Games to play (default: both colours of every opening once).
    #[arg(long)]
    games: Option<usize>,
    /// Openings: all (64 gap pairs), a list like AH,BG, or black-chooses
    /// (black's engine chooses with `go`). Each is played with both colours.
    #[arg(long, default_value = "all")]
    gaps: Openings,
    /// Openings from positions instead of gap pairs: a PGN file (each
    /// game's position after its moves), or one position a line as EPD,
    /// six-field FEN or position text. Each is played with both colours.
    #[arg(long, value_name = "FILE", conflicts_with = "gaps")]
    openings: Option<std::path::PathBuf>,
    /// Fixed time per move, ms (the default, 100 ms, unless --tc). Once
    /// for both engines, or twice, A's first.
    #[arg(long, conflicts_with = "tc")]
    movetime: Vec<u64>,
    /// Clocks per game, BASE+INC in seconds (e.g. 10+0.1).
    #[arg(long)]
    tc: Option<TimeControl>,
    /// Lateness tolerated before a move is a timeout, ms. No answer a
    /// further margin later is a hang.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// Games played at once (each with its own pair of engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// End a game when the exact solver proves its result.
    #[arg(long)]
    adjudicate: bool,
    /// The solver's node budget per position with --adjudicate.
    #[arg(long, default_value_t = 100_000)]
    adjudicate_nodes: u64,
    /// Write every game to this PGN file (replaced).
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
    /// Stop as soon as a sequential probability ratio test of elo0 against
    /// elo1 decides.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// The SPRT's false positive rate (accepting elo1 when elo0 holds).
    #[arg(long, default_value_t = 0.05)]
    sprt_alpha: f64,
    /// The SPRT's false negative rate (accepting elo0 when elo1 holds).
    #[arg(long, default_value_t = 0.05)]
    sprt_beta: f64,
    /// The PGN Event tag.
    #[arg(long, default_value = "pawnrace match")]
    event: String,
    /// How long greetings and `newgame` may take before an engine is hung, ms.
    #[arg(long, default_value_t = 5000)]
    command_timeout: u64,
}

/// `--engine-option`s, A's then B's.
fn engine_options(given: &[String]) -> Result<[Vec<EngineOption>; 2], String> {
    let mut options = [Vec::new(), Vec::new()];
    for text in given {
        let (engines, setting) = match text.split_once(':') {
            Some(("A", rest)) => (&[0][..], rest),
            Some(("B", rest)) => (&[1][..], rest),
            _ => (&[0, 1][..], text.as_str()),
        };
        let option: EngineOption = setting.parse().map_err(|e| {
            format!("--engine-option '{text}': {e} (A: or B: before it for one engine)")
        })?;
        for &i in engines {
            options[i].push(option.clone());
        }
    }
    Ok(options)
}

fn config(args: &MatchArgs) -> Result<MatchConfig, String> {
    if args.engines.len() != 2 {
        return Err(format!(
            "a match needs two engines (--engine twice), not {}",
            args.engines.len()
        ));
    }
    if args.names.len() > 2 || args.protos.len() > 2 || args.movetime.len() > 2 {
        return Err(
            "--name, --engine-proto and --movetime are given at most twice (A, then B)".into(),
        );
    }
    let options = engine_options(&args.engine_options)?;
    let mut specs = Vec::new();
    for i in 0..2 {
        let proto = match args.protos.as_slice() {
            [] => Proto::Pawnrace,
            [both] => *both,
            list => list[i],
        };
        let mut spec = EngineSpec::parse(&args.engines[i], proto)?;
        if let Some(name) = args.names.get(i) {
            spec.name = name.clone();
        }
        spec.options = options[i].clone();
        if proto == Proto::Autorunner && !spec.options.is_empty() {
            return Err(format!(
                "engine {}: the autorunner protocol has no options",
                ["A", "B"][i]
            ));
        }
        specs.push(spec);
    }
    let [mut a, mut b] = <[EngineSpec; 2]>::try_from(specs).expect("two engines");
    if a.name == b.name {
        a.name.push_str(" (A)");
        b.name.push_str(" (B)");
    }
    let movetime = |ms: u64| TimeControl::MoveTime(Duration::from_millis(ms));
    let tc = match (args.tc, args.movetime.as_slice()) {
        (Some(tc), _) => [tc, tc],
        (None, []) => [movetime(100); 2],
        (None, [both]) => [movetime(*both); 2],
        (None, [a, b, ..]) => [movetime(*a), movetime(*b)],
    };
    let openings = match &args.openings {
        None => args.gaps.clone(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            Openings::from_file_text(&text)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?
        }
    };
    for engine in [&a, &b] {
        match (&openings, engine.proto) {
            (Openings::BlackChooses, Proto::Uci) => {
                return Err(format!(
                    "--gaps black-chooses: {} speaks UCI, which has no way to choose gaps",
                    engine.name
                ));
            }
            (Openings::Positions(_), Proto::Autorunner) => {
                return Err(format!(
                    "--openings: {} speaks the autorunner protocol, whose games start from gaps",
                    engine.name
                ));
            }
            _ => {}
        }
    }
    let sprt = match args.sprt.as_deref() {
        Some(&[elo0, elo1]) => {
            let p = |x: f64| x > 0.0 && x < 0.5;
            if !(elo0 < elo1 && p(args.sprt_alpha) && p(args.sprt_beta)) {
                return Err("--sprt needs ELO0 < ELO1 and alpha, beta in (0, 0.5)".into());
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha: args.sprt_alpha,
                beta: args.sprt_beta,
            })
        }
        _ => None,
    };
    Ok(MatchConfig {
        engines: [a, b],
        openings,
        games: args.games,
        tc,
        margin: Duration::from_millis(args.margin),
        command_patience: Duration::from_millis(args.command_timeout),
        concurrency: args.concurrency.max(1),
        adjudicate_nodes: args.adjudicate.then_some(args.adjudicate_nodes),
        sprt,
    })
}

/// Redrawn in place on a terminal; a line every few seconds otherwise.
struct Progress {
    terminal: bool,
    last: Option<Instant>,
}

impl Progress {
    fn show(&mut self, line: &str, last_game: bool) {
        let now = Instant::now();
        let due = self.last.is_none_or(|t| now - t >= Duration::from_secs(10));
        let mut err = io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[2K{line}");
            if last_game {
                let _ = writeln!(err);
            }
        } else if due || last_game {
            self.last = Some(now);
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }
}

pub fn run(args: MatchArgs) -> ExitCode {
    let config = match config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pawnrace match: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut pgn_file = match &args.pgn {
        None => None,
        Some(path) => match File::create(path) {
            Ok(f) => Some(io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("pawnrace match: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
    };
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let planned = tournament::schedule(&config.openings, config.games).len();
    let date = pgn::today();
    let tc_text = config.tc.map(|tc| tc.to_string());
    let mut progress = Progress {
        terminal: io::stderr().is_terminal(),
        last: None,
    };
    let mut pgn_error = None;
    let summary = tournament::run(&config, |played: &Played, tally: &MatchTally| {
        if let Some(file) = &mut pgn_file {
            let (white, black, time_control) = match played.pairing.white {
                0 => (&names[0], &names[1], [tc_text[0].as_str(), &tc_text[1]]),
                _ => (&names[1], &names[0], [tc_text[1].as_str(), &tc_text[0]]),
            };
            let header = pgn::Header {
                event: &args.event,
                site: "local",
                date: &date,
                round: played.pairing.round,
                white,
                black,
                time_control,
            };
            let text = pgn::write_game(&header, &played.record);
            // Flushed per game, so an interrupted match keeps its records.
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                pgn_error.get_or_insert(e);
            }
        }
        let line = tournament::progress_line(tally, planned, config.sprt.as_ref());
        let decided = config
            .sprt
            .is_some_and(|s| s.decide(&tally.score).is_some());
        progress.show(&line, tally.games() == planned || decided);
    });
    let sprt = config.sprt.as_ref().map(|s| (s, summary.sprt));
    print!(
        "{}",
        tournament::table(
            [&names[0], &names[1]],
            &summary.tally,
            summary.planned,
            sprt
        )
    );
    if let Some(e) = pgn_error {
        eprintln!("pawnrace match: writing the PGN failed: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

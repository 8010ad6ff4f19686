//! `pawnrace traps`: chooses the traps table's moves (`data/traps.txt`)
//! near the openings' start, or where played games went (`--games`),
//! resumably, with the engine's own search as the model opponent or, with
//! `--engine`, another UCI engine; `--explain` shows every
//! candidate as the model saw it.

mod check;
mod games;
mod model;
mod table_file;
mod uci_model;

use super::args::{ProofTable, Shard};
use super::cache::CacheFile;
use clap::Args;
use model::Model;
use pawnrace::engine::traps::{self, Event, Plan, Root};
use pawnrace::engine::{Candidate, TrapRule};
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::Gaps;
use pawnrace::solver::Solver;
use pawnrace::tournament::{EngineOption, Openings};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use table_file::{header, merge, save, this_run};

#[derive(Args, Debug)]
pub struct TrapsArgs {
    /// The openings to walk: all (the 64 gap pairs) or a list like AB,CD.
    #[arg(long, default_value = "all")]
    gaps: Openings,
    /// Walk from the position after these moves (coordinates, separated by
    /// commas or spaces) instead; --gaps then names one opening.
    #[arg(long, default_value = "")]
    after: String,
    /// Walk from the positions of these games (PGN or the plain form) where
    /// --player was to move, in its first --turns turns of the games it did
    /// not win: traps where a match went and the table did not help.
    /// --gaps keeps those openings' games; --plies counts from each.
    #[arg(long, value_name = "PGN", num_args = 1.., conflicts_with = "after", requires = "player")]
    games: Vec<PathBuf>,
    /// The player --games walks for, by its name in the games.
    #[arg(long, value_name = "NAME", requires = "games")]
    player: Option<String>,
    /// How many of the player's first turns --games walks from.
    #[arg(long, default_value_t = 3)]
    turns: usize,
    /// With --games, this share of the games' openings (I/N), each opening
    /// in one share: walks side by side on copies of --out, taken in
    /// afterwards with --merge.
    #[arg(long, value_name = "I/N", requires = "games")]
    shard: Option<Shard>,
    /// Choose again the traps this model chose that fooled it at fewer
    /// than this many of its levels or tries (0: never), e.g. a move-time
    /// walk's traps that fooled one try of two, asked again in more
    /// --engine-tries: the move that fools it most often replaces each.
    #[arg(long, value_name = "N", default_value_t = 0)]
    again_below: usize,
    /// In a lost position where no move fools the model, walk on after
    /// every move, and set as a lead-in the move whose reply by the model
    /// reaches its heaviest trap a move later (needs --plies 3 or more
    /// from the position; another engine model's trap written there is
    /// kept, one read from the file mirror gives way).
    #[arg(long)]
    lead_ins: bool,
    /// Traps are chosen in positions fewer than this many plies from the
    /// start (or from the position --after gives, or each --games turn).
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// The model opponent's deepest search.
    #[arg(long, default_value_t = 20)]
    model_depth: u32,
    /// The model's nodes for each candidate move.
    #[arg(long, default_value_t = 1_000_000)]
    model_nodes: u64,
    /// A trap must fool the model at its deepest search, and that at least
    /// this deep.
    #[arg(long, default_value_t = 10)]
    trap_depth: u32,
    /// Another engine as the model opponent instead of the engine's own
    /// search: a UCI command line (split on whitespace), e.g. Fairy-Stockfish.
    /// Positions whose trap another model chose are assessed again, and
    /// their trap replaced where this engine is fooled.
    #[arg(long, value_name = "COMMAND")]
    engine: Option<String>,
    /// The engine's name in the table (default: its program's file name).
    #[arg(long, value_name = "NAME")]
    engine_name: Option<String>,
    /// An option the engine gets once started: NAME=VALUE (repeatable),
    /// e.g. VariantPath=fairy-stockfish/pawnrace.ini, UCI_Variant=pawnrace.
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    engine_options: Vec<EngineOption>,
    /// The engine's levels: node counts it searches each reply with
    /// (ascending); a trap must fool it at the last.
    #[arg(long, value_delimiter = ',', default_value = "250000,500000,1000000")]
    engine_nodes: Vec<u32>,
    /// Instead of node counts, ask the engine in --engine-tries searches of
    /// this many ms each, as a match at that move time on this machine
    /// does (its answers vary from try to try); a move is a trap where any
    /// try errs, and weighs the tries that err. The table names it
    /// `<NAME>-<MS>ms`.
    #[arg(long, value_name = "MS", conflicts_with = "engine_nodes")]
    engine_movetime: Option<u32>,
    /// The tries at --engine-movetime.
    #[arg(long, default_value_t = 3, requires = "engine_movetime")]
    engine_tries: u32,
    /// Ask the engine as a game does: after a new game, its own earlier
    /// turns on the walk's line are searched first at the same node count,
    /// so that its table holds them, as in a match. The table names it
    /// `<NAME>-in-game`, a model of its own (a walk re-assesses the
    /// positions whose trap the engine chose from a new game).
    #[arg(long)]
    engine_in_game: bool,
    /// The most one position's choice may take, ms.
    #[arg(long, default_value_t = 120_000)]
    choice_ms: u64,
    /// The most one proof of a position's value on the way may take, ms.
    #[arg(long, default_value_t = 20_000)]
    proof_ms: u64,
    /// Print every candidate of every position chosen in, with the model's
    /// replies and the depths they are errors at.
    #[arg(long)]
    explain: bool,
    /// Instead of walking, prove every Nth trap of the table again from an
    /// empty solver table: the position's value, that a drawn position's
    /// trap keeps the draw, and that the reply throws the opponent's result
    /// away (for a lead-in: the position is lost, and the table holds the
    /// same model's trap after the reply). Fails on any disagreement.
    #[arg(long, value_name = "N")]
    check: Option<usize>,
    /// Instead of walking, take in what these tables changed (copies of
    /// --out grown apart by walks run side by side, one per core): their
    /// traps, their `none` notes, and their runs in the header.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    merge: Vec<PathBuf>,
    /// The most nodes one proof of `--check` may take.
    #[arg(long, default_value_t = 500_000_000)]
    check_nodes: u64,
    /// The table to grow; it is read first and written after every trap.
    #[arg(long, default_value = "data/traps.txt")]
    out: PathBuf,
    #[command(flatten)]
    table: ProofTable,
    /// Read the solver's proofs from this file first and write them back
    /// at the end (made if missing).
    #[arg(long)]
    cache: Option<PathBuf>,
}

const WHO: &str = "pawnrace traps";

pub fn run(args: TrapsArgs) -> ExitCode {
    let existing = match super::read_out(&args.out) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut table = match Traps::parse(&existing) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{WHO}: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    if let Some(every) = args.check {
        return check::check(&table, every.max(1), &args);
    }
    if !args.merge.is_empty() {
        return merge(&args, &existing, table);
    }
    let mut model = match Model::new(&args) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let gaps: Vec<Gaps> = match &args.gaps {
        Openings::Gaps(list) => list.clone(),
        _ => {
            eprintln!("{WHO}: --gaps takes all or a list of gap pairs");
            return ExitCode::FAILURE;
        }
    };
    // An engine's search is not the same in a mirrored position: its walk
    // takes an opening and its mirror, and any position and its mirror.
    let mirrors = args.engine.is_some();
    let start = if args.games.is_empty() {
        roots(&args, &gaps, mirrors).map(Start::Roots)
    } else {
        let player = args.player.as_deref().unwrap_or_default();
        games::read(&args.games, player, &gaps, args.shard).map(|g| {
            eprintln!(
                "{WHO}: {} games of {player} not won, {} passed over",
                g.lines.len(),
                g.passed_over
            );
            Start::Games(g)
        })
    };
    let mut start = match start {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let plan = Plan {
        plies: args.plies,
        choice_ms: args.choice_ms,
        proof_ms: args.proof_ms,
        mirrors,
        again_below: args.again_below,
        lead_ins: args.lead_ins,
    };
    let header = header(&existing, Some(this_run(&args)));
    let mut solver = Solver::new(args.table.mib);
    let cache = CacheFile::open(WHO, args.cache.as_deref(), &mut solver);
    let stop = super::stop_on_ctrl_c("the traps run");
    let started = Instant::now();
    let (mut chosen, mut assessed) = (0, 0);
    let mut written = true;
    let rule = model.opponent().trap_rule();
    let model_name = model.opponent().name().to_string();
    let mut report = |event: Event| match event {
        Event::Assessed {
            pos,
            ply,
            value,
            candidates,
            chosen: trap,
            table,
        } => {
            // An assessment cut short (time, a fault, Ctrl-C) is neither a
            // trap nor a note: a resumed run asks there again.
            let noted = trap.is_some() || table.found_nothing(pos, &model_name);
            assessed += usize::from(noted);
            if args.explain {
                println!("position {} ply {ply} value {value}", pos.fen());
                for c in candidates {
                    println!("  {}", explain(c, rule));
                }
            }
            match trap {
                Some(t) => {
                    chosen += 1;
                    println!("trap {} {} reply {}", pos.fen(), t.mv, t.reply);
                }
                None if noted => println!("none {}", pos.fen()),
                None => println!("unfinished {}", pos.fen()),
            }
            if noted {
                written &= save(&args.out, table, &header);
            }
            eprintln!(
                "{WHO}: {assessed} positions, {chosen} traps, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
        Event::Lead {
            pos,
            ply,
            lead,
            table,
        } => {
            println!("lead {} {} reply {}", pos.fen(), lead.mv, lead.reply);
            eprintln!("{WHO}: ply {ply}: a lead-in to the model's trap");
            written &= save(&args.out, table, &header);
        }
        Event::Unknown { pos, ply } => {
            eprintln!(
                "{WHO}: ply {ply}: {} not proven in time, left out",
                pos.fen()
            );
        }
    };
    for turn in 0.. {
        let roots = match &mut start {
            Start::Roots(roots) if turn == 0 => std::mem::take(roots),
            Start::Games(games) if turn < args.turns => games.roots(turn, &table),
            _ => break,
        };
        traps::grow(
            &plan,
            roots,
            model.opponent(),
            &mut solver,
            &mut table,
            &stop,
            &mut report,
        );
        if stop.is_raised() || model.fault().is_some() {
            break;
        }
    }
    // Once more at the end: the header names this run even when it chose
    // nothing new (but not a run whose engine failed).
    if model.fault().is_none() {
        written &= save(&args.out, &table, &header);
    }
    let saved = cache.is_none_or(|c| c.save(WHO, &solver));
    eprintln!(
        "{WHO}: {assessed} positions, {chosen} traps, table {} positions, {:.0} s",
        table.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(fault) = model.fault() {
        eprintln!("{WHO}: stopped: the model engine failed ({fault})");
    }
    if written && saved && model.fault().is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Where the walk starts: roots walked once, or played games' turns,
/// walked turn by turn.
enum Start {
    Roots(Vec<Root>),
    Games(games::Games),
}

/// The openings' starts, or the position `--after` gives.
fn roots(args: &TrapsArgs, gaps: &[Gaps], mirrors: bool) -> Result<Vec<Root>, String> {
    match (args.after.trim(), gaps) {
        // Another engine's games go where it takes them: from the start,
        // its own first moves (and the tables'), not every first move.
        ("", _) if args.engine.is_some() => Ok(traps::opening_roots(gaps, mirrors)
            .into_iter()
            .map(|r| Root {
                keep: Vec::new(),
                ..r
            })
            .collect()),
        ("", _) => Ok(traps::opening_roots(gaps, mirrors)),
        (after, &[one]) => {
            let (before, pos) = super::args::line_after(one, after)?;
            Ok(vec![Root {
                pos,
                keep: pos.legal_moves().iter().copied().collect(),
                before,
                only_if_lost: false,
            }])
        }
        _ => Err("--after needs --gaps to name one opening".into()),
    }
}

/// One candidate: its move, weight, the levels the model errs at, and its
/// reply at each level.
fn explain(c: &Candidate, rule: TrapRule) -> String {
    let depths: Vec<String> = c.fooled_at.iter().map(u32::to_string).collect();
    let replies: Vec<String> = c.replies.iter().map(|m| m.to_string()).collect();
    format!(
        "{} weight {} fools [{}] replies {}",
        c.mv,
        c.weight(rule),
        depths.join(" "),
        replies.join(" ")
    )
}

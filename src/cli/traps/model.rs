//! The model opponent a run asks: the engine's own search, or another
//! UCI engine at node counts or in tries at a move time.

use super::TrapsArgs;
use super::uci_model::{Levels, UciModel};
use pawnrace::engine::{ModelSettings, Opponent, SearchModel};
use std::path::Path;

/// The model opponent the run asks for: the engine's own search, or the
/// engine `--engine` names.
pub(super) enum Model {
    Own(SearchModel),
    Engine(UciModel),
}

impl Model {
    pub(super) fn new(args: &TrapsArgs) -> Result<Model, String> {
        match &args.engine {
            None => Ok(Model::Own(SearchModel::new(ModelSettings {
                depth: args.model_depth,
                nodes: args.model_nodes,
                trap_depth: args.trap_depth,
            }))),
            Some(command) => engine_model(command, args).map(Model::Engine),
        }
    }

    pub(super) fn opponent(&mut self) -> &mut dyn Opponent {
        match self {
            Model::Own(m) => m,
            Model::Engine(m) => m,
        }
    }

    /// What stopped the engine, if it failed.
    pub(super) fn fault(&self) -> Option<&str> {
        match self {
            Model::Own(_) => None,
            Model::Engine(m) => m.fault(),
        }
    }
}

fn engine_model(command: &str, args: &TrapsArgs) -> Result<UciModel, String> {
    let argv: Vec<String> = command.split_whitespace().map(String::from).collect();
    let Some(program) = argv.first() else {
        return Err("--engine is empty".into());
    };
    let levels = match args.engine_movetime {
        Some(ms) if ms == 0 || args.engine_tries == 0 => {
            return Err("--engine-movetime and --engine-tries want numbers above 0".into());
        }
        Some(ms) => Levels::MoveTime {
            ms,
            tries: args.engine_tries,
        },
        None => {
            let nodes = &args.engine_nodes;
            if nodes.is_empty() || nodes.contains(&0) || !nodes.is_sorted_by(|a, b| a < b) {
                return Err("--engine-nodes wants node counts above 0, ascending".into());
            }
            Levels::Nodes(nodes.clone())
        }
    };
    let mut name = match &args.engine_name {
        Some(n) => n.clone(),
        None => Path::new(program)
            .file_name()
            .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned()),
    };
    if let Some(ms) = args.engine_movetime {
        name.push_str(&format!("-{ms}ms"));
    }
    if args.engine_in_game {
        name.push_str("-in-game");
    }
    if name.split_whitespace().count() != 1 || name == pawnrace::proofs::traps::OWN_MODEL {
        return Err(format!("'{name}' cannot name the engine in the table"));
    }
    Ok(UciModel::new(
        name,
        argv,
        args.engine_options.clone(),
        levels,
        args.engine_in_game,
    ))
}

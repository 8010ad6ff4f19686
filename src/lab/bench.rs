//! The fixed benchmark behind `pawnrace bench`: the same positions searched
//! to the same depth with fresh tables, so the node total is a signature of
//! the search's behaviour and changes only when the search does.

use crate::engine::{Engine, Limits, SearchResult};
use crate::rules::{Position, PositionError, RuleSet};
use crate::stop::Stop;
use std::time::Instant;

/// Openings, middlegames and races of both rule sets.
pub const POSITIONS: &[(&str, &str)] = &[
    ("pawnrace", "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -"),
    ("pawnrace", "8/ppppp1pp/8/8/8/8/1PPPPPPP/8 w -"),
    ("pawnrace", "8/p4ppp/2p5/8/8/8/PPP2PPP/8 w -"),
    ("pawnrace", "8/3ppppp/8/5PP1/1pp5/8/PPPPP3/8 w -"),
    ("pawnrace", "8/p3pp1p/2p5/8/P7/8/2PP1PPP/8 b -"),
    ("pawnrace", "8/7p/p4p2/3p4/8/8/P3PPPP/8 w -"),
    ("pawnrace", "8/pppp1pp1/P7/8/8/7p/1PPP1PPP/8 w -"),
    ("pawnrace", "8/pppp4/8/1PPPp3/5pp1/8/4PPPP/8 b -"),
    ("mini4", "pppp/4/4/PPPP w -"),
    ("mini4", "1ppp/4/1PPP/4 w -"),
];

/// The depth `pawnrace bench` searches to unless told otherwise.
pub const DEFAULT_DEPTH: u32 = 13;

/// Totals of one benchmark run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub positions: usize,
    pub nodes: u64,
    pub time_ms: u64,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// The benchmark positions, read with their rule sets.
pub fn positions() -> Result<Vec<Position>, PositionError> {
    POSITIONS
        .iter()
        .map(|(variant, fen)| {
            let rules = match *variant {
                "mini4" => RuleSet::MINI4,
                _ => RuleSet::PAWNRACE,
            };
            Position::from_fen(fen, rules)
        })
        .collect()
}

/// Searches every benchmark position to `depth` with a fresh `hash_mib`
/// table, reporting each result as it comes.
pub fn run(
    depth: u32,
    hash_mib: usize,
    on_result: &mut dyn FnMut(&Position, &SearchResult),
) -> Result<BenchReport, PositionError> {
    let positions = positions()?;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = Stop::new();
    let mut engine = Engine::new(hash_mib);
    let start = Instant::now();
    let mut nodes = 0;
    for pos in &positions {
        engine.new_game();
        let result = engine.search(pos, &limits, &stop, &mut |_| {});
        nodes += result.nodes;
        on_result(pos, &result);
    }
    Ok(BenchReport {
        positions: positions.len(),
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_reads_and_has_moves() {
        let positions = positions().unwrap();
        assert_eq!(positions.len(), POSITIONS.len());
        assert!(positions.iter().all(|p| !p.legal_moves().is_empty()));
    }

    #[test]
    fn the_node_count_is_a_signature() {
        let a = run(4, 1, &mut |_, _| {}).unwrap();
        let b = run(4, 1, &mut |_, _| {}).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
    }
}

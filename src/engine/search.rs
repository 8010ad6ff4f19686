//! Search. (Placeholder API while the real search is written.)

use super::{Limits, Score, SearchInfo, SearchResult};
use crate::rules::{Gaps, Position, RuleSet};
use std::sync::atomic::AtomicBool;

pub struct Engine {
    hash_mib: usize,
}

impl Engine {
    pub fn new(hash_mib: usize) -> Engine {
        Engine { hash_mib }
    }

    pub fn set_hash(&mut self, mib: usize) {
        self.hash_mib = mib;
    }

    pub fn new_game(&mut self) {}

    pub fn search(
        &mut self,
        pos: &Position,
        _limits: &Limits,
        _stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let best = pos.legal_moves().first().copied();
        let pv: Vec<_> = best.into_iter().collect();
        info(&SearchInfo {
            depth: 1,
            seldepth: 1,
            score: Score::Cp(0),
            nodes: 1,
            time_ms: 0,
            pv: pv.clone(),
        });
        SearchResult {
            best,
            score: Score::Cp(0),
            depth: 1,
            nodes: 1,
            pv,
        }
    }

    pub fn choose_gaps(&mut self, _rules: &RuleSet, _limits: &Limits, _stop: &AtomicBool) -> Gaps {
        Gaps { white: 0, black: 7 }
    }
}

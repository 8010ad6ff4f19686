//! Where a solve's nodes go (`bench solve --profile`): by the pawns on the
//! board, by how many groups of files they stand in, and how many nodes
//! were expanded rather than settled at once. A change to the solver's
//! knowledge pays only where the nodes are, so this says where to look
//! before trying: tables of endings with few pawns, say, or a sum of the
//! separate games that empty files make, whose saving the distinct states
//! of single groups bound.

use crate::rules::{Bitboard, Color, Position};
use std::collections::HashSet;
use std::fmt::Write as _;

/// Node counts of the solve's own thread (a parallel solve's helpers are
/// not counted), summed over the solves made while profiling.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct NodeProfile {
    /// Nodes by the pawns on the board, both sides together.
    pub by_pawns: [u64; 17],
    /// Nodes by their groups of files: runs of files with a pawn, between
    /// empty files or the board's edges (index 1 to 4).
    pub by_groups: [u64; 5],
    /// Nodes whose moves were searched: the rest ended on a win in one,
    /// a finished game, or their bounds (race rules or table) at once.
    pub expanded: u64,
    /// The distinct states of single groups (each side's pawns in one
    /// group's files) in this solve's nodes of two or more groups: what a
    /// solver that summed the groups' games would at least visit there.
    group_states: HashSet<(u64, u64)>,
    /// Such states counted in earlier solves, each proof's own.
    earlier_group_states: u64,
}

impl NodeProfile {
    pub(super) fn count(&mut self, pos: &Position) {
        let pawns = pos.occupied().count() as usize;
        self.by_pawns[pawns.min(16)] += 1;
        let groups = group_masks(pos);
        self.by_groups[groups.len().min(4)] += 1;
        if groups.len() >= 2 {
            let (white, black) = (pos.pawns(Color::White).0, pos.pawns(Color::Black).0);
            for mask in groups {
                self.group_states.insert((white & mask, black & mask));
            }
        }
    }

    /// The distinct group states counted, every solve's own summed.
    pub fn group_states(&self) -> u64 {
        self.earlier_group_states + self.group_states.len() as u64
    }

    /// The most a solver that summed the separate groups' games could
    /// divide the nodes by: it would still visit every node of one group,
    /// and, in the nodes of two or more, each state of a single group at
    /// least once.
    pub fn sum_bound(&self) -> f64 {
        let floor = self.by_groups[..2].iter().sum::<u64>() + self.group_states();
        self.nodes() as f64 / floor.max(1) as f64
    }

    /// Every node counted.
    pub fn nodes(&self) -> u64 {
        self.by_pawns.iter().sum()
    }

    /// Adds another solve's profile: its group states are its own proof's,
    /// counted apart from this one's.
    pub fn add(&mut self, other: &NodeProfile) {
        self.add_counts(other);
        self.earlier_group_states += other.group_states();
    }

    /// Adds another run of the same solve (its decision, then its
    /// distance): a group state both visited counts once.
    pub(super) fn add_run(&mut self, other: &NodeProfile) {
        self.add_counts(other);
        self.earlier_group_states += other.earlier_group_states;
        self.group_states.extend(other.group_states.iter().copied());
    }

    fn add_counts(&mut self, other: &NodeProfile) {
        for (a, b) in self.by_pawns.iter_mut().zip(other.by_pawns) {
            *a += b;
        }
        for (a, b) in self.by_groups.iter_mut().zip(other.by_groups) {
            *a += b;
        }
        self.expanded += other.expanded;
    }

    /// One line: `profile nodes N pawns P:SHARE% ...; groups G:SHARE% ...;
    /// expanded SHARE%; group states S, summed at best B x fewer nodes`, the
    /// shares of the nodes counted, classes with none left out.
    pub fn summary(&self) -> String {
        let total = self.nodes().max(1);
        let share = |n: u64| n as f64 * 100.0 / total as f64;
        let mut line = format!("profile nodes {} pawns", self.nodes());
        for (k, &n) in self.by_pawns.iter().enumerate().filter(|(_, n)| **n > 0) {
            let _ = write!(line, " {k}:{:.1}%", share(n));
        }
        line.push_str("; groups");
        for (k, &n) in self.by_groups.iter().enumerate().filter(|(_, n)| **n > 0) {
            let _ = write!(line, " {k}:{:.1}%", share(n));
        }
        let _ = write!(line, "; expanded {:.1}%", share(self.expanded));
        let _ = write!(
            line,
            "; group states {}, summed at best {:.2}x fewer nodes",
            self.group_states(),
            self.sum_bound()
        );
        line
    }
}

/// The groups of files `pos`'s pawns stand in, as masks of their files:
/// runs of files with a pawn, between empty files or the board's edges. A
/// pawn changes file only by taking a pawn there, so no pawn ever enters an
/// empty file, and each group is a game of its own, joined to the others
/// only by the race, the capture of the last pawn and stalemate.
fn group_masks(pos: &Position) -> Vec<u64> {
    let mut f = pos.occupied().0;
    f |= f >> 32;
    f |= f >> 16;
    f |= f >> 8;
    let files = f as u8;
    let mut masks = Vec::new();
    let mut mask = 0;
    for file in 0..8 {
        if files & (1 << file) != 0 {
            mask |= Bitboard::file(file).0;
        } else if mask != 0 {
            masks.push(std::mem::take(&mut mask));
        }
    }
    if mask != 0 {
        masks.push(mask);
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::pawnrace as pos;

    #[test]
    fn groups_are_runs_of_files_with_pawns() {
        // Gaps AH: every file has a pawn.
        let files = |fen| {
            group_masks(&pos(fen))
                .iter()
                .map(|m| Bitboard(*m))
                .collect::<Vec<_>>()
        };
        let a = Bitboard::FILE_A;
        let file = Bitboard::file;
        assert_eq!(
            files("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -"),
            vec![!Bitboard(0)]
        );
        // a and b, then d, then g and h.
        assert_eq!(
            files("8/p5p1/8/1P1p4/8/8/7P/8 w -"),
            vec![a | file(1), file(3), file(6) | file(7)]
        );
        // The edges bound a group as an empty file does.
        assert_eq!(files("8/p7/8/8/8/8/7P/8 w -"), vec![a, file(7)]);
    }

    #[test]
    fn the_summary_gives_each_class_its_share() {
        let mut profile = NodeProfile::default();
        profile.count(&pos("8/p5p1/8/1P1p4/8/8/7P/8 w -"));
        profile.count(&pos("8/p7/8/8/8/8/7P/8 w -"));
        profile.expanded = 1;
        // Five group states: a-b, d and g-h, then a and h.
        assert_eq!(profile.group_states(), 5);
        // Another run of the same solve visits the same states.
        let mut run = profile.clone();
        run.add_run(&profile);
        assert_eq!(run.group_states(), 5);
        // Another solve's are its own proof's.
        let mut twice = profile.clone();
        twice.add(&profile);
        assert_eq!(twice.nodes(), 4);
        assert_eq!(
            twice.summary(),
            "profile nodes 4 pawns 2:50.0% 5:50.0%; groups 2:50.0% 3:50.0%; expanded 50.0%; \
             group states 10, summed at best 0.40x fewer nodes"
        );
    }
}

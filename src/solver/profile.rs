//! Where a solve's nodes go (`bench solve --profile`): by the pawns on the
//! board, by how many groups of files they stand in, and how many nodes
//! were expanded rather than settled at once. A change to the solver's
//! knowledge pays only where the nodes are, so this says where to look
//! before trying: tables of endings with few pawns, say, or a sum of the
//! separate games that empty files make.

use crate::rules::Position;
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
}

impl NodeProfile {
    pub(super) fn count(&mut self, pos: &Position) {
        let pawns = pos.occupied().count() as usize;
        self.by_pawns[pawns.min(16)] += 1;
        self.by_groups[(groups(pos) as usize).min(4)] += 1;
    }

    /// Every node counted.
    pub fn nodes(&self) -> u64 {
        self.by_pawns.iter().sum()
    }

    pub fn add(&mut self, other: &NodeProfile) {
        for (a, b) in self.by_pawns.iter_mut().zip(other.by_pawns) {
            *a += b;
        }
        for (a, b) in self.by_groups.iter_mut().zip(other.by_groups) {
            *a += b;
        }
        self.expanded += other.expanded;
    }

    /// One line: `profile nodes N pawns P:SHARE% ...; groups G:SHARE% ...;
    /// expanded SHARE%`, the shares of the nodes counted, classes with none
    /// left out.
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
        line
    }
}

/// The groups of files `pos`'s pawns stand in: runs of files with a pawn,
/// between empty files or the board's edges. A pawn changes file only by
/// taking a pawn there, so no pawn ever enters an empty file, and each
/// group is a game of its own, joined to the others only by the race, the
/// capture of the last pawn and stalemate.
fn groups(pos: &Position) -> u32 {
    let mut f = pos.occupied().0;
    f |= f >> 32;
    f |= f >> 16;
    f |= f >> 8;
    let files = f as u8;
    // A run starts at each file with a pawn whose lower neighbour has none.
    (files & !(files << 1)).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::pawnrace as pos;

    #[test]
    fn groups_are_runs_of_files_with_pawns() {
        // Gaps AH: every file has a pawn.
        assert_eq!(groups(&pos("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -")), 1);
        // a and b, then d, then g and h.
        assert_eq!(groups(&pos("8/p5p1/8/1P1p4/8/8/7P/8 w -")), 3);
        // The edges bound a group as an empty file does.
        assert_eq!(groups(&pos("8/p7/8/8/8/8/7P/8 w -")), 2);
    }

    #[test]
    fn the_summary_gives_each_class_its_share() {
        let mut profile = NodeProfile::default();
        profile.count(&pos("8/p5p1/8/1P1p4/8/8/7P/8 w -"));
        profile.count(&pos("8/p7/8/8/8/8/7P/8 w -"));
        profile.expanded = 1;
        let mut twice = profile.clone();
        twice.add(&profile);
        assert_eq!(twice.nodes(), 4);
        assert_eq!(
            twice.summary(),
            "profile nodes 4 pawns 2:50.0% 5:50.0%; groups 2:50.0% 3:50.0%; expanded 50.0%"
        );
    }
}

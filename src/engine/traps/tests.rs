//! The walk against models whose answers are known: what it asks, in
//! which positions, and what it sets or notes.

use super::*;
use crate::engine::resist::{ModelSettings, SearchModel};
use crate::testkit::{proven_value as value, replay};

/// From a lost position, three plies: the traps chosen are in lost
/// positions, and each reply they expect is proven again, by a solver
/// of the test's own, to throw the win away; the walk went on past the
/// first trap to the loser's next turn.
#[test]
fn the_walk_sets_proven_traps_along_the_game() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let plan = Plan {
        plies: 3,
        choice_ms: 60_000,
        proof_ms: 60_000,
    };
    let mut table = traps::Traps::default();
    let mut plies_assessed = Vec::new();
    let roots = vec![Root {
        pos: root,
        keep: Vec::new(),
        before: Vec::new(),
    }];
    let mut solver = Solver::new(16);
    grow(
        &plan,
        roots,
        &mut SearchModel::new(ModelSettings::IN_PLAY),
        &mut solver,
        &mut table,
        &Stop::new(),
        &mut |e| {
            if let Event::Assessed { ply, value, .. } = e {
                assert_eq!(value, Value::Loss);
                plies_assessed.push(ply);
            }
        },
    );
    assert_eq!(plies_assessed.first(), Some(&0));
    assert!(plies_assessed.contains(&2), "{plies_assessed:?}");
    assert!(table.get(&root).is_some());
    for (pos, trap) in table.entries() {
        assert_eq!(value(pos), trap.value);
        let after = pos.play_unchecked(trap.mv).play_unchecked(trap.reply);
        assert_ne!(value(&after), Value::Loss, "{} {}", pos.fen(), trap.mv);
    }
}

/// Walks from `root` alone (no moves kept, no earlier turns); the
/// positions assessed.
fn walk_from(
    root: Position,
    plan: &Plan,
    model: &mut dyn Opponent,
    solver: &mut Solver,
    table: &mut traps::Traps,
) -> usize {
    let mut assessed = 0;
    let roots = vec![Root {
        pos: root,
        keep: Vec::new(),
        before: Vec::new(),
    }];
    grow(plan, roots, model, solver, table, &Stop::new(), &mut |e| {
        if let Event::Assessed { .. } = e {
            assessed += 1;
        }
    });
    assessed
}

/// A model that answers every position with its first legal move, at
/// two levels: a weak opponent, so that some move of a lost position
/// fools it.
struct FirstMove;

impl Opponent for FirstMove {
    fn name(&self) -> &str {
        "first-move"
    }
    fn label(&self, level: u32) -> u32 {
        level * 100
    }
    fn trap_level(&self) -> u32 {
        2
    }
    fn replies(
        &mut self,
        pos: &Position,
        _: &[Position],
        _: u64,
        _: &Clock,
        _: &Stop,
    ) -> Option<resist::Seen> {
        let first = *pos.legal_moves().first()?;
        Some(resist::Seen {
            replies: vec![first, first],
            score: crate::engine::Score::Cp(0),
            nodes: 0,
        })
    }
}

/// Another model's walk assesses a position whose trap the own search
/// chose, and replaces it where it is fooled, naming itself and its
/// levels' labels; walked again, it keeps its own trap.
#[test]
fn another_model_replaces_the_own_searchs_trap() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let d4 = crate::rules::parse_move(&root, "d2d4").unwrap();
    let c6 = crate::rules::parse_move(&root.play_unchecked(d4), "c7c6").unwrap();
    let own = traps::Trap {
        value: Value::Loss,
        mv: d4,
        reply: c6,
        fools: vec![9],
        by: traps::OWN_MODEL.to_string(),
    };
    let mut table = traps::Traps::default();
    table.insert(root, own);
    let plan = Plan {
        plies: 1,
        choice_ms: 60_000,
        proof_ms: 60_000,
    };
    let mut solver = Solver::new(16);
    let walk = |table: &mut traps::Traps, solver: &mut Solver| {
        walk_from(root, &plan, &mut FirstMove, solver, table)
    };
    assert_eq!(walk(&mut table, &mut solver), 1);
    let trap = table.get(&root).unwrap();
    assert_eq!(
        (trap.by.as_str(), trap.fools.as_slice()),
        ("first-move", &[100, 200][..])
    );
    let after = root.play_unchecked(trap.mv);
    assert_eq!(Some(&trap.reply), after.legal_moves().first());
    assert_ne!(value(&after.play_unchecked(trap.reply)), Value::Loss);
    assert_eq!(table.len(), 1);
    assert_eq!(
        walk(&mut table, &mut solver),
        0,
        "its own trap is followed, not chosen again"
    );
}

/// A model that answers every position with a move proven to keep its
/// result (at both levels), so that no move fools it; or, `silent`,
/// with nothing, as a failed engine does.
struct Perfect {
    silent: bool,
}

impl Opponent for Perfect {
    fn name(&self) -> &str {
        "perfect"
    }
    fn label(&self, level: u32) -> u32 {
        FirstMove.label(level)
    }
    fn trap_level(&self) -> u32 {
        FirstMove.trap_level()
    }
    fn replies(
        &mut self,
        pos: &Position,
        _: &[Position],
        _: u64,
        _: &Clock,
        _: &Stop,
    ) -> Option<resist::Seen> {
        if self.silent {
            return None;
        }
        let mine = value(pos);
        let best = pos.legal_moves().iter().copied().find(|&m| {
            let after = pos.play_unchecked(m);
            let theirs = match after.outcome() {
                Some(_) => Value::Loss,
                None => value(&after),
            };
            theirs == Value::Loss
                || (mine == Value::Draw && theirs == Value::Draw)
                || mine == Value::Loss
        })?;
        Some(resist::Seen {
            replies: vec![best, best],
            score: crate::engine::Score::Cp(0),
            nodes: 0,
        })
    }
}

/// A position where no move fooled the model is noted in the table, so
/// that the walk resumed from it does not ask the model there again;
/// not so where the model failed to answer.
#[test]
fn a_position_that_fooled_the_model_nowhere_is_not_assessed_again() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let plan = Plan {
        plies: 1,
        choice_ms: 60_000,
        proof_ms: 60_000,
    };
    let mut table = traps::Traps::default();
    let mut solver = Solver::new(16);
    let mut walk = |table: &mut traps::Traps, silent: bool| {
        walk_from(root, &plan, &mut Perfect { silent }, &mut solver, table)
    };
    assert_eq!(walk(&mut table, true), 1);
    assert_eq!(table.to_text(""), "", "a failed model noted");
    assert_eq!(walk(&mut table, false), 1);
    assert!(table.is_empty());
    let text = table.to_text("");
    assert_eq!(text, format!("{} loss none by perfect\n", root.fen()));
    let mut resumed = traps::Traps::parse(&text).unwrap();
    assert_eq!(walk(&mut resumed, false), 0, "asked again");
}

/// The first-move model that also notes the earlier turns it is given.
struct Noting(Vec<(Position, Vec<Position>)>);

impl Opponent for Noting {
    fn name(&self) -> &str {
        "noting"
    }
    fn label(&self, level: u32) -> u32 {
        FirstMove.label(level)
    }
    fn trap_level(&self) -> u32 {
        FirstMove.trap_level()
    }
    fn replies(
        &mut self,
        pos: &Position,
        earlier: &[Position],
        deadline_ms: u64,
        clock: &Clock,
        stop: &Stop,
    ) -> Option<resist::Seen> {
        self.0.push((*pos, earlier.to_vec()));
        FirstMove.replies(pos, earlier, deadline_ms, clock, stop)
    }
}

/// The model is asked each reply with its own earlier turns of the game,
/// oldest first: those before the root (black's at plies 1, 3 and 5)
/// and then the walk's own (ply 7, two plies before a reply at ply 9).
#[test]
fn the_model_is_given_its_earlier_turns_of_the_game() {
    let moves = ["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"];
    let line: Vec<Position> = (0..=moves.len())
        .map(|n| replay("AE", &moves[..n]))
        .collect();
    let root = line[6];
    let plan = Plan {
        plies: 3,
        choice_ms: 60_000,
        proof_ms: 60_000,
    };
    let mut model = Noting(Vec::new());
    grow(
        &plan,
        vec![Root {
            pos: root,
            keep: Vec::new(),
            before: line[..6].to_vec(),
        }],
        &mut model,
        &mut Solver::new(16),
        &mut traps::Traps::default(),
        &Stop::new(),
        &mut |_| {},
    );
    let asked = model.0;
    assert!(
        asked.iter().any(|(_, e)| e.len() == 4),
        "the walk's next turn"
    );
    for (pos, earlier) in &asked {
        assert_eq!(earlier[..3], [line[1], line[3], line[5]], "{}", pos.fen());
        assert!(
            earlier
                .iter()
                .all(|p| p.side_to_move() == pos.side_to_move())
        );
        // Ply 7's position, two plies before this one at ply 9.
        if let [.., last] = earlier[..]
            && earlier.len() == 4
        {
            let two_on = last.legal_moves().iter().any(|&a| {
                let next = last.play_unchecked(a);
                next.legal_moves()
                    .iter()
                    .any(|&b| next.play_unchecked(b) == *pos)
            });
            assert!(two_on, "{} then {}", last.fen(), pos.fen());
        }
        assert!(
            earlier.len() == 3 || earlier.len() == 4,
            "{}",
            earlier.len()
        );
    }
}

#[test]
fn mirrored_openings_are_walked_once() {
    let gaps: Vec<Gaps> = ["AB", "HG", "AB", "CC"]
        .iter()
        .map(|g| g.parse().unwrap())
        .collect();
    let roots = opening_roots(&gaps);
    assert_eq!(roots.len(), 2);
    assert_eq!(roots[0].keep.len(), 14);
}

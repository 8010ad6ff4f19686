//! The walk against models whose answers are known: what it asks, in
//! which positions, and what it sets or notes.

use super::*;
use crate::engine::resist::{ModelSettings, SearchModel, TrapRule};
use crate::testkit::{proven_value as value, replay};

/// From a lost position, three plies: the traps chosen are in lost
/// positions, and each reply they expect is proven again, by a solver
/// of the test's own, to throw the win away; the walk went on past the
/// first trap to the loser's next turn.
#[test]
fn the_walk_sets_proven_traps_along_the_game() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let plan = plan(3, false);
    let mut table = traps::Traps::default();
    let mut plies_assessed = Vec::new();
    let roots = vec![Root {
        pos: root,
        keep: Vec::new(),
        before: Vec::new(),
        only_if_lost: false,
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

/// A plan of `plies` with a minute for each choice and proof.
fn plan(plies: u32, mirrors: bool) -> Plan {
    Plan {
        plies,
        choice_ms: 60_000,
        proof_ms: 60_000,
        mirrors,
        again_below: 0,
        lead_ins: false,
    }
}

/// Walks from each of `roots` (no moves kept, no earlier turns); the
/// positions assessed.
fn walk_from(
    roots: &[Position],
    plan: &Plan,
    model: &mut dyn Opponent,
    solver: &mut Solver,
    table: &mut traps::Traps,
) -> usize {
    let mut assessed = 0;
    let roots = roots
        .iter()
        .map(|&pos| Root {
            pos,
            keep: Vec::new(),
            before: Vec::new(),
            only_if_lost: false,
        })
        .collect();
    grow(plan, roots, model, solver, table, &Stop::new(), &mut |e| {
        if let Event::Assessed { .. } = e {
            assessed += 1;
        }
    });
    assessed
}

/// A test model: at both of its levels (labelled 100 and 200; a trap
/// must fool it at the second) it answers `reply`'s move, and it notes
/// each position it is asked in, with the earlier turns it is given.
struct Scripted {
    name: &'static str,
    reply: fn(&Position) -> Option<Move>,
    asked: Vec<(Position, Vec<Position>)>,
}

impl Scripted {
    fn new(name: &'static str, reply: fn(&Position) -> Option<Move>) -> Scripted {
        Scripted {
            name,
            reply,
            asked: Vec::new(),
        }
    }
}

impl Opponent for Scripted {
    fn name(&self) -> &str {
        self.name
    }
    fn label(&self, level: u32) -> u32 {
        level * 100
    }
    fn trap_rule(&self) -> TrapRule {
        TrapRule::Deepest(2)
    }
    fn replies(
        &mut self,
        pos: &Position,
        earlier: &[Position],
        _: u64,
        _: &Clock,
        _: &Stop,
    ) -> Option<resist::Seen> {
        self.asked.push((*pos, earlier.to_vec()));
        let reply = (self.reply)(pos)?;
        Some(resist::Seen {
            replies: vec![reply, reply],
            score: crate::engine::Score::Cp(0),
            nodes: 0,
        })
    }
}

/// A weak opponent's reply, so that some move of a lost position fools it.
fn first_move(pos: &Position) -> Option<Move> {
    pos.legal_moves().first().copied()
}

/// A move proven to keep the mover's result, so that no move fools it.
fn keeping_move(pos: &Position) -> Option<Move> {
    let mine = value(pos);
    pos.legal_moves().iter().copied().find(|&m| {
        let after = pos.play_unchecked(m);
        let theirs = match after.outcome() {
            Some(_) => Value::Loss,
            None => value(&after),
        };
        theirs == Value::Loss
            || (mine == Value::Draw && theirs == Value::Draw)
            || mine == Value::Loss
    })
}

/// No answer, as a failed engine gives.
fn silent(_: &Position) -> Option<Move> {
    None
}

/// Another model's walk assesses a position whose trap the own search
/// chose, and replaces it where it is fooled, naming itself and its
/// levels' labels; walked again, it keeps its own trap.
#[test]
fn another_model_replaces_the_own_searchs_trap() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let own = d4_trap(&root, vec![9], traps::OWN_MODEL.to_string());
    let mut table = traps::Traps::default();
    table.insert(root, own);
    let plan = plan(1, false);
    let mut solver = Solver::new(16);
    let walk = |table: &mut traps::Traps, solver: &mut Solver| {
        walk_from(
            &[root],
            &plan,
            &mut Scripted::new("first-move", first_move),
            solver,
            table,
        )
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

/// A trap in `root` (lost; the AE line above): 1. d4, expecting 1... c6.
fn d4_trap(root: &Position, fools: Vec<u32>, by: String) -> traps::Trap {
    let d4 = crate::rules::parse_move(root, "d2d4").unwrap();
    let c6 = crate::rules::parse_move(&root.play_unchecked(d4), "c7c6").unwrap();
    traps::Trap {
        value: Value::Loss,
        mv: d4,
        reply: c6,
        fools,
        by,
        lead: false,
    }
}

/// A trap learned from the opponent's recorded games is not assessed
/// again: a model that another model's trap would give way to leaves it.
#[test]
fn a_trap_learned_from_the_record_stands() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let learned = d4_trap(
        &root,
        vec![1, 3],
        format!("some-engine{}", traps::RECORD_SUFFIX),
    );
    let mut table = traps::Traps::default();
    table.insert(root, learned.clone());
    let mut model = Scripted::new("first-move", first_move);
    let assessed = walk_from(
        &[root],
        &plan(1, false),
        &mut model,
        &mut Solver::new(16),
        &mut table,
    );
    assert_eq!((assessed, model.asked.len()), (0, 0));
    assert_eq!(table.get(&root), Some(learned));
}

/// A position where no move fooled the model is noted in the table, so
/// that the walk resumed from it does not ask the model there again;
/// not so where the model failed to answer.
#[test]
fn a_position_that_fooled_the_model_nowhere_is_not_assessed_again() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let plan = plan(1, false);
    let mut table = traps::Traps::default();
    let mut solver = Solver::new(16);
    let mut walk = |table: &mut traps::Traps, reply| {
        let mut model = Scripted::new("perfect", reply);
        walk_from(&[root], &plan, &mut model, &mut solver, table)
    };
    assert_eq!(walk(&mut table, silent), 1);
    assert_eq!(table.to_text(""), "", "a failed model noted");
    assert_eq!(walk(&mut table, keeping_move), 1);
    assert!(table.is_empty());
    let text = table.to_text("");
    assert_eq!(text, format!("{} loss none by perfect\n", root.fen()));
    let mut resumed = traps::Traps::parse(&text).unwrap();
    assert_eq!(walk(&mut resumed, keeping_move), 0, "asked again");
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
    let plan = plan(3, false);
    let mut model = Scripted::new("noting", first_move);
    grow(
        &plan,
        vec![Root {
            pos: root,
            keep: Vec::new(),
            before: line[..6].to_vec(),
            only_if_lost: false,
        }],
        &mut model,
        &mut Solver::new(16),
        &mut traps::Traps::default(),
        &Stop::new(),
        &mut |_| {},
    );
    let asked = model.asked;
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

/// A position met after its file mirror stands for it, unless the plan
/// walks mirrors (for an engine, which is not the same there).
#[test]
fn a_mirror_is_walked_again_only_where_the_plan_says() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let mut solver = Solver::new(16);
    for (mirrors, assessed) in [(false, 1), (true, 2)] {
        let plan = Plan {
            plies: 1,
            choice_ms: 60_000,
            proof_ms: 60_000,
            mirrors,
            again_below: 0,
            lead_ins: false,
        };
        let mut model = Scripted::new("keeping", keeping_move);
        let mut table = traps::Traps::default();
        let roots = [root, root.mirror_files()];
        let walked = walk_from(&roots, &plan, &mut model, &mut solver, &mut table);
        assert_eq!(walked, assessed, "mirrors {mirrors}");
    }
}

#[test]
fn mirrored_openings_are_walked_once() {
    let gaps: Vec<Gaps> = ["AB", "HG", "AB", "CC"]
        .iter()
        .map(|g| g.parse().unwrap())
        .collect();
    let roots = opening_roots(&gaps, false);
    assert_eq!(roots.len(), 2);
    // An engine walks the mirror too, each pair still once.
    assert_eq!(opening_roots(&gaps, true).len(), 3);
    assert_eq!(roots[0].keep.len(), 14);
}

/// A root met in a played game is walked only where its side to move is
/// lost or drawn: at a won one the model is not even asked for the
/// winner's move.
#[test]
fn a_game_root_won_for_its_side_to_move_is_left_alone() {
    let lost = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let won = lost.play_unchecked(lost.legal_moves()[0]);
    assert_eq!(value(&won), Value::Win);
    let plan = plan(1, false);
    let mut solver = Solver::new(16);
    for (only_if_lost, asked) in [(true, false), (false, true)] {
        let mut model = Scripted::new("noting", first_move);
        let root = Root {
            pos: won,
            keep: Vec::new(),
            before: Vec::new(),
            only_if_lost,
        };
        let mut table = traps::Traps::default();
        grow(
            &plan,
            vec![root],
            &mut model,
            &mut solver,
            &mut table,
            &Stop::new(),
            &mut |_| {},
        );
        assert_eq!(
            !model.asked.is_empty(),
            asked,
            "only if lost: {only_if_lost}"
        );
    }
}

/// With `again_below`, this model's own trap that fooled it at fewer
/// levels is chosen again: replaced where a move fools it more, left
/// standing (noted so) where none fools it now; either way a walk
/// resumed from the table does not ask there again. Without, it is
/// followed as it is.
#[test]
fn a_weak_trap_of_this_model_is_chosen_again_where_the_plan_says() {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    let d4 = crate::rules::parse_move(&root, "d2d4").unwrap();
    let c6 = crate::rules::parse_move(&root.play_unchecked(d4), "c7c6").unwrap();
    let weak = |by: &str| traps::Trap {
        value: Value::Loss,
        mv: d4,
        reply: c6,
        fools: vec![200],
        by: by.to_string(),
        lead: false,
    };
    let mut solver = Solver::new(16);
    let mut walk = |again_below, name, reply, table: &mut traps::Traps| {
        let plan = Plan {
            again_below,
            ..plan(1, false)
        };
        let mut model = Scripted::new(name, reply);
        walk_from(&[root], &plan, &mut model, &mut solver, table)
    };

    let mut table = traps::Traps::default();
    table.insert(root, weak("first-move"));
    assert_eq!(walk(0, "first-move", first_move, &mut table), 0);
    assert_eq!(walk(2, "first-move", first_move, &mut table), 1);
    let trap = table.get(&root).unwrap();
    assert_eq!(trap.fools, [100, 200]);
    assert_eq!(walk(2, "first-move", first_move, &mut table), 0);

    let mut table = traps::Traps::default();
    table.insert(root, weak("perfect"));
    assert_eq!(walk(2, "perfect", keeping_move, &mut table), 1);
    assert_eq!(table.get(&root), Some(weak("perfect")));
    assert!(table.found_nothing(&root, "perfect"));
    let resumed = &mut traps::Traps::parse(&table.to_text("")).unwrap();
    assert_eq!(walk(2, "perfect", keeping_move, resumed), 0, "asked again");
}

mod lead;

//! Lead-ins: a walk that spreads where no move fools the model at once.

use super::*;

/// A model that plays a move keeping its result everywhere but in `weak`,
/// where it plays the first move: fooled a move later than asked.
struct Later {
    weak: HashSet<Position>,
    asked: usize,
}

impl Opponent for Later {
    fn name(&self) -> &str {
        "later"
    }
    fn label(&self, level: u32) -> u32 {
        level
    }
    fn trap_rule(&self) -> TrapRule {
        TrapRule::AnyTry
    }
    fn replies(
        &mut self,
        pos: &Position,
        _: &[Position],
        _: u64,
        _: &Clock,
        _: &Stop,
    ) -> Option<resist::Seen> {
        self.asked += 1;
        let reply = match self.weak.contains(pos) {
            true => first_move(pos),
            false => keeping_move(pos),
        }?;
        Some(resist::Seen {
            replies: vec![reply, reply],
            score: crate::engine::Score::Cp(0),
            nodes: 0,
        })
    }
}

/// A lost position where the model `Later` is fooled only after h2h4 and
/// its reply: the position, the lead, and the position with its trap.
fn fooled_a_move_later() -> (Position, Move, Position) {
    let root = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    assert_eq!(value(&root), Value::Loss);
    let lead = crate::rules::parse_move(&root, "h2h4").unwrap();
    let reply = keeping_move(&root.play_unchecked(lead)).unwrap();
    (root, lead, root.play_unchecked(lead).play_unchecked(reply))
}

/// Walks from `root` with `Later` weak after `trap_at`, three plies, with or
/// without lead-ins; returns the questions the model was asked.
fn walk_later(
    root: Position,
    trap_at: Position,
    lead_ins: bool,
    solver: &mut Solver,
    table: &mut traps::Traps,
) -> usize {
    let plan = Plan {
        lead_ins,
        ..plan(3, false)
    };
    let mut model = Later {
        weak: trap_at
            .legal_moves()
            .iter()
            .map(|&m| trap_at.play_unchecked(m))
            .collect(),
        asked: 0,
    };
    walk_from(&[root], &plan, &mut model, solver, table);
    model.asked
}

/// Where no move fools the model at once, a plan with lead-ins walks on
/// after every move and sets the one whose reply by the model reaches its
/// trap; play reads it as a trap. A resumed walk follows it without
/// spreading again; a plan without lead-ins sets none.
#[test]
fn a_lead_in_is_set_where_the_model_is_fooled_a_move_later() {
    let (root, lead, trap_at) = fooled_a_move_later();
    let mut solver = Solver::new(16);
    let mut walk = |lead_ins, table: &mut traps::Traps| {
        walk_later(root, trap_at, lead_ins, &mut solver, table)
    };

    let mut table = traps::Traps::default();
    walk(false, &mut table);
    assert!(table.found_nothing(&root, "later"));
    assert_eq!(table.get(&root), None);

    let mut table = traps::Traps::default();
    let spread = walk(true, &mut table);
    // h2h4's line or one that transposes into it (d2d3 c7c6 then h2h4
    // reaches what h2h4 c7c6 then d2d3 does): the first such move.
    let set = table.get(&root).expect("a lead-in");
    let order = |m| root.legal_moves().iter().position(|&x| x == m);
    assert!(set.lead && order(set.mv) <= order(lead), "{}", set.mv);
    let led_to = root.play_unchecked(set.mv).play_unchecked(set.reply);
    let trap = table.written_for(&led_to).expect("the trap it leads to");
    assert_eq!((trap.by.as_str(), trap.lead), ("later", false));
    assert_eq!(set.fools, trap.fools);
    assert!(table.written_for(&trap_at).is_some());
    let text = table.to_text("");
    let line = format!("{} loss lead {} reply {}", root.fen(), set.mv, set.reply);
    assert!(text.contains(&line), "{text}");

    let resumed = &mut traps::Traps::parse(&text).unwrap();
    let followed = walk(true, resumed);
    assert!(followed < spread / 4, "{followed} of {spread} asked again");
    assert_eq!(resumed.get(&root), Some(set));
}

/// A trap by `by` in the lost `pos`: its first move and the first reply.
fn first_moves_trap(pos: &Position, by: &str) -> traps::Trap {
    let mv = pos.legal_moves()[0];
    traps::Trap {
        value: Value::Loss,
        mv,
        reply: pos.play_unchecked(mv).legal_moves()[0],
        fools: vec![1],
        by: by.to_string(),
        lead: false,
    }
}

/// A lead-in replacing the own search's trap leaves the file mirror, which
/// read that trap, reading it still: the model's reply the lead hangs on
/// was seen here, not in the mirror.
#[test]
fn a_lead_in_leaves_the_mirror_the_trap_it_read() {
    let (root, _, trap_at) = fooled_a_move_later();
    let mirror = root.mirror_files();
    assert_ne!(mirror, root);
    let mut table = traps::Traps::default();
    table.insert(root, first_moves_trap(&root, traps::OWN_MODEL));
    let read_before = table.get(&mirror);
    assert!(table.written_for(&mirror).is_none());

    walk_later(root, trap_at, true, &mut Solver::new(16), &mut table);
    assert!(table.get(&root).expect("a lead-in").lead);
    assert_eq!(table.get(&mirror), read_before);
    assert!(table.written_for(&mirror).is_some());
    let reread = traps::Traps::parse(&table.to_text("")).unwrap();
    assert_eq!(reread.get(&mirror), read_before);
}

/// A trap the position reads from its file mirror, the same model's, gives
/// way to a lead-in seen in the position itself; the mirror keeps its own.
#[test]
fn a_lead_in_beats_a_trap_read_from_the_mirror() {
    let (root, _, trap_at) = fooled_a_move_later();
    let mirror = root.mirror_files();
    let theirs = first_moves_trap(&mirror, "later");
    let mut table = traps::Traps::default();
    table.insert(mirror, theirs.clone());
    assert!(table.get(&root).is_some_and(|t| !t.lead));

    walk_later(root, trap_at, true, &mut Solver::new(16), &mut table);
    assert!(table.get(&root).expect("a lead-in").lead);
    assert_eq!(table.written_for(&mirror), Some(&theirs));
}

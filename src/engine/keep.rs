//! The keep-rate benchmark: does the engine keep a proven value?
//!
//! A *case* is a Pawn Race position a few plies into an opening, off the
//! openings table's line, where the side to move holds a proven win or
//! draw, with every legal move labelled by the solver: `keep` (the child
//! still gives the mover that value) or `spoil` (it does not). The engine
//! is handed each position with a fresh table and a move time; its move
//! either keeps the value or spoils it. Losing positions are left out:
//! every move keeps a loss.
//!
//! Cases come from seeded random walks (both sides play uniformly random
//! legal moves), so the set samples "any position" rather than the
//! positions the engine's own books lead to. One line per case:
//!
//! ```text
//! GE b0 moves h2h4 win keep d7d5 spoil a7a5 a7a6 ...
//! GE w1 none
//! ```
//!
//! The gaps, the slot (side to move and sample number), the moves from the
//! opening's start, the value for the side to move, then the labelled
//! moves; `unknown` lists moves the budget could not settle. A `none` line
//! records a slot where no sampled walk gave a win or draw to the side to
//! move within the attempts allowed, so a resumed run does not retry it.

use super::{Engine, Limits};
use crate::proofs::openings::Openings;
use crate::rules::{Color, Gaps, Move, Position, RuleSet};
use crate::solver::{SolveLimits, Solver, Value};
use crate::stop::Stop;
use std::fmt::{self, Write as _};
use std::time::Instant;

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub gaps: Gaps,
    pub slot: Slot,
    /// The moves from the opening's start to the position.
    pub moves: Vec<Move>,
    /// For the side to move: a win or a draw.
    pub value: Value,
    pub keep: Vec<Move>,
    pub spoil: Vec<Move>,
    /// Moves the labelling budget could not settle.
    pub unknown: Vec<Move>,
}

/// Which sample of an opening a case is: the side to move and a number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot {
    pub side: Color,
    pub index: u32,
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = if self.side == Color::White { 'w' } else { 'b' };
        write!(f, "{c}{}", self.index)
    }
}

impl std::str::FromStr for Slot {
    type Err = String;
    fn from_str(s: &str) -> Result<Slot, String> {
        let side = match s.as_bytes().first() {
            Some(b'w') => Color::White,
            Some(b'b') => Color::Black,
            _ => return Err(format!("'{s}' is not a slot (w0, b1, ...)")),
        };
        let index = s[1..]
            .parse()
            .map_err(|_| format!("'{s}' is not a slot (w0, b1, ...)"))?;
        Ok(Slot { side, index })
    }
}

impl Case {
    /// The position the case's moves lead to.
    pub fn position(&self) -> Position {
        replay(self.gaps, &self.moves).expect("a parsed case replays")
    }

    pub fn plies(&self) -> usize {
        self.moves.len()
    }
}

/// A line of the set: a labelled case, or a slot that gave none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Case(Case),
    None(Gaps, Slot),
}

impl Entry {
    pub fn key(&self) -> (Gaps, Slot) {
        match self {
            Entry::Case(c) => (c.gaps, c.slot),
            Entry::None(g, s) => (*g, *s),
        }
    }
}

fn replay(gaps: Gaps, moves: &[Move]) -> Result<Position, String> {
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).map_err(|e| e.to_string())?;
    start.play_line(moves).map_err(|e| e.to_string())
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self {
            Entry::None(g, s) => return write!(f, "{g} {s} none"),
            Entry::Case(c) => c,
        };
        let mut words = vec![c.gaps.to_string(), c.slot.to_string(), "moves".into()];
        let mut list = |name: &str, moves: &[Move]| {
            if !name.is_empty() {
                words.push(name.to_string());
            }
            words.extend(moves.iter().map(Move::to_string));
        };
        list("", &c.moves);
        list(c.value.word(), &[]);
        list("keep", &c.keep);
        list("spoil", &c.spoil);
        if !c.unknown.is_empty() {
            list("unknown", &c.unknown);
        }
        f.write_str(&words.join(" "))
    }
}

/// Reads a set; `#` starts a comment line.
pub fn parse_set(text: &str) -> Result<Vec<Entry>, String> {
    text.lines()
        .enumerate()
        .map(|(n, l)| (n, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| parse_entry(l).map_err(|e| format!("line {}: {e}", n + 1)))
        .collect()
}

fn parse_entry(line: &str) -> Result<Entry, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [gaps, slot, rest @ ..] = words.as_slice() else {
        return Err("want: <gaps> <slot> moves ... | <gaps> <slot> none".into());
    };
    let gaps: Gaps = gaps.parse().map_err(|e: String| e.to_string())?;
    let slot: Slot = slot.parse()?;
    if rest == ["none"] {
        return Ok(Entry::None(gaps, slot));
    }
    if rest.first() != Some(&"moves") {
        return Err("want 'moves' or 'none' after the slot".into());
    }
    let mut lists: [Vec<Move>; 4] = Default::default();
    let mut current = 0;
    let mut value = None;
    for w in &rest[1..] {
        match *w {
            "win" | "draw" if value.is_none() => {
                value = Some(if *w == "win" { Value::Win } else { Value::Draw });
                current = usize::MAX;
            }
            "keep" if value.is_some() => current = 1,
            "spoil" if value.is_some() => current = 2,
            "unknown" if value.is_some() => current = 3,
            m => {
                let list = lists
                    .get_mut(current)
                    .ok_or_else(|| format!("'{m}' where keep, spoil or unknown belongs"))?;
                list.push(m.parse()?);
            }
        }
    }
    let value = value.ok_or("no value (win or draw)")?;
    let [moves, keep, spoil, unknown] = lists;
    let pos = replay(gaps, &moves)?;
    if pos.side_to_move() != slot.side {
        return Err(format!("slot {slot} but {:?} to move", pos.side_to_move()));
    }
    let mut labelled: Vec<Move> = keep.iter().chain(&spoil).chain(&unknown).copied().collect();
    let mut legal: Vec<Move> = pos.legal_moves().to_vec();
    labelled.sort_by_key(|m| (m.from.index(), m.to.index()));
    legal.sort_by_key(|m| (m.from.index(), m.to.index()));
    if labelled != legal {
        return Err("the labelled moves are not exactly the legal moves".into());
    }
    if keep.is_empty() {
        return Err("no move keeps the value".into());
    }
    Ok(Entry::Case(Case {
        gaps,
        slot,
        moves,
        value,
        keep,
        spoil,
        unknown,
    }))
}

/// A small deterministic generator (SplitMix64): the set must be the same
/// on every machine, whatever the sharding.
struct Rng(u64);

impl Rng {
    fn new(parts: &[u64]) -> Rng {
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        for p in parts {
            r.0 ^= *p;
            r.next();
        }
        r
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// How a set is sampled and labelled.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    pub seed: u64,
    /// Samples per opening and side to move.
    pub per_side: u32,
    /// Walks tried per slot before it is recorded as `none`.
    pub attempts: u32,
    /// The budget of each proof (the value, then each move).
    pub limits: SolveLimits,
}

/// Whether `pos` lies on an opening's line in the openings table (its
/// start included), which the set leaves out: the table answers there.
fn on_the_line(pos: &Position) -> bool {
    Openings::builtin().along_line(pos).is_some()
}

/// A random walk for `slot`: one to four plies, ending with `slot.side` to
/// move, off the table's line and with the game still going.
fn walk(gaps: Gaps, slot: Slot, attempt: u32, seed: u64) -> Option<(Vec<Move>, Position)> {
    let mut rng = Rng::new(&[
        seed,
        u64::from(gaps.white) << 8 | u64::from(gaps.black),
        slot.side.index() as u64,
        u64::from(slot.index),
        u64::from(attempt),
    ]);
    // White moves first: white to move after 2 or 4 plies, black after 1 or 3.
    let plies = match slot.side {
        Color::White => 2 + 2 * rng.below(2),
        Color::Black => 1 + 2 * rng.below(2),
    };
    let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).ok()?;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let list = pos.legal_moves();
        if list.is_empty() || pos.is_decided() {
            return None;
        }
        let m = list[rng.below(list.len())];
        pos = pos.play_unchecked(m);
        moves.push(m);
    }
    if pos.is_decided() || pos.legal_moves().is_empty() || on_the_line(&pos) {
        return None;
    }
    Some((moves, pos))
}

/// The value of `pos` for the side to move by one-window proofs, `None` if
/// a budget ran out.
fn decide(solver: &mut Solver, pos: &Position, o: &MakeOptions, stop: &Stop) -> Option<Value> {
    if solver.at_least(pos, Value::Win, &o.limits, stop)? {
        return Some(Value::Win);
    }
    Some(if solver.at_least(pos, Value::Draw, &o.limits, stop)? {
        Value::Draw
    } else {
        Value::Loss
    })
}

/// Labels each legal move of `pos`, whose value for the side to move is
/// `value` (a win or a draw): (keep, spoil, unknown).
pub fn label_moves(
    solver: &mut Solver,
    pos: &Position,
    value: Value,
    limits: &SolveLimits,
    stop: &Stop,
) -> (Vec<Move>, Vec<Move>, Vec<Move>) {
    // The opponent's threshold: a win for us needs every child lost for
    // them; a draw needs every child not won by them.
    let theirs = match value {
        Value::Win => Value::Draw,
        _ => Value::Win,
    };
    let (mut keep, mut spoil, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    for &m in pos.legal_moves().iter() {
        let child = pos.play_unchecked(m);
        match solver.at_least(&child, theirs, limits, stop) {
            Some(false) => keep.push(m),
            Some(true) => spoil.push(m),
            None => unknown.push(m),
        }
    }
    (keep, spoil, unknown)
}

/// Labels one slot: the first walk whose position gives the side to move a
/// win or draw within the budget, or `None` after `o.attempts` walks.
pub fn make_slot(
    solver: &mut Solver,
    gaps: Gaps,
    slot: Slot,
    o: &MakeOptions,
    stop: &Stop,
) -> Entry {
    for attempt in 0..o.attempts {
        let Some((moves, pos)) = walk(gaps, slot, attempt, o.seed) else {
            continue;
        };
        let value = match decide(solver, &pos, o, stop) {
            Some(v @ (Value::Win | Value::Draw)) => v,
            // A loss keeps itself; an unproven value labels nothing.
            _ => continue,
        };
        let (keep, spoil, unknown) = label_moves(solver, &pos, value, &o.limits, stop);
        if keep.is_empty() {
            continue;
        }
        return Entry::Case(Case {
            gaps,
            slot,
            moves,
            value,
            keep,
            spoil,
            unknown,
        });
    }
    Entry::None(gaps, slot)
}

/// Every slot of a set with `per_side` samples per opening and side, in a
/// fixed order (shards take every n-th).
pub fn slots(per_side: u32) -> Vec<(Gaps, Slot)> {
    let mut out = Vec::new();
    for index in 0..per_side {
        for gaps in Gaps::all(RuleSet::PAWNRACE.width()) {
            for side in [Color::White, Color::Black] {
                out.push((gaps, Slot { side, index }));
            }
        }
    }
    out
}

/// The outcome of the engine's move in one case.
#[derive(Clone, Debug)]
pub struct Trial {
    pub best: Option<Move>,
    pub verdict: Verdict,
    pub time_ms: u64,
    /// Whether the engine announced a proof.
    pub proven: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Kept,
    Spoiled,
    /// The move is one the labelling could not settle.
    Unknown,
}

/// How long the engine thinks in a trial.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Think {
    /// A move time: the proof tables, the solver, then the search, as in a game.
    Movetime(u64),
    /// The search alone within this many nodes (without a clock nothing is
    /// proved): its picks, the same on any machine.
    Nodes(u64),
}

/// The engine's move in `case`, from a fresh engine with a `hash_mib` table
/// and a solver on `threads` threads.
pub fn trial(case: &Case, hash_mib: usize, threads: usize, think: Think) -> Trial {
    let pos = case.position();
    let mut engine = Engine::new(hash_mib);
    engine.set_threads(threads);
    let limits = match think {
        Think::Movetime(ms) => Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        },
        Think::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
    };
    let stop = Stop::new();
    let start = Instant::now();
    let mut proven = false;
    let result = engine.search(&pos, &limits, &stop, &mut |i| {
        proven |= i.proven.is_some();
    });
    let time_ms = start.elapsed().as_millis() as u64;
    let verdict = match result.best {
        Some(m) if case.keep.contains(&m) => Verdict::Kept,
        Some(m) if case.unknown.contains(&m) => Verdict::Unknown,
        _ => Verdict::Spoiled,
    };
    Trial {
        best: result.best,
        verdict,
        time_ms,
        proven,
    }
}

/// A set's totals, by value.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub cases: u32,
    pub kept: u32,
    pub spoiled: u32,
    pub unknown: u32,
    pub wins: (u32, u32),
    pub draws: (u32, u32),
}

impl Tally {
    pub fn add(&mut self, case: &Case, t: &Trial) {
        self.cases += 1;
        let kept = t.verdict == Verdict::Kept;
        match t.verdict {
            Verdict::Kept => self.kept += 1,
            Verdict::Spoiled => self.spoiled += 1,
            Verdict::Unknown => self.unknown += 1,
        }
        let by_value = if case.value == Value::Win {
            &mut self.wins
        } else {
            &mut self.draws
        };
        by_value.0 += u32::from(kept);
        by_value.1 += 1;
    }

    /// The summary line `pawnrace bench --keep` ends with.
    pub fn summary(&self, think: Think) -> String {
        let mut s = String::new();
        let pct = |a: u32, b: u32| 100.0 * f64::from(a) / f64::from(b.max(1));
        let _ = write!(
            s,
            "keep {} cases {} kept {} ({:.1}%) spoiled {} unknown {} wins {}/{} draws {}/{}",
            match think {
                Think::Movetime(ms) => format!("movetime {ms}"),
                Think::Nodes(n) => format!("nodes {n}"),
            },
            self.cases,
            self.kept,
            pct(self.kept, self.cases),
            self.spoiled,
            self.unknown,
            self.wins.0,
            self.wins.1,
            self.draws.0,
            self.draws.1
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gaps(s: &str) -> Gaps {
        s.parse().unwrap()
    }

    #[test]
    fn walks_are_seeded_off_the_line_and_end_with_the_slot_to_move() {
        let slot = Slot {
            side: Color::Black,
            index: 0,
        };
        let mut seen = 0;
        for attempt in 0..20 {
            let a = walk(gaps("GE"), slot, attempt, 7);
            assert_eq!(a, walk(gaps("GE"), slot, attempt, 7));
            if let Some((moves, pos)) = a {
                seen += 1;
                assert_eq!(pos.side_to_move(), Color::Black);
                assert!(moves.len() == 1 || moves.len() == 3);
                assert!(!on_the_line(&pos));
            }
        }
        assert!(seen > 10);
    }

    #[test]
    fn entries_round_trip_and_bad_lines_are_refused() {
        let text = "# a comment\nAH b0 none\n";
        let set = parse_set(text).unwrap();
        assert_eq!(set, [Entry::None(gaps("AH"), "b0".parse().unwrap())]);
        assert_eq!(set[0].to_string(), "AH b0 none");
        // Every move labelled, the value a win.
        let start = Position::start(RuleSet::PAWNRACE, Some(gaps("AH"))).unwrap();
        let mut legal: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
        let keep = legal.remove(0);
        let line = format!("AH w0 moves win keep {keep} spoil {}", legal.join(" "));
        let set = parse_set(&line).unwrap();
        assert_eq!(set[0].to_string(), line);
        // A move short, a move illegal, no value, the wrong side to move.
        let short = line.rsplit_once(' ').unwrap().0.to_string();
        assert!(
            parse_set(&short)
                .unwrap_err()
                .contains("exactly the legal moves")
        );
        assert!(parse_set("AH w0 moves a2a5 win keep a2a3").is_err());
        assert!(parse_set("AH w0 moves keep a2a3").is_err());
        assert!(
            parse_set("AH b0 moves win keep a2a3")
                .unwrap_err()
                .contains("slot")
        );
    }

    /// A race white wins by a tempo, but only with the double step.
    #[test]
    fn labels_come_from_proofs() {
        let pos = Position::from_fen("8/p7/8/8/8/8/7P/8 w -", RuleSet::PAWNRACE).unwrap();
        let mut solver = Solver::new(4);
        let stop = Stop::new();
        let limits = SolveLimits::default();
        let (keep, spoil, unknown) = label_moves(&mut solver, &pos, Value::Win, &limits, &stop);
        assert!(unknown.is_empty());
        let names = |l: &[Move]| l.iter().map(Move::to_string).collect::<Vec<_>>();
        assert_eq!(
            (names(&keep), names(&spoil)),
            (vec!["h2h4".to_string()], vec!["h2h3".to_string()])
        );
        // A budget of one node settles nothing.
        let one = SolveLimits {
            nodes: Some(1),
            movetime_ms: None,
        };
        let mut fresh = Solver::new(4);
        let (_, _, unknown) = label_moves(&mut fresh, &pos, Value::Win, &one, &stop);
        assert!(!unknown.is_empty());
    }
}

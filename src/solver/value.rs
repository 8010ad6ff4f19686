//! The result vocabulary: [`Value`] (win, draw or loss for the side to
//! move), [`Standing`] (a value with its distance, in the order the side to
//! move prefers them) and [`Proven`] (a standing with the line keeping it
//! and where it came from), with the words the protocol writes.

use crate::rules::{Color, Move};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// A proven result, for the side to move; ordered as that side prefers
/// them, a loss below a draw below a win.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

impl Value {
    /// The winner when `side_to_move` gets this value; `None` for a draw.
    pub fn winner(self, side_to_move: Color) -> Option<Color> {
        match self {
            Value::Win => Some(side_to_move),
            Value::Loss => Some(!side_to_move),
            Value::Draw => None,
        }
    }

    /// The value for `side` of a game that `winner` wins (`None`: a draw);
    /// the inverse of [`Value::winner`].
    pub fn for_side(winner: Option<Color>, side: Color) -> Value {
        match winner {
            None => Value::Draw,
            Some(w) if w == side => Value::Win,
            Some(_) => Value::Loss,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        let rank = |v: &Value| match v {
            Value::Loss => 0,
            Value::Draw => 1,
            Value::Win => 2,
        };
        rank(self).cmp(&rank(other))
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `win`, `draw` or `loss`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Reads what [`Display`](fmt::Display) writes.
impl FromStr for Value {
    type Err = String;

    fn from_str(s: &str) -> Result<Value, String> {
        match s {
            "win" => Ok(Value::Win),
            "draw" => Ok(Value::Draw),
            "loss" => Ok(Value::Loss),
            other => Err(format!("'{other}' is not win, loss or draw")),
        }
    }
}

/// A value with its distance in plies, for the side to move: for a win the
/// fewest plies to force it, for a loss the most the loser can hold out;
/// `None` where only the value is proven.
///
/// Ordered as the side to move prefers: a loss below a draw below a win, a
/// shorter win above a longer one, a longer loss above a shorter one. A
/// distance not known ranks below every known one for a win and above every
/// known one for a loss, as the engine's scores do (no mate count is
/// claimed). A draw's distance (the length of some drawing line) is no part
/// of its standing: all draws are equal.
#[derive(Copy, Clone, Debug)]
pub struct Standing {
    pub value: Value,
    pub plies: Option<u32>,
}

impl Standing {
    pub fn new(value: Value, plies: Option<u32>) -> Standing {
        Standing { value, plies }
    }

    /// The key the order, equality and hash go by.
    fn key(&self) -> (Value, i64) {
        let within = match (self.value, self.plies) {
            (Value::Draw, _) => 0,
            (Value::Win, Some(p)) => -i64::from(p),
            (Value::Win, None) => i64::MIN,
            (Value::Loss, Some(p)) => i64::from(p),
            (Value::Loss, None) => i64::MAX,
        };
        (self.value, within)
    }
}

impl PartialEq for Standing {
    fn eq(&self, other: &Standing) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Standing {}

impl Hash for Standing {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Ord for Standing {
    fn cmp(&self, other: &Standing) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Standing {
    fn partial_cmp(&self, other: &Standing) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `win in 29 plies`, `loss in 12 plies`, `win` or `loss` (distance not
/// known) and `draw`, as the protocol's `proven` lines write it.
impl fmt::Display for Standing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.value, self.plies) {
            (Value::Draw, _) | (_, None) => write!(f, "{}", self.value),
            (value, Some(plies)) => write!(f, "{value} in {plies} plies"),
        }
    }
}

/// Reads what [`Display`](fmt::Display) writes.
impl FromStr for Standing {
    type Err = String;

    fn from_str(s: &str) -> Result<Standing, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            [value] => Ok(Standing::new(value.parse()?, None)),
            [value, "in", plies, "plies"] if *value != "draw" => {
                let plies = plies
                    .parse()
                    .map_err(|_| format!("'{plies}' is not a distance in plies"))?;
                Ok(Standing::new(value.parse()?, Some(plies)))
            }
            _ => Err(format!(
                "'{s}' is not a result: want win|loss [in N plies] or draw"
            )),
        }
    }
}

/// Where a proven result came from.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Source {
    /// The game is over in this position.
    Rules,
    /// The compiled-in openings table.
    Openings,
    /// The compiled-in book.
    Book,
    /// The exact solver.
    Solver,
    /// The only legal move leads to a position of known value.
    Forced,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Openings => "openings",
            Source::Book => "book",
            Source::Solver => "solver",
            Source::Forced => "forced",
        }
    }
}

/// A position's proven result for its side to move: the value, its
/// distance in plies where that is proven (the shortest win, the longest
/// loss; for a draw the length of `line`), a line keeping it and where it
/// came from.
///
/// With a distance, `line` runs from the position to the end of the game,
/// both sides playing as the distance says (for a draw, neither side
/// leaving it). Without one, only the value was decided and `line` is one
/// move that keeps it. It is empty where no move is needed or known: the
/// game is over, or a loss was decided (any move keeps a loss).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Proven {
    pub value: Value,
    pub plies: Option<u32>,
    pub line: Vec<Move>,
    pub source: Source,
}

impl Proven {
    /// The value and distance, ordered as the side to move prefers them.
    pub fn standing(&self) -> Standing {
        Standing::new(self.value, self.plies)
    }

    /// The winner, given the side to move; `None` for a draw.
    pub fn winner(&self, side_to_move: Color) -> Option<Color> {
        self.value.winner(side_to_move)
    }

    /// The same proof on the board mirrored between the first and last files.
    pub fn mirror_files(&self, width: u8) -> Proven {
        Proven {
            line: self.line.iter().map(|m| m.mirror_files(width)).collect(),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_winners_round_trip() {
        for v in [Value::Win, Value::Draw, Value::Loss] {
            assert_eq!(v.to_string().parse::<Value>(), Ok(v));
            for side in [Color::White, Color::Black] {
                assert_eq!(Value::for_side(v.winner(side), side), v);
            }
        }
        assert_eq!(Value::Win.winner(Color::Black), Some(Color::Black));
        assert_eq!(Value::Loss.winner(Color::Black), Some(Color::White));
        assert!("maybe".parse::<Value>().unwrap_err().contains("not win"));
    }

    #[test]
    fn values_order_as_the_side_to_move_prefers() {
        assert!(Value::Loss < Value::Draw && Value::Draw < Value::Win);
        let mut all = [Value::Win, Value::Loss, Value::Draw];
        all.sort();
        assert_eq!(all, [Value::Loss, Value::Draw, Value::Win]);
    }

    #[test]
    fn standings_order_by_value_then_distance() {
        let s = |text: &str| text.parse::<Standing>().unwrap();
        let ascending = [
            "loss in 3 plies",
            "loss in 9 plies",
            "loss",
            "draw",
            "win",
            "win in 29 plies",
            "win in 5 plies",
        ];
        for pair in ascending.windows(2) {
            assert!(s(pair[0]) < s(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        let mut shuffled: Vec<Standing> = ascending.iter().rev().map(|t| s(t)).collect();
        shuffled.sort();
        assert_eq!(shuffled, ascending.map(s));
        // A draw's line length is no part of it.
        let draw = |plies| Standing::new(Value::Draw, plies);
        assert_eq!(draw(Some(4)), draw(Some(40)));
        assert_eq!(draw(None).cmp(&draw(Some(4))), Ordering::Equal);
    }

    #[test]
    fn standings_read_what_they_write() {
        for text in ["win in 29 plies", "loss in 2 plies", "win", "loss", "draw"] {
            let s: Standing = text.parse().unwrap();
            assert_eq!(s.to_string(), text);
        }
        assert_eq!(Standing::new(Value::Draw, Some(12)).to_string(), "draw");
        for bad in ["", "win in", "win in x plies", "draw in 3 plies", "won"] {
            assert!(bad.parse::<Standing>().is_err(), "{bad}");
        }
    }
}

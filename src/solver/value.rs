//! [`Value`]: a proven result for the side to move, and its words.

use crate::rules::Color;
use std::fmt;
use std::str::FromStr;

/// A proven result, for the side to move.
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
}

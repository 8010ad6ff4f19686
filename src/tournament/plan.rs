//! Which games a match plays: the openings (gap pairs) and who has white.
//! Each opening is played twice in a row with colours swapped, as
//! cutechess's `-repeat` does, so that neither engine gets the easier side
//! of an unbalanced opening more often.

use super::game::GapsChoice;
use crate::rules::Gaps;
use std::str::FromStr;

/// `--gaps`: `all`, a list like `AH,BG`, or `black-chooses`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GapsSpec {
    List(Vec<Gaps>),
    BlackChooses,
}

impl GapsSpec {
    pub fn all() -> GapsSpec {
        GapsSpec::List(Gaps::all(8).collect())
    }

    /// The games of one full pass: both colours of every opening.
    pub fn cycle_len(&self) -> usize {
        match self {
            GapsSpec::List(list) => 2 * list.len(),
            GapsSpec::BlackChooses => 2,
        }
    }
}

impl FromStr for GapsSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<GapsSpec, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" => return Ok(GapsSpec::all()),
            "black-chooses" | "black" => return Ok(GapsSpec::BlackChooses),
            _ => {}
        }
        let list = s
            .split(',')
            .map(|g| g.trim().parse::<Gaps>())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GapsSpec::List(list))
    }
}

/// One scheduled game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Pairing {
    /// From 1, in schedule order.
    pub round: usize,
    pub gaps: GapsChoice,
    /// Which engine (0 = A, 1 = B) has white.
    pub white: usize,
}

/// `games` games (one full pass if `None`), cycling through the openings;
/// engine A has white in odd rounds.
pub fn schedule(spec: &GapsSpec, games: Option<usize>) -> Vec<Pairing> {
    let total = games.unwrap_or_else(|| spec.cycle_len());
    (0..total)
        .map(|i| Pairing {
            round: i + 1,
            gaps: match spec {
                GapsSpec::List(list) => GapsChoice::Fixed(list[(i / 2) % list.len()]),
                GapsSpec::BlackChooses => GapsChoice::BlackChooses,
            },
            white: i % 2,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn all_gaps_is_128_games_each_pair_with_both_colours() {
        let plan = schedule(&"all".parse().unwrap(), None);
        assert_eq!(plan.len(), 128);
        let distinct: HashSet<(String, usize)> = plan
            .iter()
            .map(|p| match p.gaps {
                GapsChoice::Fixed(g) => (g.to_string(), p.white),
                GapsChoice::BlackChooses => panic!("fixed gaps expected"),
            })
            .collect();
        assert_eq!(distinct.len(), 128);
        assert_eq!(plan.iter().filter(|p| p.white == 0).count(), 64);
        assert_eq!(plan[0].round, 1);
        assert_eq!(plan[127].round, 128);
    }

    #[test]
    fn a_list_cycles_with_colours_alternating() {
        let spec: GapsSpec = "ah, bg".parse().unwrap();
        let plan = schedule(&spec, Some(6));
        let shown: Vec<String> = plan
            .iter()
            .map(|p| match p.gaps {
                GapsChoice::Fixed(g) => format!("{g}{}", p.white),
                GapsChoice::BlackChooses => unreachable!(),
            })
            .collect();
        assert_eq!(shown, ["AH0", "AH1", "BG0", "BG1", "AH0", "AH1"]);
        assert_eq!(schedule(&spec, None).len(), 4);
    }

    #[test]
    fn black_chooses_and_bad_lists() {
        let plan = schedule(&"black-chooses".parse().unwrap(), Some(3));
        assert!(plan.iter().all(|p| p.gaps == GapsChoice::BlackChooses));
        assert_eq!(plan.iter().map(|p| p.white).collect::<Vec<_>>(), [0, 1, 0]);
        for bad in ["", "AH,", "AI", "AHH", "some"] {
            assert!(bad.parse::<GapsSpec>().is_err(), "{bad}");
        }
    }
}

//! The match's results as text: a one-line progress summary and the final
//! table. Pure functions of the tally, so the layout is testable.

use super::reply::FaultKind;
use super::stats::{Elo, MatchTally, Score, Sprt, SprtDecision, elo};
use std::fmt::Write;
use std::time::Duration;

/// `+0.0`, never `-0.0`: an even score should not look like a loss.
fn signed(x: f64) -> String {
    format!("{:+.1}", if x == 0.0 { 0.0 } else { x })
}

fn elo_text(e: Option<Elo>) -> String {
    match e {
        Some(e) if e.elo.is_finite() && e.margin().is_finite() => {
            format!("{} +/- {:.1}", signed(e.elo), e.margin())
        }
        Some(e) if e.elo.is_finite() => format!("{} (bars unbounded)", signed(e.elo)),
        Some(e) if e.elo > 0.0 => "+inf (every game won)".into(),
        Some(_) => "-inf (every game lost)".into(),
        None => "-".into(),
    }
}

/// `12/128  A 5 - B 4 - 3 draws  Elo +28.9 +/- 120.4  faults 0/1`.
pub fn progress_line(tally: &MatchTally, planned: usize, sprt: Option<&Sprt>) -> String {
    let s = &tally.score;
    let mut line = format!(
        "game {}/{planned}: +{} ={} -{}  Elo {}  faults A {} B {}",
        tally.games(),
        s.wins,
        s.draws,
        s.losses,
        elo_text(elo(s)),
        tally.fault_total(0),
        tally.fault_total(1)
    );
    if let Some(t) = sprt {
        let (lo, hi) = t.bounds();
        let _ = write!(line, "  LLR {:.2} ({lo:.2}, {hi:.2})", tally.llr(t));
    }
    line
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// The results table, from engine A's point of view.
pub fn table(
    names: [&str; 2],
    tally: &MatchTally,
    planned: usize,
    sprt: Option<(&Sprt, Option<(SprtDecision, f64)>)>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Match: A = {}, B = {}", names[0], names[1]);
    let _ = writeln!(
        out,
        "Games: {} of {planned} planned ({} adjudicated)",
        tally.games(),
        tally.adjudicated
    );
    let _ = writeln!(out);
    results_by_colour(&mut out, tally);
    let _ = writeln!(out);
    faults_and_times(&mut out, tally);
    let _ = writeln!(out);
    elo_lines(&mut out, &tally.score);
    if let Some((t, decision)) = sprt {
        sprt_lines(&mut out, tally, t, decision);
    }
    out
}

/// A's games, wins, draws, losses and score with white, with black and in all.
fn results_by_colour(out: &mut String, tally: &MatchTally) {
    let _ = writeln!(
        out,
        "{:<10} {:>6} {:>6} {:>6} {:>6} {:>7}",
        "A's side", "games", "wins", "draws", "losses", "score"
    );
    let rows = [
        ("white", &tally.by_colour[0]),
        ("black", &tally.by_colour[1]),
        ("total", &tally.score),
    ];
    for (label, r) in rows {
        let pct = if r.games() == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * r.points() / r.games() as f64)
        };
        let _ = writeln!(
            out,
            "{label:<10} {:>6} {:>6} {:>6} {:>6} {pct:>7}",
            r.games(),
            r.wins,
            r.draws,
            r.losses
        );
    }
}

/// Each engine's faults by kind, its moves and its time a move.
fn faults_and_times(out: &mut String, tally: &MatchTally) {
    let mut header = format!("{:<10}", "engine");
    for k in FaultKind::ALL {
        let _ = write!(header, " {:>8}", k.name());
    }
    let _ = writeln!(
        out,
        "{header} {:>6} {:>12} {:>12}",
        "moves", "avg ms/move", "max ms/move"
    );
    for (i, label) in ["A", "B"].iter().enumerate() {
        let mut row = format!("{label:<10}");
        for n in tally.faults[i] {
            let _ = write!(row, " {n:>8}");
        }
        let t = &tally.times[i];
        let _ = writeln!(
            out,
            "{row} {:>6} {:>12} {:>12}",
            t.moves,
            ms(t.average()),
            ms(t.max)
        );
    }
}

/// The Elo difference the score implies, with its interval.
fn elo_lines(out: &mut String, s: &Score) {
    let _ = writeln!(
        out,
        "Elo difference (A - B): {}  [95%: {}]",
        elo_text(elo(s)),
        elo(s).map_or("-".into(), |e| format!("{:.1} .. {:.1}", e.lower, e.upper))
    );
    let _ = writeln!(
        out,
        "  (logistic Elo from the mean score; 95% normal interval with the trinomial win/draw/loss variance)"
    );
}

/// The sequential test's state: its log-likelihood ratio, bounds and verdict.
fn sprt_lines(
    out: &mut String,
    tally: &MatchTally,
    t: &Sprt,
    decision: Option<(SprtDecision, f64)>,
) {
    let (lo, hi) = t.bounds();
    let verdict = match decision {
        Some((SprtDecision::H1, llr)) => {
            format!("H1 accepted (elo >= {}) at LLR {llr:.2}", t.elo1)
        }
        Some((SprtDecision::H0, llr)) => {
            format!("H0 accepted (elo <= {}) at LLR {llr:.2}", t.elo0)
        }
        None => "no decision".to_string(),
    };
    let _ = writeln!(
        out,
        "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} bounds ({lo:.2}, {hi:.2}): {verdict}",
        t.elo0,
        t.elo1,
        t.alpha,
        t.beta,
        tally.llr(t)
    );
    let [p0, p1, p2, p3, p4] = tally.pairs.counts;
    let _ = writeln!(
        out,
        "  (game pairs by A's points, 0 1/2 1 3/2 2: {p0} {p1} {p2} {p3} {p4}; normal approximation with the pentanomial variance)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::Score;

    #[test]
    fn the_table_shows_totals_faults_and_elo() {
        let mut tally = MatchTally::default();
        tally.score = Score {
            wins: 3,
            draws: 1,
            losses: 2,
        };
        tally.by_colour[0] = Score {
            wins: 2,
            draws: 1,
            losses: 0,
        };
        tally.by_colour[1] = Score {
            wins: 1,
            draws: 0,
            losses: 2,
        };
        tally.faults[1][0] = 1;
        let text = table(["a", "b"], &tally, 8, None);
        assert!(text.contains("Games: 6 of 8 planned"), "{text}");
        assert!(
            text.contains("total           6      3      1      2   58.3%"),
            "{text}"
        );
        assert!(text.contains("Elo difference (A - B): +58.5 +/-"), "{text}");
        let line = progress_line(&tally, 8, None);
        assert!(line.starts_with("game 6/8: +3 =1 -2"), "{line}");
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        tally.pairs.counts = [0, 1, 1, 1, 0];
        let text = table(["a", "b"], &tally, 8, Some((&sprt, None)));
        assert!(
            text.contains("game pairs by A's points, 0 1/2 1 3/2 2: 0 1 1 1 0;"),
            "{text}"
        );
        assert!(text.contains("no decision"), "{text}");
    }
}

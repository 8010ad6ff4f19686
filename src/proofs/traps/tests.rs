//! The traps table's text: read, written, mirrored and merged.

use super::*;

const LINE: &str = "8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss trap a7a5 reply b2b3 fools 9 10\n";
const BY: &str = "8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss trap a7a5 reply b2b3 fools 500000 1000000 by fairy-stockfish\n";

#[test]
fn lines_round_trip_and_mirrors_answer() {
    let traps = Traps::parse(LINE).unwrap();
    assert_eq!(traps.to_text(""), LINE);
    assert_eq!(traps.len(), 1);
    let pos = Position::from_fen("8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b -", RuleSet::PAWNRACE).unwrap();
    let trap = traps.get(&pos).unwrap();
    assert_eq!(
        (trap.value, trap.fools.as_slice()),
        (Value::Loss, &[9, 10][..])
    );
    let mirror = traps.get(&pos.mirror_files()).unwrap();
    assert_eq!(
        (mirror.mv.to_string(), mirror.reply.to_string()),
        ("h7h5".into(), "g2g3".into())
    );
    let with_header = traps.to_text("made by hand");
    assert!(with_header.starts_with("# made by hand\n"));
    assert_eq!(Traps::parse(&with_header).unwrap().len(), 1);
}

/// Another engine's trap names it; replacing a trap replaces the one
/// written for that position, and a trap set in the mirror is written
/// beside it, answering there instead of the position's mirrored.
#[test]
fn another_models_traps_name_it_and_replace_in_place() {
    let mut traps = Traps::parse(LINE).unwrap();
    let theirs = Traps::parse(BY).unwrap();
    let (pos, trap) = theirs.entries().next().unwrap();
    assert_eq!(
        (trap.by.as_str(), trap.fools.as_slice()),
        ("fairy-stockfish", &[500_000, 1_000_000][..])
    );
    assert_eq!(theirs.to_text(""), BY);
    traps.replace(*pos, trap.clone());
    assert_eq!(traps.to_text(""), BY);
    assert_eq!(traps.get(pos).unwrap().by, "fairy-stockfish");
    // The mirror answers with the position's trap mirrored, until it has
    // one of its own.
    let mirror = pos.mirror_files();
    assert_eq!(traps.get(&mirror), Some(trap.mirror_files(8)));
    let own = Traps::parse(LINE)
        .unwrap()
        .get(pos)
        .unwrap()
        .mirror_files(8);
    traps.replace(mirror, own.clone());
    assert_eq!(traps.len(), 2);
    assert_eq!(traps.get(&mirror), Some(own));
    assert_eq!(traps.get(pos).unwrap().by, "fairy-stockfish");
    assert_eq!(Traps::parse(&traps.to_text("")).unwrap().len(), 2);
}

/// A lead-in reads and writes as a trap does, saying `lead`, and play
/// takes its move (and its mirror's) as a trap's.
#[test]
fn a_lead_in_reads_back_and_answers_as_a_trap() {
    let lead = "8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss lead a7a5 reply b2b3 fools 1 2 by fairy-stockfish-in-game\n";
    let traps = Traps::parse(lead).unwrap();
    assert_eq!(traps.to_text(""), lead);
    let (pos, trap) = traps.entries().next().unwrap();
    assert!(trap.lead);
    assert_eq!(traps.get(pos).unwrap().mv.to_string(), "a7a5");
    assert_eq!(
        traps.get(&pos.mirror_files()).unwrap().mv.to_string(),
        "h7h5"
    );
    let plain = Traps::parse(BY).unwrap();
    assert!(!plain.entries().next().unwrap().1.lead);
}

#[test]
fn bad_lines_are_named() {
    let pos = "8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b -";
    for (rest, what) in [
        ("loss trap a7a5 reply b2b3", "want:"),
        ("win trap a7a5 reply b2b3 fools 9", "won position"),
        ("maybe trap a7a5 reply b2b3 fools 9", "not win"),
        ("loss trap a7a4 reply b2b3 fools 9", "not legal"),
        ("loss trap a7a5 reply b2b5 fools 9", "not legal after"),
        ("loss trap a7a5 reply b2b3 fools 0", "not a search depth"),
        ("loss trap a7a5 reply b2b3 fools 9 by", "one engine name"),
        (
            "loss trap a7a5 reply b2b3 fools 9 by a b",
            "one engine name",
        ),
        ("draw lead a7a5 reply b2b3 fools 9", "lost position only"),
        ("loss lead a7a5 reply b2b3", "want:"),
        ("loss none fairy-stockfish", "want:"),
        ("loss none by", "want:"),
        ("win none", "won position"),
    ] {
        let err = Traps::parse(&format!("# header\n{pos} {rest}\n")).unwrap_err();
        assert!(
            err.starts_with("line 2: ") && err.contains(what),
            "{rest}: {err}"
        );
    }
}

/// Two shards grown apart from one table: each one's new or replaced
/// traps and its notes are taken in, a trap a shard left as it was
/// does not undo another's change, and two different traps set in one
/// position are an error (in its mirror they are not).
#[test]
fn shards_merge_into_their_base() {
    let start = "8/1ppppppp/8/8/8/8/1PPPPPPP/8 w - loss trap e2e4 reply d7d5 fools 1 by x\n";
    let base = Traps::parse(&format!("{LINE}{start}")).unwrap();
    let one = Traps::parse(&format!(
        "{BY}{start}8/1ppppppp/8/8/8/8/1PPPPPPP/8 w - loss none by y\n"
    ))
    .unwrap();
    let other = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - draw trap h2h4 reply g7g5 fools 3 by x\n";
    let two = Traps::parse(&format!("{LINE}{start}{other}")).unwrap();
    let mut merged = base.clone();
    assert_eq!(merged.merge(&[one.clone(), two.clone()]), Ok(2));
    let text = merged.to_text("");
    for line in [BY, start, other] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert!(text.contains(" w - loss none by y\n"), "{text}");
    assert_eq!(text.lines().count(), 4, "{text}");
    // LINE's position with another trap than BY's, then its mirror's.
    let clash = "8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss trap a7a6 reply b2b3 fools 9\n";
    let three = Traps::parse(clash).unwrap();
    let mut merged = base.clone();
    let err = merged.merge(&[one.clone(), three]).unwrap_err();
    assert!(err.contains("different traps"), "{err}");
    assert_eq!(merged.to_text(""), base.to_text(""), "changed on an error");
    let mirror = "8/ppppp1pp/8/8/5P2/8/PPPPP1P1/8 b - loss trap h7h6 reply g2g3 fools 9\n";
    let four = Traps::parse(mirror).unwrap();
    assert_eq!(merged.merge(&[one, four]), Ok(2));
    let text = merged.to_text("");
    assert!(text.contains(BY) && text.contains(mirror), "{text}");
}

/// Every committed line reads, and sets no trap in a won position.
#[test]
fn the_builtin_table_reads() {
    let traps = Traps::parse(BUILTIN).unwrap();
    let lines = BUILTIN
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    assert_eq!(traps.to_text("").lines().count(), lines.count());
}

/// A model no move fooled is noted for the position (not its mirror,
/// where it may well be fooled), beside another model's trap, which
/// still answers; the note reads back as written.
#[test]
fn a_model_no_move_fooled_is_noted_beside_the_trap() {
    let none = "8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss none by fairy-stockfish-in-game\n";
    let mut traps = Traps::parse(&format!("{BY}{none}")).unwrap();
    let pos = Position::from_fen("8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b -", RuleSet::PAWNRACE).unwrap();
    assert_eq!(traps.len(), 1);
    assert_eq!(traps.get(&pos).unwrap().by, "fairy-stockfish");
    assert!(traps.found_nothing(&pos, "fairy-stockfish-in-game"));
    assert!(!traps.found_nothing(&pos.mirror_files(), "fairy-stockfish-in-game"));
    assert!(!traps.found_nothing(&pos, "fairy-stockfish"));
    assert_eq!(traps.to_text(""), format!("{none}{BY}"));
    // Noted again, and by the own search in the mirror: one line more,
    // under the mirror.
    traps.note_nothing(pos, Value::Loss, "fairy-stockfish-in-game");
    traps.note_nothing(pos.mirror_files(), Value::Loss, OWN_MODEL);
    let text = traps.to_text("");
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("8/ppppp1pp/8/8/5P2/8/PPPPP1P1/8 b - loss none\n"));
    let read = Traps::parse(&text).unwrap();
    assert!(read.found_nothing(&pos.mirror_files(), OWN_MODEL));
    assert!(!read.found_nothing(&pos, OWN_MODEL));
}

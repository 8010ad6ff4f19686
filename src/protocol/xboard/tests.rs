use super::{Out, XBoard};
use crate::engine::{Score, SearchResult};
use crate::rules::parse_move;

fn lines(out: Vec<Out>) -> Vec<String> {
    out.into_iter()
        .map(|o| match o {
            Out::Line(l) => l,
            other => format!("{other:?}"),
        })
        .collect()
}

fn result_of(session: &XBoard, text: &str) -> SearchResult {
    let m = parse_move(session.game().position(), text).unwrap();
    SearchResult {
        best: Some(m),
        score: Score::Cp(0),
        depth: 1,
        nodes: 1,
        pv: vec![m],
    }
}

#[test]
fn new_then_a_user_move_starts_a_search_for_black() {
    let mut s = XBoard::new();
    assert!(s.handle_line("new").is_empty());
    let out = s.handle_line("usermove e2e4");
    let [Out::Search { id, pos, .. }] = out.as_slice() else {
        panic!("{out:?}")
    };
    assert_eq!(pos.side_to_move(), crate::rules::Color::Black);
    let id = *id;
    let result = result_of(&s, "e7e5");
    assert_eq!(lines(s.searched(id, &result)), ["move e7e5"]);
    // A stale search's result changes nothing.
    assert!(s.searched(id, &result).is_empty());
}

#[test]
fn force_aborts_the_search_and_its_result_is_dropped() {
    let mut s = XBoard::new();
    let out = s.handle_line("go");
    let [Out::Search { id, .. }] = out.as_slice() else {
        panic!("{out:?}")
    };
    let id = *id;
    assert_eq!(s.handle_line("force"), [Out::Abort]);
    let result = result_of(&s, "e2e4");
    assert!(s.searched(id, &result).is_empty());
    assert!(s.game().moves().is_empty());
}

#[test]
fn time_commands_reach_the_limits() {
    let mut s = XBoard::new();
    s.handle_line("level 40 5 2");
    s.handle_line("time 3000");
    s.handle_line("otim 2500");
    let out = s.handle_line("go");
    let [Out::Search { limits, .. }] = out.as_slice() else {
        panic!("{out:?}")
    };
    assert_eq!(limits.wtime_ms, Some(30_000));
    assert_eq!(limits.btime_ms, Some(25_000));
    assert_eq!(limits.winc_ms, Some(2_000));
    assert_eq!(limits.movestogo, Some(40));
    assert_eq!(lines(s.handle_line("sd x")), ["Error (bad depth): sd x"]);
}

#[test]
fn undo_and_remove_take_moves_back() {
    let mut s = XBoard::new();
    s.handle_line("force");
    s.handle_line("usermove e2e4");
    s.handle_line("usermove e7e5");
    s.handle_line("usermove d2d4");
    assert!(s.handle_line("remove").is_empty());
    assert_eq!(s.game().moves().len(), 1);
    assert!(s.handle_line("undo").is_empty());
    assert_eq!(
        lines(s.handle_line("undo")),
        ["Error (no move to take back): undo"]
    );
    let start = super::start();
    assert_eq!(*s.game().position(), start);
}

#[test]
fn new_keeps_the_time_control_and_drops_the_depth_limit() {
    let mut s = XBoard::new();
    s.handle_line("st 2");
    s.handle_line("sd 5");
    s.handle_line("new");
    let out = s.handle_line("go");
    let [Out::Search { limits, .. }] = out.as_slice() else {
        panic!("{out:?}")
    };
    assert_eq!((limits.movetime_ms, limits.depth), (Some(2000), None));
}

#[test]
fn move_now_only_during_a_search() {
    let mut s = XBoard::new();
    assert!(s.handle_line("?").is_empty());
    s.handle_line("go");
    assert_eq!(s.handle_line("?"), [Out::MoveNow]);
}

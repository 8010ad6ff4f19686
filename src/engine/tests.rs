//! The engine sizes its own tables: for the search at hand, within the
//! `Hash` ceiling and the server's memory budget.

use super::*;

fn settings(hash_mib: usize) -> EngineSettings {
    EngineSettings {
        threads: 2,
        multipv: 3,
        move_overhead_ms: 0,
        ..EngineSettings::with_hash(hash_mib)
    }
}

#[test]
fn tables_fit_the_search_and_grow_only_for_a_longer_one() {
    let budget = MemoryBudget::new(1000);
    // 100 ms fills some 3 MiB: two tables of 4.
    let e = Engine::prepare(None, &settings(64), Some(100), None, &budget);
    assert_eq!((e.hash_mib(), e.memory_mib()), (4, 8));
    assert_eq!(budget.used_mib(), 8);
    assert_eq!(e.settings, settings(64));
    // A shorter search keeps them; a longer one gets bigger ones, and the
    // old ones' memory goes back.
    let e = Engine::prepare(Some(e), &settings(64), Some(10), None, &budget);
    assert_eq!(e.hash_mib(), 4);
    let e = Engine::prepare(Some(e), &settings(64), Some(1000), None, &budget);
    assert_eq!((e.hash_mib(), budget.used_mib()), (32, 64));
    // No clock: the whole ceiling; a lower ceiling shrinks them.
    let e = Engine::prepare(Some(e), &settings(64), None, None, &budget);
    assert_eq!(e.hash_mib(), 64);
    let e = Engine::prepare(Some(e), &settings(16), None, None, &budget);
    assert_eq!((e.hash_mib(), budget.used_mib()), (16, 32));
    drop(e);
    assert_eq!(budget.used_mib(), 0);
}

#[test]
fn sharing_the_cores_makes_smaller_tables_and_a_spent_budget_the_smallest() {
    let budget = MemoryBudget::new(1000);
    // A quarter of a core for 1000 ms fills what 250 ms does.
    let e = Engine::prepare(None, &settings(64), Some(1000), Some((1, 4)), &budget);
    assert_eq!(e.hash_mib(), 8);
    // Untimed work beside others: the smallest tables.
    let e = Engine::prepare(None, &settings(64), None, Some((1, 4)), &budget);
    assert_eq!(e.hash_mib(), 1);
    let spent = MemoryBudget::new(0);
    let e = Engine::prepare(None, &settings(64), None, None, &spent);
    assert_eq!(e.hash_mib(), 0);
}

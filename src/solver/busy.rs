//! The positions a parallel solve's threads are searching right now, so
//! that a thread can leave a move another thread is already proving for
//! later (as ABDADA does): by the time it comes back to it, the other
//! thread's proof is usually in the table, and the move costs one probe.
//!
//! Lazy SMP alone (every thread searching the same tree in nearly the same
//! order, sharing the table) had both threads prove the same subtrees side
//! by side much of the time.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots: a thread marks one position per ply of its current line, so a
/// few thousand keep collisions rare for any sensible number of threads.
const SLOTS: usize = 1 << 12;

pub(super) struct Busy {
    /// A busy position's key in its slot, 0 in a free one.
    slots: Vec<AtomicU64>,
}

impl Busy {
    pub fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Marks `key` as being searched; `false` if its slot is taken (by
    /// another position, or by this one on another thread), when nothing
    /// is marked and nothing must be cleared.
    pub fn enter(&self, key: u64) -> bool {
        key != 0
            && self
                .slot(key)
                .compare_exchange(0, key, Relaxed, Relaxed)
                .is_ok()
    }

    /// Clears a mark made by [`Busy::enter`].
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    /// Whether some thread is searching `key`.
    pub fn contains(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Relaxed) == key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_busy_from_enter_to_leave_and_slots_are_not_shared() {
        let busy = Busy::new();
        assert!(!busy.contains(7));
        assert!(busy.enter(7));
        assert!(busy.contains(7));
        // Another thread reaching the same position does not mark it again.
        assert!(!busy.enter(7));
        // A different position in the same slot is neither marked nor busy.
        let other = 7 + SLOTS as u64;
        assert!(!busy.enter(other));
        assert!(!busy.contains(other));
        busy.leave(other);
        assert!(busy.contains(7), "only the marking position clears a slot");
        busy.leave(7);
        assert!(!busy.contains(7));
        assert!(busy.enter(other));
    }
}

//! Big zeroed tables (the search's and the solver's, in `pages.rs`), and the
//! budget a server's tables share.

mod pages;

pub(crate) use pages::ZeroedTable;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// MiB that every session's tables together may take (`serve
/// --max-memory`). Sessions reserve before they allocate and give back when
/// their tables go; a reservation that does not fit is granted smaller.
#[derive(Debug)]
pub struct MemoryBudget {
    limit_mib: usize,
    used_mib: AtomicUsize,
}

/// MiB held from a [`MemoryBudget`] until dropped.
#[derive(Debug)]
pub struct Reservation {
    budget: Arc<MemoryBudget>,
    mib: usize,
}

impl MemoryBudget {
    pub fn new(limit_mib: usize) -> Arc<MemoryBudget> {
        Arc::new(MemoryBudget {
            limit_mib,
            used_mib: AtomicUsize::new(0),
        })
    }

    /// No limit: a library user's or a test's session.
    pub fn unlimited() -> Arc<MemoryBudget> {
        MemoryBudget::new(usize::MAX)
    }

    pub fn limit_mib(&self) -> usize {
        self.limit_mib
    }

    pub fn used_mib(&self) -> usize {
        self.used_mib.load(Ordering::SeqCst)
    }

    pub fn left_mib(&self) -> usize {
        self.limit_mib.saturating_sub(self.used_mib())
    }

    /// Up to `mib`: all of it if it fits, else the largest power of two
    /// that does, but never less than `floor` (a search needs some table;
    /// the floor may go past the limit, which `floor` times the sessions
    /// bounds).
    pub fn reserve(self: &Arc<Self>, mib: usize, floor: usize) -> Reservation {
        let mut granted = 0;
        let _ = self
            .used_mib
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                let left = self.limit_mib.saturating_sub(used);
                granted = if mib <= left {
                    mib
                } else if left >= floor.max(1) {
                    1 << left.ilog2()
                } else {
                    floor
                };
                Some(used.saturating_add(granted))
            });
        Reservation {
            budget: Arc::clone(self),
            mib: granted,
        }
    }
}

impl Reservation {
    pub fn mib(&self) -> usize {
        self.mib
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.used_mib.fetch_sub(self.mib, Ordering::SeqCst);
    }
}

/// Half the machine's memory, a sensible default for `--max-memory`; 4 GiB
/// where the machine does not say.
pub fn default_budget_mib() -> usize {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        });
    total_kib.map_or(4096, |kib| (kib / 1024 / 2).max(64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_grants_what_fits_and_takes_it_back() {
        let budget = MemoryBudget::new(100);
        let a = budget.reserve(64, 2);
        assert_eq!(a.mib(), 64);
        // 36 left: the largest power of two that fits.
        let b = budget.reserve(64, 2);
        assert_eq!(b.mib(), 32);
        // 4 left, below the floor of 8: the floor, past the limit.
        let c = budget.reserve(64, 8);
        assert_eq!(c.mib(), 8);
        assert_eq!(budget.used_mib(), 104);
        assert_eq!(budget.left_mib(), 0);
        drop((a, b, c));
        assert_eq!(budget.used_mib(), 0);
        assert_eq!(MemoryBudget::unlimited().reserve(1 << 30, 1).mib(), 1 << 30);
    }
}

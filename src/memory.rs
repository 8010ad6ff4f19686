//! Big zeroed tables (the search's and the solver's), taken from the
//! system ready to be written, and the budget a server's tables share.
//!
//! Why not leave the pages to be faulted in lazily: a table is read before
//! it is written, so each page is first mapped to the system's shared zero
//! page and then copied on the first write, and every such copy flushes
//! the page from the TLB of every core the process runs on. With many
//! sessions searching at once, measured on 100 sessions' first searches,
//! those cross-core flushes took half of all the machine's time and made
//! every answer late. Writing the pages in at once, on the job's thread,
//! costs one zeroing and no flush. (Huge pages, for big tables, are the
//! exception: see `zeroed_table`.)

use std::alloc::{Layout, alloc_zeroed};
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

/// Tables from this size on ask Linux for 2 MiB pages: every probe lands on
/// a random page, so with 4 KiB pages nearly every probe also misses the
/// TLB (measured on a 4 GiB solver table: most of the time went there).
/// Smaller tables keep small pages, which are cheaper to make.
const HUGE_FROM: usize = 128 << 20;

/// `len` values of `T`, all bits zero (small pages already written in);
/// `None` if the memory is not there.
///
/// # Safety
/// All-zero bits must be a valid `T` (integers, atomics of integers, and
/// structs of those).
pub(crate) unsafe fn zeroed_table<T>(len: usize) -> Option<Vec<T>> {
    let layout = Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { alloc_zeroed(layout) };
    if ptr.is_null() {
        return None;
    }
    // Small pages are written in at once (see the top of this file); huge
    // ones are left to come as touched: one fault makes 2 MiB, so there
    // are few, and a short search on a big table (a `go depth 1` after
    // `Hash 1024`) makes only the few it touches instead of a gigabyte.
    if layout.size() >= HUGE_FROM {
        advise(ptr, layout.size(), MADV_HUGEPAGE);
    } else {
        populate(ptr, layout.size());
    }
    // SAFETY: zeroed `T`s are valid (the caller's promise), and the vector
    // takes over the allocation with the layout it was made with: `len`
    // values of `T`'s size and alignment.
    Some(unsafe { Vec::from_raw_parts(ptr as *mut T, len, len) })
}

const MADV_HUGEPAGE: i32 = 14;
const MADV_POPULATE_WRITE: i32 = 23;
const MADV_DONTNEED: i32 = 4;

/// Tables are written in and given back in steps of this much: the kernel
/// holds the process's memory map while it works on a range, and a thread
/// that must change the map meanwhile (any thread starting, any large
/// allocation) waits, with every thread behind it. A gigabyte in one call
/// held up `isready` for 2.5 s.
const STEP: usize = 1 << 20;

/// Writes every page of `ptr..ptr + len` in, a step at a time: by the
/// kernel where it can (Linux 5.14 on), else by writing a zero into each
/// page.
fn populate(ptr: *mut u8, len: usize) {
    let mut offset = 0;
    while offset < len {
        let step = STEP.min(len - offset);
        // SAFETY: inside the allocation.
        let at = unsafe { ptr.add(offset) };
        if !advise(at, step, MADV_POPULATE_WRITE) {
            touch(at, step);
        }
        offset += step;
    }
}

/// Gives a table's pages back to the system a step at a time before the
/// table is freed (see [`STEP`]), so that freeing it is quick. For tables
/// too small to matter, nothing.
pub(crate) fn release<T>(table: &mut [T]) {
    let len = std::mem::size_of_val(table);
    let ptr = table.as_mut_ptr() as *mut u8;
    let mut offset = 0;
    while offset < len {
        let step = STEP.min(len - offset);
        // SAFETY: inside the table; the pages are read as zeros afterwards,
        // which only the table's owner could see, and it is dropping it.
        advise(unsafe { ptr.add(offset) }, step, MADV_DONTNEED);
        offset += step;
    }
}

/// Writes a zero into each page of `ptr..ptr + len`.
fn touch(ptr: *mut u8, len: usize) {
    const PAGE: usize = 4096;
    let mut offset = (ptr as usize).next_multiple_of(PAGE) - ptr as usize;
    while offset < len {
        // SAFETY: inside the allocation; the byte is zero already, and a
        // volatile write is not optimised away.
        unsafe { ptr.add(offset).write_volatile(0) };
        offset += PAGE;
    }
}

/// Advice about the whole pages inside `ptr..ptr + len`; whether it was
/// taken.
#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, len: usize, advice: i32) -> bool {
    const PAGE: usize = 4096;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + len) / PAGE * PAGE;
    if end <= start {
        return false;
    }
    // SAFETY: advice about whole pages inside our own allocation; neither
    // kind changes its contents (populating writes pages that are already
    // zero), and a refusal is reported, not harmful.
    unsafe { madvise(start as *mut _, end - start, advice) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize, _: i32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn tables_come_zeroed_and_whole() {
        for len in [0, 1, 4095, 1 << 20] {
            // SAFETY: zero is a valid u64 and AtomicU64.
            let words: Vec<u64> = unsafe { zeroed_table(len) }.unwrap();
            assert_eq!(words.len(), len);
            assert!(words.iter().all(|&w| w == 0));
            let atomics: Vec<AtomicU64> = unsafe { zeroed_table(len) }.unwrap();
            assert!(atomics.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        }
    }

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

    #[test]
    fn an_impossible_size_is_refused() {
        // SAFETY: zero is a valid u64.
        assert!(unsafe { zeroed_table::<u64>(usize::MAX / 4) }.is_none());
    }
}

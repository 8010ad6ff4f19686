//! Big zeroed tables, taken from the system ready to be written.
//!
//! Why not leave the pages to be faulted in lazily: a table is read before
//! it is written, so each page is first mapped to the system's shared zero
//! page and then copied on the first write, and every such copy flushes
//! the page from the TLB of every core the process runs on. With many
//! sessions searching at once, measured on 100 sessions' first searches,
//! those cross-core flushes took half of all the machine's time and made
//! every answer late. Writing the pages in at once, on the job's thread,
//! costs one zeroing and no flush. (The biggest tables are the exception:
//! see [`LAZY_FROM`].)
//!
//! Why the biggest tables are mappings of their own, on 2 MiB pages:
//! every probe lands on a random page, so with 4 KiB pages nearly every
//! probe (and every prefetch, which walks the page tables just the same)
//! also misses the TLB. Asking for huge pages on memory from the allocator
//! is not enough: glibc serves a freed table's addresses to the next one
//! (its threshold for fresh mappings rises with every big free, up to
//! 32 MiB), and pages it hands out again stay small. With a mapping of its
//! own for every table, `bench solve --sample 32` (a fresh 16 MiB table
//! for each position) ran at 3.67 and 3.73 M nodes/s against 3.41 and 3.51
//! (taking turns, the same nodes; median 1172 and 1206 ms against 1265 and
//! 1302). But a server under load then stalled now and then: see
//! [`MAPPED_FROM`].

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Linux's huge page on x86-64, and on aarch64 with 4 KiB pages.
const HUGE_PAGE: usize = 2 << 20;

/// Every table starts on a cache line. The allocator only aligns big
/// blocks to 16 bytes (glibc's chunk header), so the solver's 64-byte
/// buckets each straddled two lines: a probe that reached the bucket's
/// last slot waited on a second fetch that its prefetch had not asked
/// for, and that wait was two thirds of the probes' time (perf). Aligned:
/// the same nodes, 32 decisions 2.3% faster and 32 full solves 1.5 to 3%
/// (runs taking turns; medians 1023 and 1030 ms against 1076 and 1079).
const CACHE_LINE: usize = 64;

/// Tables from this size on are not written in when made, but left to
/// come as touched: with huge pages one fault makes 2 MiB, so there are
/// few, and a short search on a big table (a `go depth 1` after `Hash
/// 1024`) makes only the few it touches instead of a gigabyte.
const LAZY_FROM: usize = 128 << 20;

/// Tables from this size on are mappings of their own, on huge pages;
/// smaller ones come from the allocator, on small pages. From 2 MiB on,
/// the solver ran 6 to 8% faster, but `pawnrace loadtest --searchers 100`
/// stalled the whole server for 100 to 200 ms in about one run of nine
/// (`isready` up to 189 ms, up to 76 timed answers more than 50 ms late),
/// even with mappings reused and pages given back a huge page at a time;
/// with small tables on small pages, none in sixteen runs. A timed answer
/// that comes late costs more than a slightly slower proof. Not the
/// kernel compacting memory for the huge pages: over 46 such runs it
/// never did, nor reclaimed any, and no memory call took over 9 ms. A
/// lead not yet tested: the machines measured on are virtual, and their
/// kernel reports free 8 MiB blocks to the host, which takes the memory
/// back (`page_reporting.page_reporting_order=11` in `/proc/cmdline`);
/// huge pages given back free whole blocks where small ones seldom do,
/// and memory the host took back is slow to touch again. (Since the
/// tables start on a cache line, part of the 6 to 8% is had anyway.)
const MAPPED_FROM: usize = LAZY_FROM;

/// Tables are written in and given back in steps of this much: the kernel
/// holds the process's memory map while it works on a range, and a thread
/// that must change the map meanwhile (any thread starting, any large
/// allocation) waits, with every thread behind it. A gigabyte in one call
/// held up `isready` for 2.5 s. A whole huge page: given back in halves,
/// each huge page was first split into small ones (`thp_split_pmd` in
/// `/proc/vmstat` rose by one for nearly every huge page made).
const STEP: usize = HUGE_PAGE;

/// `len` values of `T`, all bits zero when made, owned like a `Box<[T]>`;
/// its pages are given back to the system a step at a time when it goes.
pub(crate) struct ZeroedTable<T> {
    ptr: NonNull<T>,
    len: usize,
    origin: Origin,
}

/// Where a table's memory came from, to give it back there.
#[derive(Copy, Clone, Debug)]
enum Origin {
    /// None at all: an empty table.
    Nothing,
    /// The global allocator: the block it gave (the table starts a little
    /// into it, on a cache line) and its layout.
    Heap(NonNull<u8>, Layout),
    /// A mapping of its own of this many bytes.
    Mapped(usize),
}

// SAFETY: the table owns its values, as a `Box<[T]>` does.
unsafe impl<T: Send> Send for ZeroedTable<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: Sync> Sync for ZeroedTable<T> {}

impl<T> ZeroedTable<T> {
    /// `len` values of `T`, all bits zero; `None` if the memory is not
    /// there.
    ///
    /// # Safety
    /// All-zero bits must be a valid `T` (integers, atomics of integers, and
    /// structs of those).
    pub(crate) unsafe fn new(len: usize) -> Option<ZeroedTable<T>> {
        let layout = Layout::array::<T>(len).ok()?;
        let bytes = layout.size();
        if bytes == 0 {
            return Some(ZeroedTable {
                ptr: NonNull::dangling(),
                len,
                origin: Origin::Nothing,
            });
        }
        let mapped = if bytes >= MAPPED_FROM {
            os::map_huge(bytes, layout.align())
        } else {
            None
        };
        let (ptr, origin) = match mapped {
            Some((ptr, mapped)) => (ptr, Origin::Mapped(mapped)),
            None => {
                let align = layout.align().max(CACHE_LINE);
                let padded =
                    Layout::from_size_align(bytes.checked_add(align)?, layout.align()).ok()?;
                // SAFETY: the layout has a non-zero size.
                let block = NonNull::new(unsafe { alloc_zeroed(padded) })?;
                let skip =
                    (block.as_ptr() as usize).next_multiple_of(align) - block.as_ptr() as usize;
                // SAFETY: `skip < align`, so the table lies inside the block.
                let ptr = unsafe { block.add(skip) };
                (ptr, Origin::Heap(block, padded))
            }
        };
        if bytes < LAZY_FROM {
            populate(ptr.as_ptr(), bytes);
        }
        Some(ZeroedTable {
            ptr: ptr.cast(),
            len,
            origin,
        })
    }
}

impl<T> Deref for ZeroedTable<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` values, zeroed (valid, by `new`'s contract) or
        // written since; dangling only where there are none.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for ZeroedTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedTable<T> {
    fn drop(&mut self) {
        // SAFETY: the values are valid and dropped once, here.
        unsafe { std::ptr::drop_in_place(self.deref_mut() as *mut [T]) };
        let start = self.ptr.as_ptr().cast::<u8>();
        match self.origin {
            Origin::Nothing => {}
            Origin::Heap(block, layout) => {
                release(start, self.len * size_of::<T>());
                // SAFETY: allocated with this layout in `new`.
                unsafe { dealloc(block.as_ptr(), layout) };
            }
            Origin::Mapped(bytes) => {
                let emptied = release(start, bytes);
                os::unmap(start, bytes, emptied);
            }
        }
    }
}

/// Writes every page of `ptr..ptr + len` in, a step at a time: by the
/// kernel where it can (Linux 5.14 on), else by writing a zero into each
/// page.
fn populate(ptr: *mut u8, len: usize) {
    for (offset, step) in steps(len) {
        // SAFETY: inside the allocation.
        let at = unsafe { ptr.add(offset) };
        if !os::advise(at, step, os::MADV_POPULATE_WRITE) {
            touch(at, step);
        }
    }
}

/// Gives a table's pages back to the system a step at a time before the
/// table is freed (see [`STEP`]), so that freeing it is quick; whether
/// every page went back (and so reads as zero again).
fn release(ptr: *mut u8, len: usize) -> bool {
    steps(len).fold(true, |all, (offset, step)| {
        // SAFETY: inside the table; the pages are read as zeros afterwards,
        // which only the table's owner could see, and it is dropping it.
        os::advise(unsafe { ptr.add(offset) }, step, os::MADV_DONTNEED) && all
    })
}

/// The steps of [`STEP`] bytes (the last one shorter) that cover `len`
/// bytes: each one's offset and length.
fn steps(len: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..len)
        .step_by(STEP)
        .map(move |offset| (offset, STEP.min(len - offset)))
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

mod os;

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn tables_come_zeroed_and_whole() {
        // Below a page, pages, and past a huge page (a mapping of its own).
        for len in [0, 1, 4095, 1 << 20, (1 << 20) + 3] {
            // SAFETY: zero is a valid u64 and AtomicU64.
            let mut words: ZeroedTable<u64> = unsafe { ZeroedTable::new(len) }.unwrap();
            assert_eq!(words.len(), len);
            if len > 0 {
                assert_eq!(words.as_ptr() as usize % CACHE_LINE, 0, "{len}");
            }
            assert!(words.iter().all(|&w| w == 0));
            words.fill(7);
            assert!(words.iter().all(|&w| w == 7));
            let atomics: ZeroedTable<AtomicU64> = unsafe { ZeroedTable::new(len) }.unwrap();
            assert!(atomics.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            // A dropped table's mapping may serve the next: zeroed again.
            drop(words);
            let again: ZeroedTable<u64> = unsafe { ZeroedTable::new(len) }.unwrap();
            assert!(again.iter().all(|&w| w == 0));
        }
    }

    #[test]
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    fn big_tables_start_on_a_huge_page() {
        for _ in 0..3 {
            // SAFETY: zero is a valid u64.
            let mut t: ZeroedTable<u64> = unsafe { ZeroedTable::new(MAPPED_FROM / 8) }.unwrap();
            assert!(matches!(t.origin, Origin::Mapped(MAPPED_FROM)));
            assert_eq!(t.as_ptr() as usize % HUGE_PAGE, 0);
            // A reused mapping comes back zeroed.
            assert!(t.iter().step_by(4096).all(|&w| w == 0));
            t.iter_mut().step_by(4096).for_each(|w| *w = 7);
        }
        // SAFETY: zero is a valid u64.
        let small: ZeroedTable<u64> = unsafe { ZeroedTable::new(HUGE_PAGE / 8) }.unwrap();
        assert!(matches!(small.origin, Origin::Heap(..)));
    }

    #[test]
    fn an_impossible_size_is_refused() {
        // SAFETY: zero is a valid u64.
        assert!(unsafe { ZeroedTable::<u64>::new(usize::MAX / 4) }.is_none());
        // SAFETY: as above.
        assert!(unsafe { ZeroedTable::<u64>::new(usize::MAX / 16) }.is_none());
    }
}

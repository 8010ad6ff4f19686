//! The system calls behind the tables: on Linux (x86-64 and aarch64, where
//! the constants are known) mappings, advice and huge pages; elsewhere
//! memory from the allocator, and no advice.

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub use linux::*;
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
pub use other::*;

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod linux {
    use crate::memory::pages::HUGE_PAGE;
    use std::ffi::{c_long, c_void};
    use std::ptr::NonNull;
    use std::sync::{Mutex, PoisonError};

    pub const MADV_DONTNEED: i32 = 4;
    const MADV_HUGEPAGE: i32 = 14;
    pub const MADV_POPULATE_WRITE: i32 = 23;
    const PROT_READ_WRITE: i32 = 0x1 | 0x2;
    const MAP_PRIVATE_ANONYMOUS: i32 = 0x02 | 0x20;
    const PAGE: usize = 4096;

    unsafe extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: i32) -> i32;
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: i32,
            flags: i32,
            fd: i32,
            offset: c_long,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> i32;
    }

    /// Advice about the whole pages inside `ptr..ptr + len`; whether it
    /// was taken.
    pub fn advise(ptr: *mut u8, len: usize, advice: i32) -> bool {
        let start = (ptr as usize).next_multiple_of(PAGE);
        let end = (ptr as usize + len) / PAGE * PAGE;
        if end <= start {
            return false;
        }
        // SAFETY: advice about whole pages inside our own allocation; none
        // of the kinds used changes what the table reads (populating writes
        // pages that are already zero, and pages given back are only read
        // again as zeros), and a refusal is reported, not harmful.
        unsafe { madvise(start as *mut _, end - start, advice) == 0 }
    }

    /// A fresh zeroed mapping of at least `bytes` bytes, starting on a huge
    /// page and asked to be made of huge pages, with its length; `None`
    /// for a table smaller than a huge page, or if the system refuses.
    pub fn map_huge(bytes: usize, align: usize) -> Option<(NonNull<u8>, usize)> {
        if bytes < HUGE_PAGE || align > HUGE_PAGE {
            return None;
        }
        let len = bytes.checked_next_multiple_of(HUGE_PAGE)?;
        {
            let mut spare = SPARE.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(i) = spare.iter().position(|&(_, l)| l == len) {
                let (start, _) = spare.swap_remove(i);
                return Some((NonNull::new(start as *mut u8)?, len));
            }
        }
        // One huge page more than needed, to cut an aligned run out of.
        let total = len.checked_add(HUGE_PAGE)?;
        // SAFETY: a new private anonymous mapping; nothing else is touched.
        let raw = unsafe {
            mmap(
                std::ptr::null_mut(),
                total,
                PROT_READ_WRITE,
                MAP_PRIVATE_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw as isize == -1 {
            return None;
        }
        let raw = raw as usize;
        let start = raw.next_multiple_of(HUGE_PAGE);
        let (head, tail) = (start - raw, raw + total - (start + len));
        // SAFETY: the unaligned ends of the mapping just made, never used.
        unsafe {
            if head > 0 {
                munmap(raw as *mut _, head);
            }
            if tail > 0 {
                munmap((start + len) as *mut _, tail);
            }
        }
        advise(start as *mut u8, len, MADV_HUGEPAGE);
        Some((NonNull::new(start as *mut u8)?, len))
    }

    /// Mappings of dropped tables, their pages given back already (they
    /// read as zero again), kept for the next table of the same size:
    /// address and length. Making and removing mappings changes the
    /// process's memory map, which stalls every thread's page faults
    /// meanwhile; with a hundred sessions making and dropping tables at
    /// once (`pawnrace loadtest --searchers 100`), `isready` took up to
    /// 84 and 119 ms in two runs of six, and timed answers came up to
    /// 90 ms late. Kept mappings hold no memory, only addresses.
    static SPARE: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());
    const SPARE_MAX: usize = 64;

    /// Gives back a mapping made by [`map_huge`], whose pages were given
    /// back already if `emptied`: then it is kept for reuse while there is
    /// room.
    pub fn unmap(ptr: *mut u8, len: usize, emptied: bool) {
        if emptied {
            let mut spare = SPARE.lock().unwrap_or_else(PoisonError::into_inner);
            if spare.len() < SPARE_MAX {
                spare.push((ptr as usize, len));
                return;
            }
        }
        // SAFETY: the whole of a mapping of ours, which its owner is
        // dropping.
        unsafe { munmap(ptr.cast(), len) };
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod other {
    use std::ptr::NonNull;

    pub const MADV_DONTNEED: i32 = 0;
    pub const MADV_POPULATE_WRITE: i32 = 0;

    pub fn advise(_: *mut u8, _: usize, _: i32) -> bool {
        false
    }

    pub fn map_huge(_: usize, _: usize) -> Option<(NonNull<u8>, usize)> {
        None
    }

    pub fn unmap(_: *mut u8, _: usize, _: bool) {}
}

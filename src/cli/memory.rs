//! The process's memory, for both executables (`loopconv` and `loopconv-mcp`): the
//! allocator (mimalloc, with an allocation failure made an error), and how freed memory
//! and transparent huge pages are handled for the input at hand.

/// mimalloc instead of the system allocator: reading a large loop makes many small
/// allocations, and glibc's malloc spent a third of the time of `check` on a
/// 10,000-phase loop consolidating and freeing them (measured with perf). With transparent
/// huge pages where the system allows them (`madvise` or `always`): one 2 MiB page fault
/// instead of 512 small ones took a quarter off the time of reading a large loop, whose
/// small page faults were 25 ms of system time. [`memory_for_input`] keeps the resident
/// memory that costs in check.
#[global_allocator]
static ALLOCATOR: OutOfMemoryIsAnError<mimalloc::MiMalloc> =
    OutOfMemoryIsAnError(mimalloc::MiMalloc);

/// The allocator, with an allocation failure made an error: a message and exit 2, as for
/// any input the command cannot handle, instead of the runtime's abort (exit 134 and a core
/// dump) when memory ran out under raised limits. Stable Rust has no allocation-error hook
/// (`std::alloc::set_alloc_error_hook` is unstable), so the hook is here: every failed
/// request ends the process. (A fallible reservation, `try_reserve`, therefore never sees
/// the failure in this binary; the library's, where sizes come from the input, serve its
/// other users.)
struct OutOfMemoryIsAnError<A>(A);

// SAFETY: every call is passed to the inner allocator unchanged; a null result ends the
// process instead of being returned.
unsafe impl<A: std::alloc::GlobalAlloc> std::alloc::GlobalAlloc for OutOfMemoryIsAnError<A> {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { self.0.realloc(ptr, layout, new) };
        if p.is_null() {
            out_of_memory(new);
        }
        p
    }
}

/// Say that memory ran out, and exit 2 at once: written with no allocation (there is no
/// memory to format a message with) straight to standard error, and ended with `_exit`
/// (exit handlers may allocate).
fn out_of_memory(size: usize) -> ! {
    let mut buf = [0u8; 20];
    let parts: [&[u8]; 3] = [
        b"error: out of memory: could not allocate ",
        loopconv::text::decimal_digits(size, &mut buf),
        b" bytes; the input needs more memory than this process may use (lower \
--max-input-bytes or --max-values, or give it more memory)\n",
    ];
    #[cfg(unix)]
    for part in parts {
        // SAFETY: writes a live buffer of its own length to standard error.
        let _ = unsafe { libc::write(2, part.as_ptr().cast(), part.len()) };
    }
    #[cfg(unix)]
    // SAFETY: `_exit` ends the process; nothing of Rust's is used after it.
    unsafe {
        libc::_exit(i32::from(super::EXIT_USAGE))
    }
    #[cfg(not(unix))]
    {
        let _ = parts;
        std::process::exit(i32::from(super::EXIT_USAGE))
    }
}

/// mimalloc's `mi_option_purge_delay`, by its position in `mi_option_t` (`mimalloc.h`):
/// libmimalloc-sys exports no constant for it, so it is pinned in Cargo.toml and a test
/// checks the option's default. How many milliseconds freed memory waits before it is
/// returned to the system, 1,000 by default.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Whether the user set the purge delay (mimalloc reads either name, in any case).
fn purge_delay_is_set() -> bool {
    std::env::vars_os().any(|(k, _)| {
        k.to_str().is_some_and(|k| {
            k.eq_ignore_ascii_case("MIMALLOC_PURGE_DELAY")
                || k.eq_ignore_ascii_case("MIMALLOC_RESET_DELAY")
        })
    })
}

/// Inputs from this size on, and below [`HUGE_PAGE_INPUT`], return freed memory at once.
/// Below it, the process's fixed cost (about 8 MB resident) dwarfs what a stage frees,
/// and returning it cost more than the read: a 2.6 KB file made 25 `madvise` calls, each
/// splitting a huge page that the next allocation faulted in again (`graph --mermaid` of
/// a small file 4.3 ms instead of 3.6; a 1,000-phase loop peaks at 33 MB instead of 28).
const MEDIUM_INPUT: usize = 1 << 20;

/// Inputs from this size on are read with transparent huge pages. A huge page is filled
/// only in part by what a stage allocates, and that slack (10-15 MB) is a large share of
/// a mid-sized input: `check` of a 3.4 MB loop peaked at 12x its size with huge pages and
/// 6.9x without, of a 5.6 MB loop at 9.2x (`graph --dot` 10.3x) and 6.0x, of the 1.6 MB
/// `short` loop at 25x and 15.6x. Without them, small page faults cost time (`graph --dot`
/// of the 5.6 MB loop 62 -> 81 ms, of an 8.4 MB loop 100 -> 112 ms, against 185 and
/// 201 ms for Python's `json.load`), so they pay from about this size on.
const HUGE_PAGE_INPUT: usize = 6 << 20;

/// Inputs from this size on keep mimalloc's own purge delay, so that freed memory is
/// reused: there the fixed cost of a process and the slack of huge pages are small beside
/// the input (a 100,000-phase loop peaks at 7x its size either way), while returning and
/// faulting in again every freed page made reading it a tenth slower.
const LARGE_INPUT: usize = 32 << 20;

/// How freed memory is handled, decided once by the first caller of [`memory_for_input`],
/// [`memory_for_folder`] or [`memory_for_server`]: still [`UNDECIDED`], or one of three.
static FREED_MEMORY: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(UNDECIDED);
const UNDECIDED: u8 = 0;
/// mimalloc's own delay: freed memory is reused.
const REUSED: u8 = 1;
/// A purge delay of 0: freed memory is returned to the system at once.
const RETURNED: u8 = 2;
/// mimalloc's own delay within a stage, and what a stage freed returned when it ends
/// ([`return_freed_memory`]: once the tree is freed, and before drawing). With huge pages,
/// memory returned at once was faulted in again by the same stage a moment later, and
/// each such fault cleared a whole 2 MiB page: a third of the time of drawing a
/// 10,000-phase loop was the kernel clearing pages. Returned by stage, `graph --dot` of
/// that loop took a third less system time and peaked at 7.6-7.9x its size instead of
/// 7.1x (every stage's memory reused: 11x).
const RETURNED_BY_STAGE: u8 = 3;

/// Transparent huge pages are off from before `main` until the input is known to be
/// large enough to pay for them ([`allow_huge_pages`]): the allocator reserves its first
/// arena with `MADV_HUGEPAGE` before `main` runs, and the first touch of each 2 MiB of it
/// then cleared a whole huge page. For a small file that was three of them: 13.2 MB
/// resident instead of 7.6, and up to 0.4 ms of the 2-3 ms of `graph --mermaid` of a
/// 2.6 KB file (how much depends on the host's load). Registered at constructor priority 100,
/// before the allocator's own constructor (priority 101), so that no page of the arena is
/// touched first. Linux only: elsewhere the allocator's default stands.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static HUGE_PAGES_OFF_BEFORE_MAIN: extern "C" fn() = huge_pages_off;

#[cfg(target_os = "linux")]
extern "C" fn huge_pages_off() {
    set_huge_pages_disabled(true);
}

/// `prctl(PR_SET_THP_DISABLE)`: the kernel's switch for the whole process, which leaves
/// the allocator's `MADV_HUGEPAGE` advice on its arenas in place, so that turning it back
/// on makes the pages faulted from then on huge again. A kernel that refuses (too old, or a
/// sandbox) leaves huge pages as the system sets them, which is only slower.
#[cfg(target_os = "linux")]
fn set_huge_pages_disabled(disabled: bool) {
    // SAFETY: a plain system call on the process's own flags; it touches no memory.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            libc::c_ulong::from(disabled),
            0,
            0,
            0,
        );
    }
}

/// Turn transparent huge pages back on (as the system allows them), for an input large
/// enough that one 2 MiB fault instead of 512 small ones pays (a quarter off reading a
/// 10,000-phase loop), for the folder commands and the language server, and before
/// starting another program, which would inherit the switch.
pub(crate) fn allow_huge_pages() {
    #[cfg(target_os = "linux")]
    set_huge_pages_disabled(false);
}

/// Decide how freed memory is handled, once (the first decision stands), and turn huge
/// pages back on unless the input is small.
fn decide_freed_memory(how: u8, huge_pages: bool) {
    use std::sync::atomic::Ordering::Relaxed;
    if FREED_MEMORY
        .compare_exchange(UNDECIDED, how, Relaxed, Relaxed)
        .is_err()
    {
        return;
    }
    if huge_pages {
        allow_huge_pages();
    }
    if how != RETURNED {
        return;
    }
    // SAFETY: a plain call into the allocator's API, made on the main thread before any
    // other thread starts; it touches no Rust memory.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) }
}

/// Choose how freed memory is handled for an input of `len` bytes, before reading it: an
/// input from [`MEDIUM_INPUT`] to [`HUGE_PAGE_INPUT`] returns freed memory to the system
/// at once instead of after mimalloc's delay, and one from there to [`LARGE_INPUT`] when
/// each stage ends ([`RETURNED_BY_STAGE`]). Memory freed by one stage of reading a
/// 10,000-phase loop was otherwise still resident when the next stage allocated (a peak
/// of 10.3x its size). A delay the user set (`MIMALLOC_PURGE_DELAY`) is left as it is.
/// Huge pages are turned back on from [`HUGE_PAGE_INPUT`] on. Only on the main thread,
/// which reads a command's one input before any other thread starts (the reader threads
/// of `check`, which read many inputs, keep the setting as it is).
pub(crate) fn memory_for_input(len: usize) {
    if std::thread::current().name() != Some("main") {
        return;
    }
    let (how, huge_pages) = memory_policy(len, purge_delay_is_set());
    decide_freed_memory(how, huge_pages);
}

/// How freed memory is handled for an input of `len` bytes, and whether huge pages are
/// turned back on for it ([`memory_for_input`]): a delay the user set keeps mimalloc's
/// reuse.
fn memory_policy(len: usize, delay_set: bool) -> (u8, bool) {
    let how = match len {
        _ if delay_set => REUSED,
        n if (MEDIUM_INPUT..HUGE_PAGE_INPUT).contains(&n) => RETURNED,
        n if (HUGE_PAGE_INPUT..LARGE_INPUT).contains(&n) => RETURNED_BY_STAGE,
        _ => REUSED,
    };
    (how, len >= HUGE_PAGE_INPUT)
}

/// Keep freed memory for reuse while a folder is read: its files are small and many, and
/// returning what each one freed at once was one `madvise` call per few files (40,000 for
/// the docs of a 10,000-file corpus: 1.4 of its 3.7 s of system time), while the memory
/// freed by one file is what the next one needs. Huge pages stay off: with them, `check`
/// of a 10,000-file corpus peaked at 56-60 MB instead of 43-44 MB, and of a 12,000-file
/// workspace at 82-87 MB instead of 65-70 MB, in the same time or more (three runs each).
/// Called before the reader threads start.
pub(crate) fn memory_for_folder() {
    decide_freed_memory(REUSED, false);
}

/// Keep freed memory for reuse in the language server, with mimalloc's own delay: the
/// server analyses the whole document again on every edit, and returning what the last
/// analysis freed at once made each edit fault in its working set anew (on a 10,000-phase
/// loop, most of an edit's time was the kernel clearing pages). Called before the server
/// starts its threads.
pub(crate) fn memory_for_server() {
    decide_freed_memory(REUSED, true);
}

/// Hand memory freed so far back to the system now, when freed memory is returned at
/// once (then most of it is already back: the call costs a walk of the heap, and the
/// `short` loop's `check` stayed at 0.27x `json.load`) or by stage: once a front end has
/// freed the located tree, and when `graph` has
/// freed the source before drawing, so that the tree, the IR and the drawing are never
/// resident together. Not otherwise: the drawing of a large input reuses its freed tree (a
/// 100,000-phase loop drew in 520 ms instead of 610, at 6.9x its size instead of 6.5x).
///
/// By stage, huge pages are also turned off from the first call on
/// ([`small_pages_after_the_tree`]).
pub(crate) fn return_freed_memory() {
    let how = FREED_MEMORY.load(std::sync::atomic::Ordering::Relaxed);
    if how != RETURNED && how != RETURNED_BY_STAGE {
        return;
    }
    // SAFETY: a plain call into the allocator's API; it touches no Rust memory.
    unsafe { libmimalloc_sys::mi_collect(true) }
    if how == RETURNED_BY_STAGE {
        small_pages_after_the_tree();
    }
}

/// Once the tree of an input read by stage is freed, what is faulted in from then on takes
/// small pages. Reading the text and building the tree fill whole 2 MiB pages one after
/// another, which is where huge pages pay; the stages after it (lowering, validation,
/// drawing) allocate a few megabytes scattered over the freed arena, and each huge page
/// they touched there was filled in part. `check` of the 10,000-phase loop grew by 20 MB
/// after the tree was freed for 3.7 MB of heap, so that stage set the process's peak, and
/// by one or two pages more or less depending on where a few hundred bytes landed: a single
/// warning (`F012`) took it from 46.5 to 50.8 MB. With small pages the peak is the tree's,
/// 45 MB with or without a warning, for 2,000 more page faults (about 3 ms of the
/// 44 ms of CPU time).
fn small_pages_after_the_tree() {
    #[cfg(target_os = "linux")]
    set_huge_pages_disabled(true);
}

#[cfg(test)]
mod tests {

    use super::{
        HUGE_PAGE_INPUT, LARGE_INPUT, MEDIUM_INPUT, MI_OPTION_PURGE_DELAY, RETURNED,
        RETURNED_BY_STAGE, REUSED, allow_huge_pages, memory_policy, purge_delay_is_set,
    };
    /// The option at [`MI_OPTION_PURGE_DELAY`] has the purge delay's default (mimalloc's
    /// 1,000 ms), so the index names it (its neighbours default to 1 and 0).
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        if purge_delay_is_set() {
            return;
        }
        // SAFETY: a plain call into the allocator's API.
        let delay = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(delay, 1000);
    }

    /// Each size band of [`memory_policy`], at its edges: small inputs reuse freed memory
    /// without huge pages, medium ones return it at once, those from 6 MiB return it by
    /// stage with huge pages, large ones reuse it with huge pages; a delay the user set
    /// always keeps reuse and leaves huge pages to the size.
    #[test]
    fn each_input_size_has_its_memory_policy() {
        let cases = [
            (0, REUSED, false),
            (MEDIUM_INPUT - 1, REUSED, false),
            (MEDIUM_INPUT, RETURNED, false),
            (HUGE_PAGE_INPUT - 1, RETURNED, false),
            (HUGE_PAGE_INPUT, RETURNED_BY_STAGE, true),
            (LARGE_INPUT - 1, RETURNED_BY_STAGE, true),
            (LARGE_INPUT, REUSED, true),
            (usize::MAX, REUSED, true),
        ];
        for (len, how, huge) in cases {
            assert_eq!(memory_policy(len, false), (how, huge), "{len} bytes");
            assert_eq!(
                memory_policy(len, true),
                (REUSED, huge),
                "{len} bytes, delay set"
            );
        }
    }

    /// The kernel's huge-page switch of this process, from `/proc/self/status` (`None` on
    /// a kernel that does not show it).
    #[cfg(target_os = "linux")]
    fn huge_pages_enabled() -> Option<bool> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status
            .lines()
            .find_map(|l| l.strip_prefix("THP_enabled:"))?;
        Some(line.trim() == "1")
    }

    /// The constructor turned huge pages off before `main` (this test binary links it as the
    /// program does, and no other test decides how memory is used), and
    /// [`allow_huge_pages`] turns them back on.
    #[cfg(target_os = "linux")]
    #[test]
    fn huge_pages_are_off_until_an_input_asks_for_them() {
        let Some(before) = huge_pages_enabled() else {
            return;
        };
        assert!(!before, "huge pages were on before any input was read");
        allow_huge_pages();
        assert_eq!(huge_pages_enabled(), Some(true));
    }
}

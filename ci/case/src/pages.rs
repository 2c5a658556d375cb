//! What a piece of code touches, counted by the memory hardware, and a
//! thread stopped at the n-th page it touches.
//!
//! A chapter's cost promise ("a lookup follows one path", "`last` does not
//! scan") is about how much of a structure an operation reads. This module
//! measures exactly that, without timing and without trusting the code
//! under test to count: memory the case builds inside [`paged`] comes from
//! an arena in which every allocation has pages of its own, and while a
//! [`touched`] or [`stop_at`] session runs the whole arena is protected, so
//! the first access to each page traps. The trap handler opens that page,
//! counts it if the trapping thread is the one watched, and returns; the
//! access then goes on as if nothing happened.
//!
//! **Invariant**: during a session, the count is the number of distinct
//! arena pages the watched thread read or wrote, and [`stop_at`]'s thread
//! stops exactly before its n-th such access, holding whatever it held
//! then, until [`go`]. Both are the same on every run of the same code:
//! they depend on what the code reads, not on how fast it runs. A session
//! that could not protect or open a page says so ([`Touched::whole`] is
//! false) instead of undercounting, and an arena that ran out of room says
//! so ([`overflowed`]): the case treats both as "not measured".
//!
//! A finer session, [`stop_at_access`] (Linux on x86_64 only), traps every
//! access to the arena, not only the first per page: after each trapped
//! access the page is opened for one instruction (the processor's trap
//! flag, set in the signal's saved registers) and the arena is protected
//! again as soon as that instruction has run. Its thread can so be stopped
//! between any two instructions that read or write arena memory, such as
//! a check and the write that acts on it, inside one page.
//!
//! **Invariant of the finer session**: the count is the number of trapped
//! accesses (an instruction that reaches two arena pages counts twice) the
//! watched thread made, and its thread stops exactly before its n-th, with
//! the n-1 before it done and nothing after it, until [`go`]; its
//! accesses after that are not counted. The count is the same on every
//! run of the same code provided no other thread touches the arena before
//! the stop. Other threads' accesses trap too, during the stop and after
//! it, until the session ends: each is let through the same way, and
//! counted for a thread that asked ([`counter`]). So a thread that waits
//! for a lock whose word is in the arena does not sleep in the kernel
//! (which cannot read a protected word, and sends the thread back at
//! once) but spins, and its count grows without end: a wait seen by
//! counting, not by time. System calls that read or write arena memory
//! fail during a session (write(2) of an arena buffer, for one).
//!
//! Sessions run one at a time (a lock). Unix only and not under Miri; on
//! other systems [`Paged`] is the system allocator and sessions measure
//! nothing (`whole` false).

use std::alloc::{GlobalAlloc, Layout, System};

/// The global allocator of an observing program that measures: the
/// system's, except inside [`paged`]. A case file declares it:
///
/// ```ignore
/// #[global_allocator]
/// static ALLOCATOR: xsafe_case::pages::Paged = xsafe_case::pages::Paged;
/// ```
///
/// Another allocator (one that stops a thread at an allocation) may wrap
/// it, calling its methods instead of `System`'s.
pub struct Paged;

/// What a [`touched`] session counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Touched {
    /// Distinct arena pages the watched thread accessed.
    pub pages: usize,
    /// Whether the count is complete: the system could protect and open
    /// every page (false where pages cannot be measured at all).
    pub whole: bool,
}

/// What a [`stop_at_access`] session counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Accesses {
    /// Trapped accesses of the watched thread to the arena, up to and
    /// including the one it stopped before (so `count` equals the `nth`
    /// asked for when it stopped, and is smaller when it never did).
    pub count: usize,
    /// Whether every access could be trapped (false where this cannot be
    /// done at all: then the thread never stopped, and nothing is known).
    pub whole: bool,
}

/// One read of a value made inside [`paged`], in a [`stop_at_access`]
/// session that never stops: `whole` with a count of 1 where every access
/// to the arena traps and the program's global allocator is [`Paged`]
/// (or wraps it); not `whole` where accesses cannot be trapped here at
/// all. A case asks this before it relies on the finer session.
pub fn trial_access() -> Accesses {
    let probe = paged(|| Box::new(0_u64));
    let (_, trial) = stop_at_access(usize::MAX, || {
        // SAFETY: a live box's value, read once.
        unsafe { std::ptr::read_volatile(&*probe) }
    });
    trial
}

/// Trapped accesses after which a counting thread ([`counter`]) that has
/// not finished is taken to spin, waiting for a lock: while the watched
/// thread is stopped it is parked until [`go`], and otherwise it sleeps a
/// little before each further access. Work that returns on its own makes
/// a few dozen.
pub const SPINNING: usize = 100;

/// A thread's count of its own trapped accesses ([`counter`]); dropping
/// it ends the count.
#[derive(Debug)]
pub struct Counter(#[allow(dead_code)] usize);

/// Reads a [`Counter`] from another thread, while the counter lives.
#[derive(Debug, Clone, Copy)]
pub struct CountReader(#[allow(dead_code)] usize);

#[cfg(all(unix, not(miri)))]
pub use unix::{counter, go, overflowed, paged, stop_at, stop_at_access, stopped, touched};

#[cfg(all(unix, not(miri)))]
unsafe impl GlobalAlloc for Paged {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if unix::paging()
            && let Some(pointer) = unix::arena_alloc(layout)
        {
            return pointer;
        }
        // SAFETY: the caller's contract is `GlobalAlloc::alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // Arena pages are handed out once and come zeroed from the system.
        if unix::paging()
            && let Some(pointer) = unix::arena_alloc(layout)
        {
            return pointer;
        }
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // Arena pages are never reused: a page counted once is one node.
        if !unix::in_arena(pointer as usize) {
            // SAFETY: not from the arena, so from `System` with `layout`.
            unsafe { System.dealloc(pointer, layout) }
        }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !unix::in_arena(pointer as usize) && !unix::paging() {
            // SAFETY: from `System`, and staying there.
            return unsafe { System.realloc(pointer, layout, new_size) };
        }
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `new_layout` has a non-zero size, as `realloc` promises.
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are live and at least this long, and
            // distinct (the arena never hands a block out twice).
            unsafe {
                std::ptr::copy_nonoverlapping(pointer, new, layout.size().min(new_size));
                self.dealloc(pointer, layout);
            }
        }
        new
    }
}

#[cfg(not(all(unix, not(miri))))]
unsafe impl GlobalAlloc for Paged {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `GlobalAlloc::alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: as `alloc`.
        unsafe { System.dealloc(pointer, layout) }
    }
}

/// Runs `work`; where pages cannot be measured, allocations stay ordinary.
#[cfg(not(all(unix, not(miri))))]
pub fn paged<R>(work: impl FnOnce() -> R) -> R {
    work()
}

/// Where pages cannot be measured: runs `work` and measures nothing.
#[cfg(not(all(unix, not(miri))))]
pub fn touched<R>(work: impl FnOnce() -> R) -> (R, Touched) {
    (work(), Touched::default())
}

/// Where pages cannot be measured: runs `work` without stopping.
#[cfg(not(all(unix, not(miri))))]
pub fn stop_at<R>(_nth: usize, work: impl FnOnce() -> R) -> (R, Touched) {
    (work(), Touched::default())
}

/// Where accesses cannot be trapped: runs `work` without stopping.
#[cfg(not(all(unix, not(miri))))]
pub fn stop_at_access<R>(_nth: usize, work: impl FnOnce() -> R) -> (R, Accesses) {
    (work(), Accesses::default())
}

/// Where accesses cannot be trapped, no thread counts them.
#[cfg(not(all(unix, not(miri))))]
pub fn counter() -> Option<Counter> {
    None
}

#[cfg(not(all(unix, not(miri))))]
impl Counter {
    /// A reader of this count for another thread.
    pub fn reader(&self) -> CountReader {
        CountReader(self.0)
    }
}

#[cfg(not(all(unix, not(miri))))]
impl CountReader {
    /// Nothing is counted here.
    pub fn accesses(self) -> usize {
        0
    }

    /// Nothing is trapped here.
    pub fn last_address(self) -> Option<usize> {
        None
    }
}

/// Where pages cannot be measured, no thread is ever stopped.
#[cfg(not(all(unix, not(miri))))]
pub fn stopped() -> bool {
    false
}

/// Where pages cannot be measured, there is nothing to let go.
#[cfg(not(all(unix, not(miri))))]
pub fn go() {}

/// Where pages cannot be measured, the arena never fills.
#[cfg(not(all(unix, not(miri))))]
pub fn overflowed() -> bool {
    false
}

#[cfg(all(unix, not(miri)))]
mod unix {
    use super::{Accesses, CountReader, Counter, Touched};
    use std::alloc::Layout;
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
    use std::sync::{Mutex, PoisonError};

    /// Pages reserved for the arena (nothing is committed until touched):
    /// 16,384 allocations of one page, 64 MiB of address space with 4 KiB
    /// pages. Small enough for a grade under a 256 MiB memory limit; the
    /// cases need at most about 9,300 (the ordered tree's two sets).
    const ARENA_PAGES: usize = 1 << 14;

    /// The arena's size in bytes.
    fn arena_bytes() -> usize {
        ARENA_PAGES * page_size()
    }

    static BASE: AtomicUsize = AtomicUsize::new(0);
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    static PAGE: AtomicUsize = AtomicUsize::new(0);
    static OVERFLOWED: AtomicBool = AtomicBool::new(false);

    /// Whether a session has the arena protected.
    static PROTECTED: AtomicBool = AtomicBool::new(false);
    /// The watched thread (`pthread_self`), its count, and where it stops.
    static WATCHED: AtomicUsize = AtomicUsize::new(0);
    static TOUCHES: AtomicUsize = AtomicUsize::new(0);
    static STOP_AT: AtomicUsize = AtomicUsize::new(0);
    /// Where the watched thread stands: [`RUNNING`], [`STOPPED`] or
    /// [`LET_GO`]. One word, not two flags: a reader of two flags could
    /// take the previous session's "stopped" with the new session's "not
    /// let go yet" for a stop (seen: a case took a running call for one
    /// that had ended, then read the bank while the call was stopped
    /// holding its locks).
    static STATE: AtomicU8 = AtomicU8::new(RUNNING);
    /// The watched thread has not stopped (or no session runs).
    const RUNNING: u8 = 0;
    /// The watched thread waits for [`go`].
    const STOPPED: u8 = 1;
    /// [`go`] was called: the watched thread does not stop, or no longer.
    const LET_GO: u8 = 2;
    /// A page could not be opened or the arena not protected.
    static BROKEN: AtomicBool = AtomicBool::new(false);
    /// A session runs (its faults in the arena are this module's).
    static ACTIVE: AtomicBool = AtomicBool::new(false);
    /// Threads let through for one instruction whose trap has not come
    /// yet: a session ends only when none is left, so no trap re-protects
    /// the arena after it is opened for good.
    static STEPPING: AtomicUsize = AtomicUsize::new(0);
    /// The session traps every access ([`stop_at_access`]), not only the
    /// first per page.
    static FINE: AtomicBool = AtomicBool::new(false);
    /// One session at a time.
    static SESSION: Mutex<()> = Mutex::new(());

    thread_local! {
        static PAGING: Cell<bool> = const { Cell::new(false) };
    }

    /// The handlers that were there before this module's, for real faults
    /// (and traps that are not its steps).
    struct Previous {
        segv: libc::sigaction,
        bus: libc::sigaction,
        trap: libc::sigaction,
    }

    pub(super) fn paging() -> bool {
        PAGING.try_with(Cell::get).unwrap_or(false)
    }

    fn page_size() -> usize {
        let known = PAGE.load(Ordering::Relaxed);
        if known != 0 {
            return known;
        }
        // SAFETY: sysconf reads a constant of the system.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let size = usize::try_from(size)
            .ok()
            .filter(|size| size.is_power_of_two())
            .unwrap_or(4096);
        PAGE.store(size, Ordering::Relaxed);
        size
    }

    pub(super) fn in_arena(address: usize) -> bool {
        let base = BASE.load(Ordering::Acquire);
        base != 0 && address >= base && address - base < arena_bytes()
    }

    /// The arena's base address, reserved on first use.
    fn arena() -> Option<usize> {
        let base = BASE.load(Ordering::Acquire);
        if base != 0 {
            return Some(base);
        }
        // SAFETY: a fresh anonymous mapping, shared with no one.
        let mapped = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                arena_bytes(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANON | no_reserve(),
                -1,
                0,
            )
        };
        if mapped == libc::MAP_FAILED {
            return None;
        }
        match BASE.compare_exchange(0, mapped as usize, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => Some(mapped as usize),
            Err(other) => {
                // SAFETY: the mapping just made, which no one else saw.
                unsafe { libc::munmap(mapped, arena_bytes()) };
                Some(other)
            }
        }
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn no_reserve() -> libc::c_int {
        libc::MAP_NORESERVE
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn no_reserve() -> libc::c_int {
        0
    }

    /// A block of whole pages of its own, or `None` (the system allocator
    /// serves it then) when the arena is full.
    pub(super) fn arena_alloc(layout: Layout) -> Option<*mut u8> {
        let base = arena()?;
        let page = page_size();
        let align = layout.align().max(page);
        let size = layout.size().max(1).div_ceil(page).checked_mul(page)?;
        let mut next = NEXT.load(Ordering::Relaxed);
        loop {
            let start = (base + next).next_multiple_of(align) - base;
            let end = start.checked_add(size).filter(|&end| end <= arena_bytes());
            let Some(end) = end else {
                OVERFLOWED.store(true, Ordering::SeqCst);
                return None;
            };
            match NEXT.compare_exchange_weak(next, end, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => return Some((base + start) as *mut u8),
                Err(current) => next = current,
            }
        }
    }

    /// Runs `work` with every allocation of this thread in pages of its
    /// own (the vectors and nodes `work` builds), and frees none of them.
    pub fn paged<R>(work: impl FnOnce() -> R) -> R {
        struct Reset(bool);
        impl Drop for Reset {
            fn drop(&mut self) {
                let _ = PAGING.try_with(|paging| paging.set(self.0));
            }
        }
        let _reset = Reset(PAGING.with(|paging| paging.replace(true)));
        work()
    }

    /// Whether some allocation inside [`paged`] did not fit in the arena
    /// (it came from the system allocator, where no session sees it).
    pub fn overflowed() -> bool {
        OVERFLOWED.load(Ordering::SeqCst)
    }

    fn protect(protection: libc::c_int) -> bool {
        let Some(base) = arena() else {
            return false;
        };
        // SAFETY: the arena is this module's mapping; no Rust reference
        // is invalidated by changing its protection, since every access
        // that traps is let through by `on_fault`.
        unsafe { libc::mprotect(base as *mut libc::c_void, arena_bytes(), protection) == 0 }
    }

    /// Opens the whole arena (every thread may go on) after a failure to
    /// protect or open a page; the session's count is then not whole.
    fn give_up() {
        BROKEN.store(true, Ordering::SeqCst);
        PROTECTED.store(false, Ordering::SeqCst);
        protect(libc::PROT_READ | libc::PROT_WRITE);
    }

    /// Opens the arena page that holds `address`, so that the access that
    /// trapped there goes on; false when the system refused.
    fn open_page(address: usize) -> bool {
        let page = page_size();
        let start = address & !(page - 1);
        // SAFETY: a page of the arena; opening it only lets the trapped
        // access go on.
        let opened = unsafe {
            libc::mprotect(
                start as *mut libc::c_void,
                page,
                libc::PROT_READ | libc::PROT_WRITE,
            )
        };
        opened == 0
    }

    /// Waits, inside the fault handler, until [`go`].
    fn wait_for_go() {
        // A `go` that came first lets it through at once.
        let _ = STATE.compare_exchange(RUNNING, STOPPED, Ordering::SeqCst, Ordering::SeqCst);
        while STATE.load(Ordering::SeqCst) == STOPPED {
            let pause = libc::timespec {
                tv_sec: 0,
                tv_nsec: 200_000,
            };
            // SAFETY: nanosleep is async-signal-safe.
            unsafe { libc::nanosleep(&pause, std::ptr::null_mut()) };
        }
    }

    extern "C" fn on_fault(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
        let address = unsafe { fault_address(info) };
        if ACTIVE.load(Ordering::SeqCst) && FINE.load(Ordering::SeqCst) && in_arena(address) {
            fine::on_access(address, context);
            return;
        }
        if PROTECTED.load(Ordering::SeqCst) && in_arena(address) {
            let opened = open_page(address);
            if !opened {
                // Too many separate protections: open everything, and say
                // the count is not whole.
                give_up();
                return;
            }
            // SAFETY: pthread_self has no preconditions and is
            // async-signal-safe in practice (it reads the thread pointer).
            let this = unsafe { libc::pthread_self() } as usize;
            if this == WATCHED.load(Ordering::SeqCst) {
                let count = TOUCHES.fetch_add(1, Ordering::SeqCst) + 1;
                if count == STOP_AT.load(Ordering::SeqCst) {
                    wait_for_go();
                }
            }
            return;
        }
        if in_arena(address) && !PROTECTED.load(Ordering::SeqCst) {
            // A fault of a session that has ended (or failed), on its way
            // when the session opened the arena: it goes on now.
            protect(libc::PROT_READ | libc::PROT_WRITE);
            return;
        }
        // Not the arena's: a real fault. Put back the handler that was
        // there; the access traps again and meets it.
        if let Ok(previous) = PREVIOUS.try_lock()
            && let Some(previous) = previous.as_ref()
        {
            let old = if signal == libc::SIGBUS {
                &previous.bus
            } else {
                &previous.segv
            };
            // SAFETY: a handler the process had installed.
            unsafe { libc::sigaction(signal, old, std::ptr::null_mut()) };
            return;
        }
        // SAFETY: the default action, so the process ends on the fault.
        unsafe { libc::signal(signal, libc::SIG_DFL) };
    }

    static PREVIOUS: Mutex<Option<Previous>> = Mutex::new(None);

    #[cfg(any(target_os = "linux", target_os = "android"))]
    unsafe fn fault_address(info: *mut libc::siginfo_t) -> usize {
        // SAFETY: the caller passes the kernel's siginfo.
        unsafe { (*info).si_addr() as usize }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    unsafe fn fault_address(info: *mut libc::siginfo_t) -> usize {
        // SAFETY: the caller passes the kernel's siginfo.
        unsafe { (*info).si_addr as usize }
    }

    /// Installs this module's handlers where they are not installed yet,
    /// keeping the ones before them for real faults. They stay installed
    /// after a session: a fault or a step of another thread may still be
    /// on its way when a session ends, and must meet them (the arena is
    /// open then, so they only let it go on).
    fn install() -> bool {
        let on_fault = on_fault
            as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
            as libc::sighandler_t;
        let mut kept = PREVIOUS.lock().unwrap_or_else(PoisonError::into_inner);
        // SAFETY: zeroed sigaction structs are valid "no handler" values,
        // filled in before use.
        let mut previous = kept.take().unwrap_or(Previous {
            segv: unsafe { std::mem::zeroed() },
            bus: unsafe { std::mem::zeroed() },
            trap: unsafe { std::mem::zeroed() },
        });
        let mut installed = true;
        for (signal, slot) in [
            (libc::SIGSEGV, &mut previous.segv),
            (libc::SIGBUS, &mut previous.bus),
        ] {
            installed &= set_handler(signal, on_fault, slot);
        }
        if FINE.load(Ordering::SeqCst) {
            installed &= fine::install(&mut previous.trap);
        }
        *kept = Some(previous);
        installed
    }

    /// Makes `handler` the handler of `signal` unless it is already, and
    /// keeps the one it replaces in `previous`.
    fn set_handler(
        signal: libc::c_int,
        handler: libc::sighandler_t,
        previous: &mut libc::sigaction,
    ) -> bool {
        // SAFETY: a zeroed sigaction is a valid value, filled in below.
        let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: reads the current action only.
        if unsafe { libc::sigaction(signal, std::ptr::null(), &mut current) } != 0 {
            return false;
        }
        if current.sa_sigaction == handler {
            return true;
        }
        // SAFETY: as above.
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = handler;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        // SAFETY: installing a handler that is async-signal-safe.
        unsafe {
            libc::sigemptyset(&mut action.sa_mask) == 0
                && libc::sigaction(signal, &action, previous) == 0
        }
    }

    /// Runs `work` on this thread with the arena protected, counting the
    /// pages this thread touches; stops it before its `stop`-th touch
    /// until [`go`] (never, when `stop` is 0).
    fn session<R>(stop: usize, fine: bool, work: impl FnOnce() -> R) -> (R, Touched) {
        let _one = SESSION.lock().unwrap_or_else(PoisonError::into_inner);
        FINE.store(fine, Ordering::SeqCst);
        TOUCHES.store(0, Ordering::SeqCst);
        STOP_AT.store(stop, Ordering::SeqCst);
        STATE.store(RUNNING, Ordering::SeqCst);
        BROKEN.store(false, Ordering::SeqCst);
        // SAFETY: pthread_self has no preconditions.
        WATCHED.store(unsafe { libc::pthread_self() } as usize, Ordering::SeqCst);
        let ready = install() && {
            ACTIVE.store(true, Ordering::SeqCst);
            PROTECTED.store(true, Ordering::SeqCst);
            protect(libc::PROT_NONE)
        };
        struct End;
        impl Drop for End {
            fn drop(&mut self) {
                PROTECTED.store(false, Ordering::SeqCst);
                while STEPPING.load(Ordering::SeqCst) > 0 {
                    std::thread::yield_now();
                }
                protect(libc::PROT_READ | libc::PROT_WRITE);
                ACTIVE.store(false, Ordering::SeqCst);
                FINE.store(false, Ordering::SeqCst);
                WATCHED.store(0, Ordering::SeqCst);
                STOP_AT.store(0, Ordering::SeqCst);
            }
        }
        let end = End;
        let result = work();
        let touched = Touched {
            pages: TOUCHES.load(Ordering::SeqCst),
            whole: ready && !BROKEN.load(Ordering::SeqCst),
        };
        drop(end);
        (result, touched)
    }

    /// Runs `work` on this thread and counts the distinct arena pages it
    /// touches (the nodes made inside [`paged`] that it reads or writes).
    pub fn touched<R>(work: impl FnOnce() -> R) -> (R, Touched) {
        session(0, false, work)
    }

    /// Runs `work` on this thread, stopping it just before its `nth`
    /// access to an arena page it has not touched yet in this run, until
    /// another thread calls [`go`]. Returns what `work` returned and how
    /// many pages it touched in all; fewer than `nth` means it never
    /// stopped.
    pub fn stop_at<R>(nth: usize, work: impl FnOnce() -> R) -> (R, Touched) {
        session(nth.max(1), false, work)
    }

    /// Runs `work` on this thread, stopping it just before its `nth`
    /// access to arena memory (every load or store, not only the first
    /// per page) until another thread calls [`go`]; its accesses after
    /// the stop are not counted. Returns what `work`
    /// returned and how many accesses were counted: fewer than `nth` means
    /// it never stopped. Linux on x86_64 only; elsewhere `work` runs
    /// without stopping and the answer is not `whole`.
    pub fn stop_at_access<R>(nth: usize, work: impl FnOnce() -> R) -> (R, Accesses) {
        if !fine::SUPPORTED {
            return (work(), Accesses::default());
        }
        let (result, touched) = session(nth.max(1), true, work);
        (
            result,
            Accesses {
                count: touched.pages,
                whole: touched.whole,
            },
        )
    }

    /// The finer session's traps: every access to the arena, each let
    /// through for one instruction.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    mod fine {
        use super::{
            PREVIOUS, PROTECTED, STEPPING, STOP_AT, TOUCHES, WATCHED, give_up, page_size, protect,
            wait_for_go,
        };
        use std::cell::Cell;
        use std::sync::atomic::{AtomicBool, Ordering};

        pub(super) const SUPPORTED: bool = true;

        thread_local! {
            /// The arena pages this thread opened for its current step
            /// (0: none). A constant-initialised cell without destructor:
            /// reading it in a signal handler touches only the thread's
            /// static block.
            static OPENED: Cell<[usize; 2]> = const { Cell::new([0; 2]) };
        }

        /// Some thread opened more pages for one step than `OPENED` holds:
        /// its trap closes the whole arena.
        static FORGOT: AtomicBool = AtomicBool::new(false);

        /// The trap flag of x86's flags register: one instruction, then a
        /// debug trap (SIGTRAP).
        const TRAP_FLAG: libc::greg_t = 0x100;

        /// The flags register in a signal's saved context.
        ///
        /// # Safety
        ///
        /// `context` is the `ucontext_t` the kernel passed to an
        /// SA_SIGINFO handler, and nothing else refers to it.
        unsafe fn flags<'a>(context: *mut libc::c_void) -> &'a mut libc::greg_t {
            let context = context.cast::<libc::ucontext_t>();
            // SAFETY: as the caller promises; REG_EFL is an index of gregs.
            unsafe { &mut (*context).uc_mcontext.gregs[libc::REG_EFL as usize] }
        }

        /// A trapped access at `address`: counted if the watched thread
        /// made it (and stopped before, if it is the one to stop at), then
        /// let through for one instruction.
        pub(super) fn on_access(address: usize, context: *mut libc::c_void) {
            // SAFETY: the context of this SA_SIGINFO handler.
            let flags = unsafe { flags(context) };
            // An instruction that trapped again before it ran has its step
            // pending already; otherwise this fault may start one. Counted
            // before `PROTECTED` is read, so that a session that ends
            // (`PROTECTED` false, then no step pending) never leaves a
            // step behind it.
            let pending = *flags & TRAP_FLAG != 0;
            if !pending {
                STEPPING.fetch_add(1, Ordering::SeqCst);
            }
            let no_step = || {
                if !pending {
                    STEPPING.fetch_sub(1, Ordering::SeqCst);
                }
            };
            if !PROTECTED.load(Ordering::SeqCst) {
                // The session ends (or failed): the arena is open, an
                // access that trapped on its way there just goes on.
                protect(libc::PROT_READ | libc::PROT_WRITE);
                no_step();
                return;
            }
            // SAFETY: pthread_self has no preconditions.
            let this = unsafe { libc::pthread_self() } as usize;
            let stop = STOP_AT.load(Ordering::SeqCst);
            if this == WATCHED.load(Ordering::SeqCst) && TOUCHES.load(Ordering::SeqCst) < stop {
                let count = TOUCHES.fetch_add(1, Ordering::SeqCst) + 1;
                if count == stop {
                    // Before the access, nothing opened: other threads
                    // run meanwhile, their accesses trapped too.
                    wait_for_go();
                }
            }
            super::count_for(this, address);
            let start = address & !(page_size() - 1);
            let opened = super::open_page(address);
            if !opened {
                give_up();
                no_step();
                return;
            }
            // The pages to close after the step: this one, and one more
            // when the instruction reaches two (it trapped again, its step
            // pending). Beyond two, the whole arena is closed.
            let kept = OPENED.try_with(|opened| {
                let mut pages = opened.get();
                if !pending {
                    pages = [start, 0];
                } else if pages[0] != start && pages[1] != start {
                    if pages[1] != 0 {
                        return false;
                    }
                    pages[1] = start;
                }
                opened.set(pages);
                true
            });
            if kept != Ok(true) {
                // Closing whole: forget the pages, the trap closes all.
                let _ = OPENED.try_with(|opened| opened.set([0; 2]));
                FORGOT.store(true, Ordering::SeqCst);
            }
            *flags |= TRAP_FLAG;
        }

        /// After one instruction with the trap flag: protect the arena
        /// again. A SIGTRAP that is not this module's goes to the handler
        /// that was there before.
        extern "C" fn on_trap(
            signal: libc::c_int,
            _info: *mut libc::siginfo_t,
            context: *mut libc::c_void,
        ) {
            // SAFETY: the context of this SA_SIGINFO handler.
            let flags = unsafe { flags(context) };
            if *flags & TRAP_FLAG != 0 && STEPPING.load(Ordering::SeqCst) > 0 {
                *flags &= !TRAP_FLAG;
                let pages = OPENED.try_with(|opened| opened.replace([0; 2])).ok();
                if PROTECTED.load(Ordering::SeqCst) {
                    let closed = match pages {
                        Some(_) if FORGOT.swap(false, Ordering::SeqCst) => protect(libc::PROT_NONE),
                        Some(pages) => pages.iter().filter(|&&page| page != 0).all(|&page| {
                            // SAFETY: a page of the arena this thread
                            // opened for the instruction that just ran.
                            (unsafe {
                                libc::mprotect(
                                    page as *mut libc::c_void,
                                    page_size(),
                                    libc::PROT_NONE,
                                )
                            }) == 0
                        }),
                        None => protect(libc::PROT_NONE),
                    };
                    if !closed {
                        give_up();
                    }
                }
                STEPPING.fetch_sub(1, Ordering::SeqCst);
                return;
            }
            if let Ok(previous) = PREVIOUS.try_lock()
                && let Some(previous) = previous.as_ref()
            {
                // SAFETY: a handler the process had installed; raised
                // again, the signal meets it.
                unsafe {
                    libc::sigaction(signal, &previous.trap, std::ptr::null_mut());
                    libc::raise(signal);
                }
                return;
            }
            // SAFETY: the default action, then the signal again.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
        }

        /// Installs the SIGTRAP handler; `previous` keeps the one before.
        pub(super) fn install(previous: &mut libc::sigaction) -> bool {
            let on_trap = on_trap
                as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
                as libc::sighandler_t;
            super::set_handler(libc::SIGTRAP, on_trap, previous)
        }
    }

    /// Elsewhere, no trap flag: the finer session is not available.
    #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
    mod fine {
        pub(super) const SUPPORTED: bool = false;

        pub(super) fn on_access(_address: usize, _context: *mut libc::c_void) {
            super::give_up();
        }

        pub(super) fn install(_previous: &mut libc::sigaction) -> bool {
            false
        }
    }

    /// Threads that count their own trapped accesses ([`Counter`]), and
    /// their counts.
    const COUNTERS: usize = 32;
    static COUNTED: [AtomicUsize; COUNTERS] = [const { AtomicUsize::new(0) }; COUNTERS];
    static COUNTS: [AtomicUsize; COUNTERS] = [const { AtomicUsize::new(0) }; COUNTERS];
    /// The address of each counting thread's last trapped access (0:
    /// none yet).
    static LAST: [AtomicUsize; COUNTERS] = [const { AtomicUsize::new(0) }; COUNTERS];

    /// In the fault handler: one more access for `thread`, if it counts;
    /// past [`SPINNING`] while the watched thread is stopped, the thread
    /// is parked here, before its access, until [`go`].
    fn count_for(thread: usize, address: usize) {
        for (at, counted) in COUNTED.iter().enumerate() {
            if counted.load(Ordering::SeqCst) == thread {
                LAST[at].store(address, Ordering::SeqCst);
                let count = COUNTS[at].fetch_add(1, Ordering::SeqCst) + 1;
                let pause = |nanos| {
                    let pause = libc::timespec {
                        tv_sec: 0,
                        tv_nsec: nanos,
                    };
                    // SAFETY: nanosleep is async-signal-safe.
                    unsafe { libc::nanosleep(&pause, std::ptr::null_mut()) };
                };
                if count > super::SPINNING && STATE.load(Ordering::SeqCst) == STOPPED {
                    // A thread spinning for a lock would keep opening the
                    // lock's page for one instruction after another, and
                    // another thread's futex could read the word in such
                    // a moment and sleep for real, unseen. Parked, it
                    // opens nothing.
                    while STATE.load(Ordering::SeqCst) == STOPPED {
                        pause(200_000);
                    }
                } else if count > super::SPINNING {
                    // Spinning while nothing is stopped (after `go`, or
                    // while a thread is held by other means): it backs
                    // off between accesses, so that it does not take the
                    // processor from the thread it waits for (which runs
                    // through the traps too), nor burn the case's
                    // processor time, the more so on a busy machine.
                    pause(50_000);
                }
            }
        }
    }

    /// The calling thread's trapped accesses to the arena during finer
    /// sessions, from now on, readable from any thread: a thread started
    /// while another is stopped counts its own, and a count past
    /// [`SPINNING`](super::SPINNING) shows it spins (it is then parked
    /// until [`go`]). A thread that waits for a `std` lock in the arena
    /// spins indeed, through the traps: the kernel's futex cannot read a
    /// protected word and sends it back at once. `None` when 32 threads
    /// count already.
    pub fn counter() -> Option<Counter> {
        // SAFETY: pthread_self has no preconditions.
        let this = unsafe { libc::pthread_self() } as usize;
        COUNTED.iter().enumerate().find_map(|(at, counted)| {
            counted
                .compare_exchange(0, this, Ordering::SeqCst, Ordering::SeqCst)
                .ok()
                .map(|_| {
                    COUNTS[at].store(0, Ordering::SeqCst);
                    LAST[at].store(0, Ordering::SeqCst);
                    Counter(at)
                })
        })
    }

    impl Counter {
        /// A reader of this count for another thread.
        pub fn reader(&self) -> CountReader {
            CountReader(self.0)
        }
    }

    impl CountReader {
        /// The accesses counted so far (meaningless once the counter is
        /// dropped).
        pub fn accesses(self) -> usize {
            COUNTS[self.0].load(Ordering::SeqCst)
        }

        /// The arena address of the thread's last trapped access, if it
        /// made one: where a thread that spins waits (a lock's word).
        /// Meaningless once the counter is dropped.
        pub fn last_address(self) -> Option<usize> {
            Some(LAST[self.0].load(Ordering::SeqCst)).filter(|&address| address != 0)
        }
    }

    impl Drop for Counter {
        fn drop(&mut self) {
            COUNTED[self.0].store(0, Ordering::SeqCst);
        }
    }

    /// Whether the thread of [`stop_at`] or [`stop_at_access`] is stopped
    /// now.
    pub fn stopped() -> bool {
        STATE.load(Ordering::SeqCst) == STOPPED
    }

    /// Lets the thread of [`stop_at`] or [`stop_at_access`] go on.
    pub fn go() {
        STATE.store(LET_GO, Ordering::SeqCst);
    }
}

#[cfg(all(test, unix, not(miri)))]
mod tests {
    use super::*;

    /// The tests run on threads of one process and a session's state
    /// (who is stopped) is the process's: one test at a time.
    static ONE_TEST: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn one_test() -> std::sync::MutexGuard<'static, ()> {
        ONE_TEST
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Pages are counted only inside the arena, once each, and only for
    /// the watched thread: a walk of every node of a list touches every
    /// node's page, a look at the head one page.
    #[test]
    fn counts_each_page_once() {
        let _one = one_test();
        // The test harness has the system allocator; `Paged`'s arena is
        // used directly through its GlobalAlloc methods.
        let layout = Layout::new::<[u64; 4]>();
        let blocks: Vec<*mut u64> = paged(|| {
            (0..64)
                .map(|at| {
                    // SAFETY: a non-zero layout.
                    let block = unsafe { Paged.alloc(layout) } as *mut u64;
                    assert!(!block.is_null());
                    // SAFETY: a fresh block of four u64.
                    unsafe { block.write(at) };
                    block
                })
                .collect()
        });
        // SAFETY: each block holds a u64 written above.
        let (sum, all) = touched(|| {
            blocks
                .iter()
                .map(|&block| unsafe { block.read() })
                .sum::<u64>()
        });
        assert_eq!(sum, (0..64).sum::<u64>());
        assert_eq!(
            all,
            Touched {
                pages: 64,
                whole: true
            }
        );
        // SAFETY: as above.
        let (first, one) = touched(|| unsafe { blocks[0].read() + blocks[0].read() });
        assert_eq!(first, 0);
        assert_eq!(
            one,
            Touched {
                pages: 1,
                whole: true
            }
        );
        assert!(!overflowed());
    }

    /// A thread stopped at its second page holds what it held: another
    /// thread sees its first write and not its second until `go`.
    #[test]
    fn stops_before_the_nth_page() {
        let _one = one_test();
        let layout = Layout::new::<u64>();
        let [a, b] = paged(|| {
            // SAFETY: non-zero layouts.
            [
                unsafe { Paged.alloc_zeroed(layout) } as usize,
                unsafe { Paged.alloc_zeroed(layout) } as usize,
            ]
        });
        let writer = std::thread::spawn(move || {
            stop_at(2, || {
                // SAFETY: two live u64 blocks.
                unsafe {
                    (a as *mut u64).write_volatile(1);
                    (b as *mut u64).write_volatile(2);
                }
            })
            .1
        });
        while !stopped() && !writer.is_finished() {
            std::thread::yield_now();
        }
        assert!(stopped(), "the writer stops before its second page");
        // SAFETY: live blocks; the stopped thread writes nothing now.
        let seen = unsafe {
            (
                (a as *const u64).read_volatile(),
                (b as *const u64).read_volatile(),
            )
        };
        assert_eq!(seen, (1, 0));
        go();
        let touched = writer.join().expect("the writer ends");
        assert_eq!(
            touched,
            Touched {
                pages: 2,
                whole: true
            }
        );
        // SAFETY: as above.
        assert_eq!(unsafe { (b as *const u64).read_volatile() }, 2);
    }

    /// The finer session counts every access, inside one page too: three
    /// volatile writes and a read of one block are four accesses, the
    /// same on every run.
    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn counts_every_access() {
        let _one = one_test();
        let layout = Layout::new::<[u64; 3]>();
        // SAFETY: a non-zero layout.
        let block = paged(|| unsafe { Paged.alloc_zeroed(layout) }) as usize;
        assert_ne!(block, 0);
        let run = || {
            stop_at_access(usize::MAX, || {
                let words = block as *mut u64;
                // SAFETY: a live block of three u64.
                unsafe {
                    words.write_volatile(1);
                    words.add(1).write_volatile(2);
                    words.add(2).write_volatile(3);
                    words.add(1).read_volatile()
                }
            })
        };
        for _ in 0..3 {
            let (read, counted) = run();
            assert_eq!(read, 2);
            assert_eq!(
                counted,
                Accesses {
                    count: 4,
                    whole: true
                }
            );
        }
    }

    /// A thread stopped before its second access to one page has done the
    /// first and not the second: a check and the write after it can be
    /// split, and after `go` the arena is open to everyone.
    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn stops_between_two_accesses_to_one_page() {
        let _one = one_test();
        let layout = Layout::new::<[u64; 2]>();
        // SAFETY: a non-zero layout.
        let block = paged(|| unsafe { Paged.alloc_zeroed(layout) }) as usize;
        let writer = std::thread::spawn(move || {
            stop_at_access(2, || {
                let words = block as *mut u64;
                // SAFETY: a live block of two u64.
                unsafe {
                    words.write_volatile(7);
                    words.add(1).write_volatile(8);
                }
            })
            .1
        });
        while !stopped() && !writer.is_finished() {
            std::thread::yield_now();
        }
        assert!(stopped(), "the writer stops before its second access");
        let words = block as *const u64;
        // SAFETY: live words; the stopped thread writes nothing now.
        let seen = unsafe { (words.read_volatile(), words.add(1).read_volatile()) };
        assert_eq!(seen, (7, 0));
        go();
        let counted = writer.join().expect("the writer ends");
        assert_eq!(
            counted,
            Accesses {
                count: 2,
                whole: true
            }
        );
        // SAFETY: as above.
        assert_eq!(unsafe { words.add(1).read_volatile() }, 8);
        // A page session after a finer one counts as before.
        // SAFETY: as above.
        let (_, touched) = touched(|| unsafe { words.read_volatile() });
        assert_eq!(
            touched,
            Touched {
                pages: 1,
                whole: true
            }
        );
    }

    /// A thread that waits for a `std` lock the stopped thread holds spins
    /// through the traps, its count growing, and takes the lock after
    /// `go`.
    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn a_waiting_thread_spins_and_counts() {
        let _one = one_test();
        // The test harness has the system allocator: the mutex is put in
        // the arena by hand.
        let mutex = Layout::new::<std::sync::Mutex<u64>>();
        // SAFETY: a non-zero layout; the block is written before use and
        // never freed, so the reference lives as long as the process.
        let shared: &'static std::sync::Mutex<u64> = unsafe {
            let block = paged(|| Paged.alloc(mutex)).cast::<std::sync::Mutex<u64>>();
            assert!(!block.is_null());
            block.write(std::sync::Mutex::new(0));
            &*block
        };
        let layout = Layout::new::<u64>();
        // SAFETY: a non-zero layout.
        let word = paged(|| unsafe { Paged.alloc_zeroed(layout) }) as usize;
        let holder = std::thread::spawn(move || {
            stop_at_access(8, || {
                let mut guard = shared
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                for _ in 0..10 {
                    // SAFETY: a live u64.
                    unsafe { (word as *const u64).read_volatile() };
                }
                *guard += 1;
            })
            .1
        });
        while !stopped() && !holder.is_finished() {
            std::thread::yield_now();
        }
        assert!(stopped(), "the holder stops while it holds the lock");
        let (place, placed) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            let counter = counter().expect("a free counter");
            let _ = place.send(counter.reader());
            let mut guard = shared
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            *guard += 1;
            drop(guard);
            drop(counter);
        });
        let reader = placed.recv().expect("the waiter's counter");
        while reader.accesses() <= SPINNING {
            assert!(!waiter.is_finished(), "the waiter waits for the lock");
            std::thread::yield_now();
        }
        let lock = std::ptr::from_ref(shared).addr();
        assert!(
            reader.last_address().is_some_and(|address| (lock..lock
                + size_of::<std::sync::Mutex<u64>>())
                .contains(&address)),
            "the waiter spins on the lock's memory"
        );
        go();
        assert_eq!(holder.join().expect("the holder ends").count, 8);
        waiter.join().expect("the waiter ends");
        assert_eq!(
            *shared
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
            2
        );
    }
}

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
//! the n-1 before it done and nothing after it, until [`go`]. From the
//! stop on, the arena is open to every thread and nothing more is counted.
//! The count is the same on every run of the same code provided no other
//! thread touches the arena before the stop (a probe started after the
//! stop may: the arena is open by then).
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

#[cfg(all(unix, not(miri)))]
pub use unix::{go, overflowed, paged, stop_at, stop_at_access, stopped, touched};

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
    use super::{Accesses, Touched};
    use std::alloc::Layout;
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Mutex, PoisonError};

    /// Address space reserved for the arena (nothing is committed until
    /// touched): room for 2^15 allocations of one 4 KiB page, or 2^13 of
    /// 16 KiB, with space left for vectors that grow.
    const ARENA_BYTES: usize = 1 << 30;

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
    static STOPPED: AtomicBool = AtomicBool::new(false);
    static GO: AtomicBool = AtomicBool::new(false);
    /// A page could not be opened or the arena not protected.
    static BROKEN: AtomicBool = AtomicBool::new(false);
    /// A session runs (its faults in the arena are this module's).
    static ACTIVE: AtomicBool = AtomicBool::new(false);
    /// The session traps every access ([`stop_at_access`]), not only the
    /// first per page.
    static FINE: AtomicBool = AtomicBool::new(false);
    /// One session at a time.
    static SESSION: Mutex<()> = Mutex::new(());

    thread_local! {
        static PAGING: Cell<bool> = const { Cell::new(false) };
    }

    /// The handlers that were there before a session, put back after it.
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
        base != 0 && address >= base && address - base < ARENA_BYTES
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
                ARENA_BYTES,
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
                unsafe { libc::munmap(mapped, ARENA_BYTES) };
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
            let end = start.checked_add(size).filter(|&end| end <= ARENA_BYTES);
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
        unsafe { libc::mprotect(base as *mut libc::c_void, ARENA_BYTES, protection) == 0 }
    }

    /// Opens the whole arena (every thread may go on) after a failure to
    /// protect or open a page; the session's count is then not whole.
    fn give_up() {
        BROKEN.store(true, Ordering::SeqCst);
        PROTECTED.store(false, Ordering::SeqCst);
        protect(libc::PROT_READ | libc::PROT_WRITE);
    }

    /// Waits, inside the fault handler, until [`go`].
    fn wait_for_go() {
        STOPPED.store(true, Ordering::SeqCst);
        while !GO.load(Ordering::SeqCst) {
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
            let page = page_size();
            let start = address & !(page - 1);
            // SAFETY: a page of the arena; opening it only lets the
            // trapped access go on.
            let opened = unsafe {
                libc::mprotect(
                    start as *mut libc::c_void,
                    page,
                    libc::PROT_READ | libc::PROT_WRITE,
                )
            } == 0;
            if !opened {
                // Too many separate protections: open everything, and say
                // the count is not whole.
                BROKEN.store(true, Ordering::SeqCst);
                PROTECTED.store(false, Ordering::SeqCst);
                let base = BASE.load(Ordering::Acquire);
                if base != 0 {
                    // SAFETY: as above, the whole arena.
                    unsafe {
                        libc::mprotect(
                            base as *mut libc::c_void,
                            ARENA_BYTES,
                            libc::PROT_READ | libc::PROT_WRITE,
                        )
                    };
                }
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

    fn install() -> bool {
        // SAFETY: zeroed sigaction structs are valid "no handler" values,
        // filled in before use.
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_fault
            as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
            as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        // SAFETY: as above.
        let mut previous = Previous {
            segv: unsafe { std::mem::zeroed() },
            bus: unsafe { std::mem::zeroed() },
            trap: unsafe { std::mem::zeroed() },
        };
        // SAFETY: installing a handler that is async-signal-safe.
        let mut installed = unsafe {
            libc::sigemptyset(&mut action.sa_mask) == 0
                && libc::sigaction(libc::SIGSEGV, &action, &mut previous.segv) == 0
                && libc::sigaction(libc::SIGBUS, &action, &mut previous.bus) == 0
        };
        if FINE.load(Ordering::SeqCst) {
            installed = installed && fine::install(&mut previous.trap);
        }
        *PREVIOUS.lock().unwrap_or_else(PoisonError::into_inner) = Some(previous);
        installed
    }

    fn uninstall() {
        if let Some(previous) = PREVIOUS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            // SAFETY: the handlers the process had before the session.
            unsafe {
                libc::sigaction(libc::SIGSEGV, &previous.segv, std::ptr::null_mut());
                libc::sigaction(libc::SIGBUS, &previous.bus, std::ptr::null_mut());
                if FINE.load(Ordering::SeqCst) {
                    libc::sigaction(libc::SIGTRAP, &previous.trap, std::ptr::null_mut());
                }
            }
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
        STOPPED.store(false, Ordering::SeqCst);
        GO.store(false, Ordering::SeqCst);
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
                protect(libc::PROT_READ | libc::PROT_WRITE);
                uninstall();
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
    /// per page) until another thread calls [`go`]; from the stop on, the
    /// arena is open and nothing more is counted. Returns what `work`
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
            GO, PREVIOUS, PROTECTED, STOP_AT, TOUCHES, WATCHED, give_up, page_size, protect,
            wait_for_go,
        };
        use std::sync::atomic::Ordering;

        pub(super) const SUPPORTED: bool = true;

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
            if !PROTECTED.load(Ordering::SeqCst) {
                // After the stop (or a failure), the arena is open: an
                // access that trapped on its way there just goes on.
                protect(libc::PROT_READ | libc::PROT_WRITE);
                return;
            }
            // SAFETY: pthread_self has no preconditions.
            let this = unsafe { libc::pthread_self() } as usize;
            if this == WATCHED.load(Ordering::SeqCst) {
                let count = TOUCHES.fetch_add(1, Ordering::SeqCst) + 1;
                if count == STOP_AT.load(Ordering::SeqCst) {
                    // Open everything before stopping: other threads run
                    // freely now, including system calls on arena memory
                    // (a futex word of a lock), and nothing more counts.
                    PROTECTED.store(false, Ordering::SeqCst);
                    protect(libc::PROT_READ | libc::PROT_WRITE);
                    wait_for_go();
                    return;
                }
            }
            let page = page_size();
            let start = address & !(page - 1);
            // SAFETY: a page of the arena; opening it only lets the
            // trapped access go on.
            let opened = unsafe {
                libc::mprotect(
                    start as *mut libc::c_void,
                    page,
                    libc::PROT_READ | libc::PROT_WRITE,
                )
            } == 0;
            if !opened {
                give_up();
                return;
            }
            // SAFETY: the context of this SA_SIGINFO handler.
            *unsafe { flags(context) } |= TRAP_FLAG;
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
            if super::ACTIVE.load(Ordering::SeqCst)
                && super::FINE.load(Ordering::SeqCst)
                && *flags & TRAP_FLAG != 0
            {
                *flags &= !TRAP_FLAG;
                if PROTECTED.load(Ordering::SeqCst)
                    && !GO.load(Ordering::SeqCst)
                    && !protect(libc::PROT_NONE)
                {
                    give_up();
                }
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
            // SAFETY: a zeroed sigaction is a valid value, filled in below.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = on_trap
                as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
                as libc::sighandler_t;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            // SAFETY: installing a handler that is async-signal-safe.
            unsafe {
                libc::sigemptyset(&mut action.sa_mask) == 0
                    && libc::sigaction(libc::SIGTRAP, &action, previous) == 0
            }
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

    /// Whether the thread of [`stop_at`] or [`stop_at_access`] is stopped
    /// now.
    pub fn stopped() -> bool {
        STOPPED.load(Ordering::SeqCst) && !GO.load(Ordering::SeqCst)
    }

    /// Lets the thread of [`stop_at`] or [`stop_at_access`] go on.
    pub fn go() {
        GO.store(true, Ordering::SeqCst);
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
}

//! Only the harness ends an observation.
//!
//! **Invariant**: once the observing program has read its request, and
//! before any code under test runs, the process can no longer become
//! another program or start one (`execve`, `execveat`, `fork`, `vfork`,
//! and `clone` without `CLONE_THREAD` fail with `EPERM`), nor read or write
//! another process's memory (`ptrace`, `process_vm_readv`,
//! `process_vm_writev`). Threads still start (`clone3` answers `ENOSYS`, so
//! the C library starts them with `clone`). So the code under test cannot
//! print an observation and then leave through a program that skips the
//! harness's guard (`exec` runs no `atexit` handler): the only ways out
//! are returning to the harness, a panic, or an exit the guard sees. On
//! systems without seccomp (not Linux, or Miri) nothing is sealed, and
//! the grader's other checks stand alone.

/// Seals the process as the module says, for every thread it has. Returns
/// whether the seal is on.
#[cfg(all(
    target_os = "linux",
    not(miri),
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub fn seal() -> bool {
    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
        SeccompRule, TargetArch,
    };
    use std::collections::BTreeMap;

    let arch = if cfg!(target_arch = "x86_64") {
        TargetArch::x86_64
    } else {
        TargetArch::aarch64
    };
    let program = |rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32| -> Option<BpfProgram> {
        let errno = u32::try_from(errno).ok()?;
        let filter = SeccompFilter::new(
            rules,
            SeccompAction::Allow,
            SeccompAction::Errno(errno),
            arch,
        )
        .ok()?;
        filter.try_into().ok()
    };
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    #[allow(unused_mut)]
    let mut always = vec![
        libc::SYS_execve,
        libc::SYS_execveat,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
    ];
    #[cfg(target_arch = "x86_64")]
    always.extend([libc::SYS_fork, libc::SYS_vfork]);
    for call in always {
        refused.insert(call, Vec::new());
    }
    // `clone` that makes a process, not a thread.
    let Ok(process) = SeccompCondition::new(
        0,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(libc::CLONE_THREAD as u64),
        0,
    ) else {
        return false;
    };
    let Ok(rule) = SeccompRule::new(vec![process]) else {
        return false;
    };
    refused.insert(libc::SYS_clone, vec![rule]);
    let mut not_here: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    not_here.insert(libc::SYS_clone3, Vec::new());
    let (Some(refuse), Some(absent)) = (
        program(refused, libc::EPERM),
        program(not_here, libc::ENOSYS),
    ) else {
        return false;
    };
    seccompiler::apply_filter_all_threads(&refuse).is_ok()
        && seccompiler::apply_filter_all_threads(&absent).is_ok()
}

/// Where seccomp is not available, nothing is sealed.
#[cfg(not(all(
    target_os = "linux",
    not(miri),
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
pub fn seal() -> bool {
    false
}

#[cfg(test)]
mod tests {
    /// In a child process (the seal is for good): once sealed, a thread
    /// still starts, and a program cannot (neither by `exec` nor by
    /// spawning one).
    #[test]
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    fn sealed_processes_start_threads_and_no_programs() {
        if std::env::var_os("XSAFE_SEAL_CHILD").is_some() {
            assert!(super::seal(), "the seal is on");
            let thread = std::thread::spawn(|| 7).join().expect("a thread starts");
            assert_eq!(thread, 7);
            let spawned = std::process::Command::new("true").status();
            assert!(spawned.is_err(), "no program starts: {spawned:?}");
            use std::os::unix::process::CommandExt;
            let exec = std::process::Command::new("true").exec();
            assert_eq!(exec.raw_os_error(), Some(libc::EPERM), "{exec}");
            return;
        }
        let me = std::env::current_exe().expect("the test program");
        let status = std::process::Command::new(me)
            .args([
                "--exact",
                "seal::tests::sealed_processes_start_threads_and_no_programs",
                "--nocapture",
            ])
            .env("XSAFE_SEAL_CHILD", "1")
            .status()
            .expect("the child runs");
        assert!(status.success(), "the sealed child's checks failed");
    }
}

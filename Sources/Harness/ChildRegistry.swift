import Glibc
import Synchronization

/// The process-wide set of live children, and the `atexit` safety net that kills them.
///
/// A pid is in the set from the moment `posix_spawn` returns until just before the reaper
/// collects it (`ChildState.reap`, which removes it while the child is still an unreaped
/// zombie). So whenever the set holds a pid, that pid and its process group id still belong
/// to our child and cannot have been recycled: signalling them from here is safe.
///
/// What it covers: a test process that ends through `exit` (normal end of `swift test`, a failed
/// `#require`, `fatalError` does not). What it does not: a test runner killed by a signal
/// (`SIGKILL`, an unhandled `SIGSEGV`, `SIGTERM` from a CI timeout) runs no `atexit` handler.
/// For that case each child is started with `PR_SET_PDEATHSIG` = `SIGKILL` through `setpriv`
/// (see `ProcessLauncher`), which kills the direct child when its parent thread dies; a
/// grandchild (a process the child itself starts, such as `sleep` under `sh -c`) can still leak.
enum ChildRegistry {
    private static let live = Mutex<Set<pid_t>>([])

    /// Installed once, on the first spawn.
    private static let installExitHandler: Void = {
        atexit {
            ChildRegistry.killAll()
        }
    }()

    static func insert(_ pid: pid_t) {
        _ = installExitHandler
        live.withLock { _ = $0.insert(pid) }
    }

    static func remove(_ pid: pid_t) {
        live.withLock { _ = $0.remove(pid) }
    }

    /// Pids of children started by this process that have not been reaped yet.
    static var pids: Set<pid_t> { live.withLock { $0 } }

    /// Sends `SIGKILL` to every live child's process group (each child leads its own group).
    static func killAll() {
        live.withLock { pids in
            for pid in pids {
                Glibc.kill(-pid, SIGKILL)
                Glibc.kill(pid, SIGKILL)
            }
        }
    }
}

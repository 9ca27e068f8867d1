import Dispatch
import Glibc
import Support
import Synchronization

/// Starts a child with `posix_spawn` on a dedicated thread, which then stays to reap it.
///
/// **Why `posix_spawn` and these attributes.** On this toolchain a process started by
/// `Foundation.Process` inherits a signal mask with SIGTERM and SIGINT blocked and ignores
/// `terminate()`. Here every child gets `POSIX_SPAWN_SETSIGMASK` with an empty mask and
/// `POSIX_SPAWN_SETSIGDEF` with every signal (so a `SIG_IGN` of SIGPIPE in the test runner is not
/// inherited), and `POSIX_SPAWN_SETPGROUP` with 0: the child leads a new process group, so a
/// Ctrl-C aimed at the test runner's group does not hit it, and `kill(-pgid)` stops what the
/// child itself started. Descriptors above 2 are closed in the child
/// (`posix_spawn_file_actions_addclosefrom_np`) so a broker does not keep a test's sockets open.
///
/// **Why one thread per child.** The thread blocks in `waitid(P_PID, pid, WEXITED|WNOWAIT)`:
/// it learns of the exit at once, costs no CPU while waiting, never blocks the Swift cooperative
/// pool, and only ever waits for its own pid (a `waitpid(-1)` reaper would steal statuses of
/// processes started by other code). Its stack is 512 KiB of address space; a test runs at most
/// tens of children. Polling with `WNOHANG` was rejected: it adds latency or wake-ups that would
/// disturb the benchmark on a 2-core machine.
///
/// **Why the child is spawned from that thread.** `PR_SET_PDEATHSIG` fires when the parent
/// *thread* ends, not the parent process, and cooperative-pool threads may come and go. The
/// reaper thread lives exactly as long as the child, so the death signal fires only when the
/// whole test process dies. `posix_spawn` cannot set `PR_SET_PDEATHSIG` itself, so the child is
/// started as `setpriv --pdeathsig KILL -- <executable> <args>` (util-linux ≥ 2.33), which sets
/// it and `exec`s, keeping the same pid. Without `setpriv` the child simply lacks that net.
/// There is a tiny window (the parent dying before `setpriv` runs `prctl`) that it cannot close.
enum ProcessLauncher {
    struct Request: Sendable {
        var executable: String
        var arguments: [String]
        var environment: [String: String]?
        var workingDirectory: String?
        /// Per standard descriptor 0, 1, 2: nil to inherit, or (path, open flags).
        var redirections: [(fd: Int32, path: String, flags: Int32)]
        var diesWithParent: Bool
    }

    /// `setpriv`, if this system has it.
    static let setpriv: String? = ExecutableLookup.resolve("setpriv")

    /// Spawns the child on a new thread which then waits for it and calls `state.reap()`. The
    /// caller is suspended, not blocked, until the child exists: tvbench and the tests run their
    /// tasks on the event loop's one thread, and creating the thread and spawning the child
    /// (`clone` twice) can take tens of milliseconds on a busy machine, so both happen on one of
    /// Dispatch's threads (`BlockingWork`).
    static func launch(_ request: Request, state: ChildState) async throws(HarnessError) -> pid_t {
        try await BlockingWork.run { launchWaiting(request, state: state) }.get()
    }

    /// `launch`, blocking its thread until the child exists.
    private static func launchWaiting(_ request: Request, state: ChildState) -> Result<pid_t, HarnessError> {
        let outcome = Mutex<Result<pid_t, HarnessError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        do {
            try startThread {
                let result = spawn(request)
                outcome.withLock { $0 = result }
                if case .success(let pid) = result {
                    state.started(pid: pid)
                    ChildRegistry.insert(pid)
                }
                done.signal()
                guard case .success(let pid) = result else { return }
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
                state.reap()
            }
        } catch {
            return .failure(error)
        }
        done.wait()
        return outcome.withLock { $0! }
    }

    private final class ThreadBody {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static func startThread(_ body: @escaping @Sendable () -> Void) throws(HarnessError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 512 * 1024)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        if result != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw .systemCall("pthread_create", errno: result)
        }
    }

    private static func spawn(_ request: Request) -> Result<pid_t, HarnessError> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for redirection in request.redirections {
            let result = posix_spawn_file_actions_addopen(
                &actions, redirection.fd, redirection.path, redirection.flags, 0o644)
            if result != 0 { return .failure(.systemCall("posix_spawn_file_actions_addopen", errno: result)) }
        }
        if let closeFrom = GlibcExtras.addCloseFrom {
            _ = closeFrom(&actions, 3)
        }
        if let directory = request.workingDirectory {
            guard let addChdir = GlibcExtras.addChdir else {
                return .failure(.invalidUse("this C library has no posix_spawn_file_actions_addchdir_np"))
            }
            let result = addChdir(&actions, directory)
            if result != 0 { return .failure(.systemCall("posix_spawn_file_actions_addchdir_np", errno: result)) }
        }

        var argv = [request.executable] + request.arguments
        var path = request.executable
        if request.diesWithParent, let setpriv {
            argv = [setpriv, "--pdeathsig", "KILL", "--"] + argv
            path = setpriv
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let cEnvironment = request.environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for variable in cEnvironment ?? [] { free(variable) } }

        var pid: pid_t = 0
        let result = cArguments.withUnsafeBufferPointer { argvBuffer in
            if let cEnvironment {
                return cEnvironment.withUnsafeBufferPointer { envBuffer in
                    posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, envBuffer.baseAddress!)
                }
            }
            return posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, environ)
        }
        if result != 0 { return .failure(.systemCall("posix_spawn \(request.executable)", errno: result)) }
        return .success(pid)
    }
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `…_addclosefrom_np` (2.34) exist in
/// libc but are not exported by the Swift `Glibc` module, so they are looked up with `dlsym`.
enum GlibcExtras {
    typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) ->
        Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChdir.self)
    }
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(dlopen(nil, RTLD_NOW), name)
    }
}

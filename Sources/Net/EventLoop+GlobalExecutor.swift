import CSystem

extension EventLoop {
    /// The environment variable that, set to `pool`, keeps Swift's thread pool.
    public static let poolVariable = "TV2MQTT_EXECUTOR"

    /// Makes the loop's thread Swift's global executor for the rest of the process: every
    /// task that would run on the runtime's thread pool runs here instead, between two
    /// `epoll_wait`s, and jobs the runtime asks to run after a delay join the loop's timers.
    /// Swift 6.3's `Task.sleep` no longer asks: it arms a Dispatch timer through the default
    /// executor, which the hooks do not reach. So the project sleeps with `EventLoop.sleep`.
    ///
    /// Why: with the pool, every completed read or write wakes the loop's thread and then a
    /// pool thread to run the waiting task (a `sem_post`, a futex wake, a context switch). A
    /// bridge spends little CPU on its own work; most of it went to those hand-overs. Here a
    /// socket's readiness resumes its task on the thread that saw it, and a task that wakes
    /// another (a command queued for a TV, a publish for the MQTT writer) queues a job without
    /// a system call.
    ///
    /// The cost: the bridge's Swift code runs on one thread. Nothing in it may block: sockets
    /// are non-blocking, and name lookups and every state-file operation run as `BlockingWork`. A
    /// 5,000-TV fleet keeps a sixth of a core busy. Main-actor work stays on the main thread.
    ///
    /// Call once, at the start of `main`, before any task is created; the tv2mqtt, tvsim and
    /// tvbench executables do, unless `TV2MQTT_EXECUTOR=pool` (`poolVariable`) asks for Swift's
    /// thread pool, for comparison. The tests run on the loop too (`Tests/TestLoopExecutor`).
    public static func becomeGlobalExecutor(environment: [String: String]) {
        guard environment[poolVariable] != "pool" else { return }
        _ = shared
        csys_install_global_executor(
            { job in EventLoop.shared.enqueue(job: SwiftJob(pointer: job!)) },
            { job, nanoseconds in
                EventLoop.shared.enqueue(
                    job: SwiftJob(pointer: job!), after: .nanoseconds(Int64(clamping: nanoseconds)))
            })
    }
}

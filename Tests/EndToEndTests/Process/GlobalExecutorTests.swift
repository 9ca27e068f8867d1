import Glibc
import Harness
import Net
import Support
import TVSimulators
import TestSupport
import Testing

/// `tv2mqtt run` makes its event loop Swift's global executor (`EventLoop.becomeGlobalExecutor`):
/// the bridge's tasks run on the loop's thread instead of Swift's pool, so a completed read
/// resumes its task without waking a second thread. Seen from outside, the loop's thread does
/// the bridge's work; `TV2MQTT_EXECUTOR=pool` (the control) leaves most of it to pool threads.
@Suite("The event loop as the global executor", .serialized)
struct GlobalExecutorTests {
    static let tvCount = 10

    @Test("the bridge's polling runs on the event-loop thread; with TV2MQTT_EXECUTOR=pool it does not")
    func workRunsOnTheLoopThread() async throws {
        await afterStartupBurst()
        // Named, not left out: the bridge inherits the test process's environment, and the
        // control run of the tests sets TV2MQTT_EXECUTOR=pool.
        let onLoop = ThreadTimes.share(
            of: EventLoop.threadName, try await whilePolling(environment: [EventLoop.poolVariable: "loop"]))
        let onPool = ThreadTimes.share(
            of: EventLoop.threadName, try await whilePolling(environment: [EventLoop.poolVariable: "pool"]))
        print("event-loop thread's share of the bridge's CPU time while polling: \(onLoop) (pool: \(onPool))")
        // A few hundredths of a second of CPU in 3 s: on a busy machine the other threads'
        // small share (Dispatch's, the state file's check) weighs more (0.87 seen). The
        // control's is about 0.2.
        #expect(onLoop >= 0.75)
        #expect(onPool <= 0.6)
    }

    /// The pollers' timeouts and every sleep are deadlines on the loop: Swift 6.3's `Task.sleep`
    /// and Dispatch's `asyncAfter` would each wake Dispatch's timer thread and a worker to
    /// resume the task (30 polls in 3 s: 43 wake-ups before `EventLoop.schedule`). What is
    /// left is Dispatch's own once-a-second check of its worker pool, on its timer thread, and
    /// the state file's check every 2 s, a `stat` on a Dispatch worker (`BlockingWork`: a hung
    /// file system must not hold the loop): 3 and 1 or 2 in 3 s, with 2 of margin.
    @Test(
        "between polls no thread but the event loop's wakes up, but for Dispatch's own tick and the state file's check")
    func timersAreTheLoops() async throws {
        await afterStartupBurst()
        let samples = try await whilePolling(environment: [EventLoop.poolVariable: "loop"])
        let others = ThreadTimes.wakeups(ofAllBut: EventLoop.threadName, samples)
        print("wake-ups of the bridge's other threads in 3 s of polling: \(others)")
        #expect(others <= 7)
    }

    /// Per-thread samples of the bridge before and after 3 s of polling 10 Rokus every second.
    private func whilePolling(environment: [String: String]) async throws -> (
        before: [String: ThreadTimes.Sample], after: [String: ThreadTimes.Sample]
    ) {
        try await withMosquitto { broker in
            let state = try TemporaryDirectory(prefix: "executor")
            defer { state.remove() }
            var tvs: [RokuSimulator] = []
            var bridge: ChildProcess?
            do {
                var arguments = [
                    "--mqtt-server", broker.url, "--no-ssdp", "--no-mdns", "--state-dir", state.path, "--poll-interval",
                    "1",
                    "--wol-target", "127.0.0.1:9",
                ]
                for index in 0..<Self.tvCount {
                    let tv = try await RokuSimulator.start(
                        RokuSimulatorOptions(host: "127.0.5.\(index + 1)", port: 0, serial: "EXEC\(index)"),
                        log: .memory())
                    tvs.append(tv)
                    arguments += ["--tv", "roku:\(tv.host):\(tv.port)"]
                }
                let process = try await FaultBridgeProcess.start(arguments, environment: environment)
                bridge = process
                let polled = await waitUntil(timeout: .seconds(30)) {
                    tvs.map(\.httpRequestCount).reduce(0, +) >= 10 * Self.tvCount
                }
                try #require(polled, "the TVs were not polled; stderr: \(process.capturedError())")
                let before = ThreadTimes.read(pid: process.pid)
                try await Task.sleep(for: .seconds(3))
                let after = ThreadTimes.read(pid: process.pid)
                #expect(process.isRunning, "stderr: \(process.capturedError())")
                await Self.stop(bridge, tvs)
                return (before, after)
            } catch {
                await Self.stop(bridge, tvs)
                throw error
            }
        }
    }

    private static func stop(_ bridge: ChildProcess?, _ tvs: [RokuSimulator]) async {
        if let bridge { await bridge.terminate() }
        for tv in tvs { await tv.stop() }
    }
}

/// Per-thread CPU time of a process, from /proc/<pid>/task/<tid>/schedstat (nanoseconds), and
/// how often each thread went to sleep and was woken (`voluntary_ctxt_switches`).
enum ThreadTimes {
    struct Sample {
        var name: String
        var nanoseconds: UInt64
        var wakeups: UInt64
    }

    static func read(pid: pid_t) -> [String: Sample] {
        var samples: [String: Sample] = [:]
        for tid in FileSystemListing.names("/proc/\(pid)/task") {
            let directory = "/proc/\(pid)/task/\(tid)"
            guard let stat = FileText.read("\(directory)/schedstat"),
                let nanoseconds = stat.split(separator: " ").first.flatMap({ UInt64($0) })
            else { continue }
            let name = FileText.read("\(directory)/comm").map { String($0.filter { $0 != "\n" }) } ?? "?"
            let switches = FileText.read("\(directory)/status")?.split(separator: "\n")
                .first { $0.hasPrefix("voluntary_ctxt_switches:") }
                .flatMap { UInt64($0.split(separator: "\t").last ?? "") }
            samples[tid] = Sample(name: name, nanoseconds: nanoseconds, wakeups: switches ?? 0)
        }
        return samples
    }

    /// The threads named `name`'s share of the CPU time all threads used between the samples.
    static func share(of name: String, _ samples: (before: [String: Sample], after: [String: Sample])) -> Double {
        let (before, after) = samples
        var total: UInt64 = 0
        var named: UInt64 = 0
        for (tid, sample) in after {
            let used = sample.nanoseconds - min(sample.nanoseconds, before[tid]?.nanoseconds ?? 0)
            total += used
            if sample.name == name { named += used }
        }
        return total == 0 ? 0 : Double(named) / Double(total)
    }

    /// How many times the threads not named `name` were woken between the samples (threads
    /// started in between count from zero).
    static func wakeups(ofAllBut name: String, _ samples: (before: [String: Sample], after: [String: Sample])) -> UInt64
    {
        var total: UInt64 = 0
        for (tid, sample) in samples.after where sample.name != name {
            total += sample.wakeups - min(sample.wakeups, samples.before[tid]?.wakeups ?? 0)
        }
        return total
    }
}

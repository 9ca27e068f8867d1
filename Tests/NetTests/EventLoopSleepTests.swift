import Harness
import Net
import TestSupport
import Testing

/// `EventLoop.sleep` is the project's `Task.sleep` (see its doc comment): it must keep
/// `Task.sleep`'s contract, a full sleep unless cancelled and a cancellation that ends it at once.
@Suite("EventLoop.sleep")
struct EventLoopSleepTests {
    @Test("a sleep lasts at least its duration")
    func lastsItsDuration() async throws {
        let started = ContinuousClock.now
        try await EventLoop.sleep(for: .milliseconds(50))
        #expect(ContinuousClock.now - started >= .milliseconds(50))
    }

    @Test("a deadline in the past returns at once, or throws when the task is cancelled")
    func pastDeadline() async throws {
        // Time stands still: a sleep that returns did not wait for any timer.
        let clock = ManualClock()
        try await clock.run { try await EventLoop.sleep(until: clock.origin - .seconds(1)) }
        #expect(clock.pendingDeadlines.isEmpty)
        let cancelled = Task {
            try await clock.run {
                withUnsafeCurrentTask { $0?.cancel() }
                try await EventLoop.sleep(until: clock.origin - .seconds(1))
            }
        }
        let result = await cancelled.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.elapsed == .zero)
    }

    @Test("cancelling a sleeping task ends its sleep at once with CancellationError")
    func cancelWhileSleeping() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.run { try await EventLoop.sleep(for: .seconds(30)) } }
        #expect(await clock.waitForTimer(at: .seconds(30)))
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.elapsed == .zero)
    }

    @Test("a task cancelled before it sleeps does not sleep")
    func cancelledBefore() async {
        let clock = ManualClock()
        let sleeper = Task {
            try await clock.run {
                withUnsafeCurrentTask { $0?.cancel() }
                try await EventLoop.sleep(for: .seconds(30))
            }
        }
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.elapsed == .zero)
    }

    @Test("sleepers started out of order each wake after their own deadline, once")
    func ownDeadlines() async {
        let onTime = await withTaskGroup(of: Bool.self) { group in
            for index in [4, 1, 3, 0, 2] {
                group.addTask {
                    let deadline = ContinuousClock.now + .milliseconds(20 + 40 * index)
                    try? await EventLoop.sleep(until: deadline)
                    return ContinuousClock.now >= deadline
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(onTime == [true, true, true, true, true])
    }

    @Test("a thousand sleeps, half of them cancelled, all end")
    func manyWithCancellation() async {
        var tasks: [Task<Void, Never>] = []
        for index in 0..<1000 {
            tasks.append(Task { try? await EventLoop.sleep(for: .milliseconds(index % 2 == 0 ? 30 : 60_000)) })
        }
        try? await EventLoop.sleep(for: .milliseconds(10))
        for (index, task) in tasks.enumerated() where index % 2 == 1 { task.cancel() }
        let started = ContinuousClock.now
        for task in tasks { await task.value }
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}

/// Every sleep in Sources is `EventLoop.sleep`: a `Task.sleep` there would go to Dispatch's
/// timer thread and resume its task on a Dispatch worker, off the loop (Swift 6.3; see
/// `EventLoop.schedule`). Fails naming each file and line; comments may mention it.
@Suite("Sources sleep on the event loop", .cpuBound)
struct SleepSourceTests {
    static let sources = TestFixtures.repositoryDirectory + "/Sources"

    @Test("no Task.sleep in Sources outside comments")
    func noTaskSleep() {
        var found: [String] = []
        var visited = 0
        func walk(_ directory: String) {
            for name in FileSystemListing.names(directory).sorted() {
                let path = directory + "/" + name
                guard name.hasSuffix(".swift") else {
                    walk(path)
                    continue
                }
                visited += 1
                let lines = (FileText.read(path) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    if code.contains("Task.sleep(") {
                        found.append("\(path.dropFirst(Self.sources.count + 1)):\(index + 1)")
                    }
                }
            }
        }
        walk(Self.sources)
        #expect(visited > 100, "read \(visited) files under \(Self.sources)")
        #expect(found.isEmpty, "use EventLoop.sleep: \(found.joined(separator: ", "))")
    }
}

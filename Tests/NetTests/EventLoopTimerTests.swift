import Harness
import Net
import Synchronization
import Testing

/// `EventLoop.schedule` and `LoopClock.system.startTask` are the project's timer: a TV's next poll, a request's
/// answer deadline, a keep-alive. A timer never fires early, fires once, and many timers armed
/// out of order each fire at their own deadline.
@Suite("EventLoop timers")
struct EventLoopTimerTests {
    @Test("a scheduled action runs once, on the loop's thread, no sooner than its deadline")
    func scheduleNotEarly() async {
        let deadline = ContinuousClock.now + .milliseconds(100)
        let firings = Mutex<[ContinuousClock.Instant]>([])
        let threads = Mutex<[String]>([])
        EventLoop.shared.schedule(at: deadline) {
            firings.withLock { $0.append(.now) }
            threads.withLock { $0.append(currentThreadName()) }
        }
        let fired = await waitUntil(timeout: .seconds(30)) { firings.withLock { !$0.isEmpty } }
        #expect(fired)
        try? await EventLoop.sleep(for: .milliseconds(200))  // a second firing would show by now
        let times = firings.withLock { $0 }
        let early = times.filter { $0 < deadline }
        let names = threads.withLock { $0 }
        #expect(times.count == 1)
        #expect(early.isEmpty)
        #expect(names == [EventLoop.threadName])
    }

    @Test("a task started at a deadline runs no sooner, and once")
    func startTaskNotEarly() async {
        let deadline = ContinuousClock.now + .milliseconds(100)
        let firings = Mutex<[ContinuousClock.Instant]>([])
        LoopClock.system.startTask(at: deadline) { firings.withLock { $0.append(.now) } }
        let fired = await waitUntil(timeout: .seconds(30)) { firings.withLock { !$0.isEmpty } }
        #expect(fired)
        try? await EventLoop.sleep(for: .milliseconds(200))
        let times = firings.withLock { $0 }
        let early = times.filter { $0 < deadline }
        #expect(times.count == 1)
        #expect(early.isEmpty)
    }

    @Test("timers armed out of order each fire after their own deadline")
    func outOfOrder() async {
        let start = ContinuousClock.now
        let late = Mutex<[Int]>([])
        let fired = Mutex<Set<Int>>([])
        for index in [7, 2, 9, 0, 4, 1, 8, 3, 6, 5] {
            let deadline = start + .milliseconds(20 + 30 * index)
            EventLoop.shared.schedule(at: deadline) {
                if ContinuousClock.now < deadline { late.withLock { $0.append(index) } }
                fired.withLock { _ = $0.insert(index) }
            }
        }
        let all = await waitUntil(timeout: .seconds(30)) { fired.withLock { $0.count } == 10 }
        #expect(all)
        let early = late.withLock { $0 }
        #expect(early.isEmpty, "a timer fired before its deadline")
    }

    @Test("a deadline in the past fires at once")
    func pastDeadline() async {
        let fired = Mutex(false)
        let started = ContinuousClock.now
        EventLoop.shared.schedule(at: started - .seconds(1)) { fired.withLock { $0 = true } }
        // Only a bound against a hang: how soon "at once" is, on a busy machine, is not asserted.
        let done = await waitUntil(timeout: .seconds(30)) { fired.withLock { $0 } }
        #expect(done)
    }
}

/// The calling thread's name (`EventLoop.threadName` on the loop's thread).
func currentThreadName() -> String {
    let comm = FileText.read("/proc/thread-self/comm") ?? ""
    return comm.split(separator: "\n").first.map(String.init) ?? ""
}

import Net
import Synchronization
import Testing

/// The clock a test moves: timers fire in deadline order, each at its own virtual instant, and
/// only when the test advances time; the library's primitives (`Wakeup`, `withDeadline`,
/// `EventLoop.sleep`, a socket's deadline) all read it.
@Suite("Manual clock")
struct ManualClockTests {
    @Test("advance fires every timer due, earliest first, each with now at its own deadline")
    func firesInOrder() async {
        let clock = ManualClock()
        let fired = Mutex<[(Int, Duration)]>([])
        for (index, offset) in [(3, 30), (1, 10), (2, 20), (4, 40)] {
            clock.clock.schedule(at: clock.origin + .seconds(offset)) {
                fired.withLock { $0.append((index, LoopClock.current.now - clock.origin)) }
            }
        }
        await clock.advance(by: .seconds(25))
        let firstTwo = fired.withLock { $0 }
        #expect(firstTwo.map(\.0) == [1, 2])
        #expect(firstTwo.map(\.1) == [.seconds(10), .seconds(20)])
        #expect(clock.elapsed == .seconds(25))
        #expect(clock.pendingDeadlines == [.seconds(30), .seconds(40)])
        await clock.advance(by: .seconds(15))
        let all = fired.withLock { $0 }
        #expect(all.map(\.0) == [1, 2, 3, 4])
        #expect(all.map(\.1) == [.seconds(10), .seconds(20), .seconds(30), .seconds(40)])
    }

    @Test("timers for the same instant fire in the order they were armed")
    func sameInstantInOrder() async {
        let clock = ManualClock()
        let fired = Mutex<[Int]>([])
        for index in 0..<5 {
            clock.clock.schedule(at: clock.origin + .seconds(1)) { fired.withLock { $0.append(index) } }
        }
        await clock.advance(by: .seconds(1))
        let order = fired.withLock { $0 }
        #expect(order == [0, 1, 2, 3, 4])
    }

    @Test(
        "a timer armed by a firing timer, for an instant before the target, fires in the same advance")
    func cascade() async {
        let clock = ManualClock()
        let fired = Mutex<[Duration]>([])
        clock.clock.schedule(at: clock.origin + .seconds(1)) {
            fired.withLock { $0.append(LoopClock.current.now - clock.origin) }
            LoopClock.current.schedule(at: LoopClock.current.now + .seconds(2)) {
                fired.withLock { $0.append(LoopClock.current.now - clock.origin) }
            }
        }
        await clock.advance(by: .seconds(10))
        let times = fired.withLock { $0 }
        #expect(times == [.seconds(1), .seconds(3)])
    }

    @Test("a task started at a deadline runs under the clock: what it arms is on the same clock")
    func startedTask() async {
        let clock = ManualClock()
        let fired = Mutex<[Duration]>([])
        clock.clock.startTask(at: clock.origin + .seconds(1)) {
            fired.withLock { $0.append(LoopClock.current.now - clock.origin) }
            LoopClock.current.schedule(at: LoopClock.current.now + .seconds(2)) {
                fired.withLock { $0.append(LoopClock.current.now - clock.origin) }
            }
        }
        await clock.advance(to: .seconds(1))
        #expect(await clock.waitForTimer(at: .seconds(3)))
        await clock.advance(to: .seconds(10))
        let times = fired.withLock { $0 }
        #expect(times == [.seconds(1), .seconds(3)])
    }

    @Test(
        "EventLoop.sleep, Wakeup and withDeadline under a manual clock end at their virtual times only")
    func primitives() async {
        let clock = ManualClock()
        let sleeper = Task { await clock.run { try? await EventLoop.sleep(for: .seconds(5)) } }
        let waiter = Task { await clock.run { await Wakeup().wait(timeout: .seconds(7)) } }
        let bounded = Task {
            await clock.run {
                await withDeadline(LoopClock.current.now + .seconds(9)) { () -> Int in
                    try? await EventLoop.sleep(for: .seconds(60))
                    return 1
                }
            }
        }
        let armed = await clock.waitForTimers { $0.count >= 4 }
        #expect(armed)
        #expect(clock.pendingDeadlines == [.seconds(5), .seconds(7), .seconds(9), .seconds(60)])
        await clock.advance(to: .seconds(5) - .nanoseconds(1))
        #expect(clock.pendingDeadlines == [.seconds(5), .seconds(7), .seconds(9), .seconds(60)])
        await clock.advance(to: .seconds(5))
        await sleeper.value
        #expect(clock.pendingDeadlines == [.seconds(7), .seconds(9), .seconds(60)])
        await clock.advance(to: .seconds(7))
        #expect(await waiter.value == false, "the wait ended by its timeout")
        await clock.advance(to: .seconds(9))
        #expect(await bounded.value == nil, "the deadline came first")
        #expect(clock.pendingDeadlines == [.seconds(60)], "the body's sleep stays armed until it fires")
    }

    @Test("a socket's deadline under a manual clock times out at its virtual time, not in real time")
    func socketDeadline() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let clock = ManualClock()
        let outcome = Task {
            try await clock.run {
                let connection = try await TCPConnection.connect(
                    host: "127.0.0.1", port: listener.address.port, timeout: .seconds(5))
                defer { connection.close() }
                do {
                    _ = try await connection.read(maxBytes: 10, deadline: LoopClock.current.now + .seconds(3))
                    return "read"
                } catch let error as NetError where error.kind == .timedOut {
                    return "timed out at \(clock.elapsed)"
                }
            }
        }
        let accepted = try await listener.accept()
        defer { accepted.close() }
        #expect(await clock.waitForTimer(at: .seconds(3)))
        await clock.advance(by: .seconds(2))
        await clock.advance(by: .seconds(1))
        #expect(try await outcome.value == "timed out at 3.0 seconds")
    }

    @Test("a socket deadline armed while the test already waits for it: the wait ends, nothing deadlocks")
    func socketDeadlineWhileWaiting() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let clock = ManualClock()
        let connection = try await clock.run {
            try await TCPConnection.connect(host: "127.0.0.1", port: listener.address.port, timeout: .seconds(5))
        }
        defer { connection.close() }
        let accepted = try await listener.accept()
        defer { accepted.close() }
        // The test waits first, then the read arms its deadline: arming it wakes the waiting test
        // from inside the read's registration. (The sleep only puts the two in that order.)
        let waiting = Task { await clock.waitForTimer(at: .seconds(1003)) }
        try await Task.sleep(for: .milliseconds(50))
        let reading = Task {
            try await clock.run {
                do {
                    _ = try await connection.read(maxBytes: 10, deadline: clock.origin + .seconds(1003))
                    return "read"
                } catch let error as NetError where error.kind == .timedOut {
                    return "timed out at \(clock.elapsed)"
                }
            }
        }
        #expect(await waiting.value)
        await clock.advance(to: .seconds(1003))
        #expect(try await reading.value == "timed out at 1003.0 seconds")
    }

    @Test("the wall reading moves with the clock")
    func wall() async {
        let clock = ManualClock(wallSeconds: 1000)
        #expect(clock.wallSeconds == 1000)
        await clock.advance(by: .milliseconds(1500))
        #expect(clock.wallSeconds == 1001.5)
        let wallUnderClock = await clock.run { LoopClock.current.wallSeconds }
        #expect(wallUnderClock == 1001.5)
        #expect(LoopClock.current.isManual == false)
    }
}

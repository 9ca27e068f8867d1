import Harness
import Net
import Synchronization
import Testing

/// `withDeadline` is the project's one timeout (a shutdown's steps, `health`'s reads): it must
/// return the body's value when the body is first, nil at the deadline even when the body ignores
/// cancellation, and cancel the body it stops waiting for.
@Suite("withDeadline")
struct WithDeadlineTests {
    @Test("a body that ends first gives its value, before the deadline")
    func bodyFirst() async {
        let clock = ManualClock()
        let value = await clock.run { await withDeadline(LoopClock.current.now + .seconds(30)) { 42 } }
        #expect(value == 42)
        #expect(clock.elapsed == .zero)
    }

    @Test("a body that returns nil is told apart from the deadline")
    func optionalBody() async {
        let value = await withDeadline(.now + .seconds(30)) { () -> String? in nil }
        #expect(value == .some(nil))
    }

    @Test("at exactly the deadline it gives nil and cancels the body")
    func deadlineFirst() async {
        let cancelled = Mutex(false)
        let clock = ManualClock()
        let waiting = Task {
            await clock.run {
                await withDeadline(clock.origin + .milliseconds(200)) { () -> Int in
                    do {
                        try await EventLoop.sleep(for: .seconds(60))
                    } catch {
                        cancelled.withLock { $0 = true }
                    }
                    return 1
                }
            }
        }
        let armed = await clock.waitForTimers { $0 == [.milliseconds(200), .seconds(60)] }
        #expect(armed, "the deadline and the body's sleep")
        await clock.advance(to: .milliseconds(200) - .nanoseconds(1))
        #expect(clock.pendingDeadlines == [.milliseconds(200), .seconds(60)])
        await clock.advance(to: .milliseconds(200))
        let value = await waiting.value
        #expect(value == nil)
        #expect(clock.elapsed == .milliseconds(200))
        let sawCancellation = await waitUntil(timeout: .seconds(30)) { cancelled.withLock { $0 } }
        #expect(sawCancellation)
    }

    @Test("on the system clock the deadline is never early")
    func systemDeadline() async {
        let started = ContinuousClock.now
        let value = await withDeadline(started + .milliseconds(200), clock: .system) { () -> Int in
            try? await EventLoop.sleep(for: .seconds(60), clock: .system)
            return 1
        }
        #expect(value == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(200))
    }

    @Test("a body that ignores cancellation does not hold the caller past the deadline")
    func bodyIgnoresCancellation() async {
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let clock = ManualClock()
        let waiting = Task {
            await clock.run {
                await withDeadline(clock.origin + .milliseconds(200)) { () -> Int in
                    await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
                    return 1
                }
            }
        }
        #expect(await clock.waitForTimer(at: .milliseconds(200)))
        await clock.advance(to: .milliseconds(200))
        let value = await waiting.value
        #expect(value == nil)
        #expect(clock.elapsed == .milliseconds(200))
        // Let the abandoned body end, so the test leaves nothing behind.
        let registered = await waitUntil(timeout: .seconds(30)) { release.withLock { $0 != nil } }
        #expect(registered)
        release.withLock { $0?.resume() }
    }

    @Test("cancelling the caller ends the wait at once with nil and cancels the body")
    func callerCancelled() async {
        let cancelled = Mutex(false)
        let clock = ManualClock()
        let caller = Task {
            await clock.run {
                await withDeadline(clock.origin + .seconds(60)) { () -> Int in
                    do {
                        try await EventLoop.sleep(for: .seconds(60))
                    } catch {
                        cancelled.withLock { $0 = true }
                    }
                    return 1
                }
            }
        }
        let armed = await clock.waitForTimers { $0.count == 2 }
        #expect(armed, "the deadline and the body's sleep")
        caller.cancel()
        let value = await caller.value
        #expect(value == nil)
        #expect(clock.elapsed == .zero)
        let sawCancellation = await waitUntil(timeout: .seconds(30)) { cancelled.withLock { $0 } }
        #expect(sawCancellation)
    }

    @Test("a caller cancelled before it starts does not wait for the deadline")
    func cancelledBefore() async {
        let clock = ManualClock()
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await clock.run {
                await withDeadline(clock.origin + .seconds(60)) { () -> Int in
                    try? await EventLoop.sleep(for: .seconds(60))
                    return 1
                }
            }
        }
        let value = await caller.value
        #expect(value == nil)
        #expect(clock.elapsed == .zero)
    }
}

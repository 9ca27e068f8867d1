import Harness
import Net
import Synchronization
import Testing

/// `withDeadline` is the project's one timeout (a shutdown's steps, `health`'s reads): it must
/// return the body's value when the body is first, nil at the deadline even when the body ignores
/// cancellation, and cancel the body it stops waiting for.
@Suite("withDeadline")
struct WithDeadlineTests {
    @Test("a body that ends first gives its value, long before the deadline")
    func bodyFirst() async {
        let started = ContinuousClock.now
        let value = await withDeadline(.now + .seconds(30)) { 42 }
        #expect(value == 42)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("a body that returns nil is told apart from the deadline")
    func optionalBody() async {
        let value = await withDeadline(.now + .seconds(30)) { () -> String? in nil }
        #expect(value == .some(nil))
    }

    @Test("at the deadline it gives nil and cancels the body")
    func deadlineFirst() async {
        let cancelled = Mutex(false)
        let started = ContinuousClock.now
        let value = await withDeadline(.now + .milliseconds(200)) { () -> Int in
            do {
                try await EventLoop.sleep(for: .seconds(60))
            } catch {
                cancelled.withLock { $0 = true }
            }
            return 1
        }
        let waited = ContinuousClock.now - started
        #expect(value == nil)
        // A timeout never fires early; the upper bound leaves a busy machine seconds to spare.
        #expect(waited >= .milliseconds(200))
        #expect(waited < .seconds(10))
        let sawCancellation = await waitUntil(timeout: .seconds(10)) { cancelled.withLock { $0 } }
        #expect(sawCancellation)
    }

    @Test("a body that ignores cancellation does not hold the caller past the deadline")
    func bodyIgnoresCancellation() async {
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let started = ContinuousClock.now
        let value = await withDeadline(.now + .milliseconds(200)) { () -> Int in
            await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
            return 1
        }
        #expect(value == nil)
        #expect(ContinuousClock.now - started < .seconds(10))
        // Let the abandoned body end, so the test leaves nothing behind.
        let registered = await waitUntil(timeout: .seconds(10)) { release.withLock { $0 != nil } }
        #expect(registered)
        release.withLock { $0?.resume() }
    }

    @Test("cancelling the caller ends the wait at once with nil and cancels the body")
    func callerCancelled() async {
        let cancelled = Mutex(false)
        let started = ContinuousClock.now
        let caller = Task {
            await withDeadline(.now + .seconds(60)) { () -> Int in
                do {
                    try await EventLoop.sleep(for: .seconds(60))
                } catch {
                    cancelled.withLock { $0 = true }
                }
                return 1
            }
        }
        try? await EventLoop.sleep(for: .milliseconds(50))
        caller.cancel()
        let value = await caller.value
        #expect(value == nil)
        #expect(ContinuousClock.now - started < .seconds(10))
        let sawCancellation = await waitUntil(timeout: .seconds(10)) { cancelled.withLock { $0 } }
        #expect(sawCancellation)
    }

    @Test("a caller cancelled before it starts does not wait for the deadline")
    func cancelledBefore() async {
        let started = ContinuousClock.now
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await withDeadline(.now + .seconds(60)) { () -> Int in
                try? await EventLoop.sleep(for: .seconds(60))
                return 1
            }
        }
        let value = await caller.value
        #expect(value == nil)
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}

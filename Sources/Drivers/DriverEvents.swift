import Synchronization

/// A driver's events (`TVDriver.events`), handed over in the order they were yielded to one
/// consumer: the bridge's handler (`deliver(to:)`), called as each is yielded, or a task that
/// iterates (`for await`, a command-line tool, a test). Events yielded before the consumer
/// came are kept for it.
///
/// Why not an `AsyncStream`: a stream needs a task waiting on it for as long as the TV is
/// known, and a task keeps a few KB of frames all that time, while most TVs push nothing for
/// hours. The handler lets the
/// bridge start a task only when an event comes.
public final class DriverEvents: AsyncSequence, Sendable {
    public typealias Element = DriverEvent

    private struct State {
        var waiting: [DriverEvent] = []
        var consumer: (@Sendable (DriverEvent) -> Void)?
        var onFinish: (@Sendable () -> Void)?
        var finished = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Hands `event` to the consumer (or keeps it until there is one); ignored once finished.
    public func yield(_ event: DriverEvent) {
        state.withLock { state in
            guard !state.finished else { return }
            // Called under the lock, so events reach the consumer in the order they were
            // yielded whatever threads yield them; the consumer only queues them.
            if let consumer = state.consumer {
                consumer(event)
            } else {
                state.waiting.append(event)
            }
        }
    }

    /// No event follows: an iterating consumer's loop ends.
    public func finish() {
        let onFinish = state.withLock { state in
            state.finished = true
            state.waiting.removeAll()
            defer { state.onFinish = nil }
            return state.onFinish
        }
        onFinish?()
    }

    /// Makes `handler` the consumer: it gets the events kept so far at once, then each as it
    /// is yielded, on the yielding thread. It must return quickly and must not yield.
    public func deliver(to handler: @escaping @Sendable (DriverEvent) -> Void) {
        state.withLock { state in
            for event in state.waiting { handler(event) }
            state.waiting.removeAll()
            state.consumer = handler
        }
    }

    public func makeAsyncIterator() -> AsyncStream<DriverEvent>.Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: DriverEvent.self)
        let finished = state.withLock { state in
            state.onFinish = { continuation.finish() }
            for event in state.waiting { continuation.yield(event) }
            state.waiting.removeAll()
            state.consumer = { continuation.yield($0) }
            return state.finished
        }
        if finished { continuation.finish() }
        return stream.makeAsyncIterator()
    }
}

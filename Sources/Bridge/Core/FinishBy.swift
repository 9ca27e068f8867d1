import Net

/// Runs `body` until it ends or `deadline` passes, whichever comes first; returns whether it
/// ended. At the deadline `body` is cancelled and left to end on its own: a shutdown must not
/// wait for work that ignores cancellation (a TV's socket close, a broker that never answers).
func finish(by deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let (outcomes, sink) = AsyncStream.makeStream(of: Bool.self)
    let work = Task {
        await body()
        sink.yield(true)
    }
    let timer = Task {
        try? await EventLoop.sleep(until: deadline)
        sink.yield(false)
    }
    var iterator = outcomes.makeAsyncIterator()
    let ended = await iterator.next() ?? false
    sink.finish()
    timer.cancel()
    if !ended { work.cancel() }
    return ended
}
